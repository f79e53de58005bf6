// SPDX-License-Identifier: GPL-2.0
/*
 * tfmt.c - reference formats, buffers and decoder for the unit tests
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kernel.h>
#include <linux/videodev2.h>

#include "tfmt.h"

const struct tfmt tfmts[] = {
	{ V4L2_PIX_FMT_YUYV, "YUYV", TK_PACKED, "YUYV", 1 },
	{ V4L2_PIX_FMT_UYVY, "UYVY", TK_PACKED, "UYVY", 1 },
	{ V4L2_PIX_FMT_YVYU, "YVYU", TK_PACKED, "YVYU", 1 },
	{ V4L2_PIX_FMT_VYUY, "VYUY", TK_PACKED, "VYUY", 1 },
	{ V4L2_PIX_FMT_YUV420, "YUV420", TK_PLANAR, "UV", 2 },
	{ V4L2_PIX_FMT_YVU420, "YVU420", TK_PLANAR, "VU", 2 },
	{ V4L2_PIX_FMT_YUV422P, "YUV422P", TK_PLANAR, "UV", 1 },
	{ V4L2_PIX_FMT_NV12, "NV12", TK_SEMI, "UV", 2 },
	{ V4L2_PIX_FMT_NV21, "NV21", TK_SEMI, "VU", 2 },
	{ V4L2_PIX_FMT_NV16, "NV16", TK_SEMI, "UV", 1 },
	{ V4L2_PIX_FMT_NV61, "NV61", TK_SEMI, "VU", 1 },
	{ V4L2_PIX_FMT_RGB24, "RGB24", TK_RGB, "RGB", 1 },
	{ V4L2_PIX_FMT_BGR24, "BGR24", TK_RGB, "BGR", 1 },
	{ V4L2_PIX_FMT_XRGB32, "XRGB32", TK_RGB, "XRGB", 1 },
	{ V4L2_PIX_FMT_XBGR32, "XBGR32", TK_RGB, "BGRX", 1 },
	{ V4L2_PIX_FMT_RGB565, "RGB565", TK_RGB, "565", 1 },
	{ V4L2_PIX_FMT_RGB565X, "RGB565X", TK_RGB, "565X", 1 },
	{ V4L2_PIX_FMT_XRGB555, "XRGB555", TK_RGB, "X555", 1 },
	{ V4L2_PIX_FMT_GREY, "GREY", TK_LUMA, "8", 1 },
	{ V4L2_PIX_FMT_Y16, "Y16", TK_LUMA, "16", 1 },
	{ V4L2_PIX_FMT_SBGGR8, "SBGGR8", TK_BAYER, "BGGR", 1 },
	{ V4L2_PIX_FMT_SGBRG8, "SGBRG8", TK_BAYER, "GBRG", 1 },
	{ V4L2_PIX_FMT_SGRBG8, "SGRBG8", TK_BAYER, "GRBG", 1 },
	{ V4L2_PIX_FMT_SRGGB8, "SRGGB8", TK_BAYER, "RGGB", 1 },
};

const int ntfmts = ARRAY_SIZE(tfmts);

const struct tfmt *tfmt_find(const char *name)
{
	int i;

	for (i = 0; i < ntfmts; i++)
		if (!strcmp(tfmts[i].name, name))
			return &tfmts[i];
	return NULL;
}

int tfmt_is_yuv(const struct tfmt *tf)
{
	return tf->kind == TK_PACKED || tf->kind == TK_PLANAR ||
	       tf->kind == TK_SEMI;
}

static int rgb_bpp(const char *l)
{
	if (!strcmp(l, "RGB") || !strcmp(l, "BGR"))
		return 3;
	if (!strcmp(l, "XRGB") || !strcmp(l, "BGRX"))
		return 4;
	return 2;
}

void tbuf_layout(struct tbuf *b, const struct tfmt *tf, u32 w, u32 h)
{
	u32 cw = (w + 1) / 2, ch = tf->vsub == 2 ? (h + 1) / 2 : h;

	memset(b, 0, sizeof(*b));
	b->tf = tf;
	b->w = w;
	b->h = h;
	switch (tf->kind) {
	case TK_PACKED:
		b->np = 1;
		b->lb[0] = w * 2;
		b->rows[0] = h;
		break;
	case TK_PLANAR:
		b->np = 3;
		b->lb[0] = w;
		b->rows[0] = h;
		b->lb[1] = b->lb[2] = cw;
		b->rows[1] = b->rows[2] = ch;
		break;
	case TK_SEMI:
		b->np = 2;
		b->lb[0] = w;
		b->rows[0] = h;
		b->lb[1] = cw * 2;
		b->rows[1] = ch;
		break;
	case TK_RGB:
		b->np = 1;
		b->lb[0] = w * rgb_bpp(tf->layout);
		b->rows[0] = h;
		break;
	case TK_LUMA:
		b->np = 1;
		b->lb[0] = w * (tf->layout[0] == '8' ? 1 : 2);
		b->rows[0] = h;
		break;
	default:
		b->np = 1;
		b->lb[0] = w;
		b->rows[0] = h;
		break;
	}
}

void tbuf_alloc(struct tbuf *b, const struct tfmt *tf, u32 w, u32 h,
		u32 extra)
{
	int i;

	tbuf_layout(b, tf, w, h);
	for (i = 0; i < b->np; i++) {
		b->stride[i] = b->lb[i] + extra;
		b->plane[i] = malloc((size_t)b->stride[i] * b->rows[i]);
		if (!b->plane[i]) {
			perror("malloc");
			exit(2);
		}
	}
}

void tbuf_free(struct tbuf *b)
{
	int i;

	for (i = 0; i < b->np; i++)
		free(b->plane[i]);
	memset(b, 0, sizeof(*b));
}

void tbuf_fill(struct tbuf *b, u8 val)
{
	int i;

	for (i = 0; i < b->np; i++)
		memset(b->plane[i], val, (size_t)b->stride[i] * b->rows[i]);
}

long tbuf_padding_damage(const struct tbuf *b, u8 val)
{
	long bad = 0;
	u32 r, x;
	int i;

	for (i = 0; i < b->np; i++)
		for (r = 0; r < b->rows[i]; r++)
			for (x = b->lb[i]; x < b->stride[i]; x++)
				bad += b->plane[i][(size_t)r * b->stride[i] +
						   x] != val;
	return bad;
}

int tbuf_equal(const struct tbuf *a, const struct tbuf *b)
{
	u32 r;
	int i;

	for (i = 0; i < a->np; i++)
		for (r = 0; r < a->rows[i]; r++)
			if (memcmp(a->plane[i] + (size_t)r * a->stride[i],
				   b->plane[i] + (size_t)r * b->stride[i],
				   a->lb[i]))
				return 0;
	return 1;
}

/* FNV-1a over the bytes the generator writes, plane by plane */
u64 tbuf_hash(const struct tbuf *b)
{
	u64 hsh = 0xcbf29ce484222325ull;
	u32 r, x;
	int i;

	for (i = 0; i < b->np; i++)
		for (r = 0; r < b->rows[i]; r++)
			for (x = 0; x < b->lb[i]; x++) {
				hsh ^= b->plane[i][(size_t)r * b->stride[i] +
						   x];
				hsh *= 0x100000001b3ull;
			}
	return hsh;
}

