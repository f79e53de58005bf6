// SPDX-License-Identifier: GPL-2.0
/*
 * The scaler and frame converter of vivi (which path a frame takes: see
 * vivi_scale.h).
 *
 * The geometry (vivi_scale_geometry()), with a source of sw x sh and a
 * frame of dw x dh, sizes rounded half up, offsets down:
 * - crop to fill: the frame is the picture; the crop is the source's
 *   width, or height, times the frame's shape, centred;
 * - letterbox: the crop is the source; the picture is the frame's width,
 *   or height, times the source's shape, centred; the rest is black:
 *   R'G'B' 0, 0, 0; limited-range Y'CbCr 16, 128, 128; full-range 0,
 *   128, 128;
 * - stretch: the crop is the source, the picture the frame.
 * Crop and picture are at least one pixel each way.
 *
 * The filters, per axis from in = the crop's size to out = the picture's:
 * - in == out: each picture pixel is its crop pixel;
 * - in > out, the area filter: picture pixel i is the mean of the crop
 *   over [i * in / out, (i + 1) * in / out), each crop pixel weighted by
 *   how much of it lies in there;
 * - in < out, bilinear: picture pixel i samples the crop at
 *   p = (i + 1/2) * in / out - 1/2, clamped to [0, in - 1], as
 *   (1 - f) * c[j] + f * c[j + 1], j = floor(p), f = p - j.
 * The weights are integers, each in 1 / VIVI_SCALE_ONE (the area filter's
 * as the differences of the rounded running sums, so that a pixel's sum
 * to VIVI_SCALE_ONE exactly: a flat picture stays flat). The horizontal
 * pass keeps 8 bits of fraction, rounded; the vertical pass rounds half
 * up to 8 bits.
 */

#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/swab.h>
#include <linux/types.h>

#include "vivi_color.h"
#include "vivi_gen.h"
#include "vivi_pack.h"
#include "vivi_scale.h"
#include "vivi_unpack.h"

#define SCALE_ALIGN	64
#define NO_LINE		(~0u)

/* ---- geometry ------------------------------------------------------- */

/* @num / @den rounded half up, within 1 .. @max */
static u32 vivi_fit(u32 num, u32 den, u32 max)
{
	return clamp_t(u32, (2 * num + den) / (2 * den), 1, max);
}

/*
 * @r, a @w x @h box, becomes the largest rectangle of shape @aw : @ah in
 * it, centred (the products fit in 32 bits: 2 * 16384 * 16384)
 */
static void vivi_inset(struct vivi_rect *r, u32 aw, u32 ah)
{
	u32 w = r->w, h = r->h;

	if (w * ah > h * aw)
		r->w = vivi_fit(h * aw, ah, w);
	else if (w * ah < h * aw)
		r->h = vivi_fit(w * ah, aw, h);
	r->x = (w - r->w) / 2;
	r->y = (h - r->h) / 2;
}

/**
 * vivi_scale_geometry() - the source pixels a frame shows, and where
 * @sw: source width
 * @sh: source height
 * @dw: frame width
 * @dh: frame height
 * @aspect: enum vivi_aspect; an unknown one stretches
 * @crop: set to the source pixels shown
 * @pic: set to where they lie in the frame
 *
 * The rules are at the top of this file. Sizes up to VIVI_PACK_MAX_DIM,
 * at least 1.
 */
void vivi_scale_geometry(u32 sw, u32 sh, u32 dw, u32 dh, u32 aspect,
			 struct vivi_rect *crop, struct vivi_rect *pic)
{
	*crop = (struct vivi_rect){ 0, 0, sw, sh };
	*pic = (struct vivi_rect){ 0, 0, dw, dh };
	if (aspect == VIVI_ASPECT_CROP)
		vivi_inset(crop, dw, dh);
	else if (aspect == VIVI_ASPECT_LETTERBOX)
		vivi_inset(pic, sw, sh);
}

/* ---- taps ----------------------------------------------------------- */

/**
 * struct vivi_taps - the taps of one output sample of an axis
 * @in: input samples (the crop's)
 * @out: output samples (the picture's)
 * @lo: the area filter's span starts at @lo / @out input samples
 * @first: the first input sample
 * @n: how many
 * @w1: bilinear: the weight of the second
 */
struct vivi_taps {
	u32 in;
	u32 out;
	u32 lo;
	u32 first;
	u32 n;
	u32 w1;
};

/* Output sample @i of an axis of @in to @out samples (see the top) */
static void vivi_taps_at(struct vivi_taps *t, u32 in, u32 out, u32 i)
{
	u32 pos, max;

	t->in = in;
	t->out = out;
	if (in >= out) {
		t->lo = i * in;
		t->first = t->lo / out;
		t->n = (t->lo + in - 1) / out - t->first + 1;
		return;
	}
	t->n = in > 1 ? 2 : 1;
	t->first = 0;
	t->w1 = 0;
	if (in == 1)
		return;
	/* p in units of 1 / (2 * out): (2i + 1) * in - out, clamped */
	pos = (2 * i + 1) * in;
	pos = pos > out ? pos - out : 0;
	max = (in - 1) * 2 * out;
	if (pos >= max) {
		t->first = in - 2;
		t->w1 = VIVI_SCALE_ONE;
		return;
	}
	t->first = pos / (2 * out);
	t->w1 = ((pos % (2 * out)) * VIVI_SCALE_ONE + out) / (2 * out);
}

/* The area filter's running sum of weights at @c / @out input samples */
static u32 vivi_area_sum(const struct vivi_taps *t, u32 c)
{
	return (c * VIVI_SCALE_ONE + t->in / 2) / t->in;
}

/* The weight of tap @k of @t */
static u32 vivi_tap_weight(const struct vivi_taps *t, u32 k)
{
	u32 j = t->first + k, a, b;

	if (t->in < t->out)
		return t->n == 1 ? VIVI_SCALE_ONE :
		       k ? t->w1 : VIVI_SCALE_ONE - t->w1;
	a = k ? j * t->out - t->lo : 0;
	b = min(j * t->out + t->out, t->lo + t->in) - t->lo;
	return vivi_area_sum(t, b) - vivi_area_sum(t, a);
}

/* ---- scratch -------------------------------------------------------- */

static size_t vivi_al(size_t n)
{
	return ALIGN(n, SCALE_ALIGN);
}

/* Bytes of the scaler's part of the scratch, carved by vivi_scale_init() */
static size_t vivi_scaler_bytes(u32 sw, u32 dw)
{
	return vivi_al((size_t)sw * 3) + vivi_al((size_t)dw * 4) +
	       vivi_al(((size_t)sw + 2 * dw) * 2) +
	       VIVI_SCALE_SLOTS * vivi_al((size_t)dw * 12) +
	       vivi_al((size_t)dw * 12);
}

/* Bytes of the converter's band of canonical lines */
static size_t vivi_band_bytes(u32 sw, u32 dw)
{
	return VIVI_SCALE_BAND * vivi_al((size_t)max(sw, dw) * 3);
}

