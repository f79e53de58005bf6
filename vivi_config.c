// SPDX-License-Identifier: GPL-2.0
/*
 * The configuration of one vivi device: defaults, setters and the check of
 * the whole (see vivi_config.h). Each setting has one check, on its value,
 * which both its setter and vivi_config_validate() run.
 */

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "vivi_config.h"
#include "vivi_fmt.h"

/* as configfs will name them: the names scripts and docs rely on */
static const char * const vivi_config_attr_names[VIVI_CONFIG_ATTRS] = {
	[VIVI_CONFIG_LABEL] = "label",
	[VIVI_CONFIG_VIDEO_NR] = "video_nr",
	[VIVI_CONFIG_INPUTS] = "inputs",
	[VIVI_CONFIG_FORMATS] = "formats",
	[VIVI_CONFIG_HDMI_INPUT] = "hdmi_input",
	[VIVI_CONFIG_FAULT_CONTROLS] = "fault_controls",
};

/**
 * vivi_config_attr_name() - the name of a setting
 * @attr: the setting
 *
 * Return: its configfs name, "?" for none
 */
const char *vivi_config_attr_name(enum vivi_config_attr attr)
{
	if ((unsigned int)attr >= VIVI_CONFIG_ATTRS)
		return "?";
	return vivi_config_attr_names[attr];
}

/* Refuse @attr; the caller wrote @why->text */
static int vivi_refuse(struct vivi_config_why *why, enum vivi_config_attr attr)
{
	why->attr = attr;
	return -EINVAL;
}

static int vivi_check_label(const char *label, struct vivi_config_why *why)
{
	size_t len = strnlen(label, VIVI_NAME_LEN);

	if (len && len < VIVI_NAME_LEN)
		return 0;
	if (len)
		snprintf(why->text, sizeof(why->text),
			 " is longer than %zu characters", VIVI_NAME_LEN - 1);
	else
		strscpy(why->text, " is empty", sizeof(why->text));
	return vivi_refuse(why, VIVI_CONFIG_LABEL);
}

static int vivi_check_video_nr(int nr, struct vivi_config_why *why)
{
	if (nr >= -1 && nr < VIVI_VIDEO_NR_LIMIT)
		return 0;
	snprintf(why->text, sizeof(why->text), "=%d is out of range -1..%d",
		 nr, VIVI_VIDEO_NR_LIMIT - 1);
	return vivi_refuse(why, VIVI_CONFIG_VIDEO_NR);
}

static int vivi_check_inputs(unsigned int n, struct vivi_config_why *why)
{
	if (n >= 1 && n <= VIVI_MAX_INPUTS)
		return 0;
	snprintf(why->text, sizeof(why->text), "=%u is out of range 1..%u", n,
		 VIVI_MAX_INPUTS);
	return vivi_refuse(why, VIVI_CONFIG_INPUTS);
}

/* What vivi_fmt_list_parse() makes: formats vivi has, each once */
static int vivi_check_formats(const struct vivi_fmt_list *list,
			      struct vivi_config_why *why)
{
	unsigned int i, j;

	if (!list->count || list->count > VIVI_MAX_FORMATS) {
		snprintf(why->text, sizeof(why->text),
			 ": %u entries is out of range 1..%u", list->count,
			 VIVI_MAX_FORMATS);
		return vivi_refuse(why, VIVI_CONFIG_FORMATS);
	}
	for (i = 0; i < list->count; i++) {
		if (!vivi_fmt_known(list->fourcc[i])) {
			snprintf(why->text, sizeof(why->text),
				 ": entry %u is no format vivi offers", i);
			return vivi_refuse(why, VIVI_CONFIG_FORMATS);
		}
		for (j = 0; j < i; j++) {
			if (list->fourcc[j] != list->fourcc[i])
				continue;
			snprintf(why->text, sizeof(why->text),
				 ": entry %u is listed twice", i);
			return vivi_refuse(why, VIVI_CONFIG_FORMATS);
		}
	}
	return 0;
}

/**
 * vivi_config_defaults() - the configuration a device has unless told
 * @cfg: filled in whole, whatever it held
 * @inst: the device's number, for its label "vivi N"
 *
 * One camera input, every format, the first free node number, no HDMI
 * input, no fault controls.
 */
