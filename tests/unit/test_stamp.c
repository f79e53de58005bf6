// SPDX-License-Identifier: GPL-2.0
/*
 * test_stamp.c - the frame stamp of the vivi pattern generator
 *
 * Every format draws the stamp exactly as vivi_gen.h defines it (cells,
 * margins, shared chroma) over patterns, flips, controls and text; the
 * decoder of tests/tools/vivi-stamp.h reads it back from the R'G'B' of the
 * frame (by tfmt.c's reference decoder), from that scaled to half size and
 * from MJPEG decoded by libjpeg. With the stamp off nothing changes, a
 * flipped cell fails the check and the template cache survives the stamp.
 *
 *   test_stamp [DIR]   DIR: also write R'G'B' frames as PPM there, with
 *                      frames.txt listing what each carries, for
 *                      test_stamp_js.js
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kernel.h>
#include <linux/videodev2.h>

#include "tfmt.h"
#include "tjpeg.h"
#include "tutil.h"
#include "vivi_jpeg.h"
#include "../tools/vivi-stamp.h"

#define MS44	((1ull << 44) - 1)

static const struct {
	u32 seq;
	u64 ms;
} vals[] = {
	{ 0, 0 },
	{ 0xffffffffu, ~0ull },
	{ 1, 1796000000000ull },
	{ 0x89abcdefu, 1796000123456ull },
	{ 0x12345678u, 0x0a5a5a5a5a5ull },
};

static u8 tfont[256 * 16];
static const char *const text_lines[VIVI_GEN_TEXT_LINES] = {
	"000012 00:00:00.400", "640x480 30fps YUYV", "B180 C90 S200 H45",
	"0123456789",
};

/* where test_stamp_js.js's frames go, if anywhere */
static const char *js_dir;
static FILE *js_list;

/* ---- the definition ------------------------------------------------- */

/* The layout of vivi_gen.h; on = 0 if no stamp fits */
struct tgeom {
	int on;
	u32 c, x0, y0;
};

static void tgeom_of(u32 w, u32 h, struct tgeom *g)
{
	g->c = w / 32;
	g->on = g->c >= 4 && h >= 3 * g->c;
	g->x0 = (w - 32 * g->c) / 2;
	g->y0 = g->on ? h - 3 * g->c : h;
}

/* The cell of pixel (x, y), or -1 */
static int tcell(const struct tgeom *g, u32 x, u32 y)
{
	if (!g->on || y < g->y0 || x < g->x0 || x >= g->x0 + 32 * g->c)
		return -1;
	return (y - g->y0) / g->c * 32 + (x - g->x0) / g->c;
}

/* The 96 bits: sync, seq, ms44, check, each MSB first */
static void tbits(u32 seq, u64 ms, u8 *bit)
{
	u64 m = ms & MS44;
	u32 sum = (seq & 0xffff) + (seq >> 16) + (m & 0xffff) +
		  ((m >> 16) & 0xffff) + (u32)(m >> 32);
	u32 check = ~sum & 0xffff;
	int i;

	for (i = 0; i < 4; i++)
		bit[i] = !(i & 1);
	for (i = 0; i < 32; i++)
		bit[4 + i] = (seq >> (31 - i)) & 1;
	for (i = 0; i < 44; i++)
		bit[36 + i] = (m >> (43 - i)) & 1;
	for (i = 0; i < 16; i++)
		bit[80 + i] = (check >> (15 - i)) & 1;
}

/* Settings of variant @v: 0 plain bars, then flips, controls, text... */
static void tsettings(struct vivi_gen_settings *s, int v, u32 seq, u64 ms)
{
	static const u32 pats[] = {
		VIVI_PAT_BARS75, VIVI_PAT_NOISE, VIVI_PAT_CHECKER,
		VIVI_PAT_WHITE, VIVI_PAT_BARS_BOX, VIVI_PAT_BLACK,
	};
	int i;

	tset_default(s, pats[v % ARRAY_SIZE(pats)]);
	s->stamp = true;
	s->stamp_seq = seq;
	s->stamp_ms = ms;
	if (!v)
		return;
	s->hflip = v & 1;
	s->vflip = !(v & 1) || v == 3;
	s->motion_speed = 3;
	s->brightness = 180;
	s->contrast = 90;
	s->saturation = 200;
	s->hue = 45;
	s->font = tfont;
	for (i = 0; i < VIVI_GEN_TEXT_LINES; i++)
		s->text[i] = text_lines[i];
}