/**
 * vivi_scale_scratch_size() - bytes of scratch the scaler needs
 * @src_width: the widest source
 * @dst_width: the widest destination
 *
 * Enough for vivi_scale_init() and for vivi_scale_frame(), with any
 * alignment; a few lines long, whatever the heights.
 *
 * Return: the size in bytes
 */
size_t vivi_scale_scratch_size(u32 src_width, u32 dst_width)
{
	u32 sw = clamp_t(u32, src_width, 1, VIVI_PACK_MAX_DIM);
	u32 dw = clamp_t(u32, dst_width, 1, VIVI_PACK_MAX_DIM);

	return SCALE_ALIGN + max(vivi_band_bytes(sw, dw) +
				 vivi_al(vivi_pack_scratch_size(dw)) +
				 vivi_scaler_bytes(sw, dw),
				 sizeof(struct vivi_ycc_tab));
}

/* The next @n bytes of the scratch at *@p, aligned */
static void *vivi_carve(u8 **p, size_t n)
{
	void *r = *p;

	*p += vivi_al(n);
	return r;
}

/*
 * The horizontal taps of every picture column, as many for each (zero
 * weights pad the columns with fewer, the first moved back where the line
 * would end): a loop of one count, which the hot path unrolls. At most
 * ceil(in / out) + 1 taps a column: the weights fit in @sw + 2 * @dw.
 */
static void vivi_scale_htaps(struct vivi_scale *s)
{
	u32 i, k, first, lead, nmax = 0;
	struct vivi_taps t;
	u16 *w = s->hw;

	for (i = 0; i < s->pic.w; i++) {
		vivi_taps_at(&t, s->crop.w, s->pic.w, i);
		nmax = max(nmax, t.n);
	}
	s->hn = nmax;
	for (i = 0; i < s->pic.w; i++, w += nmax) {
		vivi_taps_at(&t, s->crop.w, s->pic.w, i);
		first = min(s->crop.x + t.first, s->sw - nmax);
		lead = s->crop.x + t.first - first;
		s->hoff[i] = 3 * first;
		for (k = 0; k < nmax; k++)
			w[k] = k >= lead && k - lead < t.n ?
			       vivi_tap_weight(&t, k - lead) : 0;
	}
}

/**
 * vivi_scale_init() - get ready to scale one frame
 * @s: the caller's fields set (see struct vivi_scale)
 * @scratch: vivi_scale_scratch_size(@s->sw, @s->dw) bytes (or for wider
 *	frames), any alignment, any contents; used until the frame is done
 *
 * Return: 0, or -EINVAL for a size out of range, an unknown aspect or
 * kind, or no @line or @scratch.
 */
int vivi_scale_init(struct vivi_scale *s, void *scratch)
{
	u32 k;
	u8 *p;

	if (!s || !scratch || !s->line || s->aspect >= VIVI_ASPECT_COUNT ||
	    s->kind >= VIVI_CANON_COUNT || !s->sw || !s->sh || !s->dw ||
	    !s->dh || s->sw > VIVI_PACK_MAX_DIM ||
	    s->sh > VIVI_PACK_MAX_DIM || s->dw > VIVI_PACK_MAX_DIM ||
	    s->dh > VIVI_PACK_MAX_DIM)
		return -EINVAL;
	vivi_scale_geometry(s->sw, s->sh, s->dw, s->dh, s->aspect, &s->crop,
			    &s->pic);
	p = PTR_ALIGN((u8 *)scratch, SCALE_ALIGN);
	s->buf = vivi_carve(&p, (size_t)s->sw * 3);
	s->hoff = vivi_carve(&p, (size_t)s->dw * 4);
	s->hw = vivi_carve(&p, ((size_t)s->sw + 2 * s->dw) * 2);
	for (k = 0; k < VIVI_SCALE_SLOTS; k++) {
		s->slot[k] = vivi_carve(&p, (size_t)s->dw * 12);
		s->tag[k] = NO_LINE;
	}
	s->acc = vivi_carve(&p, (size_t)s->dw * 12);
	vivi_scale_htaps(s);
	return 0;
}

/* ---- the passes ----------------------------------------------------- */

/* Tap weight @w of the pixel at @p added to the sums @a, @b, @c */
static __always_inline void vivi_tap(u32 *a, u32 *b, u32 *c, u32 w,
				     const u8 *p)
{
	*a += w * p[0];
	*b += w * p[1];
	*c += w * p[2];
}

/*
 * Crop line @src (a whole source line) filtered horizontally into @d (the
 * fields in locals: a store through @d could alias them otherwise)
 */
static __always_inline void vivi_hpass_n(const struct vivi_scale *s,
					 const u8 *src, u32 *d, u32 n)
{
	const u32 *hoff = s->hoff, *end = hoff + s->pic.w;
	const u16 *w = s->hw;
	u32 k, a, b, c;
	const u8 *p;

	for (; hoff < end; hoff++, d += 3, w += n) {
		p = src + *hoff;
		a = w[0] * p[0];
		b = w[0] * p[1];
		c = w[0] * p[2];
		/* written out for the constant counts: gcc -O2 keeps a loop */
		if (n > 1)
			vivi_tap(&a, &b, &c, w[1], p + 3);
		if (n > 2)
			vivi_tap(&a, &b, &c, w[2], p + 6);
		if (n > 3)
			vivi_tap(&a, &b, &c, w[3], p + 9);
		for (k = 4; k < n; k++)
			vivi_tap(&a, &b, &c, w[k], p + 3 * k);
		d[0] = (a + 32) >> 6;
		d[1] = (b + 32) >> 6;
		d[2] = (c + 32) >> 6;
	}
}

/* The same, the tap counts of bilinear and of shrinking by up to 3 unrolled */
static void vivi_hpass(const struct vivi_scale *s, const u8 *src, u32 *d)
{
	switch (s->hn) {
	case 1:
		vivi_hpass_n(s, src, d, 1);
		break;
	case 2:
		vivi_hpass_n(s, src, d, 2);
		break;
	case 3:
		vivi_hpass_n(s, src, d, 3);
		break;
	case 4:
		vivi_hpass_n(s, src, d, 4);
		break;
	default:
		vivi_hpass_n(s, src, d, s->hn);
		break;
	}
}

/*
 * Crop line @r filtered horizontally: from a slot, or into one that holds
 * no line of [@lo, @r) (those the picture line being made uses), an empty
 * one first, else the one of the lowest line
 */
static const u32 *vivi_hline(struct vivi_scale *s, u32 r, u32 lo)
{
	u32 k, v = VIVI_SCALE_SLOTS;
	const u8 *line;

	for (k = 0; k < VIVI_SCALE_SLOTS; k++) {
		if (s->tag[k] == r)
			return s->slot[k];
		if (s->tag[k] >= lo && s->tag[k] < r)
			continue;
		/* NO_LINE + 1 wraps to 0: empty slots first */
		if (v == VIVI_SCALE_SLOTS || s->tag[k] + 1 < s->tag[v] + 1)
			v = k;
	}
	line = s->line(s->ctx, s->crop.y + r, s->buf);
	if (!line)
		return NULL;
	vivi_hpass(s, line, s->slot[v]);
	s->tag[v] = r;
	return s->slot[v];
}