#ifndef TFMT_NO_GEN
void tbuf_frame(const struct tbuf *b, struct vivi_gen_frame *f)
{
	int i;

	memset(f, 0, sizeof(*f));
	f->fourcc = b->tf->fourcc;
	f->width = b->w;
	f->height = b->h;
	for (i = 0; i < b->np; i++) {
		f->plane[i] = b->plane[i];
		f->stride[i] = b->stride[i];
	}
}

int tgen(struct tbuf *b, const struct vivi_gen_settings *s, u32 frame)
{
	struct vivi_gen_frame f;
	size_t n = vivi_gen_scratch_size(b->w);
	u8 *scratch = malloc(n + 1);
	int ret;

	if (!scratch) {
		perror("malloc");
		exit(2);
	}
	tbuf_frame(b, &f);
	/* odd address: "any alignment"; ASan sees the exact end */
	ret = vivi_gen_fill(&f, s, frame, scratch + 1);
	free(scratch);
	return ret;
}

void tset_default(struct vivi_gen_settings *s, u32 pattern)
{
	memset(s, 0, sizeof(*s));
	s->pattern = pattern;
	s->brightness = VIVI_GEN_BRIGHTNESS_DEF;
	s->contrast = VIVI_GEN_CONTRAST_DEF;
	s->saturation = VIVI_GEN_SATURATION_DEF;
	s->hue = VIVI_GEN_HUE_DEF;
}
#endif

static int chan_of(char c)
{
	return c == 'R' ? 0 : c == 'G' ? 1 : 2;
}

int tbayer_ch(const struct tfmt *tf, int x, int y)
{
	return chan_of(tf->layout[(y & 1) * 2 + (x & 1)]);
}

static int pos_of(const char *l, char c, int nth)
{
	int i;

	for (i = 0; l[i]; i++)
		if (l[i] == c && nth-- == 0)
			return i;
	return -1;
}

