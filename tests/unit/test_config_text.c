// SPDX-License-Identifier: GPL-2.0
/*
 * test_config_text.c - a device's settings as configfs text
 * (vivi_config_text.c) and the checks of sizes, rates and the power-on mode
 * (vivi_config.c): read-back of every setting, round trips, the bad
 * inputs (each refused with -EINVAL, the setting named, the config left
 * as it was), validate on combinations, and random sequences of writes
 * from a garbage-filled start, each result checked against this file's own
 * rendering of the value it wrote.
 *
 *   test_config_text [SEED]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vivi_config.h"
#include "tutil.h"

static u64 rng_state = 20261207;

static u32 rnd(u32 n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return n ? (u32)(rng_state >> 11) % n : 0;
}

static const char *name(enum vivi_config_attr a)
{
	return vivi_config_attr_name(a);
}

static int store(struct vivi_config *c, enum vivi_config_attr a,
		 const char *text, struct vivi_config_why *why)
{
	return vivi_config_store(c, a, text, strlen(text), why);
}

static const char *show(const struct vivi_config *c, enum vivi_config_attr a)
{
	static char buf[4096];

	vivi_config_show(c, a, buf, sizeof(buf));
	return buf;
}

/* What the defaults read as: the names and values docs/configfs.md gives */
static void test_show_defaults(void)
{
	static const char * const want[VIVI_CONFIG_ATTRS] = {
		"vivi 5\n", "-1\n", "1\n",
		"MJPG,YUYV,UYVY,YVYU,VYUY,YU12,YV12,422P,RGB3,BGR3,BX24,XR24,RGBP,RGBR,XR15,GREY,Y16,BA81,GBRG,GRBG,RGGB,NV12,NV21,NV16,NV61\n",
		"0\n", "0\n",
		"160x120,176x144,320x240,352x288,640x360,640x480,800x600,960x720,1024x768,1280x720,1920x1080,2560x1440,3840x2160\n",
		"120,60,50,30,25,15,25/2,10,5\n", "640x480\n", "30\n", "YUYV\n",
		"0\n", "1\n",
	};
	struct vivi_config c;
	unsigned int a;

	vivi_config_defaults(&c, 5);
	for (a = 0; a < VIVI_CONFIG_ATTRS; a++)
		if (strcmp(show(&c, a), want[a]))
			tu_fail("%s reads '%s', not '%s'", name(a), show(&c, a),
				want[a]);
	tu_done("config text: every setting of the defaults reads as the docs say");
}

/*
 * Writes that are taken, and what they read back as: lists come back in
 * ENUM order, rates reduced, a trailing newline is allowed
 */