/* The two samples at @p (8-byte aligned), in one word, times @w */
static __always_inline u64 vivi_pair2(const u32 *p, u32 w)
{
	u64 x;

	memcpy(&x, p, sizeof(x));
	return w * x;
}

/*
 * Lines @a weighted @w (their sum VIVI_SCALE_ONE) back to 8 bits, two
 * samples in a 64-bit word: each sum stays below 2^30 (16384 * 65280 +
 * 2^21), so the low one never carries into the high (lines and weights
 * in locals: a store through @d could alias them otherwise)
 */
static __always_inline void vivi_vpass_n(u8 *d, const u32 *const *a,
					 const u32 *w, u32 m, u32 n)
{
	const u32 *l[VIVI_SCALE_SLOTS];
	u32 lw[VIVI_SCALE_SLOTS];
	u32 k, j, v;
	u64 x;

	for (j = 0; j < m; j++) {
		l[j] = a[j];
		lw[j] = w[j];
	}
	for (k = 0; k + 2 <= n; k += 2) {
		/* written out for the constant counts: gcc -O2 keeps a loop */
		x = (1ull << 21 | 1ull << 53) + vivi_pair2(l[0] + k, lw[0]);
		if (m > 1)
			x += vivi_pair2(l[1] + k, lw[1]);
		if (m > 2)
			x += vivi_pair2(l[2] + k, lw[2]);
		if (m > 3)
			x += vivi_pair2(l[3] + k, lw[3]);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		x = x >> 32 | x << 32;
#endif
		d[k] = x >> 22;
		d[k + 1] = x >> 54;
	}
	for (; k < n; k++) {
		v = 1u << 21;
		for (j = 0; j < m; j++)
			v += lw[j] * l[j][k];
		d[k] = v >> 22;
	}
}

/* Picture line from more crop lines than there are slots, through @s->acc */
static int vivi_vpass_area(struct vivi_scale *s, const struct vivi_taps *t,
			   u8 *d)
{
	u32 n = 3 * s->pic.w, *acc = s->acc, k, j, w;
	const u32 *a;

	for (j = 0; j < t->n; j++) {
		w = vivi_tap_weight(t, j);
		/* each line is used at once: none to keep */
		a = vivi_hline(s, t->first + j, t->first + j);
		if (!a)
			return -EINVAL;
		if (!j) {
			for (k = 0; k < n; k++)
				acc[k] = w * a[k];
			continue;
		}
		for (k = 0; k < n; k++)
			acc[k] += w * a[k];
	}
	for (k = 0; k < n; k++)
		d[k] = (acc[k] + (1u << 21)) >> 22;
	return 0;
}

/* Picture line @i into @d (the picture's part of a destination line) */
static int vivi_scale_row(struct vivi_scale *s, u32 i, u8 *d)
{
	u32 w[VIVI_SCALE_SLOTS], r[VIVI_SCALE_SLOTS], n = 3 * s->pic.w;
	const u32 *a[VIVI_SCALE_SLOTS];
	u32 k, m = 0, wk;
	struct vivi_taps t;
	const u8 *line;

	vivi_taps_at(&t, s->crop.h, s->pic.h, i);
	if (t.n > VIVI_SCALE_SLOTS)
		return vivi_vpass_area(s, &t, d);
	for (k = 0; k < t.n; k++) {
		wk = vivi_tap_weight(&t, k);
		if (wk) {
			w[m] = wk;
			r[m++] = t.first + k;
		}
	}
	if (m == 1 && s->crop.w == s->pic.w) {
		/* one to one across and one line: a copy */
		line = s->line(s->ctx, s->crop.y + r[0], s->buf);
		if (!line)
			return -EINVAL;
		memcpy(d, line + 3 * s->crop.x, n);
		return 0;
	}
	for (k = 0; k < m; k++) {
		a[k] = vivi_hline(s, r[k], r[0]);
		if (!a[k])
			return -EINVAL;
	}
	switch (m) {
	case 1:
		vivi_vpass_n(d, a, w, 1, n);
		break;
	case 2:
		vivi_vpass_n(d, a, w, 2, n);
		break;
	case 3:
		vivi_vpass_n(d, a, w, 3, n);
		break;
	default:
		vivi_vpass_n(d, a, w, 4, n);
		break;
	}
	return 0;
}

/* The black of kind @kind in @n pixels at @d */
static void vivi_black(u8 *d, u32 kind, u32 n)
{
	u8 c = kind == VIVI_CANON_RGB ? 0 : 128;
	u32 x;

	if (kind == VIVI_CANON_YCC_LIM) {
		for (x = 0; x < n; x++, d += 3) {
			d[0] = 16;
			d[1] = 128;
			d[2] = 128;
		}
		return;
	}
	for (x = 0; x < n; x++, d += 3) {
		d[0] = 0;
		d[1] = c;
		d[2] = c;
	}
}

/**
 * vivi_scale_lines() - destination lines, scaled
 * @s: set up by vivi_scale_init()
 * @y0: the first destination line wanted
 * @n: how many
 * @dst: @n lines of at least 3 * @s->dw bytes; its kind is ignored (the
 *	lines are of @s->kind)
 *
 * Lines may be asked for in any order; in order, each source line the
 * filters need is fetched and filtered horizontally once (the last
 * VIVI_SCALE_SLOTS of them are kept for the next destination lines).
 *
 * Return: 0, or -EINVAL for lines outside the frame, a short @dst stride,
 * or a source line @s->line could not give.
 */
int vivi_scale_lines(struct vivi_scale *s, u32 y0, u32 n,
		     const struct vivi_lines *dst)
{
	u32 y, right = s->pic.x + s->pic.w;
	u8 *d;
	int ret;

	if (!dst || !dst->data || y0 > s->dh || n > s->dh - y0 ||
	    dst->stride < (size_t)s->dw * 3)
		return -EINVAL;
	for (y = y0; y < y0 + n; y++) {
		d = dst->data + (size_t)(y - y0) * dst->stride;
		if (y < s->pic.y || y >= s->pic.y + s->pic.h) {
			vivi_black(d, s->kind, s->dw);
			continue;
		}
		vivi_black(d, s->kind, s->pic.x);
		vivi_black(d + 3 * right, s->kind, s->dw - right);
		ret = vivi_scale_row(s, y - s->pic.y, d + 3 * s->pic.x);
		if (ret)
			return ret;
	}
	return 0;
}

/* ---- whole frames --------------------------------------------------- */

/**
 * struct vivi_conv - one frame's conversion
 * @src: the source frame, whole
 * @sl: its layout
 * @dst: the destination, a band of it or whole
 * @b: @dst's band, checked
 * @kind: the kind of color the source is unpacked into
 * @lines: the band of canonical lines between unpacker and packer
 * @pack: the packer's scratch
 */