void vivi_config_defaults(struct vivi_config *cfg, unsigned int inst)
{
	memset(cfg, 0, sizeof(*cfg));
	/* the driver's name and the number, as the platform device's */
	snprintf(cfg->card_label, sizeof(cfg->card_label), "vivi %u", inst);
	cfg->video_nr = -1;
	cfg->n_inputs = 1;
	vivi_fmt_list_all(&cfg->formats);
}

/**
 * vivi_config_set_label() - set the card name
 * @cfg: the configuration
 * @label: 1 to VIVI_NAME_LEN - 1 characters
 * @why: set if refused
 *
 * Return: 0, or -EINVAL with @cfg unchanged
 */
int vivi_config_set_label(struct vivi_config *cfg, const char *label,
			  struct vivi_config_why *why)
{
	int ret = vivi_check_label(label, why);

	if (!ret)
		strscpy(cfg->card_label, label, sizeof(cfg->card_label));
	return ret;
}

/**
 * vivi_config_set_video_nr() - set the /dev/videoN number asked for
 * @cfg: the configuration
 * @nr: 0 to VIVI_VIDEO_NR_LIMIT - 1, or -1 for the first free one
 * @why: set if refused
 *
 * Return: 0, or -EINVAL with @cfg unchanged
 */
int vivi_config_set_video_nr(struct vivi_config *cfg, int nr,
			     struct vivi_config_why *why)
{
	int ret = vivi_check_video_nr(nr, why);

	if (!ret)
		cfg->video_nr = nr;
	return ret;
}

/**
 * vivi_config_set_inputs() - set the number of camera inputs
 * @cfg: the configuration
 * @n: 1 to VIVI_MAX_INPUTS
 * @why: set if refused
 *
 * Return: 0, or -EINVAL with @cfg unchanged
 */
int vivi_config_set_inputs(struct vivi_config *cfg, unsigned int n,
			   struct vivi_config_why *why)
{
	int ret = vivi_check_inputs(n, why);

	if (!ret)
		cfg->n_inputs = n;
	return ret;
}

/**
 * vivi_config_parse_formats() - set the formats from a "YUYV,NV12" list
 * @cfg: the configuration
 * @spec: comma-separated fourccs, as the formats= parameter takes them;
 *	NULL or empty for every format
 * @why: set if refused; vivi_fmt_list_parse() has logged the bad entry
 *
 * Return: 0, or -EINVAL with @cfg unchanged
 */
int vivi_config_parse_formats(struct vivi_config *cfg, const char *spec,
			      struct vivi_config_why *why)
{
	struct vivi_fmt_list list = {};

	if (vivi_fmt_list_parse(&list, spec)) {
		strscpy(why->text, ": not a list of formats vivi offers, each once",
			sizeof(why->text));
		return vivi_refuse(why, VIVI_CONFIG_FORMATS);
	}
	cfg->formats = list;
	return 0;
}

/**
 * vivi_config_set_hdmi_input() - offer the HDMI input after the cameras
 * @cfg: the configuration
 * @on: true to offer it
 */
void vivi_config_set_hdmi_input(struct vivi_config *cfg, bool on)
{
	cfg->hdmi_input = on;
}

/**
 * vivi_config_set_fault_controls() - offer the fault knobs as controls
 * @cfg: the configuration
 * @on: true to offer them
 */
void vivi_config_set_fault_controls(struct vivi_config *cfg, bool on)
{
	cfg->fault_controls = on;
}

/**
 * vivi_config_validate() - check a whole configuration
 * @cfg: the configuration, however it was filled
 * @why: set to the first bad setting and what is wrong with it
 *
 * Runs each setting's check (a config filled only through the setters
 * passes them) and, once settings depend on each other, the checks between
 * them. Logs nothing: the caller names the device or parameter.
 *
 * Return: 0 if a device can be made from @cfg, else -EINVAL
 */
int vivi_config_validate(const struct vivi_config *cfg,
			 struct vivi_config_why *why)
{
	return vivi_check_label(cfg->card_label, why) ?:
	       vivi_check_video_nr(cfg->video_nr, why) ?:
	       vivi_check_inputs(cfg->n_inputs, why) ?:
	       vivi_check_formats(&cfg->formats, why);
}