/* ---- frames --------------------------------------------------------- */

static void tdraw(struct tbuf *b, const struct vivi_gen_settings *s,
		  u32 frame, void *scratch, const char *what)
{
	struct vivi_gen_frame f;

	tbuf_frame(b, &f);
	if (vivi_gen_fill(&f, s, frame, scratch))
		tu_fail("%s: fill failed", what);
}

static int tclamp(double v)
{
	return v < 0 ? 0 : v > 255 ? 255 : (int)(v + 0.5);
}

/*
 * R'G'B' (w * h * 3) of lines [ys, h) of @b (ys even, so that 4:2:0
 * chroma and the Bayer sites line up), black above. Bayer: each pixel
 * gray with its site's sample, which the stamp's gray cells need.
 */
static u8 *trgb(const struct tbuf *b, u32 ys)
{
	u8 *rgb = calloc((size_t)b->w * b->h, 3);
	struct dpx *d = calloc((size_t)b->w * (b->h - ys), sizeof(*d));
	struct tbuf v = *b;
	double c[3];
	size_t i, n = (size_t)b->w * (b->h - ys);
	int p, k;

	v.h = b->h - ys;
	for (p = 0; p < b->np; p++) {
		u32 r = p && b->tf->vsub == 2 ? ys / 2 : ys;

		v.plane[p] += (size_t)r * b->stride[p];
		v.rows[p] -= r;
	}
	tdecode(&v, d);
	for (i = 0; i < n; i++) {
		u8 *o = rgb + ((size_t)ys * b->w + i) * 3;

		tto_rgb(b->tf, &d[i], c);
		for (k = 0; k < 3; k++)
			o[k] = b->tf->kind == TK_BAYER ?
			       d[i].c[tbayer_ch(b->tf, i % b->w,
							 i / b->w)] :
			       tclamp(c[k]);
	}
	free(d);
	return rgb;
}

/* A 2x2 box average: the frame scaled to half size, from line @ys on */
static u8 *thalf(const u8 *rgb, u32 w, u32 h, u32 ys)
{
	u32 hw = w / 2, hh = h / 2, x, y, k;
	u8 *o = calloc((size_t)hw * hh, 3);
	const u8 *a, *b;

	for (y = ys / 2; y < hh; y++)
		for (x = 0; x < hw; x++)
			for (k = 0; k < 3; k++) {
				a = rgb + ((size_t)2 * y * w + 2 * x) * 3 + k;
				b = a + (size_t)w * 3;
				o[((size_t)y * hw + x) * 3 + k] =
					(a[0] + a[3] + b[0] + b[3] + 2) / 4;
			}
	return o;
}

/* Write @rgb for test_stamp_js.js, expecting @seq, @ms (or nothing) */
static void tjs_write(const char *name, const u8 *rgb, u32 w, u32 h,
		      int ok, u32 seq, u64 ms)
{
	char path[512];
	FILE *f;

	if (!js_list)
		return;
	snprintf(path, sizeof(path), "%s/%s.ppm", js_dir, name);
	f = fopen(path, "wb");
	if (!f || fprintf(f, "P6\n%u %u\n255\n", w, h) < 0 ||
	    fwrite(rgb, 3, (size_t)w * h, f) != (size_t)w * h) {
		tu_fail("cannot write %s", path);
	}
	if (f)
		fclose(f);
	if (ok)
		fprintf(js_list, "%s %u %u %u %llu\n", name, w, h, seq,
			(unsigned long long)(ms & MS44));
	else
		fprintf(js_list, "%s %u %u none\n", name, w, h);
}

/* The decoder gives @seq and @ms on @rgb */
static void texpect_decode(const u8 *rgb, u32 w, u32 h, u32 seq, u64 ms,
			   const char *what)
{
	u32 got_seq = 0;
	u64 got_ms = 0;

	if (vivi_stamp_decode(rgb, w, h, (size_t)w * 3, &got_seq, &got_ms))
		tu_fail("%s %ux%u: no stamp decoded", what, w, h);
	else if (got_seq != seq || got_ms != (ms & MS44))
		tu_fail("%s %ux%u: seq %u ms %llu, want %u %llu", what, w, h,
			got_seq, (unsigned long long)got_ms, seq,
			(unsigned long long)(ms & MS44));
}