struct vivi_conv {
	const struct vivi_gen_frame *src;
	const struct vivi_layout *sl;
	const struct vivi_gen_frame *dst;
	struct vivi_band b;
	u32 kind;
	struct vivi_lines lines;
	u8 *pack;
};

/* The scaler's source: a line of the source frame, unpacked */
static const u8 *vivi_conv_line(void *ctx, u32 y, u8 *buf)
{
	const struct vivi_conv *c = ctx;
	struct vivi_lines l = {
		.data = buf,
		.stride = (size_t)c->src->width * 3,
		.kind = c->kind,
	};

	return vivi_unpack_lines(c->src, y, 1, &l) ? NULL : buf;
}

/* Lines [@y, @y + @n) of the destination from @c's lines at @data */
static int vivi_conv_pack(const struct vivi_conv *c, u32 y, u32 n, u8 *data)
{
	const struct vivi_layout *l = c->b.l;
	struct vivi_gen_frame g = *c->dst;
	struct vivi_lines src = c->lines;
	u32 p, vs;

	g.band_y0 = y;
	g.band_lines = n;
	for (p = 0; p < l->nplanes; p++) {
		vs = l->pl[p].vsub;
		g.plane[p] += (size_t)(y / vs - c->b.y0 / vs) * g.stride[p];
	}
	src.data = data;
	return vivi_pack_lines(&g, &src, c->pack);
}

/* The source's pixels one to one, from the crop at @crop */
static int vivi_conv_direct(struct vivi_conv *c, const struct vivi_rect *crop)
{
	u32 y, n;
	int ret;

	c->kind = vivi_layout_canon(c->b.l);
	c->lines.kind = c->kind;
	c->lines.stride = vivi_al((size_t)c->src->width * 3);
	for (y = c->b.y0; y < c->b.y1; y += n) {
		n = min_t(u32, VIVI_SCALE_BAND, c->b.y1 - y);
		ret = vivi_unpack_lines(c->src, crop->y + y, n, &c->lines);
		if (!ret)
			ret = vivi_conv_pack(c, y, n,
					     c->lines.data + 3 * crop->x);
		if (ret)
			return ret;
	}
	return 0;
}

/* The scaler between unpacker and packer, a band of lines at a time */
static int vivi_conv_scaled(struct vivi_conv *c, u32 aspect, void *scratch)
{
	const struct vivi_gen_frame *f = c->src, *d = c->dst;
	struct vivi_scale s = {
		.sw = f->width, .sh = f->height, .dw = d->width,
		.dh = d->height, .aspect = aspect, .line = vivi_conv_line,
		.ctx = c,
	};
	u32 y, n;
	int ret;

	/* convert the color on the side with fewer pixels */
	if ((u64)d->width * d->height < (u64)f->width * f->height)
		c->kind = vivi_layout_canon(c->sl);
	else
		c->kind = vivi_layout_canon(c->b.l);
	s.kind = c->kind;
	c->lines.kind = c->kind;
	c->lines.stride = vivi_al((size_t)d->width * 3);
	ret = vivi_scale_init(&s, scratch);
	for (y = c->b.y0; !ret && y < c->b.y1; y += n) {
		n = min_t(u32, VIVI_SCALE_BAND, c->b.y1 - y);
		ret = vivi_scale_lines(&s, y, n, &c->lines);
		if (!ret)
			ret = vivi_conv_pack(c, y, n, c->lines.data);
	}
	return ret;
}

/* The same format and size: plane lines copied, at once where they can */
static void vivi_conv_copy(const struct vivi_conv *c)
{
	const struct vivi_plane_desc *pd;
	const u8 *s;
	u32 p, r, r0, r1, lb;
	u8 *d;

	for (p = 0; p < c->b.l->nplanes; p++) {
		pd = &c->b.l->pl[p];
		vivi_band_rows(&c->b, pd, &r0, &r1);
		lb = vivi_line_bytes(pd, c->b.w);
		s = c->src->plane[p] + (size_t)r0 * c->src->stride[p];
		d = c->dst->plane[p];
		if (c->src->stride[p] == c->dst->stride[p]) {
			memcpy(d, s, (size_t)(r1 - r0 - 1) * c->src->stride[p] +
			       lb);
			continue;
		}
		for (r = r0; r < r1; r++, s += c->src->stride[p],
		     d += c->dst->stride[p])
			memcpy(d, s, lb);
	}
}

/* ---- Y'CbCr to Y'CbCr at one size ---------------------------------- */

/**
 * struct vivi_yuv_line - where the samples of one frame line lie
 * @y: its first Y'
 * @ys: bytes from one Y' to the next
 * @c: its first Cb and Cr
 * @cs: bytes from one chroma sample to the next
 * @pk: packed 4:2:2's layout, else NULL
 */
struct vivi_yuv_line {
	u8 *y;
	u32 ys;
	u8 *c[2];
	u32 cs;
	const struct vivi_plane_desc *pk;
};

/* Frame line @y of @f, laid out as @b says, its planes from @b's band on */
static void vivi_yuv_at(const struct vivi_gen_frame *f,
			const struct vivi_band *b, u32 y,
			struct vivi_yuv_line *v)
{
	const struct vivi_plane_desc *pd;
	u32 p, r0, r1;
	u8 *s;

	v->pk = NULL;
	for (p = 0; p < b->l->nplanes; p++) {
		pd = &b->l->pl[p];
		vivi_band_rows(b, pd, &r0, &r1);
		s = f->plane[p] + (size_t)(y / pd->vsub - r0) * f->stride[p];
		switch (pd->type) {
		case VIVI_PT_PACKED:
			v->y = s + pd->off[0];
			v->ys = 2;
			v->c[0] = s + pd->off[1];
			v->c[1] = s + pd->off[3];
			v->cs = 4;
			v->pk = pd;
			break;
		case VIVI_PT_ENC:
			v->y = s;
			v->ys = 1;
			break;
		case VIVI_PT_CHROMA:
			v->c[pd->off[0] - 1] = s;
			v->cs = 1;
			break;
		default:
			v->c[pd->off[0] - 1] = s;
			v->c[pd->off[1] - 1] = s + 1;
			v->cs = 2;
			break;
		}
	}
}

/*
 * The byte of chroma channel @i (0 Cb, 1 Cr) of the half macropixel that
 * ends an odd-width packed line at sample @k, or NULL where it has none
 */
static u8 *vivi_yuv_half(const struct vivi_yuv_line *v, u32 i, u32 k)
{
	u32 o = v->pk->off[i ? 3 : 1];

	return o < 2 ? v->y - v->pk->off[0] + 4 * k + o : NULL;
}

/*
 * Chroma sample @k of channel @i, the last of an odd width: as the
 * unpacker reads it (a half macropixel lacks one chroma byte: the
 * macropixel before gives it, or 128)
 */
static u32 vivi_yuv_get(const struct vivi_yuv_line *v, u32 i, u32 k)
{
	const u8 *s;

	if (!v->pk)
		return v->c[i][k * v->cs];
	s = vivi_yuv_half(v, i, k);
	if (s)
		return *s;
	return k ? v->c[i][(k - 1) * v->cs] : 128;
}

