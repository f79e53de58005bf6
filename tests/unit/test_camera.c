// SPDX-License-Identifier: GPL-2.0
/*
 * test_camera.c - the camera controls of the generator (zoom, pan, tilt,
 * exposure, gain, white balance, gamma, backlight compensation, privacy)
 * against the formulas written in vivi_gen.h, computed here on their own:
 * the view in exact integer arithmetic, the sensor curve in integers and
 * double (gamma within 1).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kernel.h>

#include "tfmt.h"
#include "tutil.h"

static u8 font[256 * 16];

static struct dpx *decode(const struct tfmt *tf, u32 w, u32 h,
			  const struct vivi_gen_settings *s, u32 frame,
			  struct tbuf *keep)
{
	struct dpx *d = calloc((size_t)w * h, sizeof(*d));
	struct tbuf b;

	tbuf_alloc(&b, tf, w, h, 3);
	tbuf_fill(&b, 0x5a);
	if (tgen(&b, s, frame))
		tu_fail("%s %ux%u: fill failed", tf->name, w, h);
	if (tbuf_padding_damage(&b, 0x5a))
		tu_fail("%s %ux%u: padding written", tf->name, w, h);
	tdecode(&b, d);
	if (keep)
		*keep = b;
	else
		tbuf_free(&b);
	return d;
}

/* floor(n / d) mod size, d > 0 */
static long long wrap(long long n, long long d, long long size)
{
	long long q = n / d - (n % d < 0);

	q %= size;
	return q < 0 ? q + size : q;
}

/* The scene coordinate of frame coordinate @i: vivi_gen.h's formula */
static u32 view_at(u32 i, u32 size, u32 w, long long off, u32 zoom)
{
	/* (size/2 + off*w/F + (i + 1/2 - size/2) * 100/zoom) times 2*zoom*F */
	const long long f = 216000;
	long long n = (long long)size * zoom * f + 2 * off * w * zoom +
		      (2LL * i + 1 - size) * 100 * f;

	return wrap(n, 2LL * zoom * f, size);
}

/* Every pixel of the view is the scene's pixel the formula names. */
static void test_view(void)
{
	static const struct {
		u32 zoom;
		s32 pan, tilt;
		bool hflip, vflip;
	} v[] = {
		{ 200, 0, 0, 0, 0 }, { 100, 3600, 0, 0, 0 },
		{ 100, 0, -7200, 0, 0 }, { 137, 3600, -7200, 0, 0 },
		{ 500, -36000, 36000, 0, 0 }, { 250, 10800, 3600, 1, 1 },
		{ 333, -3600, 0, 1, 0 },
	};
	static const u32 size[][2] = { { 640, 480 }, { 161, 119 } };
	const struct tfmt *rgb = tfmt_find("RGB24");
	struct vivi_gen_settings s;
	unsigned int k, z, bad;
	u32 p, x, y, w, h, xs, ys;

	for (k = 0; k < ARRAY_SIZE(v); k++) {
		bad = 0;
		for (z = 0; z < ARRAY_SIZE(size); z++) {
			w = size[z][0];
			h = size[z][1];
			for (p = 0; p < VIVI_PAT_COUNT; p++) {
				struct dpx *ref, *d;

				tset_default(&s, p);
				s.motion_speed = 3;
				ref = decode(rgb, w, h, &s, 5, NULL);
				s.zoom = v[k].zoom;
				s.pan = v[k].pan;
				s.tilt = v[k].tilt;
				s.hflip = v[k].hflip;
				s.vflip = v[k].vflip;
				d = decode(rgb, w, h, &s, 5, NULL);
				/* ref is unflipped: flip it by hand */
				for (y = 0; y < h && !bad; y++) {
					u32 yp = v[k].vflip ? h - 1 - y : y;

					ys = view_at(yp, h, w, -v[k].tilt,
						     v[k].zoom);
					for (x = 0; x < w; x++) {
						u32 xp = v[k].hflip ?
							 w - 1 - x : x;
						const struct dpx *a, *b;

						xs = view_at(xp, w, w,
							     v[k].pan,
							     v[k].zoom);
						/* ref was drawn with flips off */
						a = &d[y * w + x];
						b = &ref[ys * w + xs];
						if (!memcmp(a, b, sizeof(*a)))
							continue;
						tu_fail("pattern %u %ux%u: (%u,%u) is %d,%d,%d, scene (%u,%u) %d,%d,%d",
							p, w, h, x, y, a->c[0],
							a->c[1], a->c[2], xs,
							ys, b->c[0], b->c[1],
							b->c[2]);
						bad = 1;
						break;
					}
				}
				free(ref);
				free(d);
			}
		}
		tu_done("camera/view zoom %u pan %d tilt %d%s%s", v[k].zoom,
			v[k].pan, v[k].tilt, v[k].hflip ? " hflip" : "",
			v[k].vflip ? " vflip" : "");
	}
}

