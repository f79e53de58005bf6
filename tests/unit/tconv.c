// SPDX-License-Identifier: GPL-2.0
/*
 * tconv.c - what the tests of the packer, the unpacker and the scaler
 * share: random numbers and planes, whole frames of canonical lines, and
 * the reference conversion between any two formats, written from the
 * format definitions (tfmt.c's decoder, BT.601 in doubles) and never from
 * the driver's code
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kernel.h>

#include "tconv.h"
#include "tutil.h"
#include "vivi_pack.h"
#include "vivi_unpack.h"

static u64 rng = 0x9e3779b97f4a7c15ull;

u32 tc_rnd32(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (u32)((rng * 0x2545f4914f6cdd1dull) >> 32);
}

void *tc_malloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		perror("malloc");
		exit(2);
	}
	return p;
}

void clines_alloc(struct clines *c, u32 w, u32 h, u32 kind)
{
	c->w = w;
	c->h = h;
	c->l.stride = (size_t)w * 3;
	c->l.kind = kind;
	c->l.data = tc_malloc(c->l.stride * h);
}

u8 *clines_px(const struct clines *c, u32 x, u32 y)
{
	return c->l.data + (size_t)y * c->l.stride + 3 * x;
}

/* vivi_pack_lines() of the whole frame, with exactly sized scratch */
int tc_pack(struct tbuf *b, const struct clines *c)
{
	size_t n = vivi_pack_scratch_size(b->w);
	u8 *scratch = tc_malloc(n + 1);
	struct vivi_gen_frame f;
	int ret;

	tbuf_frame(b, &f);
	/* odd address: "any alignment"; ASan sees the exact end */
	ret = vivi_pack_lines(&f, &c->l, scratch + 1);
	free(scratch);
	return ret;
}

int tc_unpack(const struct tbuf *b, struct clines *c)
{
	struct vivi_gen_frame f;

	tbuf_frame(b, &f);
	return vivi_unpack_lines(&f, 0, b->h, &c->l);
}

/* The kind a format's samples carry */
u32 tc_native_kind(const struct tfmt *tf)
{
	return tfmt_is_yuv(tf) ? VIVI_CANON_YCC_LIM : VIVI_CANON_RGB;
}

/* Random bytes, then the padding bits packing writes: X = all ones */
void tc_random_planes(struct tbuf *b)
{
	const char *l = b->tf->layout;
	u32 r, x;
	u8 *p;
	int i;

	for (i = 0; i < b->np; i++)
		for (r = 0; r < b->rows[i]; r++)
			for (x = 0; x < b->stride[i]; x++)
				b->plane[i][(size_t)r * b->stride[i] + x] =
					tc_rnd32();
	for (r = 0; r < b->h; r++) {
		p = b->plane[0] + (size_t)r * b->stride[0];
		for (x = 0; x < b->w; x++) {
			if (!strcmp(l, "XRGB"))
				p[4 * x] = 0xff;
			else if (!strcmp(l, "BGRX"))
				p[4 * x + 3] = 0xff;
			else if (!strcmp(l, "X555"))
				p[2 * x + 1] |= 0x80;
		}
	}
}


static int clamp255(double v)
{
	v = floor(v + 0.5);
	return v < 0 ? 0 : v > 255 ? 255 : (int)v;
}