static void test_accepted(void)
{
	static const struct {
		enum vivi_config_attr a;
		const char *in, *out;
	} ok[] = {
		{ VIVI_CONFIG_LABEL, "Desk cam\n", "Desk cam\n" },
		{ VIVI_CONFIG_LABEL, "abcdefghijklmnopqrstuvwxyz01234",
		  "abcdefghijklmnopqrstuvwxyz01234\n" },
		{ VIVI_CONFIG_VIDEO_NR, "42\n", "42\n" },
		{ VIVI_CONFIG_VIDEO_NR, "-1", "-1\n" },
		{ VIVI_CONFIG_VIDEO_NR, "255", "255\n" },
		{ VIVI_CONFIG_INPUTS, "4\n", "4\n" },
		{ VIVI_CONFIG_FORMATS, "YUYV,MJPG,Y16\n", "YUYV,MJPG,Y16\n" },
		{ VIVI_CONFIG_HDMI_INPUT, "1\n", "1\n" },
		{ VIVI_CONFIG_PRODUCER, "1\n", "1\n" },
		{ VIVI_CONFIG_CONSUMERS, "8\n", "8\n" },
		{ VIVI_CONFIG_CONSUMERS, "2", "2\n" },
		{ VIVI_CONFIG_FAULT_CONTROLS, "1", "1\n" },
		{ VIVI_CONFIG_SIZES, "1080x1920,2560x1080,1366x768\n",
		  "1366x768,1080x1920,2560x1080\n" },
		{ VIVI_CONFIG_SIZES, "16x16,8192x8192", "16x16,8192x8192\n" },
		{ VIVI_CONFIG_SIZES, "640x480", "640x480\n" },
		{ VIVI_CONFIG_RATES, "30000/1001,7.5\n", "30000/1001,15/2\n" },
		{ VIVI_CONFIG_RATES, "15/2,30,30000/1001,60/1",
		  "60,30,30000/1001,15/2\n" },
		{ VIVI_CONFIG_RATES, "240,0.1,29.97",
		  "240,2997/100,1/10\n" },
		{ VIVI_CONFIG_DEFAULT_SIZE, "1366x768\n", "1366x768\n" },
		{ VIVI_CONFIG_DEFAULT_RATE, "7.5\n", "15/2\n" },
		{ VIVI_CONFIG_DEFAULT_RATE, "60000/2002", "30000/1001\n" },
		{ VIVI_CONFIG_DEFAULT_FORMAT, "Y16\n", "Y16\n" },
		{ VIVI_CONFIG_DEFAULT_FORMAT, "MJPG", "MJPG\n" },
	};
	struct vivi_config_why why;
	struct vivi_config c;
	unsigned int i;

	vivi_config_defaults(&c, 0);
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		if (store(&c, ok[i].a, ok[i].in, &why))
			tu_fail("%s '%s' refused: %s%s", name(ok[i].a), ok[i].in,
				name(why.attr), why.text);
		else if (strcmp(show(&c, ok[i].a), ok[i].out))
			tu_fail("%s '%s' reads back '%s', not '%s'",
				name(ok[i].a), ok[i].in, show(&c, ok[i].a),
				ok[i].out);
	}
	/* the camera, whole: it validates */
	vivi_config_defaults(&c, 0);
	if (store(&c, VIVI_CONFIG_SIZES, "1080x1920,2560x1080,1366x768", &why) ||
	    store(&c, VIVI_CONFIG_RATES, "30000/1001,7.5", &why) ||
	    vivi_config_validate(&c, &why))
		tu_fail("1080x1920,2560x1080,1366x768 at 30000/1001,7.5: %s%s",
			name(why.attr), why.text);
	else if (strcmp(show(&c, VIVI_CONFIG_DEFAULT_SIZE), "1366x768\n") ||
		 strcmp(show(&c, VIVI_CONFIG_DEFAULT_RATE), "30000/1001\n"))
		tu_fail("the automatic power-on mode reads %s and %s",
			show(&c, VIVI_CONFIG_DEFAULT_SIZE),
			show(&c, VIVI_CONFIG_DEFAULT_RATE));
	tu_done("config text: %zu writes taken, each reading back in ENUM order, reduced; the issue's camera validates",
		sizeof(ok) / sizeof(ok[0]));
}

/* Every setting read and written back gives the same config */
static void test_round_trip(void)
{
	struct vivi_config c, d;
	struct vivi_config_why why;
	unsigned int a, n;

	for (n = 0; n < 3; n++) {
		vivi_config_defaults(&c, n);
		if (n > 0) {
			store(&c, VIVI_CONFIG_SIZES, "1280x720,641x481,32x16", &why);
			store(&c, VIVI_CONFIG_FORMATS, "MJPG,GREY,RGB3", &why);
			store(&c, VIVI_CONFIG_RATES, "29.97,5,1/3", &why);
		}
		if (n > 1) {
			store(&c, VIVI_CONFIG_DEFAULT_SIZE, "641x481", &why);
			store(&c, VIVI_CONFIG_DEFAULT_RATE, "5", &why);
			store(&c, VIVI_CONFIG_DEFAULT_FORMAT, "GREY", &why);
		}
		if (vivi_config_validate(&c, &why))
			tu_fail("case %u refused: %s%s", n, name(why.attr),
				why.text);
		d = c;
		for (a = 0; a < VIVI_CONFIG_ATTRS; a++) {
			char text[4096];

			strcpy(text, show(&c, a));
			if (store(&d, a, text, &why))
				tu_fail("case %u: %s '%s' does not read back in: %s",
					n, name(a), text, why.text);
			else if (strcmp(show(&d, a), text))
				tu_fail("case %u: %s '%s' reads back '%s'", n,
					name(a), text, show(&d, a));
		}
		if (vivi_config_validate(&d, &why))
			tu_fail("case %u: the copy is refused: %s%s", n,
				name(why.attr), why.text);
	}
	tu_done("config text: every setting reads back in as itself, and the copy validates");
}

