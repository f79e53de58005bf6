// SPDX-License-Identifier: GPL-2.0
/*
 * test_scale.c - the scaler and frame converter (vivi_scale.c):
 * - geometry: the crop and picture rectangles of each aspect against
 *   doubles, for known and random sizes;
 * - identity: the same format and size copies every format exactly, with
 *   the same and with other strides, whole and as a band; canonical lines
 *   scaled to their own size come back exactly;
 * - flat: a constant colour stays constant through shrinking, enlarging
 *   and every aspect, for every ordered pair of formats, the bars black;
 * - box: a 2:1 shrink is the mean of each 2 x 2 block, rounded half up;
 * - area and bilinear: fractional shrinks and enlargements within 1 of a
 *   reference written here in doubles from the definitions;
 * - letterbox: the bars are each format's black and the picture lies in
 *   its rectangle, read back by tfmt.c's decoder; crop: the centre;
 * - extremes: 16x16 to 3840x2160 and back, odd sizes;
 * - pairs: every ordered pair of the 24 formats at one size (even, odd,
 *   one pixel wide), other strides, against the reference conversion of
 *   tconv.c;
 * - random: 2000 random sizes, strides, aspects, format pairs and bands,
 *   scratch full of garbage, under ASan: flat stays flat, nothing past a
 *   line is written, bands equal the whole frame;
 * - errors.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/videodev2.h>

#include "tconv.h"
#include "tfmt.h"
#include "tutil.h"
#include "vivi_gen.h"
#include "vivi_pack.h"
#include "vivi_scale.h"

static const char *const aspects[] = { "crop", "letterbox", "stretch" };

/* ---- references ----------------------------------------------------- */

static int rnd_half_up(double v)
{
	return (int)floor(v + 0.5);
}

/* The geometry, from its definition in doubles */
static void ref_geometry(u32 sw, u32 sh, u32 dw, u32 dh, u32 aspect,
			 struct vivi_rect *crop, struct vivi_rect *pic)
{
	double rs = (double)sw / sh, rd = (double)dw / dh;

	*crop = (struct vivi_rect){ 0, 0, sw, sh };
	*pic = (struct vivi_rect){ 0, 0, dw, dh };
	if (aspect == VIVI_ASPECT_CROP) {
		if (rs > rd)
			crop->w = clamp(rnd_half_up(sh * rd), 1, (int)sw);
		else if (rs < rd)
			crop->h = clamp(rnd_half_up(sw / rd), 1, (int)sh);
		crop->x = (sw - crop->w) / 2;
		crop->y = (sh - crop->h) / 2;
	} else if (aspect == VIVI_ASPECT_LETTERBOX) {
		if (rs > rd)
			pic->h = clamp(rnd_half_up(dw / rs), 1, (int)dh);
		else if (rs < rd)
			pic->w = clamp(rnd_half_up(dh * rs), 1, (int)dw);
		pic->x = (dw - pic->w) / 2;
		pic->y = (dh - pic->h) / 2;
	}
}

/*
 * Output sample @i of an axis of @in to @out samples as weights of input
 * samples: the mean over [i * in / out, (i + 1) * in / out) when
 * shrinking, linear at (i + 1/2) * in / out - 1/2, clamped, when
 * enlarging; returns the number of taps
 */
static int ref_taps(u32 in, u32 out, u32 i, int *idx, double *w)
{
	double lo, hi, p, ov;
	int n = 0, j;

	if (in >= out) {
		lo = (double)i * in / out;
		hi = (double)(i + 1) * in / out;
		for (j = (int)floor(lo); j < hi; j++) {
			ov = fmin(j + 1, hi) - fmax(j, lo);
			if (ov > 0) {
				idx[n] = j;
				w[n++] = ov / (hi - lo);
			}
		}
		return n;
	}
	p = fmax(0, fmin((i + 0.5) * in / out - 0.5, in - 1));
	j = (int)floor(p);
	idx[0] = j;
	w[0] = 1 - (p - j);
	if (j + 1 >= (int)in)
		return 1;
	idx[1] = j + 1;
	w[1] = p - j;
	return 2;
}

static const u8 blacks[VIVI_CANON_COUNT][3] = {
	[VIVI_CANON_RGB] = { 0, 0, 0 },
	[VIVI_CANON_YCC_LIM] = { 16, 128, 128 },
	[VIVI_CANON_YCC_FULL] = { 0, 128, 128 },
};

/* The taps of every output sample of an axis */
struct ref_axis {
	int max, *n, *idx;
	double *w;
};

static void ref_axis_init(struct ref_axis *a, u32 in, u32 out)
{
	u32 i;

	a->max = in / out + 3;
	a->n = tc_malloc(sizeof(int) * out);
	a->idx = tc_malloc(sizeof(int) * out * a->max);
	a->w = tc_malloc(sizeof(double) * out * a->max);
	for (i = 0; i < out; i++)
		a->n[i] = ref_taps(in, out, i, a->idx + i * a->max,
				   a->w + i * a->max);
}

static void ref_axis_free(struct ref_axis *a)
{
	free(a->n);
	free(a->idx);
	free(a->w);
}

/* @src scaled into @dst by the definitions, in doubles, rounded */
static void ref_scale(const struct clines *src, struct clines *dst,
		      u32 aspect)
{
	struct vivi_rect crop, pic;
	struct ref_axis ax, ay;
	u32 x, y, ch;
	int i, j, *xi, *yi;
	double v, *xw, *yw;
	const u8 *s;
	u8 *d;

	ref_geometry(src->w, src->h, dst->w, dst->h, aspect, &crop, &pic);
	ref_axis_init(&ax, crop.w, pic.w);
	ref_axis_init(&ay, crop.h, pic.h);
	for (y = 0; y < dst->h; y++)
		for (x = 0; x < dst->w; x++) {
			d = clines_px(dst, x, y);
			if (x < pic.x || x >= pic.x + pic.w || y < pic.y ||
			    y >= pic.y + pic.h) {
				memcpy(d, blacks[dst->l.kind], 3);
				continue;
			}
			xi = ax.idx + (x - pic.x) * ax.max;
			xw = ax.w + (x - pic.x) * ax.max;
			yi = ay.idx + (y - pic.y) * ay.max;
			yw = ay.w + (y - pic.y) * ay.max;
			for (ch = 0; ch < 3; ch++) {
				v = 0;
				for (j = 0; j < ay.n[y - pic.y]; j++)
					for (i = 0; i < ax.n[x - pic.x]; i++) {
						s = clines_px(src, crop.x + xi[i],
							      crop.y + yi[j]);
						v += yw[j] * xw[i] * s[ch];
					}
				d[ch] = clamp(rnd_half_up(v), 0, 255);
			}
		}
	ref_axis_free(&ax);
	ref_axis_free(&ay);
}

