// SPDX-License-Identifier: GPL-2.0
/*
 * A device's settings as text, as configfs reads and writes them: "1",
 * "YUYV,NV12", "1280x720,1920x1080", "30000/1001,15/2,30". Pure, like
 * vivi_config.c: the text is parsed here and each value goes through its
 * setter there, so a refusal leaves the config as it was.
 */

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "vivi_config.h"
#include "vivi_fmt.h"

/**
 * struct vivi_text - what is left of a value
 * @p: the next character
 * @end: one past the last
 */
struct vivi_text {
	const char *p;
	const char *end;
};

static bool vivi_text_eat(struct vivi_text *t, char c)
{
	if (t->p == t->end || *t->p != c)
		return false;
	t->p++;
	return true;
}

/* A decimal number up to @max; false if there is none or it is larger */
static bool vivi_text_uint(struct vivi_text *t, u32 max, u32 *val)
{
	const char *start = t->p;
	u64 v = 0;

	while (t->p < t->end && *t->p >= '0' && *t->p <= '9') {
		v = v * 10 + (*t->p++ - '0');
		if (v > max)
			return false;
	}
	*val = v;
	return t->p != start;
}

/*
 * A rate: "30", "7.5" (three decimals at most) or "30000/1001", as the
 * interval (time per frame) it stands for
 */
static bool vivi_text_rate(struct vivi_text *t, struct v4l2_fract *tpf)
{
	u32 num, den = 1, frac = 0, digits = 0;

	if (!vivi_text_uint(t, VIVI_MAX_FRACT, &num))
		return false;
	if (vivi_text_eat(t, '/'))
		return vivi_text_uint(t, VIVI_MAX_FRACT, &den) && den &&
		       (*tpf = (struct v4l2_fract){ den, num }, true);
	if (vivi_text_eat(t, '.')) {
		for (; t->p < t->end && *t->p >= '0' && *t->p <= '9'; t->p++) {
			if (++digits > 3)
				return false;
			frac = frac * 10 + (*t->p - '0');
			den *= 10;
		}
		if (!digits)
			return false;
	}
	*tpf = (struct v4l2_fract){ den, num * den + frac };
	return true;
}

static bool vivi_text_size(struct vivi_text *t, struct vivi_size *s)
{
	return vivi_text_uint(t, U32_MAX, &s->width) &&
	       vivi_text_eat(t, 'x') &&
	       vivi_text_uint(t, U32_MAX, &s->height);
}

/* The whole value was read: a trailing newline, as echo writes, is allowed */
static bool vivi_text_done(struct vivi_text *t)
{
	vivi_text_eat(t, '\n');
	return t->p == t->end;
}

static __printf(3, 4) int vivi_bad_text(struct vivi_config_why *why,
					 enum vivi_config_attr attr,
					 const char *fmt, ...)
{
	va_list args;

	why->text[0] = ':';
	why->text[1] = ' ';
	va_start(args, fmt);
	vsnprintf(why->text + 2, sizeof(why->text) - 2, fmt, args);
	va_end(args);
	why->attr = attr;
	return -EINVAL;
}

/*
 * A comma-separated list of at most @max items, each read by @one into
 * @items (@item_size bytes apart); false for a malformed list or a long one
 */
static bool vivi_text_list(struct vivi_text *t,
			   bool (*one)(struct vivi_text *t, void *item),
			   void *items, size_t item_size, unsigned int max,
			   unsigned int *n)
{
	*n = 0;
	do {
		if (*n == max || !one(t, (u8 *)items + *n * item_size))
			return false;
		++*n;
	} while (vivi_text_eat(t, ','));
	return vivi_text_done(t);
}

static bool vivi_text_size_item(struct vivi_text *t, void *item)
{
	return vivi_text_size(t, item);
}

static bool vivi_text_rate_item(struct vivi_text *t, void *item)
{
	return vivi_text_rate(t, item);
}