/* ---- every format draws it exactly ---------------------------------- */

/* Does the chroma sample of pixel (x, y) cover a cell pixel? */
static int tshared(const struct tfmt *tf, const struct tgeom *g, u32 w,
		   u32 h, u32 x, u32 y)
{
	u32 xa = x & ~1u, ya = tf->vsub == 2 ? y & ~1u : y;
	u32 xb = min(xa + 1, w - 1), yb = tf->vsub == 2 ? min(ya + 1, h - 1) : y;

	return tcell(g, xa, ya) >= 0 || tcell(g, xb, ya) >= 0 ||
	       tcell(g, xa, yb) >= 0 || tcell(g, xb, yb) >= 0;
}

/*
 * One pixel of the stamped frame @a against the same frame without the
 * stamp @b: a cell pixel is exactly white or black; any other keeps the
 * picture, but for chroma shared with a cell, which is neutral.
 */
static int tpixel(const struct tfmt *tf, const struct tgeom *g, u32 w,
		  u32 h, u32 x, u32 y, const struct dpx *a,
		  const struct dpx *b, const u8 *bit)
{
	static const int white[3] = { 255, 255, 255 }, black[3];
	int i = tcell(g, x, y), k;
	struct dpx e = *b;

	if (i >= 0) {
		texpect(tf, x, y, bit[i] ? white : black, &e);
	} else if (tfmt_is_yuv(tf) && tshared(tf, g, w, h, x, y)) {
		e.c[1] = 128;
		e.c[2] = 128;
	}
	/* no chroma where an odd width cuts the macropixel */
	for (k = 0; k < 3; k++)
		if (e.c[k] >= 0 && a->c[k] != e.c[k] &&
		    !(k && tfmt_is_yuv(tf) && a->c[k] < 0 && b->c[k] < 0))
			return 0;
	return 1;
}

static struct dpx *tdecode_all(const struct tbuf *b)
{
	struct dpx *d = calloc((size_t)b->w * b->h, sizeof(*d));

	if (tdecode(b, d))
		tu_fail("%s: X field not all ones", b->tf->name);
	return d;
}

/* Stamped and unstamped frames of @s agree pixel by pixel as defined. */
static void texact_one(const struct tfmt *tf, u32 w, u32 h,
		       struct vivi_gen_settings *s, u32 frame)
{
	struct dpx *da, *db;
	struct tbuf a, b;
	struct tgeom g;
	u8 bit[96];
	u32 x, y;
	int bad = 0;

	tgeom_of(w, h, &g);
	tbits(s->stamp_seq, s->stamp_ms, bit);
	tbuf_alloc(&a, tf, w, h, 3);
	tbuf_alloc(&b, tf, w, h, 3);
	tbuf_fill(&a, 0xa5);
	if (tgen(&a, s, frame))
		tu_fail("%ux%u: fill failed", w, h);
	if (tbuf_padding_damage(&a, 0xa5))
		tu_fail("%ux%u: padding written", w, h);
	s->stamp = false;
	if (tgen(&b, s, frame))
		tu_fail("%ux%u: fill failed", w, h);
	s->stamp = true;
	da = tdecode_all(&a);
	db = tdecode_all(&b);
	for (y = 0; y < h && bad < 3; y++)
		for (x = 0; x < w && bad < 3; x++) {
			size_t k = (size_t)y * w + x;

			if (tpixel(tf, &g, w, h, x, y, &da[k], &db[k], bit))
				continue;
			tu_fail("%ux%u pattern %u (%u,%u) cell %d: %d,%d,%d (picture %d,%d,%d)",
				w, h, s->pattern, x, y, tcell(&g, x, y),
				da[k].c[0], da[k].c[1], da[k].c[2], db[k].c[0],
				db[k].c[1], db[k].c[2]);
			bad++;
		}
	free(da);
	free(db);
	tbuf_free(&a);
	tbuf_free(&b);
}

/*
 * Sizes with odd x0 (the margin pixel shares a macropixel) and odd y0
 * (the 4:2:0 chroma line over the top edge), the smallest cell, a stamp
 * that fills the frame, and sizes too small for one.
 */