/* ---- helpers -------------------------------------------------------- */

/* @n + 1 bytes full of garbage: scratch at an odd address, @p + 1 */
static u8 *garbage(size_t n)
{
	u8 *p = tc_malloc(n + 1);
	size_t i;
	u32 v;

	for (i = 0; i < n + 1; i += 4) {
		v = tc_rnd32();
		memcpy(p + i, &v, min_t(size_t, 4, n + 1 - i));
	}
	return p;
}

/* vivi_scale_frame() with exactly sized scratch full of garbage */
static int convert(const struct tbuf *a, struct tbuf *b, u32 aspect)
{
	u8 *scratch = garbage(vivi_scale_scratch_size(a->w, b->w));
	struct vivi_gen_frame f, g;
	int ret;

	tbuf_frame(a, &f);
	tbuf_frame(b, &g);
	ret = vivi_scale_frame(&f, &g, aspect, scratch + 1);
	free(scratch);
	return ret;
}

/* A canonical frame of random bytes */
static void clines_random(struct clines *c, u32 w, u32 h, u32 kind)
{
	size_t i;

	clines_alloc(c, w, h, kind);
	for (i = 0; i < (size_t)w * h * 3; i++)
		c->l.data[i] = tc_rnd32();
}

/* Pixels [x0, x0 + w) x [y0, y0 + h) of @c set to @col */
static void clines_rect(struct clines *c, const struct vivi_rect *r,
			const u8 *col)
{
	u32 x, y;

	for (y = r->y; y < r->y + r->h; y++)
		for (x = r->x; x < r->x + r->w; x++)
			memcpy(clines_px(c, x, y), col, 3);
}

static void clines_fill(struct clines *c, const u8 *col)
{
	struct vivi_rect all = { 0, 0, c->w, c->h };

	clines_rect(c, &all, col);
}

/* The scaler's source: lines of a canonical frame, copied or in place */
struct csrc {
	const struct clines *c;
	bool copy;
};

static const u8 *csrc_line(void *ctx, u32 y, u8 *buf)
{
	const struct csrc *s = ctx;
	const u8 *line = clines_px(s->c, 0, y);

	if (!s->copy)
		return line;
	memcpy(buf, line, 3 * s->c->w);
	return buf;
}

/*
 * @src scaled into @dst through vivi_scale_init() and vivi_scale_lines(),
 * in runs of @run lines, the source lines copied into the scaler's buffer
 * or given in place
 */
static int scale_clines(const struct clines *src, struct clines *dst,
			u32 aspect, bool copy, u32 run)
{
	struct csrc cs = { src, copy };
	struct vivi_scale s = {
		.sw = src->w, .sh = src->h, .dw = dst->w, .dh = dst->h,
		.aspect = aspect, .kind = dst->l.kind, .line = csrc_line,
		.ctx = &cs,
	};
	u8 *scratch = garbage(vivi_scale_scratch_size(src->w, dst->w));
	struct vivi_lines l = dst->l;
	u32 y, n;
	int ret;

	ret = vivi_scale_init(&s, scratch + 1);
	for (y = 0; !ret && y < dst->h; y += n) {
		n = min(run, dst->h - y);
		l.data = clines_px(dst, 0, y);
		ret = vivi_scale_lines(&s, y, n, &l);
	}
	free(scratch);
	return ret;
}

/* Samples compared by scale_vs_ref(), and how many differed */
static size_t ref_samples, ref_off;

/*
 * Lines asked for backwards, from one scaler: the same as in order (the
 * lines kept filtered are found by their number, whatever came before)
 */
static void any_order(u32 sw, u32 sh, u32 dw, u32 dh, u32 aspect)
{
	struct clines src, a, b;
	struct csrc cs = { &src, false };
	struct vivi_scale s = {
		.sw = sw, .sh = sh, .dw = dw, .dh = dh, .aspect = aspect,
		.kind = VIVI_CANON_RGB, .line = csrc_line, .ctx = &cs,
	};
	u8 *scratch = garbage(vivi_scale_scratch_size(sw, dw));
	struct vivi_lines l;
	u32 y;

	clines_random(&src, sw, sh, VIVI_CANON_RGB);
	clines_alloc(&a, dw, dh, VIVI_CANON_RGB);
	clines_alloc(&b, dw, dh, VIVI_CANON_RGB);
	l = b.l;
	if (scale_clines(&src, &a, aspect, false, 4) ||
	    vivi_scale_init(&s, scratch + 1))
		tu_fail("%ux%u to %ux%u: refused", sw, sh, dw, dh);
	for (y = dh; y-- > 0;) {
		l.data = clines_px(&b, 0, y);
		if (vivi_scale_lines(&s, y, 1, &l))
			tu_fail("%ux%u to %ux%u: line %u refused", sw, sh, dw,
				dh, y);
	}
	if (memcmp(a.l.data, b.l.data, (size_t)dw * dh * 3))
		tu_fail("%ux%u to %ux%u: backwards differs", sw, sh, dw, dh);
	free(src.l.data);
	free(a.l.data);
	free(b.l.data);
	free(scratch);
}

/* The largest difference of two canonical frames of one size */
static int clines_diff(const struct clines *a, const struct clines *b)
{
	size_t i;
	int d = 0;

	for (i = 0; i < (size_t)a->w * a->h * 3; i++)
		d = max(d, abs(a->l.data[i] - b->l.data[i]));
	return d;
}

/* Count the samples of @got that differ from @want */
static void count_off(const struct clines *got, const struct clines *want)
{
	size_t i, n = (size_t)got->w * got->h * 3;

	for (i = 0; i < n; i++)
		ref_off += got->l.data[i] != want->l.data[i];
	ref_samples += n;
}

