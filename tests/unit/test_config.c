// SPDX-License-Identifier: GPL-2.0
/*
 * test_config.c - the device configuration (vivi_config.c): its defaults,
 * each setter's refusals (with the setting named and the config left as it
 * was), vivi_config_validate() on configs written field by field, and
 * random sequences of setters and of corrupted bytes, each result checked
 * against this file's own model of a consistent config: the formats=
 * syntax, the ranges and vivi's 25 formats written out here, not taken
 * from the driver's tables.
 *
 *   test_config [SEED]
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vivi_config.h"
#include "tutil.h"

/* from <linux/printk.h>'s stand-in: the last line vivi_fmt.c logged */
extern char vivi_shim_log[256];
extern unsigned int vivi_shim_log_count;

/* what vivi offers, in ENUM_FMT order: MJPEG first, as UVC cameras do */
static const u32 formats[] = {
	V4L2_PIX_FMT_MJPEG, V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_UYVY,
	V4L2_PIX_FMT_YVYU, V4L2_PIX_FMT_VYUY, V4L2_PIX_FMT_YUV420,
	V4L2_PIX_FMT_YVU420, V4L2_PIX_FMT_YUV422P, V4L2_PIX_FMT_RGB24,
	V4L2_PIX_FMT_BGR24, V4L2_PIX_FMT_XRGB32, V4L2_PIX_FMT_XBGR32,
	V4L2_PIX_FMT_RGB565, V4L2_PIX_FMT_RGB565X, V4L2_PIX_FMT_XRGB555,
	V4L2_PIX_FMT_GREY, V4L2_PIX_FMT_Y16, V4L2_PIX_FMT_SBGGR8,
	V4L2_PIX_FMT_SGBRG8, V4L2_PIX_FMT_SGRBG8, V4L2_PIX_FMT_SRGGB8,
	V4L2_PIX_FMT_NV12, V4L2_PIX_FMT_NV21, V4L2_PIX_FMT_NV16,
	V4L2_PIX_FMT_NV61,
};
#define N_FORMATS	(sizeof(formats) / sizeof(formats[0]))
#define LABEL_MAX	31	/* characters, with 6.1's 32-byte node name */

static u64 rng_state = 20261206;

static u32 rnd(u32 n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return n ? (u32)(rng_state >> 11) % n : 0;
}

static int known_format(u32 fcc)
{
	unsigned int i;

	for (i = 0; i < N_FORMATS; i++)
		if (formats[i] == fcc)
			return 1;
	return 0;
}

/* A fourcc as formats= spells it: its four characters, trailing spaces cut */
static void format_name(u32 fcc, char name[5])
{
	int n = 4;

	memcpy(name, &fcc, 4);
	while (n > 0 && name[n - 1] == ' ')
		n--;
	name[n] = 0;
}

/*
 * Formats whose chroma two pixels share (or a 2x2 Bayer tile): even widths;
 * of those, the ones that share it between two lines too: even heights
 */
static int needs_even(u32 fcc, int height)
{
	static const u32 even_w[] = {
		V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_UYVY, V4L2_PIX_FMT_YVYU,
		V4L2_PIX_FMT_VYUY, V4L2_PIX_FMT_YUV422P, V4L2_PIX_FMT_NV16,
		V4L2_PIX_FMT_NV61,
	};
	static const u32 even_wh[] = {
		V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_YVU420, V4L2_PIX_FMT_NV12,
		V4L2_PIX_FMT_NV21, V4L2_PIX_FMT_SBGGR8, V4L2_PIX_FMT_SGBRG8,
		V4L2_PIX_FMT_SGRBG8, V4L2_PIX_FMT_SRGGB8,
	};
	unsigned int i;

	for (i = 0; i < sizeof(even_wh) / sizeof(even_wh[0]); i++)
		if (even_wh[i] == fcc)
			return 1;
	for (i = 0; !height && i < sizeof(even_w) / sizeof(even_w[0]); i++)
		if (even_w[i] == fcc)
			return 1;
	return 0;
}