/* The same, written as the packer writes it */
static void vivi_yuv_put(const struct vivi_yuv_line *v, u32 i, u32 k, u8 c)
{
	u8 *d;

	if (!v->pk) {
		v->c[i][k * v->cs] = c;
		return;
	}
	d = vivi_yuv_half(v, i, k);
	if (d)
		*d = c;
}

/* The low @n bytes of @v at @d, bits 0..7 first, in as few stores */
static __always_inline void vivi_put_le(u8 *d, u64 v, u32 n)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __swab64(v);
#endif
	memcpy(d, &v, n);
}

/* Eight bytes at @s, the first in bits 0..7 */
static __always_inline u64 vivi_get_le(const u8 *s)
{
	u64 v;

	memcpy(&v, s, sizeof(v));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __swab64(v);
#endif
	return v;
}

/* Bytes 0, 2, 4, 6 of @x as bytes 0..3 */
static __always_inline u64 vivi_evens(u64 x)
{
	x &= 0x00ff00ff00ff00ffull;
	x = (x | x >> 8) & 0x0000ffff0000ffffull;
	return (x | x >> 16) & 0xffffffffull;
}

/* Bytes 0 and 4 of @x as bytes 0, 1 */
static __always_inline u64 vivi_fours(u64 x)
{
	return (x & 0xff) | (x >> 24 & 0xff00);
}

/* Eight samples, one each @ss (1, 2 or 4) bytes from @s, as a word */
static __always_inline u64 vivi_gather(const u8 *s, u32 ss)
{
	if (ss == 1)
		return vivi_get_le(s);
	if (ss == 2)
		return vivi_evens(vivi_get_le(s)) |
		       vivi_evens(vivi_get_le(s + 8)) << 32;
	return vivi_fours(vivi_get_le(s)) |
	       vivi_fours(vivi_get_le(s + 8)) << 16 |
	       vivi_fours(vivi_get_le(s + 16)) << 32 |
	       vivi_fours(vivi_get_le(s + 24)) << 48;
}

/* Each byte of @a and @b, the rounded mean of the two */
static __always_inline u64 vivi_avg8(u64 a, u64 b)
{
	return (a | b) - (((a ^ b) >> 1) & 0x7f7f7f7f7f7f7f7full);
}

/*
 * @n samples from @a, one each @ss bytes, to @d, one each @ds bytes (each
 * the rounded mean of those at @a and at @b, if @avg). Into a plane of
 * its own (@ds 1) eight at a time through words, as long as no word
 * reaches past the last sample's byte (the strides are at most 4: a
 * margin of one group of eight); else four at a time, a byte each
 */
static __always_inline void vivi_step_n(u8 *d, u32 ds, const u8 *a,
					const u8 *b, u32 ss, u32 n, bool avg)
{
	u32 k = 0;
	u64 v;

	if (ds == 1 && ss == 1 && !avg) {
		memcpy(d, a, n);
		return;
	}
	if (ds == 1) {
		for (; k + 9 <= n; k += 8, d += 8, a += 8 * ss, b += 8 * ss) {
			v = vivi_gather(a, ss);
			if (avg)
				v = vivi_avg8(v, vivi_gather(b, ss));
			vivi_put_le(d, v, 8);
		}
	} else if (!avg) {
		for (; k + 4 <= n; k += 4, d += 4 * ds, a += 4 * ss) {
			d[0] = a[0];
			d[ds] = a[ss];
			d[2 * ds] = a[2 * ss];
			d[3 * ds] = a[3 * ss];
		}
	}
	for (; k < n; k++, d += ds, a += ss, b += ss)
		*d = avg ? (*a + *b + 1) >> 1 : *a;
}

/* vivi_step_n(), the mean of @a and @b if @b is non-NULL */
static __always_inline void vivi_step_b(u8 *d, u32 ds, const u8 *a,
					const u8 *b, u32 ss, u32 n)
{
	if (b)
		vivi_step_n(d, ds, a, b, ss, n, true);
	else
		vivi_step_n(d, ds, a, a, ss, n, false);
}

/* The same with the source stride as a constant */
static __always_inline void vivi_step_ss(u8 *d, u32 ds, const u8 *a,
					 const u8 *b, u32 ss, u32 n)
{
	switch (ss) {
	case 1:
		vivi_step_b(d, ds, a, b, 1, n);
		break;
	case 2:
		vivi_step_b(d, ds, a, b, 2, n);
		break;
	default:
		vivi_step_b(d, ds, a, b, 4, n);
		break;
	}
}

/*
 * The same with both strides as constants: the layouts have 1, 2 or 4,
 * and constant ones let the compiler address each sample directly
 */
static void vivi_step(u8 *d, u32 ds, const u8 *a, const u8 *b, u32 ss,
		      u32 n)
{
	switch (ds) {
	case 1:
		vivi_step_ss(d, 1, a, b, ss, n);
		break;
	case 2:
		vivi_step_ss(d, 2, a, b, ss, n);
		break;
	default:
		vivi_step_ss(d, 4, a, b, ss, n);
		break;
	}
}

/*
 * @n macropixels of packed 4:2:2 (Y'0, Cb, Y'1, Cr at bytes @o0 .. @o3)
 * at @d from Y' one a byte at @y and chroma each @cs bytes at @cb, @cr:
 * a macropixel a word, two a store
 */
static __always_inline void vivi_pack422_n(u8 *d, u32 o0, u32 o1, u32 o2,
					   u32 o3, const u8 *y, const u8 *cb,
					   const u8 *cr, u32 cs, u32 n)
{
	u32 k;

	for (k = 0; k + 2 <= n; k += 2, d += 8, y += 4, cb += 2 * cs,
	     cr += 2 * cs)
		vivi_put_le(d, (u64)y[0] << 8 * o0 | (u64)y[1] << 8 * o2 |
			    (u64)cb[0] << 8 * o1 | (u64)cr[0] << 8 * o3 |
			    (u64)y[2] << (32 + 8 * o0) |
			    (u64)y[3] << (32 + 8 * o2) |
			    (u64)cb[cs] << (32 + 8 * o1) |
			    (u64)cr[cs] << (32 + 8 * o3), 8);
	if (k < n)
		vivi_put_le(d, (u64)y[0] << 8 * o0 | (u64)y[1] << 8 * o2 |
			    (u64)cb[0] << 8 * o1 | (u64)cr[0] << 8 * o3, 4);
}

/* The same from line @s (planes, Y' a byte each), its chroma step constant */
static __always_inline void vivi_pack422_cs(u8 *d, u32 o0, u32 o1, u32 o2,
					    u32 o3,
					    const struct vivi_yuv_line *s,
					    u32 n)
{
	if (s->cs == 1)
		vivi_pack422_n(d, o0, o1, o2, o3, s->y, s->c[0], s->c[1], 1, n);
	else
		vivi_pack422_n(d, o0, o1, o2, o3, s->y, s->c[0], s->c[1], 2, n);
}