/*
 * @sw x @sh random canonical lines of kind @kind scaled to @dw x @dh,
 * against ref_scale(), within @tol; returns the largest difference
 */
static int scale_vs_ref(u32 sw, u32 sh, u32 dw, u32 dh, u32 aspect,
			u32 kind, int tol)
{
	struct clines src, got, want;
	int d;

	clines_random(&src, sw, sh, kind);
	clines_alloc(&got, dw, dh, kind);
	clines_alloc(&want, dw, dh, kind);
	ref_scale(&src, &want, aspect);
	if (scale_clines(&src, &got, aspect, sw & 1, 1 + tc_rnd32() % 7)) {
		tu_fail("%ux%u to %ux%u %s: refused", sw, sh, dw, dh,
			aspects[aspect]);
		d = 256;
	} else {
		d = clines_diff(&got, &want);
		count_off(&got, &want);
		if (d > tol)
			tu_fail("%ux%u to %ux%u %s kind %u: off by %d", sw, sh,
				dw, dh, aspects[aspect], kind, d);
	}
	free(src.l.data);
	free(got.l.data);
	free(want.l.data);
	return d;
}

/*
 * Lines [@y0, @y0 + @n) of @b as a band, into planes that start with
 * them, as the driver would hand a band over
 */
static void band_frame(const struct tbuf *b, u32 y0, u32 n,
		       struct vivi_gen_frame *g)
{
	int p;

	tbuf_frame(b, g);
	g->band_y0 = y0;
	g->band_lines = n;
	for (p = 0; p < b->np; p++)
		g->plane[p] += (size_t)(b->rows[p] != b->h ? y0 / 2 : y0) *
			       b->stride[p];
}

/* ---- geometry ------------------------------------------------------- */

static void geometry_one(u32 sw, u32 sh, u32 dw, u32 dh, u32 aspect)
{
	struct vivi_rect c, p, rc, rp;

	vivi_scale_geometry(sw, sh, dw, dh, aspect, &c, &p);
	ref_geometry(sw, sh, dw, dh, aspect, &rc, &rp);
	if (memcmp(&c, &rc, sizeof(c)) || memcmp(&p, &rp, sizeof(p)))
		tu_fail("%ux%u to %ux%u %s: crop %u,%u %ux%u pic %u,%u %ux%u, want %u,%u %ux%u and %u,%u %ux%u",
			sw, sh, dw, dh, aspects[aspect], c.x, c.y, c.w, c.h,
			p.x, p.y, p.w, p.h, rc.x, rc.y, rc.w, rc.h, rp.x, rp.y,
			rp.w, rp.h);
}

static void test_geometry(void)
{
	static const struct {
		u32 s[4], aspect;
		struct vivi_rect crop, pic;
	} known[] = {
		{ { 1920, 1080, 640, 480 }, VIVI_ASPECT_CROP,
		  { 240, 0, 1440, 1080 }, { 0, 0, 640, 480 } },
		{ { 1920, 1080, 640, 480 }, VIVI_ASPECT_LETTERBOX,
		  { 0, 0, 1920, 1080 }, { 0, 60, 640, 360 } },
		{ { 1920, 1080, 640, 480 }, VIVI_ASPECT_STRETCH,
		  { 0, 0, 1920, 1080 }, { 0, 0, 640, 480 } },
		{ { 640, 480, 1280, 720 }, VIVI_ASPECT_CROP,
		  { 0, 60, 640, 360 }, { 0, 0, 1280, 720 } },
		{ { 640, 480, 1280, 720 }, VIVI_ASPECT_LETTERBOX,
		  { 0, 0, 640, 480 }, { 160, 0, 960, 720 } },
		{ { 640, 360, 1280, 720 }, VIVI_ASPECT_CROP,
		  { 0, 0, 640, 360 }, { 0, 0, 1280, 720 } },
		{ { 3840, 16, 16, 2160 }, VIVI_ASPECT_CROP,
		  { 1919, 0, 1, 16 }, { 0, 0, 16, 2160 } },
		{ { 3840, 16, 16, 2160 }, VIVI_ASPECT_LETTERBOX,
		  { 0, 0, 3840, 16 }, { 0, 1079, 16, 1 } },
	};
	struct vivi_rect c, p;
	unsigned int i;
	int k;

	for (i = 0; i < ARRAY_SIZE(known); i++) {
		vivi_scale_geometry(known[i].s[0], known[i].s[1],
				    known[i].s[2], known[i].s[3],
				    known[i].aspect, &c, &p);
		if (memcmp(&c, &known[i].crop, sizeof(c)) ||
		    memcmp(&p, &known[i].pic, sizeof(p)))
			tu_fail("case %u: crop %u,%u %ux%u pic %u,%u %ux%u", i,
				c.x, c.y, c.w, c.h, p.x, p.y, p.w, p.h);
		geometry_one(known[i].s[0], known[i].s[1], known[i].s[2],
			     known[i].s[3], known[i].aspect);
	}
	for (k = 0; k < 30000; k++)
		geometry_one(1 + tc_rnd32() % VIVI_PACK_MAX_DIM,
			     1 + tc_rnd32() % (k & 1 ? 64 : VIVI_PACK_MAX_DIM),
			     1 + tc_rnd32() % VIVI_PACK_MAX_DIM,
			     1 + tc_rnd32() % VIVI_PACK_MAX_DIM, k % 3);
	tu_done("scale/geometry");
}

/* ---- identity ------------------------------------------------------- */

/*
 * @tf at one size into itself: the planes equal, nothing past a line
 * written but by the one copy of a plane, whose padding is the source's;
 * and a band of it equals its lines of the whole
 */