static void test_exact(void)
{
	static const u32 sizes[][2] = {
		{ 160, 120 }, { 176, 144 }, { 138, 61 }, { 171, 100 },
		{ 128, 12 }, { 133, 13 }, { 127, 100 }, { 320, 29 },
	};
	struct vivi_gen_settings s;
	unsigned int z;
	int i, v;

	for (i = 0; i < ntfmts; i++) {
		for (z = 0; z < ARRAY_SIZE(sizes); z++)
			for (v = 0; v < 6; v++) {
				tsettings(&s, v, vals[(z + v) % 5].seq,
					  vals[(z + v) % 5].ms);
				texact_one(&tfmts[i], sizes[z][0], sizes[z][1],
					   &s, 7 + v);
			}
		tu_done("stamp/exact/%s", tfmts[i].name);
	}
}

/* ---- decoded from every format, at full and half size --------------- */

/* The frames for test_stamp_js.js: one per kind of format */
static int tjs_pick(const struct tfmt *tf, u32 w, int v, int k)
{
	if (v || k != 3)
		return 0;
	return (!strcmp(tf->name, "YUYV") && w == 640) ||
	       (!strcmp(tf->name, "YUV420") && w == 160) ||
	       (!strcmp(tf->name, "RGB24") && w == 176) ||
	       (!strcmp(tf->name, "SGRBG8") && w == 352) ||
	       (!strcmp(tf->name, "NV12") && w == 1280);
}

static void tdecode_one(struct tbuf *b, const struct vivi_gen_settings *s,
			u32 frame, void *scratch, int js)
{
	const struct tfmt *tf = b->tf;
	u32 w = b->w, h = b->h;
	struct tgeom g;
	u8 *rgb, *half;
	char what[96];
	u32 seq, ys;
	u64 ms;

	snprintf(what, sizeof(what), "%s pattern %u", tf->name, s->pattern);
	tgeom_of(w, h, &g);
	tdraw(b, s, frame, scratch, what);
	/* the stamp's lines are enough; the whole picture for the JS test */
	ys = js ? 0 : g.y0 & ~1u;
	rgb = trgb(b, ys);
	texpect_decode(rgb, w, h, s->stamp_seq, s->stamp_ms, what);
	half = thalf(rgb, w, h, ys);
	texpect_decode(half, w / 2, h / 2, s->stamp_seq, s->stamp_ms, what);
	/* 8-bit luma planes decode as they are */
	if (tf->kind == TK_PLANAR || tf->kind == TK_SEMI ||
	    (tf->kind == TK_LUMA && tf->layout[0] == '8')) {
		if (vivi_stamp_decode_luma(b->plane[0], w, h, b->stride[0],
					   &seq, &ms) ||
		    seq != s->stamp_seq || ms != (s->stamp_ms & MS44))
			tu_fail("%s %ux%u: luma plane does not decode", what,
				w, h);
	}
	if (js) {
		snprintf(what, sizeof(what), "%s-%ux%u", tf->name, w, h);
		tjs_write(what, rgb, w, h, 1, s->stamp_seq, s->stamp_ms);
		snprintf(what, sizeof(what), "%s-%ux%u-half", tf->name, w, h);
		tjs_write(what, half, w / 2, h / 2, 1, s->stamp_seq,
			  s->stamp_ms);
	}
	free(half);
	free(rgb);
}

static void test_decode(void)
{
	static const u32 sizes[][2] = {
		{ 160, 120 }, { 176, 144 }, { 352, 288 }, { 640, 480 },
		{ 1280, 720 }, { 1920, 1080 },
	};
	struct vivi_gen_settings s;
	unsigned int z, k;
	struct tbuf b;
	void *scratch;
	int i, v;

	for (i = 0; i < ntfmts; i++) {
		for (z = 0; z < ARRAY_SIZE(sizes); z++) {
			scratch = malloc(vivi_gen_scratch_size(sizes[z][0]));
			tbuf_alloc(&b, &tfmts[i], sizes[z][0], sizes[z][1], 0);
			for (k = 0; k < ARRAY_SIZE(vals); k++)
				for (v = 0; v < 2; v++) {
					tsettings(&s, v ? 1 + (k + z) % 5 : 0,
						  vals[k].seq, vals[k].ms);
					tdecode_one(&b, &s, k, scratch,
						    tjs_pick(&tfmts[i],
							     sizes[z][0], v,
							     k));
				}
			tbuf_free(&b);
			free(scratch);
		}
		tu_done("stamp/decode/%s", tfmts[i].name);
	}
}