/*
 * The same into line @d (packed) from line @s, the layout (the four the
 * table has: YUYV, UYVY, YVYU, VYUY) a constant
 */
static noinline void vivi_pack422(const struct vivi_yuv_line *d,
				  const struct vivi_yuv_line *s, u32 n)
{
	const u8 *o = d->pk->off;
	u8 *p = d->y - o[0];

	switch (o[0] << 2 | o[1]) {
	case 0 << 2 | 1:
		vivi_pack422_cs(p, 0, 1, 2, 3, s, n);
		break;
	case 1 << 2 | 0:
		vivi_pack422_cs(p, 1, 0, 3, 2, s, n);
		break;
	case 0 << 2 | 3:
		vivi_pack422_cs(p, 0, 3, 2, 1, s, n);
		break;
	default:
		vivi_pack422_cs(p, 1, 2, 3, 0, s, n);
		break;
	}
}

/*
 * Y'CbCr of one layout into another of one size, sample by sample: the
 * same bytes as unpacking and packing give (chroma replicated, then
 * averaged over the pixels a sample covers), without canonical lines
 */
static void vivi_conv_yuv(const struct vivi_conv *c, const struct vivi_band *sb)
{
	u32 w = c->b.w, n = w / 2, y, yb, i;
	bool sub = c->b.l->pl[c->b.l->nplanes - 1].vsub == 2;
	struct vivi_yuv_line s, s2, d;

	for (y = c->b.y0; y < c->b.y1; y++) {
		vivi_yuv_at(c->src, sb, y, &s);
		vivi_yuv_at(c->dst, &c->b, y, &d);
		if (d.pk && !s.pk && s.ys == 1) {
			/* into packed 4:2:2: whole macropixels */
			vivi_pack422(&d, &s, n);
			if (!(w & 1))
				continue;
			d.y[2 * n * d.ys] = s.y[2 * n];
			for (i = 0; i < 2; i++)
				vivi_yuv_put(&d, i, n, vivi_yuv_get(&s, i, n));
			continue;
		}
		vivi_step(d.y, d.ys, s.y, NULL, s.ys, w);
		if (sub && (y & 1))
			continue;
		/* a 4:2:0 sample covers this line and the next, if any */
		yb = sub ? min(y + 1, c->b.h - 1) : y;
		vivi_yuv_at(c->src, sb, yb, &s2);
		for (i = 0; i < 2; i++) {
			vivi_step(d.c[i], d.cs, s.c[i],
				  s2.c[i] == s.c[i] ? NULL : s2.c[i], s.cs, n);
			if (w & 1)
				vivi_yuv_put(&d, i, n, (vivi_yuv_get(&s, i, n) +
						       vivi_yuv_get(&s2, i, n) +
						       1) >> 1);
		}
	}
}

/* ---- R'G'B' and Y'CbCr at one size, in one pass -------------------- */

/*
 * The channel offsets of the four-byte and three-byte R'G'B' layouts, an
 * index: 0 RGB24, 1 BGR24, 2 XRGB32, 3 XBGR32 (the converter's loops take
 * it as a constant)
 */
static const u8 vivi_rgb_offs[4][5] = {
	/* R', G', B', X bytes, bytes a pixel */
	{ 0, 1, 2, 3, 3 },
	{ 2, 1, 0, 3, 3 },
	{ 1, 2, 3, 0, 4 },
	{ 2, 1, 0, 3, 4 },
};

/* Byte @i of layout @e's pixel: 0 R', 1 G', 2 B', 3 X; 4: bytes a pixel */
static __always_inline u32 vivi_rgb_off(int e, int i)
{
	return vivi_rgb_offs[e][i];
}

#define RGB_R(e)	vivi_rgb_off(e, 0)
#define RGB_G(e)	vivi_rgb_off(e, 1)
#define RGB_B(e)	vivi_rgb_off(e, 2)
#define RGB_X(e)	vivi_rgb_off(e, 3)
#define RGB_BPP(e)	vivi_rgb_off(e, 4)

/* The index above of a VIVI_PT_ENC kind, or -1 for the others */
static int vivi_rgb_index(u32 enc)
{
	switch (enc) {
	case VIVI_E_RGB24:
		return 0;
	case VIVI_E_BGR24:
		return 1;
	case VIVI_E_XRGB32:
		return 2;
	case VIVI_E_XBGR32:
		return 3;
	default:
		return -1;
	}
}

/* One R'G'B' pixel of layout @e as the bytes of a word, first lowest */
static __always_inline u64 vivi_rgb_word(int e, u32 r, u32 g, u32 b)
{
	u64 x = RGB_BPP(e) == 4 ? 0xffull << 8 * RGB_X(e) : 0;

	return x | (u64)r << 8 * RGB_R(e) | (u64)g << 8 * RGB_G(e) |
	       (u64)b << 8 * RGB_B(e);
}

/* The clamp of a Q16 sum's integer part, -CLIP_LO .. CLIP_N - CLIP_LO - 1 */
#define CLIP_LO		384
#define CLIP_N		1024
/* the clamp table lies where the R'G'B' to Y'CbCr one does */
static_assert(sizeof(struct vivi_ycc_tab) >= CLIP_N);

/* @t: CLIP_N bytes, entry i the value i - CLIP_LO clamped to 0..255 */
static void vivi_clip_init(u8 *t)
{
	u32 i;

	for (i = 0; i < CLIP_N; i++)
		t[i] = clamp_t(s32, (s32)i - CLIP_LO, 0, 255);
}

/*
 * @n pixel pairs of a Y'CbCr line (Y' each @ys bytes, chroma each @cs)
 * into R'G'B' of layout @e: as unpacking (chroma replicated), converting
 * (vivi_ycc_to_rgb()) and packing give them, each chroma sample weighed
 * once, the clamp a table (@clip at value 0: the sums' integer parts lie
 * in -277 .. 536), a pair stored as one word
 */
static __always_inline void vivi_yuv_rgb_n(u8 *d, int e, const u8 *y,
					   u32 ys, const u8 *cb,
					   const u8 *cr, u32 cs, u32 n,
					   const u8 *clip)
{
	s32 u, v, r, g, b, l0, l1;
	u32 k;

	for (k = 0; k < n; k++, y += 2 * ys, cb += cs, cr += cs,
	     d += 2 * RGB_BPP(e)) {
		u = *cb - 128;
		v = *cr - 128;
		r = vivi_ycc_rv(v);
		g = vivi_ycc_guv(u, v);
		b = vivi_ycc_bu(u);
		l0 = vivi_ycc_y(y[0]);
		l1 = vivi_ycc_y(y[ys]);
		vivi_put_le(d, vivi_rgb_word(e, clip[(l0 + r) >> 16],
					     clip[(l0 + g) >> 16],
					     clip[(l0 + b) >> 16]) |
			    vivi_rgb_word(e, clip[(l1 + r) >> 16],
					  clip[(l1 + g) >> 16],
					  clip[(l1 + b) >> 16]) <<
			    8 * RGB_BPP(e), 2 * RGB_BPP(e));
	}
}