/* BT.601, the kinds of enum vivi_canon, in doubles */
void tc_ref_color(u32 from, u32 to, const int in[3], int out[3])
{
	double r, g, b, y, u, v;

	if (from == to) {
		memcpy(out, in, 3 * sizeof(int));
		return;
	}
	if (from == VIVI_CANON_RGB) {
		r = in[0];
		g = in[1];
		b = in[2];
	} else {
		y = in[0];
		u = in[1] - 128.0;
		v = in[2] - 128.0;
		if (from == VIVI_CANON_YCC_LIM) {
			y = (y - 16) * 255 / 219;
			u = u * 255 / 224;
			v = v * 255 / 224;
		}
		if (to != VIVI_CANON_RGB) {
			/* one Y'CbCr range to the other: no matrix */
			out[0] = clamp255(to == VIVI_CANON_YCC_LIM ?
					  16 + y * 219 / 255 : y);
			out[1] = clamp255(128 + (to == VIVI_CANON_YCC_LIM ?
						 u * 224 / 255 : u));
			out[2] = clamp255(128 + (to == VIVI_CANON_YCC_LIM ?
						 v * 224 / 255 : v));
			return;
		}
		out[0] = clamp255(y + 1.402 * v);
		out[1] = clamp255(y - 0.344136 * u - 0.714136 * v);
		out[2] = clamp255(y + 1.772 * u);
		return;
	}
	if (to == VIVI_CANON_YCC_LIM) {
		tycc(in, out);
		return;
	}
	out[0] = clamp255(0.299 * r + 0.587 * g + 0.114 * b);
	out[1] = clamp255(128 - 0.168736 * r - 0.331264 * g + 0.5 * b);
	out[2] = clamp255(128 + 0.5 * r - 0.418688 * g - 0.081312 * b);
}


/* round(v * 255 / max): a 5- or 6-bit field as 8 bits */
static int expand(int v, int max)
{
	return (int)floor(v * 255.0 / max + 0.5);
}

/* The average of @n values, rounded half up */
int tc_avg(int sum, int n)
{
	return (int)floor((double)sum / n + 0.5);
}

/*
 * Bayer, bilinear: the pixel's own sample, and for each other channel the
 * average of that channel's sites among the 3 x 3 neighbours in the frame
 */
static void ref_demosaic(const struct tbuf *b, const struct dpx *d, int x,
			 int y, int c[3])
{
	int own = tbayer_ch(b->tf, x, y), ch, dx, dy, xx, yy, sum, n;

	for (ch = 0; ch < 3; ch++) {
		sum = 0;
		n = 0;
		for (dy = -1; dy <= 1; dy++)
			for (dx = -1; dx <= 1; dx++) {
				xx = x + dx;
				yy = y + dy;
				if (xx < 0 || yy < 0 || xx >= (int)b->w ||
				    yy >= (int)b->h ||
				    tbayer_ch(b->tf, xx, yy) != ch)
					continue;
				sum += d[yy * b->w + xx].c[ch];
				n++;
			}
		c[ch] = ch == own || !n ? d[y * b->w + x].c[own] : tc_avg(sum, n);
	}
}

/*
 * The colors of @b's pixels in its own kind, from tfmt.c's decoder and
 * the rules of the unpacker (vivi_unpack.c): chroma replicated, a packed
 * 4:2:2 odd last pixel's missing chroma from the pixel before (else 128),
 * fields expanded, Y16 / 257, gray as R' = G' = B', Bayer bilinear
 */
void tc_ref_unpack(const struct tbuf *b, int (*can)[3])
{
	const char *l = b->tf->layout;
	struct dpx *d = tc_malloc(sizeof(*d) * b->w * b->h);
	int x, y, k, *c;
	struct dpx *p;

	tdecode(b, d);
	for (y = 0; y < (int)b->h; y++)
		for (x = 0; x < (int)b->w; x++) {
			p = &d[y * b->w + x];
			c = can[y * b->w + x];
			switch (b->tf->kind) {
			case TK_RGB:
				memcpy(c, p->c, sizeof(p->c));
				if (!strcmp(l, "565") || !strcmp(l, "565X")) {
					c[0] = expand(p->c[0], 31);
					c[1] = expand(p->c[1], 63);
					c[2] = expand(p->c[2], 31);
				} else if (!strcmp(l, "X555")) {
					for (k = 0; k < 3; k++)
						c[k] = expand(p->c[k], 31);
				}
				break;
			case TK_LUMA:
				c[0] = l[0] == '8' ? p->c[0] :
				       (int)floor(p->c[0] / 257.0 + 0.5);
				c[1] = c[0];
				c[2] = c[0];
				break;
			case TK_BAYER:
				ref_demosaic(b, d, x, y, c);
				break;
			default:
				for (k = 0; k < 3; k++)
					c[k] = p->c[k] >= 0 ? p->c[k] :
					       x ? c[k - 3] : 128;
				break;
			}
		}
	free(d);
}