/* seconds a frame of @t, as a double: the model's own arithmetic */
static double secs(const struct v4l2_fract *t)
{
	return (double)t->numerator / t->denominator;
}

/* The model of the sizes, rates and power-on mode */
static const char *modes_inconsistent(const struct vivi_config *c)
{
	const struct vivi_modes *m = &c->modes;
	unsigned int i, f, w = 0, h = 0;
	double area = 0;

	if (m->n_sizes < 1 || m->n_sizes > 32)
		return "sizes: count out of 1..32";
	for (i = 0; i < m->n_sizes; i++) {
		const struct vivi_size *s = &m->size[i];
		double a = (double)s->width * s->height;

		if (s->width < 16 || s->width > 8192 || s->height < 16 ||
		    s->height > 8192)
			return "sizes: one out of 16x16..8192x8192";
		if (i && (a < area || (a == area && s->width <= w)))
			return "sizes: not smallest first, or one twice";
		area = a;
		w = s->width;
		for (f = 0; f < c->formats.count; f++)
			if (((s->width & 1) && needs_even(c->formats.fourcc[f], 0)) ||
			    ((s->height & 1) && needs_even(c->formats.fourcc[f], 1)))
				return "sizes: one a format cannot have";
	}
	if (m->n_intervals < 1 || m->n_intervals > 16)
		return "rates: count out of 1..16";
	for (i = 0; i < m->n_intervals; i++) {
		const struct v4l2_fract *t = &m->interval[i];

		if (!t->numerator || !t->denominator ||
		    t->numerator > 1000000 || t->denominator > 1000000)
			return "rates: a zero or a number past 1000000";
		if (secs(t) > 10.0 || secs(t) < 1.0 / 240)
			return "rates: one out of 1/10..240 fps";
		if (i && secs(t) <= secs(&m->interval[i - 1]))
			return "rates: not fastest first, or one twice";
	}
	if (m->def_size.width) {
		for (i = 0; i < m->n_sizes; i++)
			if (m->size[i].width == m->def_size.width &&
			    m->size[i].height == m->def_size.height)
				break;
		if (i == m->n_sizes)
			return "default_size: not one of sizes";
		w = m->def_size.width;
		h = m->def_size.height;
	} else {
		w = 0;	/* the size nearest 640x480: not modelled, any */
	}
	if (m->def_fourcc && !known_format(m->def_fourcc))
		return "default_format: not a format";
	if (m->def_fourcc) {
		for (f = 0; f < c->formats.count; f++)
			if (c->formats.fourcc[f] == m->def_fourcc)
				break;
		if (f == c->formats.count)
			return "default_format: not one of formats";
	}
	if (m->def_interval.denominator) {
		for (i = 0; i < m->n_intervals; i++)
			if (secs(&m->interval[i]) == secs(&m->def_interval))
				break;
		if (i == m->n_intervals)
			return "default_rate: not one of rates";
		/* the built-in table: 60 fps at most past 1280x720 pixels... */
		if (m->size_limits && w &&
		    1 / secs(&m->def_interval) >
		    ((double)w * h <= 1280 * 720 ? 120 :
		     (double)w * h <= 1920 * 1080 ? 60 : 30) + 1e-9)
			return "default_rate: not offered at default_size";
	}
	return NULL;
}

/* What the model says is wrong with @c, or NULL if it is consistent */
static const char *inconsistent(const struct vivi_config *c)
{
	size_t len = strnlen(c->card_label, sizeof(c->card_label));
	unsigned int i, j;

	if (!len || len > LABEL_MAX)
		return "label not 1..31 characters";
	if (c->video_nr < -1 || c->video_nr > 255)
		return "video_nr out of -1..255";
	if (c->n_inputs < 1 || c->n_inputs > 4)
		return "inputs out of 1..4";
	if (c->consumers < 1 || c->consumers > 8)
		return "consumers out of 1..8";
	if (c->formats.count < 1 || c->formats.count > N_FORMATS)
		return "formats: count out of 1..25";
	for (i = 0; i < c->formats.count; i++) {
		if (!known_format(c->formats.fourcc[i]))
			return "formats: one vivi does not offer";
		for (j = 0; j < i; j++)
			if (c->formats.fourcc[j] == c->formats.fourcc[i])
				return "formats: one listed twice";
	}
	return modes_inconsistent(c);
}

