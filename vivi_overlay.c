// SPDX-License-Identifier: GPL-2.0
/*
 * vivi's overlays, drawn over the finished planes of any raw format with
 * their own fixed black/white palette, so they are neither adjusted nor
 * mirrored: OSD text (each glyph row a lookup in a table of converted
 * 8-pixel rows) and the frame stamp (each of its three cell rows converted
 * once from an index line of cell bits, and copied into the other lines
 * of that row). The stamp's layout is specified in vivi_gen.h.
 */

#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/types.h>

#include "vivi_gen.h"
#include "vivi_overlay.h"
#include "vivi_pack.h"

#define STAMP_COLS	32	/* cells per stamp row */
#define STAMP_MIN_CELL	4	/* smaller cells do not survive scaling */
#define STAMP_MS_MASK	0xfffffffffffull	/* the 44 bits of ms it carries */

/* The text palette and the glyph tables of every plane of @ov's format */
void vivi_overlay_prepare(struct vivi_overlay *ov)
{
	static const u8 black[3], white[3] = { 255, 255, 255 };
	const struct vivi_layout *l = ov->b->l;
	const struct vivi_plane_desc *pd;
	u32 i, par, b, j;
	u8 px[8];

	vivi_pal_set(ov->tpal, l, 0, black, VIVI_CANON_RGB);
	vivi_pal_set(ov->tpal, l, 1, white, VIVI_CANON_RGB);
	vivi_pal_done(ov->tpal, l, 2);
	for (i = 0; i < l->nplanes; i++) {
		pd = &l->pl[i];
		for (par = 0; par < 2; par++)
			for (b = 0; b < 256; b++) {
				for (j = 0; j < 8; j++)
					px[j] = (b >> (7 - j)) & 1;
				vivi_convert(ov->tpal, pd, ov->glyph[i][par][b],
					     px, px, par, 8);
			}
	}
}

/* One glyph row: @n bytes, one of the sizes vivi_line_bytes(pd, 8) has */
static inline void vivi_put_glyph(u8 *d, const u8 *src, u32 n)
{
	switch (n) {
	case 4:
		memcpy(d, src, 4);
		break;
	case 8:
		memcpy(d, src, 8);
		break;
	case 16:
		memcpy(d, src, 16);
		break;
	case 24:
		memcpy(d, src, 24);
		break;
	default:
		memcpy(d, src, 32);
		break;
	}
}

/*
 * Text: whole 8x16 glyphs that fit, white on black, from the fixed text
 * palette; chroma lines are converted too, which makes them neutral. A
 * glyph starts at an even x and spans whole pixel pairs, so each of its
 * rows is a lookup in the plane's glyph table (vivi_overlay_prepare()).
 */
static void vivi_draw_text(const struct vivi_overlay *ov, u32 pl, u8 *plane,
			   u32 stride)
{
	const struct vivi_band *bd = ov->b;
	const struct vivi_plane_desc *pd = &bd->l->pl[pl];
	u32 gb = vivi_line_bytes(pd, 8);
	const u8 *font = ov->s->font;
	const u8 *glyph;
	const char *str;
	u32 i, n, k, row, y0, y, nfit, r0, r1;
	u8 *d;

	if (!font || ov->s->privacy || bd->w < 16 + 8)
		return;
	vivi_band_rows(bd, pd, &r0, &r1);
	nfit = (bd->w - 16) / 8;
	for (i = 0; i < VIVI_GEN_TEXT_LINES; i++) {
		str = ov->s->text[i];
		y0 = 16 + 18 * i;
		if (y0 + 16 > bd->h)
			break;
		if (!str)
			continue;
		for (n = 0; n < nfit && str[n]; n++)
			;
		for (row = 0; n && row < 16; row++) {
			y = y0 + row;
			if (pd->vsub == 2) {
				if (row & 1)
					continue;
				y /= 2;
			}
			if (y < r0 || y >= r1)
				continue;
			d = plane + (size_t)(y - r0) * stride +
			    vivi_x_offset(pd, 16);
			glyph = ov->glyph[pl][y & 1][0];
			for (k = 0; k < n; k++, d += gb)
				vivi_put_glyph(d, glyph + VIVI_GLYPH_BYTES *
					       font[(u8)str[k] * 16 + row], gb);
		}
	}
}

/*
 * The stamp's cells and its 96 bits as three 32-bit cell rows: the sync
 * 1010 and seq[31:4]; seq[3:0] and ms44[43:16]; ms44[15:0] and the check.
 * c stays 0 when the stamp is off or does not fit.
 */
