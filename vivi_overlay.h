/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vivi's overlays: OSD text and the frame stamp (see vivi_gen.h), drawn
 * over packed planes of any raw format. Pure: no locks, no allocation, no
 * printk.
 */
#ifndef _VIVI_OVERLAY_H_
#define _VIVI_OVERLAY_H_

#include <linux/types.h>

struct vivi_band;
struct vivi_gen_settings;
struct vivi_pal;

#define VIVI_STAMP_ROWS		3	/* cell rows of the stamp */
#define VIVI_GLYPH_BYTES	32	/* 8 pixels of the widest format, XRGB32 */

/**
 * struct vivi_stamp - where the frame stamp lies, and its bits
 * @c: cell side; 0 = no stamp
 * @x0: the cells cover columns x0..x1-1
 * @x1: one past the last cell column
 * @y0: and lines y0..h-1
 * @bits: per cell row, MSB = leftmost cell
 *
 * Per-call state; no lock.
 */
struct vivi_stamp {
	u32 c;
	u32 x0;
	u32 x1;
	u32 y0;
	u32 bits[VIVI_STAMP_ROWS];
};

/**
 * struct vivi_overlay - text and stamp of one call
 * @b: the band drawn
 * @s: the text lines, the font and the stamp's values
 * @st: the stamp
 * @tpal: the text palette: 0 black, 1 white
 * @tmp: an index line (vivi_idx_bytes()) for the stamp's cells
 * @glyph: per plane and row parity, the 8 packed pixels of each byte of a
 *	glyph row
 *
 * @tpal, @tmp and @glyph are the caller's scratch; @tpal and @glyph hold
 * what vivi_overlay_prepare() made for @b's format. Per-call state; no
 * lock.
 */
struct vivi_overlay {
	const struct vivi_band *b;
	const struct vivi_gen_settings *s;
	struct vivi_stamp st;
	struct vivi_pal *tpal;
	u8 *tmp;
	u8 (*glyph)[2][256][VIVI_GLYPH_BYTES];
};

void vivi_stamp_init(struct vivi_stamp *st,
		     const struct vivi_gen_settings *s, u32 w, u32 h);
void vivi_overlay_prepare(struct vivi_overlay *ov);
void vivi_overlay_draw(const struct vivi_overlay *ov, u32 pl, u8 *plane,
		       u32 stride);

#endif