static void identity_one(const struct tfmt *tf, u32 w, u32 h, u32 xa,
			 u32 xb)
{
	struct vivi_gen_frame f, g;
	u32 y0 = 4, n = 6, p, r, sub;
	struct tbuf a, b, c;
	u8 *scratch;

	tbuf_alloc(&a, tf, w, h, xa);
	tbuf_alloc(&b, tf, w, h, xb);
	tbuf_alloc(&c, tf, w, h, xb);
	tc_random_planes(&a);
	tbuf_fill(&b, 0x5a);
	tbuf_fill(&c, 0x5a);
	if (convert(&a, &b, tc_rnd32() % 3))
		tu_fail("%ux%u: refused", w, h);
	else if (!tbuf_equal(&a, &b))
		tu_fail("%ux%u strides +%u +%u: planes differ", w, h, xa, xb);
	else if (xa != xb && tbuf_padding_damage(&b, 0x5a))
		tu_fail("%ux%u strides +%u +%u: padding written", w, h, xa,
			xb);
	/* lines [y0, y0 + n) as a band */
	tbuf_frame(&a, &f);
	band_frame(&c, y0, n, &g);
	scratch = garbage(vivi_scale_scratch_size(w, w));
	if (vivi_scale_frame(&f, &g, VIVI_ASPECT_CROP, scratch + 1))
		tu_fail("%ux%u: a band refused", w, h);
	for (p = 0; p < (u32)c.np; p++) {
		sub = c.rows[p] != h;
		for (r = sub ? y0 / 2 : y0; r < (sub ? (y0 + n) / 2 : y0 + n);
		     r++)
			if (memcmp(c.plane[p] + r * c.stride[p],
				   a.plane[p] + r * a.stride[p], c.lb[p]))
				tu_fail("%ux%u: band line %u of plane %u differs",
					w, h, r, p);
	}
	free(scratch);
	tbuf_free(&a);
	tbuf_free(&b);
	tbuf_free(&c);
}

/* Canonical lines at their own size, each aspect: exact */
static void identity_lines(void)
{
	struct clines src, got, want;
	u32 a, kind, y;

	for (a = 0; a < VIVI_ASPECT_COUNT; a++)
		for (kind = 0; kind < VIVI_CANON_COUNT; kind++) {
			clines_random(&src, 37, 23, kind);
			clines_alloc(&got, 37, 23, kind);
			if (scale_clines(&src, &got, a, kind & 1, 5) ||
			    clines_diff(&src, &got))
				tu_fail("%s kind %u: not the same", aspects[a],
					kind);
			free(src.l.data);
			free(got.l.data);
		}
	/* one to one in a letterbox: the picture's lines are copies */
	clines_random(&src, 64, 36, VIVI_CANON_YCC_LIM);
	clines_alloc(&got, 64, 48, VIVI_CANON_YCC_LIM);
	clines_alloc(&want, 64, 48, VIVI_CANON_YCC_LIM);
	clines_fill(&want, blacks[VIVI_CANON_YCC_LIM]);
	for (y = 6; y < 42; y++)
		memcpy(clines_px(&want, 0, y), clines_px(&src, 0, y - 6),
		       64 * 3);
	if (scale_clines(&src, &got, VIVI_ASPECT_LETTERBOX, false, 16) ||
	    clines_diff(&got, &want))
		tu_fail("letterbox one to one: not the lines with bars");
	free(src.l.data);
	free(got.l.data);
	free(want.l.data);
	tu_done("scale/identity/lines");
}

static void test_identity(void)
{
	int i;

	for (i = 0; i < ntfmts; i++) {
		identity_one(&tfmts[i], 34, 18, 3, 3);
		identity_one(&tfmts[i], 33, 17, 0, 5);
		identity_one(&tfmts[i], 33, 17, 6, 1);
		tu_done("scale/identity/%s", tfmts[i].name);
	}
	identity_lines();
}

/* ---- a flat colour -------------------------------------------------- */

/* Every pixel of @c the same */
static bool clines_flat(const struct clines *c)
{
	size_t i;

	for (i = 3; i < (size_t)c->w * c->h * 3; i++)
		if (c->l.data[i] != c->l.data[i % 3])
			return false;
	return true;
}

/* Cut @b's frame into random bands; 4:2:0 bands end at an even line */
static int convert_bands(const struct tbuf *a, struct tbuf *b, u32 aspect)
{
	u8 *scratch = garbage(vivi_scale_scratch_size(a->w, b->w));
	struct vivi_gen_frame f, g;
	u32 y, n;
	int ret = 0;

	tbuf_frame(a, &f);
	for (y = 0; !ret && y < b->h; y += n) {
		n = min(1 + tc_rnd32() % 9, b->h - y);
		if (b->tf->vsub == 2 && (n & 1) && y + n < b->h)
			n++;
		band_frame(b, y, n, &g);
		ret = vivi_scale_frame(&f, &g, aspect, scratch + 1);
	}
	free(scratch);
	return ret;
}

/**
 * struct flat - one flat-colour case
 * @sf: source format
 * @df: destination format
 * @s: source width, height; destination width, height
 * @aspect: enum vivi_aspect
 * @rgb: the colour
 * @xa: the source's stride beyond its lines
 * @xb: the destination's
 * @bands: convert band by band too, and compare
 */
struct flat {
	const struct tfmt *sf, *df;
	u32 s[4], aspect;
	u8 rgb[3];
	u32 xa, xb;
	bool bands;
};

/*
 * A frame of one colour converted: the colour over the picture's
 * rectangle and black around it, packed by the packer from the source's
 * unpacked colour (the same bytes whichever side the converter changed
 * the kind of colour on); nothing past a line written
 */