void vivi_stamp_init(struct vivi_stamp *st,
		     const struct vivi_gen_settings *s, u32 w, u32 h)
{
	u64 ms = s->stamp_ms & STAMP_MS_MASK;
	u32 seq = s->stamp_seq, c = w / STAMP_COLS, sum;

	if (!s->stamp || c < STAMP_MIN_CELL || h < VIVI_STAMP_ROWS * c)
		return;
	st->c = c;
	st->x0 = (w - STAMP_COLS * c) / 2;
	st->x1 = st->x0 + STAMP_COLS * c;
	st->y0 = h - VIVI_STAMP_ROWS * c;
	sum = (seq & 0xffff) + (seq >> 16) + (u32)(ms & 0xffff) +
	      (u32)((ms >> 16) & 0xffff) + (u32)(ms >> 32);
	st->bits[0] = 0xa0000000u | seq >> 4;
	st->bits[1] = seq << 28 | (u32)(ms >> 16);
	st->bits[2] = (u32)(ms & 0xffff) << 16 | (~sum & 0xffff);
}

/*
 * The pixels [*xs, *xe) a stamp line is converted over: the cells, widened
 * to whole pixel pairs where pairs share chroma.
 */
static void vivi_stamp_span(const struct vivi_stamp *st,
			    const struct vivi_plane_desc *pd, u32 *xs, u32 *xe)
{
	bool pairs = pd->type != VIVI_PT_ENC && pd->type != VIVI_PT_BAYER;

	*xs = pairs ? st->x0 & ~1u : st->x0;
	*xe = pairs ? ALIGN(st->x1, 2) : st->x1;
}

/*
 * Cell row @k into the pixels [@xs, @xe) of plane line @d: an index line
 * of its bits converted with the text palette. A margin pixel in the span
 * is black there: neutral chroma, like every cell, and its Y' is put back
 * by the caller.
 */
static void vivi_stamp_render(const struct vivi_overlay *ov,
			      const struct vivi_plane_desc *pd, u8 *d, u32 k,
			      u32 xs, u32 xe)
{
	const struct vivi_stamp *st = &ov->st;
	u32 i, c = st->c;
	u8 *a = ov->tmp;

	memset(a + xs, 0, xe - xs);
	for (i = 0; i < STAMP_COLS; i++)
		if (st->bits[k] & (0x80000000u >> i))
			memset(a + st->x0 + i * c, 1, c);
	/* Bayer parity does not matter: black and white are gray */
	vivi_convert(ov->tpal, pd, d + vivi_x_offset(pd, xs), a + xs, a + xs,
		     0, xe - xs);
}

/*
 * The stamp's lines of plane @pl that lie in the band: the first line of
 * each cell row is converted, the others copy the line above. Packed
 * 4:2:2 with an odd x0 (then x1 is odd too) shares the end macropixels
 * with a margin pixel each, whose Y' bytes @ya and @yb are kept.
 */
static void vivi_draw_stamp(const struct vivi_overlay *ov, u32 pl, u8 *plane,
			    u32 stride)
{
	const struct vivi_stamp *st = &ov->st;
	const struct vivi_plane_desc *pd = &ov->b->l->pl[pl];
	bool keep = pd->type == VIVI_PT_PACKED && (st->x0 & 1);
	u32 r, r0, r1, k, xs, xe, bs, n, ya = 0, yb = 0, last = VIVI_STAMP_ROWS;
	u8 *d, *prev = NULL;
	u8 ma = 0, mb = 0;

	if (!st->c)
		return;
	vivi_band_rows(ov->b, pd, &r0, &r1);
	vivi_stamp_span(st, pd, &xs, &xe);
	bs = vivi_x_offset(pd, xs);
	n = vivi_x_offset(pd, xe) - bs;
	if (keep) {
		ya = (st->x0 - 1) * 2 + pd->off[0];
		yb = (st->x1 - 1) * 2 + pd->off[2];
	}
	for (r = max(r0, st->y0 / pd->vsub); r < r1; r++, prev = d) {
		d = plane + (size_t)(r - r0) * stride;
		/* a 4:2:0 chroma line over the top edge counts as cell row 0 */
		k = (max(r * pd->vsub, st->y0) - st->y0) / st->c;
		if (keep) {
			ma = d[ya];
			mb = d[yb];
		}
		if (k != last)
			vivi_stamp_render(ov, pd, d, k, xs, xe);
		else
			memcpy(d + bs, prev + bs, n);
		last = k;
		if (keep) {
			d[ya] = ma;
			d[yb] = mb;
		}
	}
}

/* Text, then the stamp, over plane @pl of the band */
void vivi_overlay_draw(const struct vivi_overlay *ov, u32 pl,
		       u8 *plane, u32 stride)
{
	vivi_draw_text(ov, pl, plane, stride);
	vivi_draw_stamp(ov, pl, plane, stride);
}
