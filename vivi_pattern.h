/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scene of vivi's test pattern: its colors, its rows as lines of
 * palette indices, noise, motion and the camera's view of it. Pure: no
 * locks, no allocation, no printk.
 */
#ifndef _VIVI_PATTERN_H_
#define _VIVI_PATTERN_H_

#include <linux/types.h>

#include "vivi_color.h"

struct vivi_gen_settings;
struct vivi_layout;
struct vivi_pal;

/**
 * struct vivi_axis - one axis of the view
 * @n0: numerator at i = 0
 * @step: added per pixel
 * @den: denominator
 * @size: the scene's size on this axis
 *
 * Scene coordinate i maps from n(i) = n0 + i * step as floor(n(i) / den)
 * mod size (see vivi_gen.h).
 */
struct vivi_axis {
	s64 n0;
	s64 step;
	s64 den;
	u32 size;
};

/**
 * struct vivi_scene_par - what the scene's palette and index lines depend on
 * @w: frame width
 * @h: frame height
 * @pattern: enum vivi_gen_pattern; black while privacy closes the shutter
 * @seed: the frame number for noise, else 0
 * @shift: bar scroll, pixels to the left
 * @box_x: the moving box's left column
 * @box_y: its top row
 * @box_side: its side
 * @hflip: mirror left-right
 * @vflip: mirror top-bottom
 * @zoom: the view's zoom, clamped
 * @pan: its pan, clamped
 * @tilt: its tilt, clamped
 * @sensor: the sensor controls
 * @adj: the picture controls
 *
 * Equal parameters draw equal palettes and index lines: with the fourcc,
 * the generator's cache key. Zeroed before vivi_scene_init() fills it in,
 * so that it compares as bytes. Per-call state; no lock.
 */
struct vivi_scene_par {
	u32 w;
	u32 h;
	u32 pattern;
	u32 seed;
	u32 shift;
	u32 box_x;
	u32 box_y;
	u32 box_side;
	u32 hflip;
	u32 vflip;
	u32 zoom;
	s32 pan;
	s32 tilt;
	struct vivi_sensor sensor;
	struct vivi_adj adj;
};

/**
 * struct vivi_scene - the scene of one call
 * @par: its parameters
 * @view: zoom, pan or tilt: the scene is resampled through @vx, @vy
 * @vx: the view's x axis
 * @vy: the view's y axis
 * @lut: R', G', B' through the sensor, while building the palette
 * @tmp: an unflipped, unscrolled index line
 * @idx: the last two index lines, padded by one repeated pixel
 * @idx_cls: their row classes
 * @idx_ok: whether each holds one
 * @idx_next: the one to render into next
 *
 * The buffers are the caller's scratch; per-call state, no lock.
 */
struct vivi_scene {
	const struct vivi_scene_par *par;
	bool view;
	struct vivi_axis vx;
	struct vivi_axis vy;
	u8 (*lut)[256];
	u8 *tmp;
	u8 *idx[2];
	u32 idx_cls[2];
	bool idx_ok[2];
	u32 idx_next;
};

void vivi_scene_init(struct vivi_scene *sc, struct vivi_scene_par *p,
		     const struct vivi_gen_settings *s, u32 w, u32 h,
		     u32 frame);
void vivi_pal_build(struct vivi_scene *sc, const struct vivi_layout *l,
		    struct vivi_pal *p);
u32 vivi_row_class(const struct vivi_scene *sc, u32 y);
u32 vivi_class_run(const struct vivi_scene *sc, u32 y);
const u8 *vivi_scene_line(struct vivi_scene *sc, u32 y, const u8 *keep);
u64 vivi_mix64(u64 x);

#endif