/* ---- through MJPEG -------------------------------------------------- */

static void tmjpeg_one(u32 w, u32 h, u32 q, int v, u32 seq, u64 ms, int js)
{
	struct vivi_gen_settings s;
	char what[96];
	u8 *jpg, *rgb, *half;
	size_t n;

	snprintf(what, sizeof(what), "MJPEG q%u v%d", q, v);
	tsettings(&s, v, seq, ms);
	jpg = tencode(&s, 9, w, h, q, &n, what);
	if (!jpg)
		return;
	rgb = malloc((size_t)w * h * 3);
	if (!tdecode_jpeg(jpg, n, w, h, rgb, NULL, what)) {
		texpect_decode(rgb, w, h, seq, ms, what);
		half = thalf(rgb, w, h, 0);
		texpect_decode(half, w / 2, h / 2, seq, ms, what);
		if (js) {
			snprintf(what, sizeof(what), "MJPEG-q%u-%ux%u", q, w, h);
			tjs_write(what, rgb, w, h, 1, seq, ms);
			snprintf(what, sizeof(what), "MJPEG-q%u-%ux%u-half", q,
				 w, h);
			tjs_write(what, half, w / 2, h / 2, 1, seq, ms);
		}
		free(half);
	}
	free(rgb);
	free(jpg);
}

static void test_mjpeg(void)
{
	static const u32 sizes[][2] = {
		{ 160, 120 }, { 176, 144 }, { 352, 288 }, { 640, 480 },
		{ 1280, 720 }, { 1920, 1080 },
	};
	static const u32 qs[] = { 95, 50 };
	unsigned int z, i, k;

	for (i = 0; i < ARRAY_SIZE(qs); i++) {
		for (z = 0; z < ARRAY_SIZE(sizes); z++)
			for (k = 0; k < 2; k++)
				tmjpeg_one(sizes[z][0], sizes[z][1], qs[i],
					   k ? 1 + z % 5 : 0,
					   vals[(z + k) % 5].seq,
					   vals[(z + k + 2) % 5].ms,
					   z == 2 && !k);
		tu_done("stamp/mjpeg/q%u", qs[i]);
	}
}

/* ---- the check ------------------------------------------------------ */

/* Each cell turned to its opposite makes the frame undecodable. */
static void tcorrupt(u32 w, u32 h)
{
	const struct tfmt *tf = tfmt_find("RGB24");
	struct vivi_gen_settings s;
	struct tgeom g;
	struct tbuf b;
	u32 x, y, seq;
	u8 *rgb, *bad, bit[96];
	char name[32];
	u64 ms;
	int i;

	tgeom_of(w, h, &g);
	tsettings(&s, 0, vals[3].seq, vals[3].ms);
	tbits(s.stamp_seq, s.stamp_ms, bit);
	tbuf_alloc(&b, tf, w, h, 0);
	if (tgen(&b, &s, 0))
		tu_fail("fill failed");
	rgb = trgb(&b, 0);
	bad = malloc((size_t)w * h * 3);
	for (i = 0; i < 96; i++) {
		memcpy(bad, rgb, (size_t)w * h * 3);
		for (y = 0; y < h; y++)
			for (x = 0; x < w; x++)
				if (tcell(&g, x, y) == i)
					memset(bad + ((size_t)y * w + x) * 3,
					       bit[i] ? 0 : 255, 3);
		if (!vivi_stamp_decode(bad, w, h, (size_t)w * 3, &seq, &ms))
			tu_fail("%ux%u: cell %d flipped, still decodes", w, h,
				i);
		if (i == 50) {
			snprintf(name, sizeof(name), "corrupt-%ux%u", w, h);
			tjs_write(name, bad, w, h, 0, 0, 0);
		}
	}
	free(bad);
	free(rgb);
	tbuf_free(&b);
}