/* BT.601 luma of R'G'B' times 1000, the spec's weights */
static int luma1000(const int rgb[3])
{
	return 299 * rgb[0] + 587 * rgb[1] + 114 * rgb[2];
}

/*
 * What pixel (x, y) of @tf must decode to when packed from @conv, colors
 * of its own kind: chroma the rounded average of the 1, 2 or 4 pixels its
 * sample covers
 */
void tc_ref_expect(const struct tfmt *tf, u32 w, u32 h, int (*conv)[3],
		       int x, int y, struct dpx *e)
{
	int x0 = x & ~1, y0 = tf->vsub == 2 ? y & ~1 : y, sum[3] = { 0 };
	int xs, ys, n = 0, k, s;

	if (!tfmt_is_yuv(tf)) {
		texpect(tf, x, y, conv[y * w + x], e);
		if (tf->kind == TK_LUMA) {
			s = luma1000(conv[y * w + x]);
			e->c[0] = tf->layout[0] == '8' ? (s + 500) / 1000 :
				  (257 * s + 500) / 1000;
		}
		return;
	}
	for (ys = y0; ys <= y0 + (tf->vsub == 2) && ys < (int)h; ys++)
		for (xs = x0; xs <= x0 + 1 && xs < (int)w; xs++, n++)
			for (k = 1; k < 3; k++)
				sum[k] += conv[ys * w + xs][k];
	e->c[0] = conv[y * w + x][0];
	e->c[1] = tc_avg(sum[1], n);
	e->c[2] = tc_avg(sum[2], n);
}

/*
 * How far a converted sample may be from the reference: 0, or where
 * Y'CbCr became R'G'B' (the driver's fixed point against doubles) 1 step
 * of the sample, 257 + 1 for Y16
 */
int tc_convert_tolerance(const struct tfmt *from, const struct tfmt *to)
{
	if (!tfmt_is_yuv(from) || tfmt_is_yuv(to))
		return 0;
	return to->kind == TK_LUMA && to->layout[0] == '1' ? 258 : 1;
}

/*
 * @b, converted from @a at the same size, against the reference: @a
 * unpacked, its colors converted to @b's kind and packed by the rules
 * (tc_ref_expect()), within tc_convert_tolerance(); 0, or -1 after
 * tu_fail() with the first pixel that differs
 */
int tc_check_convert(const struct tbuf *a, const struct tbuf *b)
{
	const struct tfmt *from = a->tf, *to = b->tf;
	int tol = tc_convert_tolerance(from, to), (*can)[3], (*conv)[3], k;
	u32 w = a->w, h = a->h, x, y, i;
	struct dpx *got, e;
	int ret = 0;

	got = tc_malloc(sizeof(*got) * w * h);
	can = tc_malloc(sizeof(*can) * w * h);
	conv = tc_malloc(sizeof(*conv) * w * h);
	tc_ref_unpack(a, can);
	for (i = 0; i < w * h; i++)
		tc_ref_color(tc_native_kind(from), tc_native_kind(to), can[i],
			     conv[i]);
	if (tdecode(b, got)) {
		tu_fail("%s to %s %ux%u: padding bits not set", from->name,
			to->name, w, h);
		ret = -1;
	}
	for (y = 0; y < h && !ret; y++)
		for (x = 0; x < w && !ret; x++) {
			tc_ref_expect(to, w, h, conv, x, y, &e);
			for (k = 0; k < 3 && !ret; k++)
				if (e.c[k] >= 0 && got[y * w + x].c[k] >= 0 &&
				    abs(got[y * w + x].c[k] - e.c[k]) > tol) {
					tu_fail("%s to %s %ux%u: (%u,%u) channel %d is %d, want %d",
						from->name, to->name, w, h, x,
						y, k, got[y * w + x].c[k],
						e.c[k]);
					ret = -1;
				}
		}
	free(got);
	free(can);
	free(conv);
	return ret;
}