/* The settings the model compares; bytes past a label's end do not count */
static int same_settings(const struct vivi_config *a,
			 const struct vivi_config *b)
{
	return !strcmp(a->card_label, b->card_label) &&
	       a->video_nr == b->video_nr && a->n_inputs == b->n_inputs &&
	       a->formats.count == b->formats.count &&
	       !memcmp(a->formats.fourcc, b->formats.fourcc,
		       a->formats.count * sizeof(u32)) &&
	       a->hdmi_input == b->hdmi_input &&
	       a->fault_controls == b->fault_controls &&
	       a->producer == b->producer && a->consumers == b->consumers &&
	       a->fail_probe == b->fail_probe;
}

static void test_names(void)
{
	/* what scripts and docs will rely on, in enum order */
	const char *want = "label video_nr inputs formats hdmi_input fault_controls sizes rates default_size default_rate default_format producer consumers";
	char got[256] = "";
	unsigned int a;

	for (a = 0; a < VIVI_CONFIG_ATTRS; a++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s",
			 a ? " " : "", vivi_config_attr_name(a));
	if (strcmp(got, want))
		tu_fail("the names are '%s'", got);
	if (strcmp(vivi_config_attr_name(VIVI_CONFIG_ATTRS), "?") ||
	    strcmp(vivi_config_attr_name(-1), "?"))
		tu_fail("a setting past the last has a name");
	tu_done("config: each setting has its configfs name (label, video_nr, inputs, formats, hdmi_input, fault_controls, sizes, rates, default_size, default_rate, default_format, producer, consumers)");
}

static void test_defaults(void)
{
	struct vivi_config_why why;
	struct vivi_config c;
	unsigned int i;

	vivi_config_defaults(&c, 3);
	if (strcmp(c.card_label, "vivi 3"))
		tu_fail("label '%s', not 'vivi 3'", c.card_label);
	if (c.video_nr != -1 || c.n_inputs != 1 || c.consumers != 1)
		tu_fail("video_nr %d, inputs %u, consumers %u: not -1, 1 and 1",
			c.video_nr, c.n_inputs, c.consumers);
	if (c.hdmi_input || c.fault_controls || c.producer || c.fail_probe)
		tu_fail("an opt-in is on");
	if (c.formats.count != N_FORMATS)
		tu_fail("%u formats, not %zu", c.formats.count, N_FORMATS);
	for (i = 0; i < c.formats.count && i < N_FORMATS; i++)
		if (c.formats.fourcc[i] != formats[i])
			tu_fail("format %u is %.4s, not %.4s", i,
				(char *)&c.formats.fourcc[i],
				(char *)&formats[i]);
	if (vivi_config_validate(&c, &why))
		tu_fail("the defaults are refused: %s%s",
			vivi_config_attr_name(why.attr), why.text);
	if (inconsistent(&c))
		tu_fail("the defaults: %s", inconsistent(&c));
	vivi_config_defaults(&c, UINT_MAX);
	if (strcmp(c.card_label, "vivi 4294967295") ||
	    vivi_config_validate(&c, &why))
		tu_fail("device %u: label '%s'", UINT_MAX, c.card_label);
	tu_done("config: defaults are \"vivi N\", the first free node, one input, all 25 formats in ENUM_FMT order, no opt-in; they validate");
}

/* Defaults over any bytes give the same struct as over zeroes */
static void test_garbage(void)
{
	static const int fills[] = { 0x00, 0xff, 0x5a, 0xa5, 0x01, 0x80 };
	struct vivi_config zero, junk;
	unsigned int f, inst, i;

	for (f = 0; f < sizeof(fills) / sizeof(fills[0]) + 8; f++) {
		inst = f * 9;
		memset(&zero, 0, sizeof(zero));
		vivi_config_defaults(&zero, inst);
		if (f < sizeof(fills) / sizeof(fills[0]))
			memset(&junk, fills[f], sizeof(junk));
		else
			for (i = 0; i < sizeof(junk); i++)
				((u8 *)&junk)[i] = rnd(256);
		vivi_config_defaults(&junk, inst);
		if (memcmp(&zero, &junk, sizeof(zero)))
			tu_fail("fill %u: the struct differs from the zeroed one's",
				f);
	}
	tu_done("config: defaults over a garbage-filled struct give the same bytes as over a zeroed one");
}

