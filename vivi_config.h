/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How one vivi device is set up: struct vivi_config, its defaults, a setter
 * for each setting and the check of the whole. Pure: no locks, allocation
 * or printk here (the formats parser it calls, in vivi_fmt.c, logs the
 * entry it refuses), so the unit tests build it in userspace.
 *
 * The module parameters (vivi_main.c) and configfs (vivi_configfs.c,
 * through the text of vivi_config_text.c) fill a config
 * through these setters, each of which refuses a bad value and leaves the
 * config as it was; vivi_config_validate() checks the whole before a
 * device is made from it.
 */
#ifndef _VIVI_CONFIG_H_
#define _VIVI_CONFIG_H_

#include <linux/stddef.h>
#include <linux/types.h>
#include <media/v4l2-dev.h>

#include "vivi_fmt.h"

#define VIVI_MAX_INPUTS		4
/* capture nodes a device may have: one producer, so many consumers */
#define VIVI_MAX_CONSUMERS	8
/* the V4L2 core has this many minor numbers per node type (v4l2-dev.c) */
#define VIVI_VIDEO_NR_LIMIT	256
/* the size of a card label: video_device.name (32 or 64 bytes, by kernel) */
#define VIVI_NAME_LEN		sizeof_field(struct video_device, name)

/**
 * enum vivi_config_attr - the settings of a device
 * @VIVI_CONFIG_LABEL: the card name
 * @VIVI_CONFIG_VIDEO_NR: the node number asked for
 * @VIVI_CONFIG_INPUTS: the number of camera inputs
 * @VIVI_CONFIG_FORMATS: the formats offered
 * @VIVI_CONFIG_HDMI_INPUT: the HDMI input, on or off
 * @VIVI_CONFIG_FAULT_CONTROLS: the fault knobs as controls, on or off
 * @VIVI_CONFIG_SIZES: the frame sizes offered
 * @VIVI_CONFIG_RATES: the frame rates offered
 * @VIVI_CONFIG_DEFAULT_SIZE: the power-on size
 * @VIVI_CONFIG_DEFAULT_RATE: the power-on rate
 * @VIVI_CONFIG_DEFAULT_FORMAT: the power-on format
 * @VIVI_CONFIG_PRODUCER: the producer node, on or off
 * @VIVI_CONFIG_CONSUMERS: the number of capture nodes
 * @VIVI_CONFIG_ATTRS: the number of settings
 *
 * Each is a field of &struct vivi_config. vivi_config_attr_name() gives
 * the name configfs shows; the module parameters have names of their own
 * (vivi_main.c) and set the first six, @VIVI_CONFIG_PRODUCER and
 * @VIVI_CONFIG_CONSUMERS.
 */
enum vivi_config_attr {
	VIVI_CONFIG_LABEL,
	VIVI_CONFIG_VIDEO_NR,
	VIVI_CONFIG_INPUTS,
	VIVI_CONFIG_FORMATS,
	VIVI_CONFIG_HDMI_INPUT,
	VIVI_CONFIG_FAULT_CONTROLS,
	VIVI_CONFIG_SIZES,
	VIVI_CONFIG_RATES,
	VIVI_CONFIG_DEFAULT_SIZE,
	VIVI_CONFIG_DEFAULT_RATE,
	VIVI_CONFIG_DEFAULT_FORMAT,
	VIVI_CONFIG_PRODUCER,
	VIVI_CONFIG_CONSUMERS,
	VIVI_CONFIG_ATTRS,
};

#define VIVI_WHY_LEN		80

/**
 * struct vivi_config_why - why a setting was refused
 * @attr: the setting
 * @text: what is wrong, to follow the setting's name in a log line:
 *	"=256 is out of range -1..255", " is empty"
 */
struct vivi_config_why {
	enum vivi_config_attr attr;
	char text[VIVI_WHY_LEN];
};

/**
 * struct vivi_config - how one device is set up
 * @card_label: the card name, as QUERYCAP reports it; never empty
 * @video_nr: the /dev/videoN number asked for, -1 for the first free one
 * @n_inputs: the number of camera inputs, 1 to VIVI_MAX_INPUTS
 * @formats: the formats offered, in ENUM_FMT order; at least one, each
 *	from vivi_fmt_table, none twice
 * @hdmi_input: one more input after the cameras, an HDMI-like one whose
 *	timings the source sets (see vivi_dv.c)
 * @fault_controls: also offer the fault knobs as controls (opt-in)
 * @producer: an output node beside the capture node: applications feed
 *	the frames the capture nodes show (see vivi_output.c)
 * @consumers: the number of capture nodes, 1 to VIVI_MAX_CONSUMERS: each
 *	a camera of its own, with its own format, rate and controls; with
 *	@producer, each shows the fed frames
 * @modes: the sizes and rates offered, and the power-on mode; every size
 *	suits every format (vivi_fmt_size_suits())
 * @nr_exact: refuse the device if @video_nr (not -1) is taken (configfs), rather
 *	than take the next free number (the video_nr parameter, as vivid's)
 * @fail_probe: testing only (the fail_dev parameter): fail the probe once
 *	fully set up
 *
 * A plain value with no pointers: the device keeps its own copy, fixed once
 * probed, so no ioctl reads a module parameter or a configfs item. A new
 * setting is a field, an &enum vivi_config_attr, its default in
 * vivi_config_defaults(), a setter and its check in vivi_config_validate().
 */
struct vivi_config {
	char card_label[VIVI_NAME_LEN];
	int video_nr;
	unsigned int n_inputs;
	struct vivi_fmt_list formats;
	bool hdmi_input;
	bool fault_controls;
	bool producer;
	unsigned int consumers;
	struct vivi_modes modes;
	bool nr_exact;
	bool fail_probe;
};

const char *vivi_config_attr_name(enum vivi_config_attr attr);
void vivi_config_defaults(struct vivi_config *cfg, unsigned int inst);
int vivi_config_set_label(struct vivi_config *cfg, const char *label,
			  struct vivi_config_why *why);
int vivi_config_set_video_nr(struct vivi_config *cfg, int nr,
			     struct vivi_config_why *why);
int vivi_config_set_inputs(struct vivi_config *cfg, unsigned int n,
			   struct vivi_config_why *why);
int vivi_config_parse_formats(struct vivi_config *cfg, const char *spec,
			      struct vivi_config_why *why);
void vivi_config_set_hdmi_input(struct vivi_config *cfg, bool on);
void vivi_config_set_fault_controls(struct vivi_config *cfg, bool on);
void vivi_config_set_producer(struct vivi_config *cfg, bool on);
int vivi_config_set_consumers(struct vivi_config *cfg, unsigned int n,
			      struct vivi_config_why *why);
int vivi_config_set_sizes(struct vivi_config *cfg,
			  const struct vivi_size *sizes, unsigned int n,
			  struct vivi_config_why *why);
int vivi_config_set_rates(struct vivi_config *cfg,
			  const struct v4l2_fract *tpf, unsigned int n,
			  struct vivi_config_why *why);
int vivi_config_set_default_rate(struct vivi_config *cfg,
				 const struct v4l2_fract *tpf,
				 struct vivi_config_why *why);
int vivi_config_validate(const struct vivi_config *cfg,
			 struct vivi_config_why *why);

/* vivi_config_text.c: each setting as configfs reads and writes it */
int vivi_config_store(struct vivi_config *cfg, enum vivi_config_attr attr,
		      const char *text, size_t len,
		      struct vivi_config_why *why);
size_t vivi_config_show(const struct vivi_config *cfg,
			enum vivi_config_attr attr, char *buf, size_t size);

#endif