static int vivi_store_sizes(struct vivi_config *cfg, struct vivi_text *t,
			    struct vivi_config_why *why)
{
	struct vivi_size sizes[VIVI_MAX_SIZES];
	unsigned int n;

	if (!vivi_text_list(t, vivi_text_size_item, sizes, sizeof(sizes[0]),
			    VIVI_MAX_SIZES, &n))
		return vivi_bad_text(why, VIVI_CONFIG_SIZES,
				     "is not a list of 1 to %u WxH sizes",
				     VIVI_MAX_SIZES);
	return vivi_config_set_sizes(cfg, sizes, n, why);
}

static int vivi_store_rates(struct vivi_config *cfg, struct vivi_text *t,
			    struct vivi_config_why *why)
{
	struct v4l2_fract tpf[VIVI_MAX_RATES];
	unsigned int n;

	if (!vivi_text_list(t, vivi_text_rate_item, tpf, sizeof(tpf[0]),
			    VIVI_MAX_RATES, &n))
		return vivi_bad_text(why, VIVI_CONFIG_RATES,
				     "is not a list of 1 to %u rates (30, 7.5, 30000/1001)",
				     VIVI_MAX_RATES);
	return vivi_config_set_rates(cfg, tpf, n, why);
}

/*
 * A default need only be well formed here: that it is one of the sizes,
 * rates or formats is vivi_config_validate()'s to check, so that the
 * lists and the defaults may be written in any order
 */
static int vivi_store_default(struct vivi_config *cfg,
			      enum vivi_config_attr attr, struct vivi_text *t,
			      struct vivi_config_why *why)
{
	struct vivi_modes *m = &cfg->modes;
	struct vivi_fmt_list one = {};
	struct v4l2_fract tpf;
	struct vivi_size sz;
	char name[5] = {};

	switch (attr) {
	case VIVI_CONFIG_DEFAULT_SIZE:
		if (!vivi_text_size(t, &sz) || !vivi_text_done(t) || !sz.width)
			return vivi_bad_text(why, attr, "is not a size WxH");
		m->def_size = sz;
		return 0;
	case VIVI_CONFIG_DEFAULT_RATE:
		if (!vivi_text_rate(t, &tpf) || !vivi_text_done(t))
			return vivi_bad_text(why, attr, "is not a rate");
		return vivi_config_set_default_rate(cfg, &tpf, why);
	default:
		t->end -= t->end > t->p && t->end[-1] == '\n';
		if (t->end - t->p > 4 || t->p == t->end ||
		    memchr(t->p, ',', t->end - t->p))
			return vivi_bad_text(why, attr, "is not a fourcc");
		memcpy(name, t->p, t->end - t->p);
		/* vivi_fmt_list_parse() knows the fourccs, and logs a bad one */
		if (vivi_fmt_list_parse(&one, name))
			return vivi_bad_text(why, attr, "is not a format vivi offers");
		m->def_fourcc = one.fourcc[0];
		return 0;
	}
}

/* Longer than any label or formats list: 25 fourccs and their commas */
#define VIVI_TEXT_MAX	(VIVI_MAX_FORMATS * 5)

/* The label or the formats, whose setters take a string */
static int vivi_store_string(struct vivi_config *cfg,
			     enum vivi_config_attr attr, const char *text,
			     size_t len, struct vivi_config_why *why)
{
	char buf[VIVI_TEXT_MAX + 1];

	static_assert(VIVI_TEXT_MAX >= VIVI_NAME_LEN);
	if (len && text[len - 1] == '\n')
		len--;
	if (!len)
		return vivi_bad_text(why, attr, "is empty");
	if (len > VIVI_TEXT_MAX)
		return vivi_bad_text(why, attr, "is too long");
	if (memchr(text, 0, len))
		return vivi_bad_text(why, attr, "is not text");
	memcpy(buf, text, len);
	buf[len] = 0;
	if (attr == VIVI_CONFIG_LABEL)
		return vivi_config_set_label(cfg, buf, why);
	return vivi_config_parse_formats(cfg, buf, why);
}