enum setter {
	SET_LABEL, SET_VIDEO_NR, SET_INPUTS, SET_CONSUMERS, SET_FORMATS,
	SETTERS
};

static const enum vivi_config_attr setter_attr[SETTERS] = {
	[SET_LABEL] = VIVI_CONFIG_LABEL,
	[SET_VIDEO_NR] = VIVI_CONFIG_VIDEO_NR,
	[SET_INPUTS] = VIVI_CONFIG_INPUTS,
	[SET_CONSUMERS] = VIVI_CONFIG_CONSUMERS,
	[SET_FORMATS] = VIVI_CONFIG_FORMATS,
};

static int call_setter(struct vivi_config *c, enum setter s, const char *str,
		       long long n, struct vivi_config_why *why)
{
	switch (s) {
	case SET_LABEL:
		return vivi_config_set_label(c, str, why);
	case SET_VIDEO_NR:
		return vivi_config_set_video_nr(c, (int)n, why);
	case SET_INPUTS:
		return vivi_config_set_inputs(c, (unsigned int)n, why);
	case SET_CONSUMERS:
		return vivi_config_set_consumers(c, (unsigned int)n, why);
	default:
		return vivi_config_parse_formats(c, str, why);
	}
}

static char long_text[4097];

/* Each bad value of each setting: -EINVAL, the setting named, nothing changed */
static void test_refusals(void)
{
	static const struct {
		enum setter s;
		const char *str;
		long long n;
		const char *text;	/* the reason's start, if not NULL */
	} bad[] = {
		{ SET_LABEL, "", 0, " is empty" },
		{ SET_LABEL, "abcdefghijklmnopqrstuvwxyz0123456", 0,
		  " is longer than 31 characters" },
		{ SET_LABEL, "abcdefghijklmnopqrstuvwxyz012345", 0, NULL },
		{ SET_LABEL, long_text, 0, NULL },
		{ SET_VIDEO_NR, NULL, -2, "=-2 is out of range -1..255" },
		{ SET_VIDEO_NR, NULL, 256, "=256 is out of range -1..255" },
		{ SET_VIDEO_NR, NULL, INT_MIN, NULL },
		{ SET_VIDEO_NR, NULL, INT_MAX, NULL },
		{ SET_INPUTS, NULL, 0, "=0 is out of range 1..4" },
		{ SET_INPUTS, NULL, 5, "=5 is out of range 1..4" },
		{ SET_INPUTS, NULL, UINT_MAX, NULL },
		{ SET_CONSUMERS, NULL, 0, "=0 is out of range 1..8" },
		{ SET_CONSUMERS, NULL, 9, "=9 is out of range 1..8" },
		{ SET_CONSUMERS, NULL, UINT_MAX, NULL },
		{ SET_FORMATS, "YUYV,FOO", 0, NULL },
		{ SET_FORMATS, "YUYV,YUYV", 0, NULL },
		{ SET_FORMATS, "Y16,Y16 ", 0, NULL },
		{ SET_FORMATS, ",", 0, NULL },
		{ SET_FORMATS, "YUYV,", 0, NULL },
		{ SET_FORMATS, "yuyv", 0, NULL },
		{ SET_FORMATS, "YUYV2", 0, NULL },
		{ SET_FORMATS, long_text, 0, NULL },
	};
	struct vivi_config c, before;
	struct vivi_config_why why;
	unsigned int i, logged;
	int ret;

	memset(long_text, 'A', sizeof(long_text) - 1);
	vivi_config_defaults(&c, 1);
	vivi_config_parse_formats(&c, "NV12,MJPG", &why);
	vivi_config_set_label(&c, "Desk", &why);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		before = c;
		memset(&why, 0, sizeof(why));
		why.attr = VIVI_CONFIG_ATTRS;
		logged = vivi_shim_log_count;
		ret = call_setter(&c, bad[i].s, bad[i].str, bad[i].n, &why);
		if (ret != -EINVAL)
			tu_fail("case %u: returns %d, not -EINVAL", i, ret);
		else if (why.attr != setter_attr[bad[i].s])
			tu_fail("case %u: names '%s', not '%s'", i,
				vivi_config_attr_name(why.attr),
				vivi_config_attr_name(setter_attr[bad[i].s]));
		else if (!why.text[0] ||
			 strnlen(why.text, sizeof(why.text)) == sizeof(why.text))
			tu_fail("case %u: no reason", i);
		else if (bad[i].text && strcmp(why.text, bad[i].text))
			tu_fail("case %u: reason '%s', not '%s'", i, why.text,
				bad[i].text);
		if (memcmp(&before, &c, sizeof(c)))
			tu_fail("case %u: the config changed", i);
		if (bad[i].s == SET_FORMATS && vivi_shim_log_count == logged)
			tu_fail("case %u: the parser logged no line", i);
	}
	vivi_config_parse_formats(&c, "YUYV,FOO", &why);
	if (!strstr(vivi_shim_log, "unsupported format 'FOO'"))
		tu_fail("formats=YUYV,FOO logged '%s'", vivi_shim_log);
	tu_done("config: %zu bad values refused with -EINVAL, the setting named and the config unchanged",
		sizeof(bad) / sizeof(bad[0]));
}