/* Zoom 2x: the bars twice as wide, about the center */
static void test_zoom_bars(void)
{
	const struct tfmt *rgb = tfmt_find("RGB24");
	const u32 w = 640, h = 480;
	struct vivi_gen_settings s;
	struct dpx *d;
	u32 x, run = 0, runs[16], n = 0;

	tset_default(&s, VIVI_PAT_BARS75);
	s.zoom = 200;
	d = decode(rgb, w, h, &s, 0, NULL);
	for (x = 0; x < w; x++) {
		run++;
		if (x == w - 1 || memcmp(&d[240 * w + x], &d[240 * w + x + 1],
					 sizeof(*d))) {
			if (n < ARRAY_SIZE(runs))
				runs[n] = run;
			n++;
			run = 0;
		}
	}
	/* 80 px bars at 1x: 2x shows bars 2..5 of the scene, 160 px each */
	if (n != 4 || runs[0] != 160 || runs[1] != 160 || runs[2] != 160 ||
	    runs[3] != 160)
		tu_fail("%u runs: %u %u %u %u", n, runs[0], runs[1], runs[2],
			runs[3]);
	/* the middle bars meet at the center: green (0,191,0) left of 320 */
	if (d[240 * w + 319].c[0] != 0 || d[240 * w + 319].c[1] != 191 ||
	    d[240 * w + 320].c[0] != 191 || d[240 * w + 320].c[1] != 0)
		tu_fail("x 319/320: %d,%d,%d / %d,%d,%d", d[240 * w + 319].c[0],
			d[240 * w + 319].c[1], d[240 * w + 319].c[2],
			d[240 * w + 320].c[0], d[240 * w + 320].c[1],
			d[240 * w + 320].c[2]);
	free(d);
	tu_done("camera/zoom 2x doubles the bars about the center");
}

/* vivi_gen.h's sensor curve for channel @ch, on its own */
static int sensor(int v, int ch, const struct vivi_gen_settings *s)
{
	long long e = s->exposure ? s->exposure : 250;
	long long t = s->wb_temp ? s->wb_temp : 4000;
	long long num = v * e * (64 + s->gain), den = 250 * 64;
	int gamma = s->gamma ? s->gamma : 100, v1;

	if (ch == 0) {
		num *= t;
		den *= 4000;
	} else if (ch == 2) {
		num *= 4000;
		den *= t;
	}
	v1 = (2 * num + den) / (2 * den);
	if (v1 > 255)
		v1 = 255;
	v1 += (s->backlight * (255 - v1) + 4) / 8;
	return lround(255 * pow(v1 / 255.0, 100.0 / gamma));
}

struct sensor_case {
	u32 exposure, gain, wb, gamma, backlight;
};

static void set_sensor(struct vivi_gen_settings *s, u32 pattern,
		       const struct sensor_case *c)
{
	tset_default(s, pattern);
	s->exposure = c->exposure;
	s->gain = c->gain;
	s->wb_temp = c->wb;
	s->gamma = c->gamma;
	s->backlight = c->backlight;
}

/*
 * Every gray level (horizontal ramp, 256 wide) and the 75% bars, in every
 * format, against the formula; gamma may differ by 1, and so may the
 * Y'CbCr conversion of colors the exact tests never meet.
 */