/* A frame without a stamp, and blank frames, give nothing. */
static void tno_stamp(u32 w, u32 h, u32 pattern)
{
	const struct tfmt *tf = tfmt_find("RGB24");
	struct vivi_gen_settings s;
	struct tbuf b;
	u32 seq;
	u64 ms;
	u8 *rgb;

	tset_default(&s, pattern);
	tbuf_alloc(&b, tf, w, h, 0);
	if (tgen(&b, &s, 0))
		tu_fail("fill failed");
	rgb = trgb(&b, 0);
	if (!vivi_stamp_decode(rgb, w, h, (size_t)w * 3, &seq, &ms))
		tu_fail("%ux%u pattern %u: a stamp where there is none", w, h,
			pattern);
	free(rgb);
	tbuf_free(&b);
}

static void test_check(void)
{
	static const u32 pats[] = {
		VIVI_PAT_BARS75, VIVI_PAT_BLACK, VIVI_PAT_WHITE,
		VIVI_PAT_CHECKER, VIVI_PAT_NOISE,
	};
	unsigned int i;

	tcorrupt(160, 120);
	tcorrupt(640, 480);
	for (i = 0; i < ARRAY_SIZE(pats); i++) {
		tno_stamp(160, 120, pats[i]);
		tno_stamp(1280, 720, pats[i]);
	}
	tu_done("stamp/check");
}

/* ---- stamp off, and the template cache ------------------------------ */

/* With stamp false, seq and ms change nothing. */
static void test_off(void)
{
	static const u32 sizes[][2] = { { 64, 48 }, { 160, 120 } };
	struct vivi_gen_settings s, z;
	struct tbuf a, b;
	unsigned int k;
	int i, v;

	for (i = 0; i < ntfmts; i++)
		for (k = 0; k < ARRAY_SIZE(sizes); k++)
			for (v = 0; v < 6; v++) {
				tsettings(&s, v, vals[1 + v % 4].seq,
					  vals[1 + v % 4].ms);
				s.stamp = false;
				z = s;
				z.stamp_seq = 0;
				z.stamp_ms = 0;
				tbuf_alloc(&a, &tfmts[i], sizes[k][0],
					   sizes[k][1], 2);
				tbuf_alloc(&b, &tfmts[i], sizes[k][0],
					   sizes[k][1], 2);
				if (tgen(&a, &s, 4) || tgen(&b, &z, 4) ||
				    !tbuf_equal(&a, &b))
					tu_fail("%s %ux%u v%d: stamp off draws",
						tfmts[i].name, sizes[k][0],
						sizes[k][1], v);
				tbuf_free(&a);
				tbuf_free(&b);
			}
	tu_done("stamp/off");
}

/*
 * One scratch area over a stream whose stamp changes every frame, is
 * turned off and on, with text coming and going: every frame equals a
 * draw from a fresh scratch area.
 */
static void treuse(const struct tfmt *tf, u32 w, u32 h)
{
	u8 *scratch = malloc(vivi_gen_scratch_size(w));
	struct vivi_gen_settings s;
	struct tbuf a, b;
	u32 f;

	tbuf_alloc(&a, tf, w, h, 0);
	tbuf_alloc(&b, tf, w, h, 0);
	for (f = 0; f < 16; f++) {
		tsettings(&s, f / 4 % 2 ? 2 : 0, 1000 + f,
			  1796000000000ull + 33 * f);
		s.stamp = f % 5 != 4;
		if (f % 3 == 2) {
			s.font = tfont;
			s.text[0] = "reuse";
		}
		tdraw(&a, &s, f, scratch, tf->name);
		if (tgen(&b, &s, f) || !tbuf_equal(&a, &b))
			tu_fail("%s %ux%u frame %u: differs from a fresh draw",
				tf->name, w, h, f);
	}
	tbuf_free(&a);
	tbuf_free(&b);
	free(scratch);
}

static void test_reuse(void)
{
	int i;

	for (i = 0; i < ntfmts; i++) {
		treuse(&tfmts[i], 160, 120);
		treuse(&tfmts[i], 171, 100);
	}
	tu_done("stamp/reuse");
}

int main(int argc, char **argv)
{
	char path[512];

	tu_make_font(tfont);
	if (argc > 1) {
		js_dir = argv[1];
		snprintf(path, sizeof(path), "%s/frames.txt", js_dir);
		js_list = fopen(path, "w");
		if (!js_list) {
			perror(path);
			return 2;
		}
	}
	test_off();
	test_exact();
	test_decode();
	test_mjpeg();
	test_check();
	test_reuse();
	if (js_list && fclose(js_list)) {
		perror("frames.txt");
		return 2;
	}
	return tu_failed ? 1 : 0;
}