static char long_text[4097];

/* The bad writes of the issue and more: -EINVAL, named, nothing changed */
static void test_refused(void)
{
	static char many_sizes[400], many_rates[100];
	const struct {
		enum vivi_config_attr a;
		const char *in;
	} bad[] = {
		{ VIVI_CONFIG_SIZES, "0x0" },
		{ VIVI_CONFIG_SIZES, "99999x2" },
		{ VIVI_CONFIG_SIZES, "15x16" },
		{ VIVI_CONFIG_SIZES, "8194x16" },
		{ VIVI_CONFIG_SIZES, "" },
		{ VIVI_CONFIG_SIZES, "\n" },
		{ VIVI_CONFIG_SIZES, many_sizes },
		{ VIVI_CONFIG_SIZES, "640x480,640x480" },
		{ VIVI_CONFIG_SIZES, "640x480," },
		{ VIVI_CONFIG_SIZES, ",640x480" },
		{ VIVI_CONFIG_SIZES, "640*480" },
		{ VIVI_CONFIG_SIZES, "640x480 " },
		{ VIVI_CONFIG_SIZES, "640x480\n\n" },
		{ VIVI_CONFIG_SIZES, "-640x480" },
		{ VIVI_CONFIG_SIZES, "4294967296x16" },
		{ VIVI_CONFIG_SIZES, long_text },
		{ VIVI_CONFIG_RATES, "" },
		{ VIVI_CONFIG_RATES, many_rates },
		{ VIVI_CONFIG_RATES, "0" },
		{ VIVI_CONFIG_RATES, "241" },
		{ VIVI_CONFIG_RATES, "1/11" },
		{ VIVI_CONFIG_RATES, "30/0" },
		{ VIVI_CONFIG_RATES, "30,60/2" },
		{ VIVI_CONFIG_RATES, "7.5555" },
		{ VIVI_CONFIG_RATES, "7." },
		{ VIVI_CONFIG_RATES, "30fps" },
		{ VIVI_CONFIG_RATES, "1000001/1000000" },
		{ VIVI_CONFIG_RATES, long_text },
		{ VIVI_CONFIG_LABEL, "" },
		{ VIVI_CONFIG_LABEL, "\n" },
		{ VIVI_CONFIG_LABEL, "abcdefghijklmnopqrstuvwxyz012345" },
		{ VIVI_CONFIG_LABEL, long_text },
		{ VIVI_CONFIG_VIDEO_NR, "256" },
		{ VIVI_CONFIG_VIDEO_NR, "-2" },
		{ VIVI_CONFIG_VIDEO_NR, "1e3" },
		{ VIVI_CONFIG_VIDEO_NR, "" },
		{ VIVI_CONFIG_INPUTS, "0" },
		{ VIVI_CONFIG_INPUTS, "5" },
		{ VIVI_CONFIG_INPUTS, "99999999999" },
		{ VIVI_CONFIG_FORMATS, "" },
		{ VIVI_CONFIG_FORMATS, "YUYV,FOO" },
		{ VIVI_CONFIG_FORMATS, "YUYV,YUYV" },
		{ VIVI_CONFIG_FORMATS, long_text },
		{ VIVI_CONFIG_HDMI_INPUT, "2" },
		{ VIVI_CONFIG_HDMI_INPUT, "yes" },
		{ VIVI_CONFIG_PRODUCER, "2" },
		{ VIVI_CONFIG_CONSUMERS, "0" },
		{ VIVI_CONFIG_CONSUMERS, "9" },
		{ VIVI_CONFIG_CONSUMERS, "-1" },
		{ VIVI_CONFIG_CONSUMERS, "2x" },
		{ VIVI_CONFIG_FAULT_CONTROLS, "" },
		{ VIVI_CONFIG_DEFAULT_SIZE, "0x0" },
		{ VIVI_CONFIG_DEFAULT_SIZE, "640x480,800x600" },
		{ VIVI_CONFIG_DEFAULT_RATE, "0" },
		{ VIVI_CONFIG_DEFAULT_RATE, "30,60" },
		{ VIVI_CONFIG_DEFAULT_FORMAT, "FOO" },
		{ VIVI_CONFIG_DEFAULT_FORMAT, "YUYV,NV12" },
		{ VIVI_CONFIG_DEFAULT_FORMAT, "" },
		{ VIVI_CONFIG_DEFAULT_FORMAT, long_text },
	};
	struct vivi_config c, before;
	struct vivi_config_why why;
	unsigned int i;
	int ret;

	memset(long_text, '7', sizeof(long_text) - 1);
	for (i = 0; i < 33; i++)
		sprintf(many_sizes + strlen(many_sizes), "%s%ux16", i ? "," : "",
			16 + 2 * i);
	for (i = 0; i < 17; i++)
		sprintf(many_rates + strlen(many_rates), "%s%u", i ? "," : "",
			i + 1);
	vivi_config_defaults(&c, 0);
	store(&c, VIVI_CONFIG_SIZES, "1280x720,320x240", &why);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		before = c;
		memset(&why, 0, sizeof(why));
		why.attr = VIVI_CONFIG_ATTRS;
		ret = store(&c, bad[i].a, bad[i].in, &why);
		if (ret != -EINVAL)
			tu_fail("%s '%.20s': %d, not -EINVAL", name(bad[i].a),
				bad[i].in, ret);
		else if (why.attr != bad[i].a)
			tu_fail("%s '%.20s': names %s", name(bad[i].a),
				bad[i].in, name(why.attr));
		else if (!why.text[0] || !memchr(why.text, 0, sizeof(why.text)))
			tu_fail("%s '%.20s': no reason", name(bad[i].a),
				bad[i].in);
		if (memcmp(&before, &c, sizeof(c)))
			tu_fail("%s '%.20s': the config changed", name(bad[i].a),
				bad[i].in);
	}
	tu_done("config text: %zu bad writes (0x0, 99999x2, empty lists, 33 sizes, 17 rates, junk, 4 KiB) refused with -EINVAL, named, nothing changed",
		sizeof(bad) / sizeof(bad[0]));
}