static void test_accepted(void)
{
	struct vivi_config_why why;
	struct vivi_config c;

	vivi_config_defaults(&c, 0);
	if (vivi_config_set_label(&c, "abcdefghijklmnopqrstuvwxyz01234", &why) ||
	    strcmp(c.card_label, "abcdefghijklmnopqrstuvwxyz01234"))
		tu_fail("a 31-character label: '%s'", c.card_label);
	if (vivi_config_set_video_nr(&c, 255, &why) || c.video_nr != 255 ||
	    vivi_config_set_video_nr(&c, -1, &why) || c.video_nr != -1)
		tu_fail("video_nr 255 or -1 refused");
	if (vivi_config_set_inputs(&c, 4, &why) || c.n_inputs != 4)
		tu_fail("4 inputs refused");
	if (vivi_config_set_consumers(&c, 8, &why) || c.consumers != 8 ||
	    vivi_config_set_consumers(&c, 1, &why) || c.consumers != 1)
		tu_fail("8 or 1 consumers refused");
	if (vivi_config_parse_formats(&c, "Y16,NV12,MJPG", &why) ||
	    c.formats.count != 3 || c.formats.fourcc[0] != V4L2_PIX_FMT_Y16 ||
	    c.formats.fourcc[1] != V4L2_PIX_FMT_NV12 ||
	    c.formats.fourcc[2] != V4L2_PIX_FMT_MJPEG)
		tu_fail("formats=Y16,NV12,MJPG: %u formats", c.formats.count);
	if (vivi_config_parse_formats(&c, "", &why) ||
	    c.formats.count != N_FORMATS)
		tu_fail("formats= (empty): %u formats", c.formats.count);
	vivi_config_parse_formats(&c, "GREY", &why);
	if (vivi_config_parse_formats(&c, NULL, &why) ||
	    c.formats.count != N_FORMATS)
		tu_fail("no formats: %u formats", c.formats.count);
	vivi_config_set_hdmi_input(&c, true);
	vivi_config_set_fault_controls(&c, true);
	if (!c.hdmi_input || !c.fault_controls)
		tu_fail("an opt-in did not stick");
	if (vivi_config_validate(&c, &why))
		tu_fail("refused: %s%s", vivi_config_attr_name(why.attr),
			why.text);
	tu_done("config: the edges of each range, a formats= list in its order and an empty one (all) are taken, and validate");
}