static int vivi_text_bool(struct vivi_text *t, bool *on)
{
	u32 v;

	if (!vivi_text_uint(t, 1, &v) || !vivi_text_done(t))
		return -EINVAL;
	*on = v;
	return 0;
}

/**
 * vivi_config_store() - set one setting from its text
 * @cfg: the configuration
 * @attr: the setting
 * @text: its new value, as configfs hands it over: not terminated, a
 *	trailing newline allowed
 * @len: the bytes of @text
 * @why: set if refused
 *
 * A value is whole or refused: "1280x720,junk" changes nothing.
 *
 * Return: 0, or -EINVAL with @cfg unchanged
 */
int vivi_config_store(struct vivi_config *cfg, enum vivi_config_attr attr,
		      const char *text, size_t len,
		      struct vivi_config_why *why)
{
	struct vivi_text t = { text, text + len };
	bool neg, on;
	u32 v;

	switch (attr) {
	case VIVI_CONFIG_LABEL:
	case VIVI_CONFIG_FORMATS:
		return vivi_store_string(cfg, attr, text, len, why);
	case VIVI_CONFIG_VIDEO_NR:
		neg = vivi_text_eat(&t, '-');
		if (!vivi_text_uint(&t, VIVI_VIDEO_NR_LIMIT, &v) ||
		    !vivi_text_done(&t))
			return vivi_bad_text(why, attr, "is not a number");
		return vivi_config_set_video_nr(cfg, neg ? -(int)v : (int)v,
						why);
	case VIVI_CONFIG_INPUTS:
		if (!vivi_text_uint(&t, VIVI_MAX_INPUTS + 1, &v) ||
		    !vivi_text_done(&t))
			return vivi_bad_text(why, attr, "is not a number");
		return vivi_config_set_inputs(cfg, v, why);
	case VIVI_CONFIG_CONSUMERS:
		if (!vivi_text_uint(&t, VIVI_MAX_CONSUMERS + 1, &v) ||
		    !vivi_text_done(&t))
			return vivi_bad_text(why, attr, "is not a number");
		return vivi_config_set_consumers(cfg, v, why);
	case VIVI_CONFIG_HDMI_INPUT:
	case VIVI_CONFIG_FAULT_CONTROLS:
	case VIVI_CONFIG_PRODUCER:
		if (vivi_text_bool(&t, &on))
			return vivi_bad_text(why, attr, "is not 0 or 1");
		if (attr == VIVI_CONFIG_HDMI_INPUT)
			vivi_config_set_hdmi_input(cfg, on);
		else if (attr == VIVI_CONFIG_FAULT_CONTROLS)
			vivi_config_set_fault_controls(cfg, on);
		else
			vivi_config_set_producer(cfg, on);
		return 0;
	case VIVI_CONFIG_SIZES:
		return vivi_store_sizes(cfg, &t, why);
	case VIVI_CONFIG_RATES:
		return vivi_store_rates(cfg, &t, why);
	case VIVI_CONFIG_DEFAULT_SIZE:
	case VIVI_CONFIG_DEFAULT_RATE:
	case VIVI_CONFIG_DEFAULT_FORMAT:
		return vivi_store_default(cfg, attr, &t, why);
	default:
		return vivi_bad_text(why, attr, "is not a setting");
	}
}

/**
 * struct vivi_shown - a show buffer being filled
 * @buf: the buffer
 * @size: its bytes
 * @at: the length so far; scnprintf() keeps it below @size
 */
struct vivi_shown {
	char *buf;
	size_t size;
	size_t at;
};

static __printf(2, 3) void vivi_shown(struct vivi_shown *o, const char *fmt,
				     ...)
{
	va_list args;

	va_start(args, fmt);
	o->at += vscnprintf(o->buf + o->at, o->size - o->at, fmt, args);
	va_end(args);
}