int tdecode(const struct tbuf *b, struct dpx *out)
{
	const struct tfmt *tf = b->tf;
	const char *l = tf->layout;
	int x, y, bad = 0, cb, cr, k;
	u32 v;

	for (y = 0; y < (int)b->h; y++) {
		const u8 *p0 = b->plane[0] + (size_t)y * b->stride[0];
		int cy = tf->vsub == 2 ? y / 2 : y;
		const u8 *p1 = b->np > 1 ?
			b->plane[1] + (size_t)cy * b->stride[1] : NULL;
		const u8 *p2 = b->np > 2 ?
			b->plane[2] + (size_t)cy * b->stride[2] : NULL;

		for (x = 0; x < (int)b->w; x++) {
			struct dpx *d = &out[(size_t)y * b->w + x];
			const u8 *q;

			d->c[0] = d->c[1] = d->c[2] = -1;
			switch (tf->kind) {
			case TK_PACKED:
				q = p0 + (x / 2) * 4;
				k = pos_of(l, 'Y', x & 1);
				d->c[0] = q[k];
				k = pos_of(l, 'U', 0);
				if (q + k < p0 + b->lb[0])
					d->c[1] = q[k];
				k = pos_of(l, 'V', 0);
				if (q + k < p0 + b->lb[0])
					d->c[2] = q[k];
				break;
			case TK_PLANAR:
				d->c[0] = p0[x];
				cb = l[0] == 'U' ? p1[x / 2] : p2[x / 2];
				cr = l[0] == 'U' ? p2[x / 2] : p1[x / 2];
				d->c[1] = cb;
				d->c[2] = cr;
				break;
			case TK_SEMI:
				d->c[0] = p0[x];
				d->c[l[0] == 'U' ? 1 : 2] = p1[(x / 2) * 2];
				d->c[l[0] == 'U' ? 2 : 1] = p1[(x / 2) * 2 + 1];
				break;
			case TK_RGB:
				if (!strcmp(l, "RGB") || !strcmp(l, "BGR")) {
					q = p0 + x * 3;
					d->c[0] = q[l[0] == 'R' ? 0 : 2];
					d->c[1] = q[1];
					d->c[2] = q[l[0] == 'R' ? 2 : 0];
				} else if (!strcmp(l, "XRGB")) {
					q = p0 + x * 4;
					bad |= q[0] != 0xff;
					d->c[0] = q[1];
					d->c[1] = q[2];
					d->c[2] = q[3];
				} else if (!strcmp(l, "BGRX")) {
					q = p0 + x * 4;
					bad |= q[3] != 0xff;
					d->c[0] = q[2];
					d->c[1] = q[1];
					d->c[2] = q[0];
				} else {
					q = p0 + x * 2;
					v = !strcmp(l, "565X") ?
					    q[0] << 8 | q[1] :
					    q[0] | q[1] << 8;
					if (!strcmp(l, "X555")) {
						bad |= !(v & 0x8000);
						d->c[0] = (v >> 10) & 31;
						d->c[1] = (v >> 5) & 31;
					} else {
						d->c[0] = v >> 11;
						d->c[1] = (v >> 5) & 63;
					}
					d->c[2] = v & 31;
				}
				break;
			case TK_LUMA:
				d->c[0] = l[0] == '8' ? p0[x] :
					  p0[2 * x] | p0[2 * x + 1] << 8;
				break;
			default:
				d->c[tbayer_ch(tf, x, y)] = p0[x];
				break;
			}
		}
	}
	return bad ? -1 : 0;
}

/* R4|G2|B1 of the bars, left to right */
static const int bar_bits[8] = { 7, 6, 3, 2, 5, 4, 1, 0 };

static void bar_rgb(int bar, int on, int rgb[3])
{
	rgb[0] = bar_bits[bar] & 4 ? on : 0;
	rgb[1] = bar_bits[bar] & 2 ? on : 0;
	rgb[2] = bar_bits[bar] & 1 ? on : 0;
}

static void solid_rgb(u32 pattern, int rgb[3])
{
	static const int c[5][3] = {
		{ 0, 0, 0 }, { 255, 255, 255 }, { 255, 0, 0 },
		{ 0, 255, 0 }, { 0, 0, 255 },
	};

	memcpy(rgb, c[pattern - VIVI_PAT_BLACK], sizeof(c[0]));
}