static void flat_one(const struct flat *t)
{
	u32 sw = t->s[0], sh = t->s[1], dw = t->s[2], dh = t->s[3];
	u32 kind = tc_native_kind(t->sf);
	struct vivi_rect crop, pic;
	struct tbuf a, b, c, want;
	struct clines in, u, e;
	bool same;

	same = t->sf == t->df && sw == dw && sh == dh;
	tbuf_alloc(&a, t->sf, sw, sh, t->xa);
	tbuf_alloc(&b, t->df, dw, dh, t->xb);
	tbuf_alloc(&c, t->df, dw, dh, t->xb);
	tbuf_alloc(&want, t->df, dw, dh, t->xb);
	clines_alloc(&in, sw, sh, VIVI_CANON_RGB);
	clines_alloc(&u, sw, sh, kind);
	clines_alloc(&e, dw, dh, kind);
	clines_fill(&in, t->rgb);
	ref_geometry(sw, sh, dw, dh, t->aspect, &crop, &pic);
	tbuf_fill(&b, 0x5a);
	tbuf_fill(&c, 0x5a);
	if (tc_pack(&a, &in) || tc_unpack(&a, &u) || !clines_flat(&u)) {
		tu_fail("%s %ux%u: no flat source", t->sf->name, sw, sh);
		goto out;
	}
	clines_fill(&e, blacks[kind]);
	clines_rect(&e, &pic, u.l.data);
	if (tc_pack(&want, &e) || convert(&a, &b, t->aspect)) {
		tu_fail("%s %ux%u to %s %ux%u %s: refused", t->sf->name, sw,
			sh, t->df->name, dw, dh, aspects[t->aspect]);
		goto out;
	}
	if (!tbuf_equal(&b, same ? &a : &want))
		tu_fail("%s %ux%u to %s %ux%u %s, colour %u,%u,%u: not flat",
			t->sf->name, sw, sh, t->df->name, dw, dh,
			aspects[t->aspect], t->rgb[0], t->rgb[1], t->rgb[2]);
	else if ((!same || t->xa != t->xb) && tbuf_padding_damage(&b, 0x5a))
		tu_fail("%s %ux%u to %s %ux%u: past a line written",
			t->sf->name, sw, sh, t->df->name, dw, dh);
	else if (t->bands && (convert_bands(&a, &c, t->aspect) ||
			      !tbuf_equal(&b, &c)))
		tu_fail("%s %ux%u to %s %ux%u %s: bands differ from the whole",
			t->sf->name, sw, sh, t->df->name, dw, dh,
			aspects[t->aspect]);
out:
	free(in.l.data);
	free(u.l.data);
	free(e.l.data);
	tbuf_free(&a);
	tbuf_free(&b);
	tbuf_free(&c);
	tbuf_free(&want);
}

static void test_flat(void)
{
	static const u32 sizes[][4] = {
		{ 37, 23, 64, 48 }, { 64, 48, 21, 15 }, { 33, 17, 33, 17 },
		{ 40, 30, 30, 40 }, { 30, 40, 41, 19 },
	};
	struct flat t = { .xa = 2, .xb = 3 };
	unsigned int z;
	int i, j;

	for (i = 0; i < ntfmts; i++) {
		for (j = 0; j < ntfmts; j++)
			for (z = 0; z < ARRAY_SIZE(sizes); z++)
				for (t.aspect = 0; t.aspect < VIVI_ASPECT_COUNT;
				     t.aspect++) {
					t.sf = &tfmts[i];
					t.df = &tfmts[j];
					memcpy(t.s, sizes[z], sizeof(t.s));
					t.rgb[0] = 40 + 50 * t.aspect;
					t.rgb[1] = 200 - 30 * z;
					t.rgb[2] = 7 * j;
					t.bands = z == 3;
					flat_one(&t);
				}
		tu_done("scale/flat/%s-to-all", tfmts[i].name);
	}
}

/* ---- the filters against references --------------------------------- */

/* 2:1 both ways: the rounded mean of each 2 x 2 block, exactly */
static void box_one(u32 dw, u32 dh, u32 kind)
{
	struct clines src, got, want;
	u32 x, y, k;
	u8 *a, *b;

	clines_random(&src, 2 * dw, 2 * dh, kind);
	clines_alloc(&got, dw, dh, kind);
	clines_alloc(&want, dw, dh, kind);
	for (y = 0; y < dh; y++)
		for (x = 0; x < dw; x++)
			for (k = 0; k < 3; k++) {
				a = clines_px(&src, 2 * x, 2 * y);
				b = clines_px(&src, 2 * x, 2 * y + 1);
				clines_px(&want, x, y)[k] =
					(a[k] + a[k + 3] + b[k] + b[k + 3] +
					 2) >> 2;
			}
	if (scale_clines(&src, &got, VIVI_ASPECT_STRETCH, dw & 1, 3) ||
	    clines_diff(&got, &want))
		tu_fail("%ux%u kind %u: not the block means", dw, dh, kind);
	free(src.l.data);
	free(got.l.data);
	free(want.l.data);
}

/* The same through the converter: XRGB32 to itself, at half size */
static void box_frame(u32 dw, u32 dh)
{
	const struct tfmt *tf = tfmt_find("XRGB32");
	struct tbuf a, b;
	u32 x, y, k;
	const u8 *p, *q;
	int want;

	tbuf_alloc(&a, tf, 2 * dw, 2 * dh, 4);
	tbuf_alloc(&b, tf, dw, dh, 0);
	tc_random_planes(&a);
	if (convert(&a, &b, VIVI_ASPECT_CROP))
		tu_fail("XRGB32 %ux%u: refused", 2 * dw, 2 * dh);
	for (y = 0; y < dh; y++)
		for (x = 0; x < dw; x++)
			for (k = 1; k < 4; k++) {
				p = a.plane[0] + 2 * y * a.stride[0] + 8 * x;
				q = p + a.stride[0];
				want = (p[k] + p[k + 4] + q[k] + q[k + 4] +
					2) >> 2;
				if (b.plane[0][y * b.stride[0] + 4 * x + k] !=
				    want)
					tu_fail("XRGB32 %ux%u: (%u,%u) is not the block mean",
						dw, dh, x, y);
			}
	tbuf_free(&a);
	tbuf_free(&b);
}

static void test_box(void)
{
	u32 kind;

	for (kind = 0; kind < VIVI_CANON_COUNT; kind++) {
		box_one(32, 24, kind);
		box_one(19, 13, kind);
		box_one(1, 1, kind);
		box_one(320, 2, kind);
	}
	box_frame(40, 30);
	box_frame(17, 9);
	tu_done("scale/box-2to1");
}

/* Cases of scale_vs_ref(): source and destination sizes, aspect */
struct rcase {
	u32 s[4];
	u32 aspect;
};

static void ref_cases(const char *name, const struct rcase *c, int n)
{
	int i, d, worst = 0;

	ref_samples = 0;
	ref_off = 0;
	for (i = 0; i < n; i++)
		for (u32 kind = 0; kind < VIVI_CANON_COUNT; kind++) {
			d = scale_vs_ref(c[i].s[0], c[i].s[1], c[i].s[2],
					 c[i].s[3], c[i].aspect, kind, 1);
			worst = max(worst, d);
		}
	printf("# scale/%s: worst difference from the reference %d (tolerance 1), %zu of %zu samples off\n",
	       name, worst, ref_off, ref_samples);
	tu_done("scale/%s", name);
}