/* A fourcc as formats= spells it: trailing spaces cut */
static void vivi_shown_fourcc(struct vivi_shown *o, u32 fcc)
{
	char c[5];
	int n = 4;

	memcpy(c, &fcc, 4);
	while (n > 1 && c[n - 1] == ' ')
		n--;
	c[n] = 0;
	vivi_shown(o, "%s", c);
}

static void vivi_shown_rate(struct vivi_shown *o, const struct v4l2_fract *tpf)
{
	if (tpf->numerator == 1)
		vivi_shown(o, "%u", tpf->denominator);
	else
		vivi_shown(o, "%u/%u", tpf->denominator, tpf->numerator);
}

/**
 * vivi_config_show() - one setting as text, as configfs reads it
 * @cfg: the configuration
 * @attr: the setting
 * @buf: filled with the value and a newline, always terminated
 * @size: the bytes of @buf
 *
 * The text reads back as the same setting through vivi_config_store(),
 * but for the built-in rates, which only the built-in table limits by
 * size. An automatic default shows what it stands for.
 *
 * Return: the length of the text
 */
size_t vivi_config_show(const struct vivi_config *cfg,
			enum vivi_config_attr attr, char *buf, size_t size)
{
	const struct vivi_modes *m = &cfg->modes;
	struct vivi_shown o = { buf, size, 0 };
	struct v4l2_fract tpf;
	struct vivi_size sz;
	unsigned int i;

	if (!size)
		return 0;
	buf[0] = 0;
	switch (attr) {
	case VIVI_CONFIG_LABEL:
		vivi_shown(&o, "%s", cfg->card_label);
		break;
	case VIVI_CONFIG_VIDEO_NR:
		vivi_shown(&o, "%d", cfg->video_nr);
		break;
	case VIVI_CONFIG_INPUTS:
		vivi_shown(&o, "%u", cfg->n_inputs);
		break;
	case VIVI_CONFIG_FORMATS:
		for (i = 0; i < cfg->formats.count; i++) {
			vivi_shown(&o, "%s", i ? "," : "");
			vivi_shown_fourcc(&o, cfg->formats.fourcc[i]);
		}
		break;
	case VIVI_CONFIG_HDMI_INPUT:
		vivi_shown(&o, "%d", cfg->hdmi_input);
		break;
	case VIVI_CONFIG_FAULT_CONTROLS:
		vivi_shown(&o, "%d", cfg->fault_controls);
		break;
	case VIVI_CONFIG_PRODUCER:
		vivi_shown(&o, "%d", cfg->producer);
		break;
	case VIVI_CONFIG_CONSUMERS:
		vivi_shown(&o, "%u", cfg->consumers);
		break;
	case VIVI_CONFIG_SIZES:
		for (i = 0; i < m->n_sizes; i++)
			vivi_shown(&o, "%s%ux%u", i ? "," : "",
				   m->size[i].width, m->size[i].height);
		break;
	case VIVI_CONFIG_RATES:
		for (i = 0; i < m->n_intervals; i++) {
			vivi_shown(&o, "%s", i ? "," : "");
			vivi_shown_rate(&o, &m->interval[i]);
		}
		break;
	case VIVI_CONFIG_DEFAULT_SIZE:
		sz = vivi_modes_def_size(m);
		vivi_shown(&o, "%ux%u", sz.width, sz.height);
		break;
	case VIVI_CONFIG_DEFAULT_RATE:
		sz = vivi_modes_def_size(m);
		tpf = vivi_fmt_snap_interval(m, &m->def_interval, sz.width,
					     sz.height);
		vivi_shown_rate(&o, m->def_interval.denominator ?
				  &m->def_interval : &tpf);
		break;
	case VIVI_CONFIG_DEFAULT_FORMAT:
		vivi_shown_fourcc(&o, vivi_fmt_default_fourcc(&cfg->formats, m));
		break;
	default:
		break;
	}
	vivi_shown(&o, "\n");
	return o.at;
}
