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

/* as configfs names them: the names scripts and docs rely on */
static const char * const vivi_config_attr_names[VIVI_CONFIG_ATTRS] = {
	[VIVI_CONFIG_LABEL] = "label",
	[VIVI_CONFIG_VIDEO_NR] = "video_nr",
	[VIVI_CONFIG_INPUTS] = "inputs",
	[VIVI_CONFIG_FORMATS] = "formats",
	[VIVI_CONFIG_HDMI_INPUT] = "hdmi_input",
	[VIVI_CONFIG_FAULT_CONTROLS] = "fault_controls",
	[VIVI_CONFIG_SIZES] = "sizes",
	[VIVI_CONFIG_RATES] = "rates",
	[VIVI_CONFIG_DEFAULT_SIZE] = "default_size",
	[VIVI_CONFIG_DEFAULT_RATE] = "default_rate",
	[VIVI_CONFIG_DEFAULT_FORMAT] = "default_format",
	[VIVI_CONFIG_PRODUCER] = "producer",
	[VIVI_CONFIG_CONSUMERS] = "consumers",
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

static int vivi_check_consumers(unsigned int n, struct vivi_config_why *why)
{
	if (n >= 1 && n <= VIVI_MAX_CONSUMERS)
		return 0;
	snprintf(why->text, sizeof(why->text), "=%u is out of range 1..%u", n,
		 VIVI_MAX_CONSUMERS);
	return vivi_refuse(why, VIVI_CONFIG_CONSUMERS);
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

static bool vivi_same_size(const struct vivi_size *a,
			   const struct vivi_size *b)
{
	return a->width == b->width && a->height == b->height;
}

/* a before b in ENUM_FRAMESIZES order: the smaller area, then width */
static bool vivi_size_before(const struct vivi_size *a,
			     const struct vivi_size *b)
{
	u64 sa = (u64)a->width * a->height, sb = (u64)b->width * b->height;

	return sa < sb || (sa == sb && a->width < b->width);
}

static int vivi_check_sizes(const struct vivi_size *size, unsigned int n,
			    struct vivi_config_why *why)
{
	unsigned int i, j;

	if (!n || n > VIVI_MAX_SIZES) {
		snprintf(why->text, sizeof(why->text),
			 ": %u entries is out of range 1..%u", n,
			 VIVI_MAX_SIZES);
		return vivi_refuse(why, VIVI_CONFIG_SIZES);
	}
	for (i = 0; i < n; i++) {
		const struct vivi_size *s = &size[i];

		if (s->width < VIVI_MIN_DIM || s->width > VIVI_MAX_DIM ||
		    s->height < VIVI_MIN_DIM || s->height > VIVI_MAX_DIM) {
			snprintf(why->text, sizeof(why->text),
				 ": %ux%u is out of range %ux%u..%ux%u",
				 s->width, s->height, VIVI_MIN_DIM,
				 VIVI_MIN_DIM, VIVI_MAX_DIM, VIVI_MAX_DIM);
			return vivi_refuse(why, VIVI_CONFIG_SIZES);
		}
		for (j = 0; j < i; j++) {
			if (!vivi_same_size(&size[j], s))
				continue;
			snprintf(why->text, sizeof(why->text),
				 ": %ux%u is listed twice", s->width,
				 s->height);
			return vivi_refuse(why, VIVI_CONFIG_SIZES);
		}
	}
	return 0;
}

/* a and b are the same interval; every number is at most VIVI_MAX_FRACT */
static bool vivi_same_interval(const struct v4l2_fract *a,
			       const struct v4l2_fract *b)
{
	return (u64)a->numerator * b->denominator ==
	       (u64)b->numerator * a->denominator;
}

static bool vivi_interval_before(const struct v4l2_fract *a,
				 const struct v4l2_fract *b)
{
	return (u64)a->numerator * b->denominator <
	       (u64)b->numerator * a->denominator;
}

/* @t in lowest terms; 0/0 stays */
static struct v4l2_fract vivi_reduce(struct v4l2_fract t)
{
	u32 a = t.numerator, b = t.denominator;

	while (b) {
		u32 r = a % b;

		a = b;
		b = r;
	}
	if (a) {
		t.numerator /= a;
		t.denominator /= a;
	}
	return t;
}

/* an interval's rate, denominator / numerator, as text names it */
static void vivi_rate_text(char *buf, size_t size,
			   const struct v4l2_fract *tpf)
{
	if (tpf->numerator == 1)
		snprintf(buf, size, "%u", tpf->denominator);
	else
		snprintf(buf, size, "%u/%u", tpf->denominator,
			 tpf->numerator);
}

static int vivi_check_rates(const struct v4l2_fract *tpf, unsigned int n,
			    struct vivi_config_why *why)
{
	char rate[24];
	unsigned int i, j;

	if (!n || n > VIVI_MAX_RATES) {
		snprintf(why->text, sizeof(why->text),
			 ": %u entries is out of range 1..%u", n,
			 VIVI_MAX_RATES);
		return vivi_refuse(why, VIVI_CONFIG_RATES);
	}
	for (i = 0; i < n; i++) {
		const struct v4l2_fract *t = &tpf[i];

		vivi_rate_text(rate, sizeof(rate), t);
		/* 1/10 to 240 frames a second: den / num in that range */
		if (!t->numerator || !t->denominator ||
		    t->numerator > VIVI_MAX_FRACT ||
		    t->denominator > VIVI_MAX_FRACT ||
		    (u64)t->denominator * VIVI_MIN_FPS_DIV < t->numerator ||
		    t->denominator > (u64)t->numerator * VIVI_MAX_FPS) {
			snprintf(why->text, sizeof(why->text),
				 ": %s fps is out of range 1/%u..%u", rate,
				 VIVI_MIN_FPS_DIV, VIVI_MAX_FPS);
			return vivi_refuse(why, VIVI_CONFIG_RATES);
		}
		for (j = 0; j < i; j++) {
			if (!vivi_same_interval(&tpf[j], t))
				continue;
			snprintf(why->text, sizeof(why->text),
				 ": %s fps is listed twice", rate);
			return vivi_refuse(why, VIVI_CONFIG_RATES);
		}
	}
	return 0;
}

/* The setters keep sizes and rates in ENUM order, which lookups trust */
static int vivi_check_order(const struct vivi_modes *m,
			    struct vivi_config_why *why)
{
	unsigned int i;

	strscpy(why->text, ": not in ENUM order", sizeof(why->text));
	for (i = 1; i < m->n_sizes; i++)
		if (!vivi_size_before(&m->size[i - 1], &m->size[i]))
			return vivi_refuse(why, VIVI_CONFIG_SIZES);
	for (i = 1; i < m->n_intervals; i++)
		if (!vivi_interval_before(&m->interval[i - 1], &m->interval[i]))
			return vivi_refuse(why, VIVI_CONFIG_RATES);
	return 0;
}

/* Every size suits every format: 4:2:0 needs even widths and heights */
static int vivi_check_size_formats(const struct vivi_config *cfg,
				   struct vivi_config_why *why)
{
	const struct vivi_modes *m = &cfg->modes;
	unsigned int i, f;

	for (i = 0; i < m->n_sizes; i++) {
		for (f = 0; f < cfg->formats.count; f++) {
			u32 fcc = cfg->formats.fourcc[f];

			if (vivi_fmt_size_suits(fcc, m->size[i].width,
						m->size[i].height))
				continue;
			snprintf(why->text, sizeof(why->text),
				 ": %ux%u does not suit format %.4s (odd width or height)",
				 m->size[i].width, m->size[i].height,
				 (const char *)&fcc);
			return vivi_refuse(why, VIVI_CONFIG_SIZES);
		}
	}
	return 0;
}

/* The power-on mode is one the device offers, or automatic */
static int vivi_check_defaults(const struct vivi_config *cfg,
			       struct vivi_config_why *why)
{
	const struct vivi_modes *m = &cfg->modes;
	struct vivi_size sz = vivi_modes_def_size(m);
	char rate[24];
	unsigned int i;

	if (m->def_size.width && !vivi_fmt_size_offered(m, sz.width, sz.height)) {
		snprintf(why->text, sizeof(why->text),
			 ": %ux%u is not one of sizes", sz.width, sz.height);
		return vivi_refuse(why, VIVI_CONFIG_DEFAULT_SIZE);
	}
	if (m->def_fourcc && !vivi_fmt_offered(&cfg->formats, m->def_fourcc)) {
		snprintf(why->text, sizeof(why->text),
			 ": %.4s is not one of formats",
			 (const char *)&m->def_fourcc);
		return vivi_refuse(why, VIVI_CONFIG_DEFAULT_FORMAT);
	}
	if (!m->def_interval.denominator)
		return 0;
	vivi_rate_text(rate, sizeof(rate), &m->def_interval);
	for (i = 0; i < m->n_intervals; i++)
		if (vivi_same_interval(&m->interval[i], &m->def_interval))
			break;
	if (i == m->n_intervals) {
		snprintf(why->text, sizeof(why->text),
			 ": %s is not one of rates", rate);
		return vivi_refuse(why, VIVI_CONFIG_DEFAULT_RATE);
	}
	if (!vivi_fmt_interval_offered(m, &m->def_interval, sz.width,
				       sz.height)) {
		snprintf(why->text, sizeof(why->text),
			 ": %s fps is not offered at %ux%u", rate, sz.width,
			 sz.height);
		return vivi_refuse(why, VIVI_CONFIG_DEFAULT_RATE);
	}
	return 0;
}

/**
 * vivi_config_defaults() - the configuration a device has unless told
 * @cfg: filled in whole, whatever it held
 * @inst: the device's number, for its label "vivi N"
 *
 * One camera input, every format, the built-in sizes and rates, the first
 * free node number, no HDMI input, no fault controls, no producer, one
 * capture node.
 */
void vivi_config_defaults(struct vivi_config *cfg, unsigned int inst)
{
	memset(cfg, 0, sizeof(*cfg));
	/* the driver's name and the number, as the platform device's */
	snprintf(cfg->card_label, sizeof(cfg->card_label), "vivi %u", inst);
	cfg->video_nr = -1;
	cfg->n_inputs = 1;
	cfg->consumers = 1;
	vivi_fmt_list_all(&cfg->formats);
	vivi_modes_defaults(&cfg->modes);
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
 * vivi_config_set_producer() - give the device a producer node
 * @cfg: the configuration
 * @on: true for an output node that feeds the capture node
 */
void vivi_config_set_producer(struct vivi_config *cfg, bool on)
{
	cfg->producer = on;
}

/**
 * vivi_config_set_consumers() - set the number of capture nodes
 * @cfg: the configuration
 * @n: 1 to VIVI_MAX_CONSUMERS
 * @why: set if refused
 *
 * Return: 0, or -EINVAL with @cfg unchanged
 */
int vivi_config_set_consumers(struct vivi_config *cfg, unsigned int n,
			      struct vivi_config_why *why)
{
	int ret = vivi_check_consumers(n, why);

	if (!ret)
		cfg->consumers = n;
	return ret;
}

/**
 * vivi_config_set_sizes() - set the frame sizes offered
 * @cfg: the configuration
 * @sizes: 1 to VIVI_MAX_SIZES sizes, each VIVI_MIN_DIM to VIVI_MAX_DIM
 *	both ways, none twice, in any order
 * @n: how many
 * @why: set if refused
 *
 * They are kept smallest first, as ENUM_FRAMESIZES lists them. Whether
 * they suit the formats is vivi_config_validate()'s to check, so that
 * either may be set first.
 *
 * Return: 0, or -EINVAL with @cfg unchanged
 */
int vivi_config_set_sizes(struct vivi_config *cfg,
			  const struct vivi_size *sizes, unsigned int n,
			  struct vivi_config_why *why)
{
	struct vivi_modes *m = &cfg->modes;
	unsigned int i, j;
	int ret = vivi_check_sizes(sizes, n, why);

	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		for (j = i; j > 0 && vivi_size_before(&sizes[i], &m->size[j - 1]);
		     j--)
			m->size[j] = m->size[j - 1];
		m->size[j] = sizes[i];
	}
	m->n_sizes = n;
	return 0;
}

/**
 * vivi_config_set_rates() - set the frame intervals offered at every size
 * @cfg: the configuration
 * @tpf: 1 to VIVI_MAX_RATES intervals (time per frame), each from 1/240 s
 *	to 10 s, numbers up to VIVI_MAX_FRACT, none twice, in any order
 * @n: how many
 * @why: set if refused
 *
 * They are kept shortest first, reduced, and offered at every size: the
 * built-in table's limits by size go.
 *
 * Return: 0, or -EINVAL with @cfg unchanged
 */
int vivi_config_set_rates(struct vivi_config *cfg,
			  const struct v4l2_fract *tpf, unsigned int n,
			  struct vivi_config_why *why)
{
	struct vivi_modes *m = &cfg->modes;
	unsigned int i, j;
	int ret = vivi_check_rates(tpf, n, why);

	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		struct v4l2_fract t = vivi_reduce(tpf[i]);

		for (j = i; j > 0 && vivi_interval_before(&t, &m->interval[j - 1]);
		     j--)
			m->interval[j] = m->interval[j - 1];
		m->interval[j] = t;
	}
	m->n_intervals = n;
	m->size_limits = false;
	return 0;
}

/**
 * vivi_config_set_default_rate() - set the power-on rate
 * @cfg: the configuration
 * @tpf: its interval (time per frame), in the range of
 *	vivi_config_set_rates(); vivi_config_validate() checks that it is
 *	one of the rates
 * @why: set if refused
 *
 * Return: 0, or -EINVAL with @cfg unchanged
 */
int vivi_config_set_default_rate(struct vivi_config *cfg,
				 const struct v4l2_fract *tpf,
				 struct vivi_config_why *why)
{
	if (vivi_check_rates(tpf, 1, why)) {
		why->attr = VIVI_CONFIG_DEFAULT_RATE;
		return -EINVAL;
	}
	cfg->modes.def_interval = vivi_reduce(*tpf);
	return 0;
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
	const struct vivi_modes *m = &cfg->modes;

	return vivi_check_label(cfg->card_label, why) ?:
	       vivi_check_video_nr(cfg->video_nr, why) ?:
	       vivi_check_inputs(cfg->n_inputs, why) ?:
	       vivi_check_consumers(cfg->consumers, why) ?:
	       vivi_check_formats(&cfg->formats, why) ?:
	       vivi_check_sizes(m->size, m->n_sizes, why) ?:
	       vivi_check_rates(m->interval, m->n_intervals, why) ?:
	       vivi_check_order(m, why) ?:
	       vivi_check_size_formats(cfg, why) ?:
	       vivi_check_defaults(cfg, why);
}