/* A config written field by field: validate names the bad setting */
static void test_validate(void)
{
	struct vivi_config_why why;
	struct vivi_config good, c;
	unsigned int i;
	static const struct {
		enum vivi_config_attr attr;
		const char *what;
	} cases[] = {
		{ VIVI_CONFIG_LABEL, "empty label" },
		{ VIVI_CONFIG_LABEL, "unterminated label" },
		{ VIVI_CONFIG_VIDEO_NR, "video_nr -7" },
		{ VIVI_CONFIG_VIDEO_NR, "video_nr 1000" },
		{ VIVI_CONFIG_INPUTS, "0 inputs" },
		{ VIVI_CONFIG_INPUTS, "9 inputs" },
		{ VIVI_CONFIG_CONSUMERS, "0 consumers" },
		{ VIVI_CONFIG_CONSUMERS, "9 consumers" },
		{ VIVI_CONFIG_FORMATS, "no format" },
		{ VIVI_CONFIG_FORMATS, "26 formats" },
		{ VIVI_CONFIG_FORMATS, "an unknown format" },
		{ VIVI_CONFIG_FORMATS, "a format twice" },
	};

	vivi_config_defaults(&good, 2);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		c = good;
		switch (i) {
		case 0: c.card_label[0] = 0; break;
		case 1: memset(c.card_label, 'x', sizeof(c.card_label)); break;
		case 2: c.video_nr = -7; break;
		case 3: c.video_nr = 1000; break;
		case 4: c.n_inputs = 0; break;
		case 5: c.n_inputs = 9; break;
		case 6: c.consumers = 0; break;
		case 7: c.consumers = 9; break;
		case 8: c.formats.count = 0; break;
		case 9: c.formats.count = 26; break;
		case 10: c.formats.fourcc[4] = v4l2_fourcc('F', 'O', 'O', ' '); break;
		default: c.formats.fourcc[24] = c.formats.fourcc[1]; break;
		}
		why.attr = VIVI_CONFIG_ATTRS;
		if (vivi_config_validate(&c, &why) != -EINVAL)
			tu_fail("%s: accepted", cases[i].what);
		else if (why.attr != cases[i].attr)
			tu_fail("%s: names '%s'", cases[i].what,
				vivi_config_attr_name(why.attr));
	}
	tu_done("config: validate refuses each bad field of a config written by hand, naming its setting");
}

/* A random value for setter @s, and whether the model takes it */
static int random_value(enum setter s, char *str, size_t size, long long *n,
			struct vivi_fmt_list *want)
{
	static const char * const junk[] = {
		"", "FOO", "yuyv", "ABCDE", "NV1", " ", "MJPEG",
	};
	unsigned int i, k, ntok, len;
	char name[5];
	int ok = 1;

	switch (s) {
	case SET_LABEL:
		len = rnd(8) ? rnd(40) : rnd(size);
		for (i = 0; i < len; i++)
			str[i] = 0x20 + rnd(0x5f);
		str[len] = 0;
		return len >= 1 && len <= LABEL_MAX;
	case SET_VIDEO_NR:
		*n = rnd(10) ? (long long)rnd(266) - 5 : rnd(2) ? INT_MIN : INT_MAX;
		return *n >= -1 && *n <= 255;
	case SET_INPUTS:
		*n = rnd(10) ? rnd(7) : UINT_MAX;
		return *n >= 1 && *n <= 4;
	case SET_CONSUMERS:
		*n = rnd(10) ? rnd(11) : UINT_MAX;
		return *n >= 1 && *n <= 8;
	default:
		break;
	}
	ntok = rnd(6) ? rnd(6) : rnd(30);
	str[0] = 0;
	memset(want, 0, sizeof(*want));
	for (i = 0; i < ntok; i++) {
		u32 fcc = formats[rnd(N_FORMATS)];
		const char *tok = name;

		format_name(fcc, name);
		if (!rnd(8))
			tok = junk[rnd(sizeof(junk) / sizeof(junk[0]))];
		snprintf(str + strlen(str), size - strlen(str), "%s%s",
			 i ? "," : "", tok);
		if (tok != name) {
			ok = 0;
			continue;
		}
		for (k = 0; k < want->count; k++)
			if (want->fourcc[k] == fcc)
				ok = 0;
		if (want->count < VIVI_MAX_FORMATS)
			want->fourcc[want->count++] = fcc;
	}
	if (!str[0]) {
		memcpy(want->fourcc, formats, sizeof(formats));
		want->count = N_FORMATS;
		return 1;
	}
	return ok;
}

