// SPDX-License-Identifier: GPL-2.0
/*
 * The unpacker of vivi: the planes of any raw format of the packer's table
 * into canonical lines (struct vivi_lines), the mirror of
 * vivi_pack_lines().
 *
 * Each pixel gets the samples of its format that cover it:
 * - chroma is replicated: a 4:2:2 or 4:2:0 sample stands for every pixel
 *   it covers. An odd width's last pixel of packed 4:2:2 has half a
 *   macropixel, with one chroma byte; it takes the other from the
 *   macropixel before it, or 128 if there is none;
 * - 565 and 555 fields expand to 8 bits rounded (v * 255 / 31 or / 63),
 *   Y16 shrinks to 8 bits rounded (v / 257), GREY and Y16 give R' = G' =
 *   B'; padding bits and bytes are ignored;
 * - Bayer is demosaiced bilinearly: a pixel keeps its own sample, and
 *   each other channel is the average, rounded half up, of that channel's
 *   sites among its 3 x 3 neighbours inside the frame (4 or 2, and 1 to
 *   3 at an edge; only a 1-pixel-wide or -high frame may have none: then
 *   its own sample).
 * So packing what this unpacks gives the same planes back, for every
 * format but Y16 (exact only for multiples of 257) and the padding bits.
 */

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/swab.h>
#include <linux/types.h>

#include "vivi_gen.h"
#include "vivi_pack.h"
#include "vivi_unpack.h"

/* A @bits-bit field as 8 bits, rounded */
static u8 vivi_expand(u32 v, u32 bits)
{
	u32 max = (1u << bits) - 1;

	return (v * 255 + max / 2) / max;
}

/* R' = G' = B' = @v */
static void vivi_gray(u8 *c, u8 v)
{
	c[0] = v;
	c[1] = v;
	c[2] = v;
}

/* A two-byte pixel of kind @kind into R'G'B' @c */
static void vivi_decode16(u32 kind, const u8 *s, u8 *c)
{
	u32 v = kind == VIVI_E_RGB565X ? s[0] << 8 | s[1] : s[0] | s[1] << 8;

	switch (kind) {
	case VIVI_E_RGB565:
	case VIVI_E_RGB565X:
		c[0] = vivi_expand(v >> 11, 5);
		c[1] = vivi_expand((v >> 5) & 63, 6);
		c[2] = vivi_expand(v & 31, 5);
		break;
	case VIVI_E_XRGB555:
		c[0] = vivi_expand((v >> 10) & 31, 5);
		c[1] = vivi_expand((v >> 5) & 31, 5);
		c[2] = vivi_expand(v & 31, 5);
		break;
	default:
		vivi_gray(c, (v + 128) / 257);
		break;
	}
}

/* The four bytes at @s, the first in bits 0..7, as one load */
static inline u32 vivi_get32(const u8 *s)
{
	u32 v;

	memcpy(&v, s, sizeof(v));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __swab32(v);
#endif
	return v;
}

/* @n pixels of a VIVI_PT_ENC plane of kind @kind into native colors @c */
static void vivi_decode_line(u8 *c, u32 kind, const u8 *s, u32 n)
{
	u32 x, v;

	switch (kind) {
	case VIVI_E_Y:
		/* four at a time: one load */
		for (x = 0; x + 4 <= n; x += 4, c += 12) {
			v = vivi_get32(s + x);
			c[0] = v;
			c[3] = v >> 8;
			c[6] = v >> 16;
			c[9] = v >> 24;
		}
		for (; x < n; x++, c += 3)
			c[0] = s[x];
		break;
	case VIVI_E_GREY:
		for (x = 0; x < n; x++, c += 3)
			vivi_gray(c, s[x]);
		break;
	case VIVI_E_RGB24:
		memcpy(c, s, (size_t)n * 3);
		break;
	case VIVI_E_BGR24:
		for (x = 0; x < n; x++, c += 3, s += 3) {
			c[0] = s[2];
			c[1] = s[1];
			c[2] = s[0];
		}
		break;
	case VIVI_E_XRGB32:
		for (x = 0; x < n; x++, c += 3, s += 4)
			memcpy(c, s + 1, 3);
		break;
	case VIVI_E_XBGR32:
		for (x = 0; x < n; x++, c += 3, s += 4) {
			c[0] = s[2];
			c[1] = s[1];
			c[2] = s[0];
		}
		break;
	default:
		for (x = 0; x < n; x++, c += 3, s += 2)
			vivi_decode16(kind, s, c);
		break;
	}
}

/* Packed 4:2:2: Y' of each pixel, the pair's Cb and Cr on both */
static void vivi_unpack_packed(const struct vivi_plane_desc *pd, u8 *c,
			       const u8 *s, u32 w)
{
	u32 y0 = pd->off[0], u = pd->off[1], y1 = pd->off[2], v = pd->off[3];
	u32 x;
	u8 m[4];

	for (x = 0; x + 1 < w; x += 2, s += 4, c += 6) {
		c[0] = s[y0];
		c[1] = s[u];
		c[2] = s[v];
		c[3] = s[y1];
		c[4] = s[u];
		c[5] = s[v];
	}
	if (x < w) {
		/* half a macropixel, one chroma byte: the other from before */
		m[u] = x ? s[(s32)u - 4] : 128;
		m[v] = x ? s[(s32)v - 4] : 128;
		memcpy(m, s, 2);
		c[0] = m[y0];
		c[1] = m[u];
		c[2] = m[v];
	}
}