static void test_area(void)
{
	static const struct rcase c[] = {
		{ { 192, 108, 64, 48 }, VIVI_ASPECT_CROP },
		{ { 192, 108, 64, 48 }, VIVI_ASPECT_LETTERBOX },
		{ { 192, 108, 64, 48 }, VIVI_ASPECT_STRETCH },
		{ { 100, 100, 33, 77 }, VIVI_ASPECT_STRETCH },
		{ { 17, 5, 3, 2 }, VIVI_ASPECT_STRETCH },
		{ { 1000, 3, 7, 1 }, VIVI_ASPECT_STRETCH },
		{ { 97, 61, 96, 60 }, VIVI_ASPECT_STRETCH },
		{ { 300, 200, 1, 1 }, VIVI_ASPECT_CROP },
	};

	any_order(192, 108, 64, 48, VIVI_ASPECT_STRETCH);
	any_order(97, 601, 64, 48, VIVI_ASPECT_STRETCH);
	ref_cases("area", c, ARRAY_SIZE(c));
}

static void test_bilinear(void)
{
	static const struct rcase c[] = {
		{ { 64, 36, 128, 72 }, VIVI_ASPECT_CROP },
		{ { 64, 48, 128, 72 }, VIVI_ASPECT_LETTERBOX },
		{ { 64, 48, 128, 72 }, VIVI_ASPECT_CROP },
		{ { 5, 3, 17, 11 }, VIVI_ASPECT_STRETCH },
		{ { 1, 1, 9, 7 }, VIVI_ASPECT_STRETCH },
		{ { 2, 1, 640, 3 }, VIVI_ASPECT_STRETCH },
		{ { 60, 61, 61, 62 }, VIVI_ASPECT_STRETCH },
		/* one axis shrinks, the other grows */
		{ { 100, 20, 30, 70 }, VIVI_ASPECT_STRETCH },
		{ { 20, 100, 70, 30 }, VIVI_ASPECT_STRETCH },
	};

	any_order(64, 36, 128, 77, VIVI_ASPECT_LETTERBOX);
	ref_cases("bilinear", c, ARRAY_SIZE(c));
}

/* ---- letterbox and crop --------------------------------------------- */

/* Every pixel of the 1 x 1, 2 x 1 or 2 x 2 block sharing a chroma sample */
static void chroma_block(const struct tfmt *tf, u32 w, u32 h, u32 x, u32 y,
			 struct vivi_rect *blk)
{
	blk->x = x & ~1u;
	blk->y = tf->vsub == 2 ? y & ~1u : y;
	blk->w = min(2u, w - blk->x);
	blk->h = tf->vsub == 2 ? min(2u, h - blk->y) : 1;
}

/* 0: @r outside @pic, 1: inside, 2: across its edge */
static int rect_in(const struct vivi_rect *r, const struct vivi_rect *pic)
{
	bool in0 = r->x >= pic->x && r->y >= pic->y &&
		   r->x + r->w <= pic->x + pic->w &&
		   r->y + r->h <= pic->y + pic->h;
	bool out = r->x + r->w <= pic->x || r->x >= pic->x + pic->w ||
		   r->y + r->h <= pic->y || r->y >= pic->y + pic->h;

	return in0 ? 1 : out ? 0 : 2;
}

/*
 * RGB24 of one colour, letterboxed into @df and read back by tfmt.c's
 * decoder: each sample of a bar is the format's black exactly, each of
 * the picture the colour (within 1); a chroma sample shared by bar and
 * picture is left out
 */
static void letterbox_one(const struct tfmt *df, u32 sw, u32 sh, u32 dw,
			  u32 dh)
{
	static const int col[3] = { 200, 60, 30 }, black[3] = { 0, 0, 0 };
	const struct tfmt *rgb = tfmt_find("RGB24");
	struct vivi_rect crop, pic, px, blk;
	struct dpx *got, eb, ec;
	int k, where, want, tol;
	struct clines c;
	struct tbuf a, b;
	u32 x, y;

	tbuf_alloc(&a, rgb, sw, sh, 1);
	tbuf_alloc(&b, df, dw, dh, 2);
	clines_alloc(&c, sw, sh, VIVI_CANON_RGB);
	clines_fill(&c, (const u8[]){ col[0], col[1], col[2] });
	got = tc_malloc(sizeof(*got) * dw * dh);
	ref_geometry(sw, sh, dw, dh, VIVI_ASPECT_LETTERBOX, &crop, &pic);
	if (tc_pack(&a, &c) || convert(&a, &b, VIVI_ASPECT_LETTERBOX) ||
	    tdecode(&b, got))
		tu_fail("%ux%u to %ux%u: refused or padding bits", sw, sh, dw,
			dh);
	for (y = 0; y < dh; y++)
		for (x = 0; x < dw; x++) {
			texpect(df, x, y, black, &eb);
			texpect(df, x, y, col, &ec);
			px = (struct vivi_rect){ x, y, 1, 1 };
			chroma_block(df, dw, dh, x, y, &blk);
			for (k = 0; k < 3; k++) {
				where = rect_in(k && tfmt_is_yuv(df) ? &blk :
						&px, &pic);
				want = where ? ec.c[k] : eb.c[k];
				tol = where ? 1 : 0;
				if (where == 2 || want < 0 ||
				    got[y * dw + x].c[k] < 0)
					continue;
				if (abs(got[y * dw + x].c[k] - want) > tol) {
					tu_fail("%ux%u to %ux%u: (%u,%u) channel %d is %d, want %d (%s)",
						sw, sh, dw, dh, x, y, k,
						got[y * dw + x].c[k], want,
						where ? "picture" : "bar");
					goto out;
				}
			}
		}
out:
	free(got);
	free(c.l.data);
	tbuf_free(&a);
	tbuf_free(&b);
}