/*
 * Random setters on a config, each checked against the model: a value it
 * takes is set, exactly; one it does not is refused with the config
 * unchanged; and after every step the config validates and is consistent
 */
static void test_sequences(void)
{
	static char str[4200];
	struct vivi_config c, model, before;
	struct vivi_config_why why;
	struct vivi_fmt_list want;
	unsigned int seq, step, steps = 0, refused = 0;
	long long n = 0;

	for (seq = 0; seq < 2000; seq++) {
		vivi_config_defaults(&c, seq % 64);
		model = c;
		for (step = 0; step < 40; step++, steps++) {
			enum setter s = rnd(SETTERS + 1);
			int ok, ret;

			if (s == SETTERS) {
				bool on = rnd(2);

				if (rnd(3) == 2) {
					vivi_config_set_producer(&c, on);
					model.producer = on;
				} else if (rnd(2)) {
					vivi_config_set_hdmi_input(&c, on);
					model.hdmi_input = on;
				} else {
					vivi_config_set_fault_controls(&c, on);
					model.fault_controls = on;
				}
				continue;
			}
			ok = random_value(s, str, sizeof(str) - 1, &n, &want);
			before = c;
			ret = call_setter(&c, s, str, n, &why);
			if (ok != !ret) {
				tu_fail("seq %u step %u: setting %s to '%.40s' / %lld: %d, the model says %s",
					seq, step,
					vivi_config_attr_name(setter_attr[s]),
					str, n, ret, ok ? "take it" : "refuse it");
				goto out;
			}
			if (ret) {
				refused++;
				if (memcmp(&before, &c, sizeof(c)) ||
				    why.attr != setter_attr[s]) {
					tu_fail("seq %u step %u: a refused %s changed the config or named '%s'",
						seq, step,
						vivi_config_attr_name(setter_attr[s]),
						vivi_config_attr_name(why.attr));
					goto out;
				}
			} else if (s == SET_LABEL) {
				strcpy(model.card_label, str);
			} else if (s == SET_VIDEO_NR) {
				model.video_nr = n;
			} else if (s == SET_INPUTS) {
				model.n_inputs = n;
			} else if (s == SET_CONSUMERS) {
				model.consumers = n;
			} else {
				model.formats = want;
			}
			if (!same_settings(&c, &model)) {
				tu_fail("seq %u step %u: the config is not the model's",
					seq, step);
				goto out;
			}
			if (vivi_config_validate(&c, &why) || inconsistent(&c)) {
				tu_fail("seq %u step %u: validate %s%s, model: %s",
					seq, step,
					vivi_config_attr_name(why.attr),
					why.text, inconsistent(&c) ?: "fine");
				goto out;
			}
		}
	}
out:
	tu_done("config: %u random setter calls (%u refused) match the model; every config validates and is consistent",
		steps, refused);
}

/* Whether byte @off of the struct belongs to a bool (any other value is UB) */
static int bool_byte(size_t off)
{
	return off == offsetof(struct vivi_config, hdmi_input) ||
	       off == offsetof(struct vivi_config, fault_controls) ||
	       off == offsetof(struct vivi_config, producer) ||
	       off == offsetof(struct vivi_config, modes.size_limits) ||
	       off == offsetof(struct vivi_config, nr_exact) ||
	       off == offsetof(struct vivi_config, fail_probe);
}

/*
 * Random bytes written into valid configs: whatever validate accepts, the
 * model finds consistent (most fourcc bytes make a format vivi does not
 * have; a few make another one, or the same one twice)
 */