/* Combinations only the whole config can judge: validate names the setting */
static void test_combinations(void)
{
	static const struct {
		const char *sizes, *formats, *rates, *dsize, *drate, *dfmt;
		enum vivi_config_attr refused;	/* VIVI_CONFIG_ATTRS: taken */
	} cases[] = {
		{ "641x480", "NV12", NULL, NULL, NULL, NULL, VIVI_CONFIG_SIZES },
		{ "641x480", "YUYV", NULL, NULL, NULL, NULL, VIVI_CONFIG_SIZES },
		{ "640x481", "NV12", NULL, NULL, NULL, NULL, VIVI_CONFIG_SIZES },
		{ "640x481", "BA81", NULL, NULL, NULL, NULL, VIVI_CONFIG_SIZES },
		{ "640x481", "YUYV,NV16", NULL, NULL, NULL, NULL, VIVI_CONFIG_ATTRS },
		{ "641x481", "MJPG,GREY,RGB3,XR24,RGBP,Y16", NULL, NULL, NULL, NULL,
		  VIVI_CONFIG_ATTRS },
		{ "641x480", NULL, NULL, NULL, NULL, NULL, VIVI_CONFIG_SIZES },
		{ NULL, NULL, NULL, "1366x768", NULL, NULL,
		  VIVI_CONFIG_DEFAULT_SIZE },
		{ "1366x768", NULL, NULL, "1366x768", NULL, NULL,
		  VIVI_CONFIG_ATTRS },
		{ NULL, NULL, NULL, NULL, "7.5", NULL, VIVI_CONFIG_DEFAULT_RATE },
		{ NULL, NULL, "7.5", NULL, "15/2", NULL, VIVI_CONFIG_ATTRS },
		{ NULL, NULL, NULL, "1920x1080", "120", NULL,
		  VIVI_CONFIG_DEFAULT_RATE },
		{ NULL, NULL, NULL, "1280x720", "120", NULL, VIVI_CONFIG_ATTRS },
		{ NULL, NULL, "120", "1920x1080", "120", NULL, VIVI_CONFIG_ATTRS },
		{ NULL, "NV12", NULL, NULL, NULL, "YUYV",
		  VIVI_CONFIG_DEFAULT_FORMAT },
		{ NULL, "NV12,YUYV", NULL, NULL, NULL, "YUYV", VIVI_CONFIG_ATTRS },
	};
	struct vivi_config_why why;
	struct vivi_config c;
	unsigned int i;
	int ret;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		vivi_config_defaults(&c, 0);
		if ((cases[i].sizes &&
		     store(&c, VIVI_CONFIG_SIZES, cases[i].sizes, &why)) ||
		    (cases[i].formats &&
		     store(&c, VIVI_CONFIG_FORMATS, cases[i].formats, &why)) ||
		    (cases[i].rates &&
		     store(&c, VIVI_CONFIG_RATES, cases[i].rates, &why)) ||
		    (cases[i].dsize &&
		     store(&c, VIVI_CONFIG_DEFAULT_SIZE, cases[i].dsize, &why)) ||
		    (cases[i].drate &&
		     store(&c, VIVI_CONFIG_DEFAULT_RATE, cases[i].drate, &why)) ||
		    (cases[i].dfmt &&
		     store(&c, VIVI_CONFIG_DEFAULT_FORMAT, cases[i].dfmt, &why))) {
			tu_fail("case %u: a write was refused: %s%s", i,
				name(why.attr), why.text);
			continue;
		}
		why.attr = VIVI_CONFIG_ATTRS;
		ret = vivi_config_validate(&c, &why);
		if (cases[i].refused == VIVI_CONFIG_ATTRS && ret)
			tu_fail("case %u refused: %s%s", i, name(why.attr),
				why.text);
		else if (cases[i].refused != VIVI_CONFIG_ATTRS &&
			 (ret != -EINVAL || why.attr != cases[i].refused))
			tu_fail("case %u: %d naming %s, not %s", i, ret,
				name(why.attr), name(cases[i].refused));
	}
	tu_done("config text: %zu combinations (odd sizes against 4:2:0, 4:2:2, Bayer; defaults not listed or not offered) judged by validate, the setting named",
		sizeof(cases) / sizeof(cases[0]));
}