/*
 * The same with the strides as constants: packed (Y' each 2 bytes,
 * chroma each 4), semi-planar (1, 2) or planar (1, 1)
 */
static __always_inline void vivi_yuv_rgb_s(u8 *d, int e,
					   const struct vivi_yuv_line *s,
					   u32 n, const u8 *clip)
{
	if (s->cs == 4)
		vivi_yuv_rgb_n(d, e, s->y, 2, s->c[0], s->c[1], 4, n, clip);
	else if (s->cs == 2)
		vivi_yuv_rgb_n(d, e, s->y, 1, s->c[0], s->c[1], 2, n, clip);
	else
		vivi_yuv_rgb_n(d, e, s->y, 1, s->c[0], s->c[1], 1, n, clip);
}

/* The same with the layout a constant too */
static noinline void vivi_yuv_rgb(u8 *d, int e,
				  const struct vivi_yuv_line *s, u32 n,
				  const u8 *clip)
{
	switch (e) {
	case 0:
		vivi_yuv_rgb_s(d, 0, s, n, clip);
		break;
	case 1:
		vivi_yuv_rgb_s(d, 1, s, n, clip);
		break;
	case 2:
		vivi_yuv_rgb_s(d, 2, s, n, clip);
		break;
	default:
		vivi_yuv_rgb_s(d, 3, s, n, clip);
		break;
	}
}

/*
 * @n pixel pairs of R'G'B' lines @a and @b (the next row for 4:2:0, else
 * @a again) of layout @e into the Y'CbCr line @d (and the Y' of @b at @yb
 * for 4:2:0, if @two): as unpacking into Y'CbCr (vivi_rgb_to_ycc()) and
 * packing give them, chroma the rounded mean of the pixels it covers
 */
static __always_inline void vivi_rgb_yuv_n(const struct vivi_yuv_line *d,
					   u8 *yb, bool two, int e,
					   const u8 *a, const u8 *b, u32 ys,
					   u32 cs, u32 n,
					   const struct vivi_ycc_tab *t)
{
	u8 *y = d->y, *cb = d->c[0], *cr = d->c[1];
	const u8 *q;
	u8 p[4][3];
	u32 k;

	for (k = 0; k < n; k++, y += 2 * ys, cb += cs, cr += cs,
	     a += 2 * RGB_BPP(e), b += 2 * RGB_BPP(e)) {
		q = a + RGB_BPP(e);
		vivi_rgb_to_ycc_tab(t, a[RGB_R(e)], a[RGB_G(e)], a[RGB_B(e)],
				    p[0]);
		vivi_rgb_to_ycc_tab(t, q[RGB_R(e)], q[RGB_G(e)], q[RGB_B(e)],
				    p[1]);
		y[0] = p[0][0];
		y[ys] = p[1][0];
		if (!two) {
			*cb = (p[0][1] + p[1][1] + 1) >> 1;
			*cr = (p[0][2] + p[1][2] + 1) >> 1;
			continue;
		}
		q = b + RGB_BPP(e);
		vivi_rgb_to_ycc_tab(t, b[RGB_R(e)], b[RGB_G(e)], b[RGB_B(e)],
				    p[2]);
		vivi_rgb_to_ycc_tab(t, q[RGB_R(e)], q[RGB_G(e)], q[RGB_B(e)],
				    p[3]);
		if (yb) {
			yb[2 * k * ys] = p[2][0];
			yb[2 * k * ys + ys] = p[3][0];
		}
		*cb = (p[0][1] + p[1][1] + p[2][1] + p[3][1] + 2) >> 2;
		*cr = (p[0][2] + p[1][2] + p[2][2] + p[3][2] + 2) >> 2;
	}
}

/* The same with the strides and @two as constants (see vivi_yuv_rgb_s()) */
static __always_inline void vivi_rgb_yuv_s(const struct vivi_yuv_line *d,
					   u8 *yb, bool two, int e,
					   const u8 *a, const u8 *b, u32 n,
					   const struct vivi_ycc_tab *t)
{
	u32 cs = d->cs == 4 ? 4 : d->cs == 2 ? 2 : 1;

	if (!two)
		vivi_rgb_yuv_n(d, NULL, false, e, a, a, cs == 4 ? 2 : 1, cs,
			       n, t);
	else if (cs == 4)
		vivi_rgb_yuv_n(d, yb, true, e, a, b, 2, 4, n, t);
	else if (cs == 2)
		vivi_rgb_yuv_n(d, yb, true, e, a, b, 1, 2, n, t);
	else
		vivi_rgb_yuv_n(d, yb, true, e, a, b, 1, 1, n, t);
}

/* The same with the layout a constant too */
static noinline void vivi_rgb_yuv(const struct vivi_yuv_line *d, u8 *yb,
				  bool two, int e, const u8 *a, const u8 *b,
				  u32 n, const struct vivi_ycc_tab *t)
{
	switch (e) {
	case 0:
		vivi_rgb_yuv_s(d, yb, two, 0, a, b, n, t);
		break;
	case 1:
		vivi_rgb_yuv_s(d, yb, two, 1, a, b, n, t);
		break;
	case 2:
		vivi_rgb_yuv_s(d, yb, two, 2, a, b, n, t);
		break;
	default:
		vivi_rgb_yuv_s(d, yb, two, 3, a, b, n, t);
		break;
	}
}

/* @n pixel pairs of R'G'B' layout @se into layout @de, a pair one store */
static __always_inline void vivi_rgb_rgb_n(u8 *d, int de, const u8 *s,
					   int se, u32 n)
{
	u32 k = 0;
	u64 p0, p1, p2, p3;

	/* into three bytes a pixel: four pixels, twelve bytes, two stores */
	for (; RGB_BPP(de) == 3 && k + 2 <= n; k += 2, s += 4 * RGB_BPP(se),
	     d += 12) {
		p0 = vivi_rgb_word(de, s[RGB_R(se)], s[RGB_G(se)],
				   s[RGB_B(se)]);
		p1 = vivi_rgb_word(de, s[RGB_BPP(se) + RGB_R(se)],
				   s[RGB_BPP(se) + RGB_G(se)],
				   s[RGB_BPP(se) + RGB_B(se)]);
		p2 = vivi_rgb_word(de, s[2 * RGB_BPP(se) + RGB_R(se)],
				   s[2 * RGB_BPP(se) + RGB_G(se)],
				   s[2 * RGB_BPP(se) + RGB_B(se)]);
		p3 = vivi_rgb_word(de, s[3 * RGB_BPP(se) + RGB_R(se)],
				   s[3 * RGB_BPP(se) + RGB_G(se)],
				   s[3 * RGB_BPP(se) + RGB_B(se)]);
		vivi_put_le(d, p0 | p1 << 24 | p2 << 48, 8);
		vivi_put_le(d + 8, p2 >> 16 | p3 << 8, 4);
	}
	for (; k < n; k++, s += 2 * RGB_BPP(se), d += 2 * RGB_BPP(de))
		vivi_put_le(d, vivi_rgb_word(de, s[RGB_R(se)], s[RGB_G(se)],
					     s[RGB_B(se)]) |
			    vivi_rgb_word(de, s[RGB_BPP(se) + RGB_R(se)],
					  s[RGB_BPP(se) + RGB_G(se)],
					  s[RGB_BPP(se) + RGB_B(se)]) <<
			    8 * RGB_BPP(de), 2 * RGB_BPP(de));
}