static void test_pokes(void)
{
	struct vivi_config c;
	struct vivi_config_why why;
	unsigned int round, i, accepted = 0, refused = 0;

	for (round = 0; round < 100000; round++) {
		vivi_config_defaults(&c, round % 64);
		if (round & 1)
			vivi_config_parse_formats(&c, "YUYV,NV12,RGB3", &why);
		for (i = 1 + rnd(3); i > 0; i--) {
			size_t off = rnd(sizeof(c));

			if (bool_byte(off))
				continue;
			/* a fourcc's bytes: mostly another letter */
			((u8 *)&c)[off] = rnd(2) ? 'A' + rnd(26) : rnd(256);
		}
		if (vivi_config_validate(&c, &why)) {
			refused++;
			continue;
		}
		accepted++;
		if (inconsistent(&c)) {
			tu_fail("round %u: validate takes it, the model says: %s",
				round, inconsistent(&c));
			break;
		}
	}
	tu_done("config: %u configs with random bytes written: validate takes %u, all consistent, refuses %u",
		round, accepted, refused);
}

/* @m's sizes in ENUM_FRAMESIZES order, none twice */
static int sizes_in_order(const struct vivi_modes *m)
{
	unsigned int i;

	for (i = 1; i < m->n_sizes; i++) {
		u64 a = (u64)m->size[i - 1].width * m->size[i - 1].height;
		u64 b = (u64)m->size[i].width * m->size[i].height;

		if (a > b || (a == b && m->size[i - 1].width >= m->size[i].width))
			return 0;
	}
	return 1;
}

/*
 * The producer's size added to a device's sizes: random sizes into lists
 * of random sizes (from the defaults, or a configured list): the list stays
 * in ENUM order and holds exactly what it held and the new size; a full
 * list is left as it was
 */
static void test_add_size(void)
{
	struct vivi_config_why why;
	struct vivi_size list[VIVI_MAX_SIZES];
	struct vivi_config c;
	struct vivi_modes m;
	unsigned int round, i, n, added = 0, full = 0, had = 0;
	int present, ok;
	u32 w, h;

	for (round = 0; round < 20000; round++) {
		vivi_config_defaults(&c, 0);
		if (round & 1) {
			n = 1 + rnd(VIVI_MAX_SIZES);
			for (i = 0; i < n; i++) {
				list[i].width = VIVI_MIN_DIM + rnd(64) * 2;
				list[i].height = VIVI_MIN_DIM + rnd(64) * 2;
			}
			if (vivi_config_set_sizes(&c, list, n, &why))
				continue;	/* a size twice */
		}
		m = c.modes;
		w = VIVI_MIN_DIM + rnd(64) * 2;
		h = VIVI_MIN_DIM + rnd(64) * 2;
		present = vivi_fmt_size_offered(&m, w, h);
		ok = vivi_modes_add_size(&m, w, h);

		if (present || c.modes.n_sizes < VIVI_MAX_SIZES ? !ok : ok) {
			tu_fail("round %u: %ux%u into %u sizes: %d", round, w,
				h, c.modes.n_sizes, ok);
			break;
		}
		if (!ok || present) {
			full += !ok;
			had += present;
			if (memcmp(&m, &c.modes, sizeof(m))) {
				tu_fail("round %u: the list changed", round);
				break;
			}
			continue;
		}
		added++;
		if (m.n_sizes != c.modes.n_sizes + 1 || !sizes_in_order(&m) ||
		    !vivi_fmt_size_offered(&m, w, h)) {
			tu_fail("round %u: %ux%u: %u sizes, in order %d", round,
				w, h, m.n_sizes, sizes_in_order(&m));
			break;
		}
		for (i = 0; i < c.modes.n_sizes; i++)
			if (!vivi_fmt_size_offered(&m, c.modes.size[i].width,
						   c.modes.size[i].height))
				tu_fail("round %u: %ux%u lost", round,
					c.modes.size[i].width,
					c.modes.size[i].height);
	}
	tu_done("config: the producer's size added to random size lists: %u added in ENUM order, %u there already, %u into full lists refused, nothing else changed",
		added, had, full);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		rng_state = strtoull(argv[1], NULL, 0) ?: 1;
	test_names();
	test_defaults();
	test_garbage();
	test_refusals();
	test_accepted();
	test_validate();
	test_sequences();
	test_pokes();
	test_add_size();
	return tu_failed ? 1 : 0;
}