static void test_letterbox(void)
{
	int i;

	for (i = 0; i < ntfmts; i++) {
		/* bars above and below, at odd lines; bars left and right */
		letterbox_one(&tfmts[i], 192, 108, 64, 48);
		letterbox_one(&tfmts[i], 190, 100, 63, 47);
		letterbox_one(&tfmts[i], 108, 108, 64, 48);
		letterbox_one(&tfmts[i], 30, 100, 65, 41);
		/* one to one, bars only */
		letterbox_one(&tfmts[i], 64, 36, 64, 48);
		tu_done("scale/letterbox/%s", tfmts[i].name);
	}
}

/*
 * RGB24 whose pixel (x, y) is x, y, x ^ y, cropped one to one: the
 * frame's pixel (x, y) is the source's (x + @cx, y + @cy)
 */
static void crop_direct(const struct tfmt *df, u32 sw, u32 sh, u32 dw,
			u32 dh, u32 cx, u32 cy)
{
	const struct tfmt *rgb = tfmt_find("RGB24");
	struct tbuf a, b, want;
	struct clines c, e;
	u32 x, y;
	u8 *p;

	tbuf_alloc(&a, rgb, sw, sh, 0);
	tbuf_alloc(&b, df, dw, dh, 1);
	tbuf_alloc(&want, df, dw, dh, 1);
	clines_alloc(&c, sw, sh, VIVI_CANON_RGB);
	clines_alloc(&e, dw, dh, VIVI_CANON_RGB);
	for (y = 0; y < sh; y++)
		for (x = 0; x < sw; x++) {
			p = clines_px(&c, x, y);
			p[0] = x;
			p[1] = y;
			p[2] = x ^ y;
		}
	for (y = 0; y < dh; y++)
		memcpy(clines_px(&e, 0, y), clines_px(&c, cx, y + cy), 3 * dw);
	if (tc_pack(&a, &c) || tc_pack(&want, &e) ||
	    convert(&a, &b, VIVI_ASPECT_CROP))
		tu_fail("%ux%u to %s %ux%u: refused", sw, sh, df->name, dw,
			dh);
	else if (!tbuf_equal(&b, &want))
		tu_fail("%ux%u to %s %ux%u: not the centre", sw, sh, df->name,
			dw, dh);
	free(c.l.data);
	free(e.l.data);
	tbuf_free(&a);
	tbuf_free(&b);
	tbuf_free(&want);
}

static void test_crop(void)
{
	static const struct rcase c[] = {
		{ { 160, 90, 64, 48 }, VIVI_ASPECT_CROP },
		{ { 90, 160, 64, 48 }, VIVI_ASPECT_CROP },
		{ { 64, 48, 160, 90 }, VIVI_ASPECT_CROP },
		{ { 33, 31, 7, 29 }, VIVI_ASPECT_CROP },
	};

	crop_direct(tfmt_find("RGB24"), 200, 100, 100, 100, 50, 0);
	crop_direct(tfmt_find("RGB24"), 100, 200, 100, 100, 0, 50);
	crop_direct(tfmt_find("RGB24"), 201, 100, 100, 100, 50, 0);
	crop_direct(tfmt_find("NV12"), 120, 50, 80, 50, 20, 0);
	crop_direct(tfmt_find("YUYV"), 64, 48, 64, 36, 0, 6);
	crop_direct(tfmt_find("SGRBG8"), 65, 48, 64, 48, 0, 0);
	ref_cases("crop", c, ARRAY_SIZE(c));
}

/* ---- extremes ------------------------------------------------------- */

static void test_extremes(void)
{
	static const struct rcase c[] = {
		{ { 3840, 2160, 16, 16 }, VIVI_ASPECT_CROP },
		{ { 3840, 2160, 16, 16 }, VIVI_ASPECT_LETTERBOX },
		{ { 3840, 2160, 16, 16 }, VIVI_ASPECT_STRETCH },
		{ { 16, 16, 3840, 2160 }, VIVI_ASPECT_STRETCH },
		{ { 16, 16, 3840, 2160 }, VIVI_ASPECT_LETTERBOX },
		{ { 17, 13, 1001, 999 }, VIVI_ASPECT_CROP },
		{ { 1001, 999, 17, 13 }, VIVI_ASPECT_LETTERBOX },
		{ { 3840, 1, 1, 1 }, VIVI_ASPECT_STRETCH },
		{ { 1, 1, 3840, 1 }, VIVI_ASPECT_STRETCH },
	};
	static const struct {
		const char *from, *to;
		u32 s[4], aspect;
	} f[] = {
		{ "YUYV", "NV12", { 3840, 2160, 16, 16 }, VIVI_ASPECT_CROP },
		{ "NV12", "YUYV", { 16, 16, 3840, 2160 },
		  VIVI_ASPECT_LETTERBOX },
		{ "XRGB32", "YUV420", { 3840, 2160, 3840, 2160 },
		  VIVI_ASPECT_CROP },
		{ "SRGGB8", "RGB565", { 1001, 999, 17, 13 },
		  VIVI_ASPECT_STRETCH },
		{ "YVU420", "SBGGR8", { 17, 13, 1001, 999 },
		  VIVI_ASPECT_CROP },
	};
	struct flat t = { .xa = 0, .xb = 1, .rgb = { 90, 180, 250 } };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(f); i++) {
		t.sf = tfmt_find(f[i].from);
		t.df = tfmt_find(f[i].to);
		memcpy(t.s, f[i].s, sizeof(t.s));
		t.aspect = f[i].aspect;
		flat_one(&t);
	}
	ref_cases("extremes", c, ARRAY_SIZE(c));
}

/* ---- every pair of formats at one size ------------------------------ */

static void pair_one(const struct tfmt *from, const struct tfmt *to, u32 w,
		     u32 h)
{
	struct tbuf a, b;

	tbuf_alloc(&a, from, w, h, 3);
	tbuf_alloc(&b, to, w, h, 7);
	tc_random_planes(&a);
	tbuf_fill(&b, 0x5a);
	if (convert(&a, &b, tc_rnd32() % 3))
		tu_fail("%s to %s: refused", from->name, to->name);
	else if (from == to ? !tbuf_equal(&a, &b) : tc_check_convert(&a, &b))
		tu_fail("%s to %s: not the reference", from->name, to->name);
	else if (tbuf_padding_damage(&b, 0x5a))
		tu_fail("%s to %s: past a line written", from->name, to->name);
	tbuf_free(&a);
	tbuf_free(&b);
}