/* The same with the destination's layout a constant */
static __always_inline void vivi_rgb_rgb_d(u8 *d, int de, const u8 *s,
					   int se, u32 n)
{
	switch (de) {
	case 0:
		vivi_rgb_rgb_n(d, 0, s, se, n);
		break;
	case 1:
		vivi_rgb_rgb_n(d, 1, s, se, n);
		break;
	case 2:
		vivi_rgb_rgb_n(d, 2, s, se, n);
		break;
	default:
		vivi_rgb_rgb_n(d, 3, s, se, n);
		break;
	}
}

/* The same with both layouts constants */
static noinline void vivi_rgb_rgb(u8 *d, int de, const u8 *s, int se,
				  u32 n)
{
	switch (se) {
	case 0:
		vivi_rgb_rgb_d(d, de, s, 0, n);
		break;
	case 1:
		vivi_rgb_rgb_d(d, de, s, 1, n);
		break;
	case 2:
		vivi_rgb_rgb_d(d, de, s, 2, n);
		break;
	default:
		vivi_rgb_rgb_d(d, de, s, 3, n);
		break;
	}
}

/*
 * Y'CbCr into R'G'B' of four or three bytes a pixel, or back, or one such
 * R'G'B' into another, of one even width, each line read and written once
 * (@tab: the scratch, aligned, sizeof(struct vivi_ycc_tab) bytes, more
 * than CLIP_N); false for other pairs, which take the canonical lines
 */
static bool vivi_conv_rgb(const struct vivi_conv *c, const struct vivi_band *sb,
			  void *tab)
{
	struct vivi_ycc_tab *t = tab;
	const struct vivi_layout *sl = sb->l, *dl = c->b.l;
	u32 w = c->b.w, y, yb;
	struct vivi_yuv_line v, v2;
	const u8 *a, *b;
	bool two;
	int e, f;
	u8 *d;

	if (w & 1)
		return false;
	if (sl->yuv && !dl->yuv) {
		e = vivi_rgb_index(dl->enc);
		if (e < 0)
			return false;
		vivi_clip_init(tab);
		for (y = c->b.y0; y < c->b.y1; y++) {
			vivi_yuv_at(c->src, sb, y, &v);
			d = c->dst->plane[0] +
			    (size_t)(y - c->b.y0) * c->dst->stride[0];
			vivi_yuv_rgb(d, e, &v, w / 2, (u8 *)tab + CLIP_LO);
		}
		return true;
	}
	if (!sl->yuv && !dl->yuv) {
		e = vivi_rgb_index(dl->enc);
		f = vivi_rgb_index(sl->enc);
		if (e < 0 || f < 0)
			return false;
		for (y = c->b.y0; y < c->b.y1; y++)
			vivi_rgb_rgb(c->dst->plane[0] + (size_t)(y - c->b.y0) *
				     c->dst->stride[0], e, c->src->plane[0] +
				     (size_t)y * c->src->stride[0], f, w / 2);
		return true;
	}
	if (sl->yuv)
		return false;
	e = vivi_rgb_index(sl->enc);
	if (e < 0)
		return false;
	two = dl->pl[dl->nplanes - 1].vsub == 2;
	vivi_ycc_tab_init(t);
	for (y = c->b.y0; y < c->b.y1; y += two ? 2 : 1) {
		/* a 4:2:0 sample covers this line and the next, if any */
		yb = two ? min(y + 1, c->b.h - 1) : y;
		vivi_yuv_at(c->dst, &c->b, y, &v);
		a = c->src->plane[0] + (size_t)y * c->src->stride[0];
		b = c->src->plane[0] + (size_t)yb * c->src->stride[0];
		if (yb != y)
			vivi_yuv_at(c->dst, &c->b, yb, &v2);
		vivi_rgb_yuv(&v, yb != y ? v2.y : NULL, two, e, a, b, w / 2, t);
	}
	return true;
}

/**
 * vivi_scale_frame() - a frame of one raw format into another, scaled
 * @src: a whole frame (no band) of any format of the packer's table
 * @dst: the destination's format, size and planes, and the band to fill,
 *	as vivi_gen_fill() takes them (4:2:0 bands start at an even line,
 *	and end at one or at the frame's end)
 * @aspect: enum vivi_aspect, when the shapes differ
 * @scratch: vivi_scale_scratch_size(@src->width, @dst->width) bytes, any
 *	alignment, any contents
 *
 * Which path a frame takes is said in vivi_scale.h, the geometry and the
 * filters at the top of this file, how a format's pixels become canonical
 * lines and back in vivi_unpack.c and vivi_pack.c. The planes must not
 * overlap.
 *
 * Return: 0, or -EINVAL for a frame either side refuses, a band in @src,
 * an unknown aspect or no scratch.
 */
int vivi_scale_frame(const struct vivi_gen_frame *src,
		     const struct vivi_gen_frame *dst, u32 aspect,
		     void *scratch)
{
	struct vivi_conv c = { .src = src, .dst = dst };
	struct vivi_rect crop, pic;
	struct vivi_band sb;
	u8 *p;

	if (!src || !dst || !scratch || aspect >= VIVI_ASPECT_COUNT ||
	    src->band_lines || vivi_band_init(&sb, src) ||
	    vivi_band_init(&c.b, dst))
		return -EINVAL;
	c.sl = sb.l;
	if (c.b.l->pl[c.b.l->nplanes - 1].vsub == 2 && (c.b.y1 & 1) &&
	    c.b.y1 != c.b.h)
		return -EINVAL;
	if (src->fourcc == dst->fourcc && sb.w == c.b.w && sb.h == c.b.h) {
		vivi_conv_copy(&c);
		return 0;
	}
	if (sb.l->yuv && c.b.l->yuv && sb.w == c.b.w && sb.h == c.b.h) {
		vivi_conv_yuv(&c, &sb);
		return 0;
	}
	p = PTR_ALIGN((u8 *)scratch, SCALE_ALIGN);
	if (sb.w == c.b.w && sb.h == c.b.h && vivi_conv_rgb(&c, &sb, p))
		return 0;
	c.lines.data = vivi_carve(&p, vivi_band_bytes(sb.w, c.b.w));
	c.pack = vivi_carve(&p, vivi_pack_scratch_size(c.b.w));
	vivi_scale_geometry(sb.w, sb.h, c.b.w, c.b.h, aspect, &crop, &pic);
	if (crop.w == c.b.w && crop.h == c.b.h && pic.w == c.b.w &&
	    pic.h == c.b.h)
		return vivi_conv_direct(&c, &crop);
	return vivi_conv_scaled(&c, aspect, p);
}