/* One chroma plane line: each sample on the pixels it covers */
static void vivi_unpack_chroma(const struct vivi_plane_desc *pd, u8 *c,
			       const u8 *s, u32 w)
{
	u32 c0 = pd->off[0], c1 = pd->off[1], x;

	/* a sample covers pixels x and x + 1 */
	if (pd->type == VIVI_PT_CHROMA2) {
		for (x = 0; x + 1 < w; x += 2, c += 6, s += 2) {
			c[c0] = s[0];
			c[c1] = s[1];
			c[c0 + 3] = s[0];
			c[c1 + 3] = s[1];
		}
		if (x < w) {
			c[c0] = s[0];
			c[c1] = s[1];
		}
		return;
	}
	for (x = 0; x + 1 < w; x += 2, c += 6, s++) {
		c[c0] = s[0];
		c[c0 + 3] = s[0];
	}
	if (x < w)
		c[c0] = s[0];
}

/*
 * Frame line @y of Bayer plane @pd (@p: its first line, @stride, @w x @h):
 * each pixel's own sample, the other channels averaged from its 3 x 3
 * neighbours
 */
static void vivi_demosaic(const struct vivi_plane_desc *pd, u8 *c,
			  const u8 *p, u32 stride, u32 w, u32 h, u32 y)
{
	u32 sum[3], cnt[3], x, yy, xx, ch, own;
	const u8 *row;

	for (x = 0; x < w; x++, c += 3) {
		memset(sum, 0, sizeof(sum));
		memset(cnt, 0, sizeof(cnt));
		for (yy = y ? y - 1 : 0; yy <= y + 1 && yy < h; yy++) {
			row = p + (size_t)yy * stride;
			for (xx = x ? x - 1 : 0; xx <= x + 1 && xx < w; xx++) {
				ch = pd->off[(yy & 1) * 2 + (xx & 1)];
				sum[ch] += row[xx];
				cnt[ch]++;
			}
		}
		own = pd->off[(y & 1) * 2 + (x & 1)];
		row = p + (size_t)y * stride;
		for (ch = 0; ch < 3; ch++)
			c[ch] = ch == own || !cnt[ch] ? row[x] :
				(sum[ch] + cnt[ch] / 2) / cnt[ch];
	}
}

/* Frame line @y of @f, laid out as @l, into native colors @c */
static void vivi_unpack_line(const struct vivi_gen_frame *f,
			     const struct vivi_layout *l, u32 y, u8 *c)
{
	const struct vivi_plane_desc *pd;
	const u8 *s;
	u32 p;

	for (p = 0; p < l->nplanes; p++) {
		pd = &l->pl[p];
		s = f->plane[p] + (size_t)(y / pd->vsub) * f->stride[p];
		switch (pd->type) {
		case VIVI_PT_ENC:
			vivi_decode_line(c, l->enc, s, f->width);
			break;
		case VIVI_PT_PACKED:
			vivi_unpack_packed(pd, c, s, f->width);
			break;
		case VIVI_PT_CHROMA:
		case VIVI_PT_CHROMA2:
			vivi_unpack_chroma(pd, c, s, f->width);
			break;
		default:
			vivi_demosaic(pd, c, f->plane[p], f->stride[p],
				      f->width, f->height, y);
			break;
		}
	}
}

/**
 * vivi_unpack_lines() - the planes of any raw format into canonical lines
 * @f: format, size and planes of a whole frame (no band)
 * @y0: the first frame line wanted
 * @n: how many
 * @dst: @n lines for frame lines @y0 .. @y0 + @n - 1, and the kind of
 *	color wanted in them
 *
 * Reads the lines' neighbours too (4:2:0 chroma, Bayer), so @f is the
 * whole frame. How each pixel gets its channels is at the top of this
 * file; the format's colors then convert to @dst->kind as
 * vivi_color_convert() does. Needs no scratch.
 *
 * Return: 0, or -EINVAL for a frame vivi_gen_fill() would refuse, a band
 * in @f, lines outside the frame, an unknown kind or a line stride below
 * 3 * @f->width.
 */
int vivi_unpack_lines(const struct vivi_gen_frame *f, u32 y0, u32 n,
		      const struct vivi_lines *dst)
{
	struct vivi_band b;
	u32 y, native;
	u8 *c;

	if (!f || !dst || !dst->data || dst->kind >= VIVI_CANON_COUNT ||
	    f->band_lines || vivi_band_init(&b, f) || y0 > b.h ||
	    n > b.h - y0 || dst->stride < (size_t)b.w * 3)
		return -EINVAL;
	native = vivi_layout_canon(b.l);
	for (y = y0; y < y0 + n; y++) {
		c = dst->data + (size_t)(y - y0) * dst->stride;
		vivi_unpack_line(f, b.l, y, c);
		if (native != dst->kind)
			vivi_color_line(native, dst->kind, c, c, b.w);
	}
	return 0;
}