/* A random size list, its text and what it should read back as */
struct sizes_case {
	char text[1024];
	char want[1024];
	int ok;
};

static int cmp_size(const void *a, const void *b)
{
	const u32 *x = a, *y = b;
	unsigned long long ax = (unsigned long long)x[0] * x[1];
	unsigned long long ay = (unsigned long long)y[0] * y[1];

	return ax != ay ? (ax < ay ? -1 : 1) :
	       x[0] != y[0] ? (x[0] < y[0] ? -1 : 1) : 0;
}

static void random_sizes(struct sizes_case *k)
{
	u32 s[40][2];
	unsigned int n = rnd(10) ? 1 + rnd(6) : rnd(40), i, j;

	k->ok = n >= 1 && n <= 32;
	k->text[0] = k->want[0] = 0;
	for (i = 0; i < n; i++) {
		s[i][0] = rnd(4) ? 16 + rnd(2000) : rnd(9000);
		s[i][1] = rnd(4) ? 16 + rnd(2000) : rnd(9000);
		if (rnd(10) == 0 && i)
			memcpy(s[i], s[rnd(i)], sizeof(s[i]));
		if (s[i][0] < 16 || s[i][0] > 8192 || s[i][1] < 16 ||
		    s[i][1] > 8192)
			k->ok = 0;
		for (j = 0; j < i; j++)
			if (s[j][0] == s[i][0] && s[j][1] == s[i][1])
				k->ok = 0;
		sprintf(k->text + strlen(k->text), "%s%ux%u", i ? "," : "",
			s[i][0], s[i][1]);
	}
	if (!rnd(15)) {
		strcat(k->text, rnd(2) ? "," : "x");
		k->ok = 0;
	}
	if (rnd(2))
		strcat(k->text, "\n");
	qsort(s, n, sizeof(s[0]), cmp_size);
	for (i = 0; i < n; i++)
		sprintf(k->want + strlen(k->want), "%s%ux%u", i ? "," : "",
			s[i][0], s[i][1]);
	strcat(k->want, "\n");
}

static unsigned long long gcd(unsigned long long a, unsigned long long b)
{
	while (b) {
		unsigned long long r = a % b;

		a = b;
		b = r;
	}
	return a;
}

static int cmp_rate(const void *a, const void *b)
{
	const unsigned long long *x = a, *y = b;	/* fps: num, den */
	unsigned long long l = x[0] * y[1], r = y[0] * x[1];

	return l == r ? 0 : l > r ? -1 : 1;	/* fastest first */
}