static void test_pairs(void)
{
	int i, j;

	for (i = 0; i < ntfmts; i++) {
		for (j = 0; j < ntfmts; j++) {
			pair_one(&tfmts[i], &tfmts[j], 33, 17);
			pair_one(&tfmts[i], &tfmts[j], 34, 18);
			pair_one(&tfmts[i], &tfmts[j], 1, 3);
			pair_one(&tfmts[i], &tfmts[j], 5, 2);
		}
		tu_done("scale/pairs/%s-to-all", tfmts[i].name);
	}
}

/* ---- random geometry ------------------------------------------------ */

/* 1 .. @max, now and then up to 8 times more */
static u32 rnd_size(u32 max)
{
	return 1 + tc_rnd32() % (tc_rnd32() % 8 ? max : 8 * max);
}

static void test_random(void)
{
	struct flat t;
	int i, k;

	for (i = 0; i < 2000; i++) {
		t.sf = &tfmts[tc_rnd32() % ntfmts];
		t.df = &tfmts[tc_rnd32() % ntfmts];
		for (k = 0; k < 4; k++)
			t.s[k] = rnd_size(90);
		/* a Bayer frame 1 pixel across has no flat demosaic */
		if (t.sf->kind == TK_BAYER) {
			t.s[0] = max(t.s[0], 2u);
			t.s[1] = max(t.s[1], 2u);
		}
		t.aspect = tc_rnd32() % VIVI_ASPECT_COUNT;
		for (k = 0; k < 3; k++)
			t.rgb[k] = tc_rnd32();
		t.xa = tc_rnd32() % 10;
		t.xb = tc_rnd32() % 10;
		t.bands = !(i & 3);
		flat_one(&t);
	}
	tu_done("scale/random");
}

/* ---- errors --------------------------------------------------------- */

static const u8 *no_line(void *ctx, u32 y, u8 *buf)
{
	(void)ctx;
	(void)y;
	(void)buf;
	return NULL;
}

static void test_errors(void)
{
	const struct tfmt *nv12 = tfmt_find("NV12");
	u8 *scratch = garbage(vivi_scale_scratch_size(64, 64));
	struct vivi_gen_frame f, g, h;
	struct clines c;
	struct vivi_scale s;
	struct tbuf a, b;

	tbuf_alloc(&a, nv12, 64, 48, 0);
	tbuf_alloc(&b, nv12, 32, 24, 0);
	tc_random_planes(&a);
	tbuf_frame(&a, &f);
	tbuf_frame(&b, &g);
	if (vivi_scale_frame(&f, &g, VIVI_ASPECT_CROP, scratch))
		tu_fail("a good frame refused");
	if (vivi_scale_frame(&f, &g, VIVI_ASPECT_COUNT, scratch) != -EINVAL ||
	    vivi_scale_frame(&f, &g, 0, NULL) != -EINVAL ||
	    vivi_scale_frame(NULL, &g, 0, scratch) != -EINVAL ||
	    vivi_scale_frame(&f, NULL, 0, scratch) != -EINVAL)
		tu_fail("a bad aspect or a NULL taken");
	h = f;
	h.band_lines = 2;
	if (vivi_scale_frame(&h, &g, 0, scratch) != -EINVAL)
		tu_fail("a source band taken");
	h = g;
	h.band_y0 = 2;
	h.band_lines = 3;
	if (vivi_scale_frame(&f, &h, 0, scratch) != -EINVAL)
		tu_fail("a 4:2:0 band ending at an odd line taken");
	h.band_y0 = 1;
	h.band_lines = 2;
	if (vivi_scale_frame(&f, &h, 0, scratch) != -EINVAL)
		tu_fail("a 4:2:0 band from an odd line taken");
	h = g;
	h.fourcc = V4L2_PIX_FMT_MJPEG;
	if (vivi_scale_frame(&f, &h, 0, scratch) != -EINVAL ||
	    vivi_scale_frame(&h, &g, 0, scratch) != -EINVAL)
		tu_fail("a format without a layout taken");
	h = g;
	h.stride[1] = 31;
	if (vivi_scale_frame(&f, &h, 0, scratch) != -EINVAL)
		tu_fail("a short chroma stride taken");
	/* the scaler's own checks */
	clines_alloc(&c, 64, 48, VIVI_CANON_RGB);
	s = (struct vivi_scale){ .sw = 64, .sh = 48, .dw = 64, .dh = 48,
				 .line = csrc_line };
	if (vivi_scale_init(&s, NULL) != -EINVAL)
		tu_fail("no scratch taken");
	s.line = NULL;
	if (vivi_scale_init(&s, scratch) != -EINVAL)
		tu_fail("no line function taken");
	s.line = no_line;
	s.dh = VIVI_PACK_MAX_DIM + 1;
	if (vivi_scale_init(&s, scratch) != -EINVAL)
		tu_fail("a height past the limit taken");
	s.dh = 24;
	s.kind = VIVI_CANON_COUNT;
	if (vivi_scale_init(&s, scratch) != -EINVAL)
		tu_fail("an unknown kind taken");
	s.kind = VIVI_CANON_RGB;
	if (vivi_scale_init(&s, scratch))
		tu_fail("a good scaler refused");
	if (vivi_scale_lines(&s, 0, 24, &c.l) != -EINVAL)
		tu_fail("a source line that failed taken");
	if (vivi_scale_lines(&s, 20, 5, &c.l) != -EINVAL ||
	    vivi_scale_lines(&s, 25, 0, &c.l) != -EINVAL)
		tu_fail("lines past the frame taken");
	c.l.stride = 64 * 3 - 1;
	if (vivi_scale_lines(&s, 0, 1, &c.l) != -EINVAL)
		tu_fail("a short line stride taken");
	free(c.l.data);
	free(scratch);
	tbuf_free(&a);
	tbuf_free(&b);
	tu_done("scale/errors");
}

int main(void)
{
	test_geometry();
	test_identity();
	test_flat();
	test_box();
	test_area();
	test_bilinear();
	test_letterbox();
	test_crop();
	test_extremes();
	test_pairs();
	test_random();
	test_errors();
	return tu_failed ? 1 : 0;
}