static void test_sensor(void)
{
	static const struct sensor_case c[] = {
		{ 500, 0, 0, 0, 0 }, { 100, 0, 0, 0, 0 }, { 0, 64, 0, 0, 0 },
		{ 0, 255, 0, 0, 0 }, { 0, 0, 6500, 0, 0 }, { 0, 0, 2000, 0, 0 },
		{ 0, 0, 0, 200, 0 }, { 0, 0, 0, 72, 0 }, { 0, 0, 0, 0, 1 },
		{ 0, 0, 0, 0, 2 }, { 400, 10, 3000, 150, 1 },
	};
	struct vivi_gen_settings s;
	unsigned int k, i, bar, worst;
	int rgb[3], ch;

	for (k = 0; k < ARRAY_SIZE(c); k++) {
		worst = 0;
		for (i = 0; i < (unsigned int)ntfmts; i++) {
			const struct tfmt *tf = &tfmts[i];
			int yuv = tfmt_is_yuv(tf);
			/* Y16 carries 257 steps a level */
			int tol = tf->kind == TK_LUMA && tf->layout[0] == '1' ?
				  258 : 1;
			struct dpx *d, e;
			u32 x, w = 256, h = 4;

			if (tf->kind == TK_RGB && strcmp(tf->layout, "RGB"))
				continue;	/* RGB24 stands for them */
			set_sensor(&s, VIVI_PAT_HRAMP, &c[k]);
			d = decode(tf, w, h, &s, 0, NULL);
			for (x = 0; x < w; x++) {
				for (ch = 0; ch < 3; ch++)
					rgb[ch] = sensor(x, ch, &s);
				texpect(tf, x, 2, rgb, &e);
				for (ch = 0; ch < 3; ch++) {
					int got = d[2 * w + x].c[ch];
					unsigned int diff;

					/* chroma of a 4:2:2 pair: its own pixel */
					if (e.c[ch] < 0 || got < 0 ||
					    (yuv && ch && (x & 1)))
						continue;
					diff = abs(got - e.c[ch]);
					worst = max(worst, diff);
					if (diff > (unsigned int)tol)
						tu_fail("%s gray %u ch %d: %d, formula %d",
							tf->name, x, ch, got,
							e.c[ch]);
				}
			}
			free(d);
			/* the bars: colors through the sensor, bar centers */
			set_sensor(&s, VIVI_PAT_BARS75, &c[k]);
			w = 160;
			h = 8;
			d = decode(tf, w, h, &s, 0, NULL);
			for (bar = 0; bar < 8; bar++) {
				static const u8 bits[8] = { 7, 6, 3, 2, 5, 4,
							    1, 0 };

				x = (2 * bar + 1) * w / 16;
				for (ch = 0; ch < 3; ch++)
					rgb[ch] = sensor(bits[bar] & (4 >> ch) ?
							 191 : 0, ch, &s);
				texpect(tf, x, 2, rgb, &e);
				for (ch = 0; ch < 3; ch++) {
					int got = d[2 * w + x].c[ch];

					if (e.c[ch] < 0 || got < 0)
						continue;
					if (abs(got - e.c[ch]) > tol)
						tu_fail("%s bar %u ch %d: %d, formula %d",
							tf->name, bar, ch, got,
							e.c[ch]);
				}
			}
			free(d);
		}
		tu_done("camera/sensor exposure %u gain %u wb %u gamma %u backlight %u (worst error %u)",
			c[k].exposure, c[k].gain, c[k].wb, c[k].gamma,
			c[k].backlight, worst);
	}
}

/*
 * The camera controls at their default values give exactly the picture of
 * zero-initialised ones; privacy gives black with the stamp only.
 */
static void test_defaults_privacy(void)
{
	static const char *const text[VIVI_GEN_TEXT_LINES] = { "000042",
		"camera" };
	struct vivi_gen_settings s, t;
	struct tbuf a, b;
	unsigned int i, k;
	struct dpx *d;
	int rgb[3] = { 0, 0, 0 };

	for (i = 0; i < (unsigned int)ntfmts; i++) {
		const struct tfmt *tf = &tfmts[i];

		tset_default(&s, VIVI_PAT_BARS_BOX);
		s.motion_speed = 2;
		s.font = font;
		for (k = 0; k < VIVI_GEN_TEXT_LINES; k++)
			s.text[k] = text[k];
		t = s;
		t.zoom = VIVI_GEN_ZOOM_MIN;
		t.exposure = VIVI_GEN_EXPOSURE_REF;
		t.wb_temp = VIVI_GEN_WB_REF;
		t.gamma = VIVI_GEN_GAMMA_DEF;
		free(decode(tf, 161, 119, &s, 7, &a));
		free(decode(tf, 161, 119, &t, 7, &b));
		if (!tbuf_equal(&a, &b))
			tu_fail("%s: explicit defaults change the picture",
				tf->name);
		tbuf_free(&a);
		tbuf_free(&b);

		/* privacy: black, no text, whatever the other controls */
		t = s;
		t.privacy = true;
		t.brightness = 200;
		t.gain = 100;
		t.zoom = 300;
		d = decode(tf, 161, 119, &t, 7, NULL);
		for (k = 0; k < 161 * 119; k++) {
			struct dpx e;

			int ch, ok = 1;

			texpect(tf, k % 161, k / 161, rgb, &e);
			for (ch = 0; ch < 3; ch++)
				if (d[k].c[ch] >= 0 && e.c[ch] >= 0 &&
				    d[k].c[ch] != e.c[ch])
					ok = 0;
			if (!ok) {
				tu_fail("%s privacy: pixel %u is %d,%d,%d",
					tf->name, k, d[k].c[0], d[k].c[1],
					d[k].c[2]);
				break;
			}
		}
		free(d);
	}
	tu_done("camera/defaults exact, privacy black without text, every format");
}

int main(void)
{
	tu_make_font(font);
	test_defaults_privacy();
	test_zoom_bars();
	test_view();
	test_sensor();
	return tu_failed ? 1 : 0;
}