/* Rates as "n/d", "n" or "n.f"; the model reduces and orders them itself */
static void random_rates(struct sizes_case *k)
{
	unsigned long long r[20][2];
	unsigned int n = rnd(10) ? 1 + rnd(5) : rnd(20), i, j;

	k->ok = n >= 1 && n <= 16;
	k->text[0] = k->want[0] = 0;
	for (i = 0; i < n; i++) {
		unsigned long long num, den, g;

		switch (rnd(3)) {
		case 0:
			num = rnd(300);
			sprintf(k->text + strlen(k->text), "%s%llu",
				i ? "," : "", num);
			den = 1;
			break;
		case 1:
			num = rnd(60000);
			den = 1 + rnd(3000);
			sprintf(k->text + strlen(k->text), "%s%llu/%llu",
				i ? "," : "", num, den);
			break;
		default:
			num = rnd(2500);
			den = 10;
			sprintf(k->text + strlen(k->text), "%s%llu.%llu",
				i ? "," : "", num / 10, num % 10);
			break;
		}
		g = gcd(num, den);
		r[i][0] = num / (g ?: 1);
		r[i][1] = den / (g ?: 1);
		/* 1/10 .. 240 fps */
		if (!num || num * 10 < den || num > 240 * den)
			k->ok = 0;
		for (j = 0; j < i; j++)
			if (r[j][0] * r[i][1] == r[i][0] * r[j][1])
				k->ok = 0;
	}
	qsort(r, n, sizeof(r[0]), cmp_rate);
	for (i = 0; i < n; i++) {
		if (r[i][1] == 1)
			sprintf(k->want + strlen(k->want), "%s%llu",
				i ? "," : "", r[i][0]);
		else
			sprintf(k->want + strlen(k->want), "%s%llu/%llu",
				i ? "," : "", r[i][0], r[i][1]);
	}
	strcat(k->want, "\n");
}

/*
 * Random writes of sizes and rates, on configs begun over garbage: a
 * write the model takes reads back as the model renders it, one it does
 * not is refused with the config unchanged; validate never takes a config
 * whose sizes or rates the model finds wrong
 */
static void test_sequences(void)
{
	static struct sizes_case k;
	struct vivi_config c, before;
	struct vivi_config_why why;
	unsigned int seq, step, writes = 0, refused = 0, valid = 0, i;
	int ret;

	for (seq = 0; seq < 3000; seq++) {
		for (i = 0; i < sizeof(c); i++)
			((u8 *)&c)[i] = rnd(256);
		vivi_config_defaults(&c, seq);
		for (step = 0; step < 12; step++, writes++) {
			enum vivi_config_attr a = rnd(2) ? VIVI_CONFIG_SIZES :
							   VIVI_CONFIG_RATES;

			if (a == VIVI_CONFIG_SIZES)
				random_sizes(&k);
			else
				random_rates(&k);
			before = c;
			ret = store(&c, a, k.text, &why);
			if (k.ok != !ret) {
				tu_fail("seq %u: %s '%.60s': %d, the model says %s",
					seq, name(a), k.text, ret,
					k.ok ? "take it" : "refuse it");
				goto out;
			}
			if (ret) {
				refused++;
				if (memcmp(&before, &c, sizeof(c)) ||
				    why.attr != a) {
					tu_fail("seq %u: a refused %s changed the config or named %s",
						seq, name(a), name(why.attr));
					goto out;
				}
			} else if (strcmp(show(&c, a), k.want)) {
				tu_fail("seq %u: %s '%.60s' reads '%.60s', not '%.60s'",
					seq, name(a), k.text, show(&c, a),
					k.want);
				goto out;
			}
			/* validate: sizes the formats cannot have are the one reason left */
			ret = vivi_config_validate(&c, &why);
			if (ret && why.attr != VIVI_CONFIG_SIZES) {
				tu_fail("seq %u: validate refuses %s%s", seq,
					name(why.attr), why.text);
				goto out;
			}
			valid += !ret;
		}
	}
out:
	tu_done("config text: %u random writes of sizes and rates from garbage-filled starts (%u refused) match the model; validate took %u configs",
		writes, refused, valid);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		rng_state = strtoull(argv[1], NULL, 0) ?: 1;
	test_show_defaults();
	test_accepted();
	test_round_trip();
	test_refused();
	test_combinations();
	test_sequences();
	return tu_failed ? 1 : 0;
}