void tpattern_rgb(u32 pattern, u32 w, u32 h, u32 x, u32 y, int rgb[3])
{
	int g;

	switch (pattern) {
	case VIVI_PAT_BARS75:
	case VIVI_PAT_BARS100:
		bar_rgb(x * 8 / w, pattern == VIVI_PAT_BARS75 ? 191 : 255,
			rgb);
		return;
	case VIVI_PAT_CHECKER:
		g = (x / 16 + y / 16) & 1 ? 0 : 255;
		break;
	case VIVI_PAT_HRAMP:
		g = w > 1 ? x * 255 / (w - 1) : 0;
		break;
	case VIVI_PAT_VRAMP:
		g = h > 1 ? y * 255 / (h - 1) : 0;
		break;
	default:
		solid_rgb(pattern, rgb);
		return;
	}
	rgb[0] = rgb[1] = rgb[2] = g;
}

static int rnd(double v)
{
	return (int)floor(v + 0.5);
}

/*
 * The exact values are fractions of denominator 255000 or 15937500, so a
 * half is a true tie; doubles land either side of one (59 colors in
 * 2^24 came out a half below), and 1e-9, far below the smallest gap to a
 * half, rounds every tie up as the exact value does (checked on all 2^24
 * colors)
 */
void tycc(const int rgb[3], int ycc[3])
{
	double r = rgb[0], g = rgb[1], b = rgb[2], tie = 1e-9;

	ycc[0] = rnd(16 + 219 * (0.299 * r + 0.587 * g + 0.114 * b) / 255 +
		     tie);
	ycc[1] = rnd(128 + 224 * (-0.168736 * r - 0.331264 * g + 0.5 * b) /
		     255 + tie);
	ycc[2] = rnd(128 + 224 * (0.5 * r - 0.418688 * g - 0.081312 * b) /
		     255 + tie);
}

void texpect(const struct tfmt *tf, int x, int y, const int rgb[3],
	     struct dpx *e)
{
	const char *l = tf->layout;
	double luma = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2];
	int i;

	e->c[0] = e->c[1] = e->c[2] = -1;
	switch (tf->kind) {
	case TK_PACKED:
	case TK_PLANAR:
	case TK_SEMI:
		tycc(rgb, e->c);
		break;
	case TK_RGB:
		for (i = 0; i < 3; i++)
			e->c[i] = rgb[i];
		if (!strcmp(l, "565") || !strcmp(l, "565X")) {
			e->c[0] = rnd(rgb[0] * 31.0 / 255);
			e->c[1] = rnd(rgb[1] * 63.0 / 255);
			e->c[2] = rnd(rgb[2] * 31.0 / 255);
		} else if (!strcmp(l, "X555")) {
			for (i = 0; i < 3; i++)
				e->c[i] = rnd(rgb[i] * 31.0 / 255);
		}
		break;
	case TK_LUMA:
		e->c[0] = l[0] == '8' ? rnd(luma) : rnd(luma * 257);
		break;
	default:
		i = tbayer_ch(tf, x, y);
		e->c[i] = rgb[i];
		break;
	}
}

int tdpx_match(const struct dpx *d, const struct dpx *e)
{
	int i;

	for (i = 0; i < 3; i++)
		if (e->c[i] >= 0 && d->c[i] != e->c[i])
			return 0;
	return 1;
}

void tto_rgb(const struct tfmt *tf, const struct dpx *p, double rgb[3])
{
	const char *l = tf->layout;
	double y, u, v;
	int i;

	switch (tf->kind) {
	case TK_PACKED:
	case TK_PLANAR:
	case TK_SEMI:
		y = (p->c[0] - 16) * 255.0 / 219;
		u = (p->c[1] - 128) * 255.0 / 224;
		v = (p->c[2] - 128) * 255.0 / 224;
		rgb[0] = y + 1.402 * v;
		rgb[1] = y - 0.344136 * u - 0.714136 * v;
		rgb[2] = y + 1.772 * u;
		for (i = 0; i < 3; i++)
			rgb[i] = rgb[i] < 0 ? 0 : rgb[i] > 255 ? 255 : rgb[i];
		break;
	case TK_RGB:
		for (i = 0; i < 3; i++)
			rgb[i] = p->c[i];
		if (l[0] == '5') {
			rgb[0] = p->c[0] * 255.0 / 31;
			rgb[1] = p->c[1] * 255.0 / 63;
			rgb[2] = p->c[2] * 255.0 / 31;
		} else if (l[0] == 'X' && l[1] == '5') {
			for (i = 0; i < 3; i++)
				rgb[i] = p->c[i] * 255.0 / 31;
		}
		break;
	case TK_LUMA:
		for (i = 0; i < 3; i++)
			rgb[i] = l[0] == '8' ? p->c[0] : p->c[0] / 257.0;
		break;
	default:
		for (i = 0; i < 3; i++)
			rgb[i] = p->c[i];
		break;
	}
}
