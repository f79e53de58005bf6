// SPDX-License-Identifier: GPL-2.0
/*
 * The scene of vivi's test pattern: its few colors, its rows as lines of
 * palette indices (rows that look the same share a row class), noise,
 * motion, and the camera's view of it (zoom, pan, tilt, flips).
 *
 * Moving box: a 100% white square (not in the 75% bars) of side
 * min(max(min(w, h) / 8, 2), min(w, h)). Its top-left corner follows a
 * triangle wave over 0..w-side in x and 0..h-side in y, both moving
 * motion_speed pixels per frame, starting from the middle of each range,
 * so with motion_speed 0 it sits at ((w - side) / 2, (h - side) / 2).
 * The periods, 2 * (w - side) and 2 * (h - side), differ unless the frame
 * is square. The bars of this pattern do not scroll; those of the two bar
 * patterns move left by motion_speed pixels per frame. hflip and vflip
 * mirror the finished picture, scroll and box included.
 */

#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/string.h>
#include <linux/types.h>

#include "vivi_gen.h"
#include "vivi_pack.h"
#include "vivi_pattern.h"

const char * const vivi_gen_pattern_names[VIVI_PAT_COUNT + 1] = {
	"75% Color Bars",
	"100% Color Bars",
	"Color Bars with Moving Box",
	"Checkerboard 16x16",
	"Horizontal Gray Ramp",
	"Vertical Gray Ramp",
	"Solid Black",
	"Solid White",
	"Solid Red",
	"Solid Green",
	"Solid Blue",
	"Noise",
	NULL,
};

/*
 * The view of axis @a: @size pixels showing the scene around its center
 * moved by @off arc seconds (at @w pixels per VIVI_GEN_FOV_ARCSEC), at
 * @zoom percent; n(i) / den is the formula of vivi_gen.h times 2 z F.
 */
static void vivi_axis_init(struct vivi_axis *a, u32 size, u32 w, s32 off,
			   u32 zoom)
{
	const s64 fov = VIVI_GEN_FOV_ARCSEC;

	a->size = size;
	a->den = 2 * zoom * fov;
	a->step = 2 * VIVI_GEN_ZOOM_MIN * fov;
	a->n0 = (s64)size * zoom * fov + 2 * (s64)off * w * zoom +
		(1 - (s64)size) * VIVI_GEN_ZOOM_MIN * fov;
}

/* floor(@n / @d) mod @size for @d > 0 */
static u32 vivi_axis_wrap(s64 n, s64 d, u32 size)
{
	s64 q = div64_s64(n, d);

	if (q * d > n)
		q--;
	q -= div64_s64(q, size) * size;
	return q < 0 ? q + size : q;
}

/* The scene coordinate shown at @i */
static u32 vivi_axis_at(const struct vivi_axis *a, u32 i)
{
	return vivi_axis_wrap(a->n0 + (s64)i * a->step, a->den, a->size);
}

/* The view's controls, clamped, and its axes */
static void vivi_view_init(struct vivi_scene *sc, struct vivi_scene_par *p,
			   const struct vivi_gen_settings *s)
{
	p->zoom = clamp_t(u32, s->zoom, VIVI_GEN_ZOOM_MIN, VIVI_GEN_ZOOM_MAX);
	p->pan = clamp_t(s32, s->pan, -VIVI_GEN_PAN_MAX, VIVI_GEN_PAN_MAX);
	p->tilt = clamp_t(s32, s->tilt, -VIVI_GEN_PAN_MAX, VIVI_GEN_PAN_MAX);
	sc->view = p->zoom != VIVI_GEN_ZOOM_MIN || p->pan || p->tilt;
	vivi_axis_init(&sc->vx, p->w, p->w, p->pan, p->zoom);
	vivi_axis_init(&sc->vy, p->h, p->w, -p->tilt, p->zoom);
}

/*
 * Index line @d of the view from scene line @src, scrolled left by
 * @shift: one division, then a running remainder
 */
static void vivi_view_line(const struct vivi_scene *sc, const u8 *src,
			   u8 *d, u32 shift)
{
	const struct vivi_axis *a = &sc->vx;
	s64 q = div64_s64(a->n0, a->den), rem;
	s64 dq = div64_s64(a->step, a->den), dr = a->step - dq * a->den;
	u32 w = sc->par->w, x, sx;

	if (q * a->den > a->n0)
		q--;
	rem = a->n0 - q * a->den;
	sx = vivi_axis_wrap(q + shift, 1, w);
	for (x = 0; x < w; x++) {
		d[x] = src[sx];
		sx += dq;
		rem += dr;
		if (rem >= a->den) {
			rem -= a->den;
			sx++;
		}
		while (sx >= w)
			sx -= w;
	}
}

/* Position 0..@range of a triangle wave at t = @frame * @speed + @range / 2 */
static u32 vivi_bounce(u32 frame, u32 speed, u32 range)
{
	u32 period = 2 * range, t;

	if (!range)
		return 0;
	t = ((frame % period) * (speed % period) + range / 2) % period;
	return t <= range ? t : period - t;
}

/*
 * The scene of frame @frame of a @w x @h stream: the pattern, its motion,
 * the flips, the view, the sensor and the picture controls, into @p (which
 * must be zeroed); @sc draws it. Privacy shows black, neither sensed nor
 * adjusted.
 */
void vivi_scene_init(struct vivi_scene *sc, struct vivi_scene_par *p,
		     const struct vivi_gen_settings *s, u32 w, u32 h,
		     u32 frame)
{
	u32 side = min(w, h);

	sc->par = p;
	p->w = w;
	p->h = h;
	/* privacy: the shutter is closed */
	p->pattern = s->privacy ? VIVI_PAT_BLACK : s->pattern;
	p->seed = p->pattern == VIVI_PAT_NOISE ? frame : 0;
	p->hflip = s->hflip;
	p->vflip = s->vflip;
	vivi_view_init(sc, p, s);
	if (p->pattern == VIVI_PAT_BARS75 || p->pattern == VIVI_PAT_BARS100)
		p->shift = (frame % w) * (s->motion_speed % w) % w;
	p->box_side = min(max(side / 8, 2u), side);
	p->box_x = vivi_bounce(frame, s->motion_speed, w - p->box_side);
	p->box_y = vivi_bounce(frame, s->motion_speed, h - p->box_side);
	if (!s->privacy) {
		vivi_sensor_init(&p->sensor, s);
		vivi_adj_init(&p->adj, s);
	}
}

/*
 * Entry @i of the picture's palette: scene color @rgb through the sensor
 * and the picture controls
 */
static void vivi_pal_scene(const struct vivi_scene *sc,
			   const struct vivi_layout *l, struct vivi_pal *p,
			   u32 i, const u8 *rgb)
{
	const struct vivi_scene_par *par = sc->par;
	u8 v[3];

	if (par->sensor.on) {
		v[0] = sc->lut[0][rgb[0]];
		v[1] = sc->lut[1][rgb[1]];
		v[2] = sc->lut[2][rgb[2]];
		rgb = v;
	}
	if (!par->adj.on) {
		vivi_pal_set(p, l, i, rgb, VIVI_CANON_RGB);
		return;
	}
	vivi_rgb_to_ycc(rgb, v);
	vivi_adjust(&par->adj, v);
	vivi_pal_set(p, l, i, v, VIVI_CANON_YCC_LIM);
}

/* White, yellow, cyan, green, magenta, red, blue, black as R4|G2|B1 */
static const u8 vivi_bar_rgb[8] = { 7, 6, 3, 2, 5, 4, 1, 0 };

/* The palette of the colors the scene's index lines refer to, for @l */
void vivi_pal_build(struct vivi_scene *sc, const struct vivi_layout *l,
		    struct vivi_pal *p)
{
	static const u8 solid[5][3] = {
		{ 0, 0, 0 }, { 255, 255, 255 }, { 255, 0, 0 },
		{ 0, 255, 0 }, { 0, 0, 255 },
	};
	u32 pattern = sc->par->pattern;
	u8 rgb[3];
	u32 i, n, on;

	if (sc->par->sensor.on)
		vivi_sensor_lut(&sc->par->sensor, sc->lut);
	switch (pattern) {
	case VIVI_PAT_BARS75:
	case VIVI_PAT_BARS100:
	case VIVI_PAT_BARS_BOX:
		on = pattern == VIVI_PAT_BARS100 ? 255 : 191;
		for (i = 0; i < 8; i++) {
			rgb[0] = vivi_bar_rgb[i] & 4 ? on : 0;
			rgb[1] = vivi_bar_rgb[i] & 2 ? on : 0;
			rgb[2] = vivi_bar_rgb[i] & 1 ? on : 0;
			vivi_pal_scene(sc, l, p, i, rgb);
		}
		/* index 8: the box, 100% white */
		memset(rgb, 255, 3);
		vivi_pal_scene(sc, l, p, 8, rgb);
		n = 9;
		break;
	case VIVI_PAT_CHECKER:
		/* index 0 white, 1 black */
		vivi_pal_scene(sc, l, p, 0, solid[1]);
		vivi_pal_scene(sc, l, p, 1, solid[0]);
		n = 2;
		break;
	case VIVI_PAT_HRAMP:
	case VIVI_PAT_VRAMP:
	case VIVI_PAT_NOISE:
		for (i = 0; i < 256; i++) {
			memset(rgb, i, 3);
			vivi_pal_scene(sc, l, p, i, rgb);
		}
		n = 256;
		break;
	default:
		vivi_pal_scene(sc, l, p, 0, solid[pattern - VIVI_PAT_BLACK]);
		n = 1;
		break;
	}
	vivi_pal_done(p, l, n);
}

/* ---- index lines ---------------------------------------------------- */

/* Picture rows with equal class have equal index lines. */
u32 vivi_row_class(const struct vivi_scene *sc, u32 y)
{
	const struct vivi_scene_par *p = sc->par;
	u32 yp = p->vflip ? p->h - 1 - y : y;

	if (sc->view)
		yp = vivi_axis_at(&sc->vy, yp);

	switch (p->pattern) {
	case VIVI_PAT_BARS_BOX:
		return yp - p->box_y < p->box_side;
	case VIVI_PAT_CHECKER:
		return (yp >> 4) & 1;
	case VIVI_PAT_VRAMP:
		return p->h > 1 ? yp * 255 / (p->h - 1) : 0;
	case VIVI_PAT_NOISE:
		return yp;
	default:
		return 0;
	}
}

/*
 * Rows y.. sharing the row class of @y (at least 1): the generator copies
 * one template over the whole run without asking again.
 */
u32 vivi_class_run(const struct vivi_scene *sc, u32 y)
{
	const struct vivi_scene_par *p = sc->par;
	u32 yp = p->vflip ? p->h - 1 - y : y;
	u32 lo, hi;

	/* a resampled view: the runs below hold for the scene, not the frame */
	if (sc->view && (p->pattern == VIVI_PAT_BARS_BOX ||
			 p->pattern == VIVI_PAT_CHECKER))
		return 1;
	switch (p->pattern) {
	case VIVI_PAT_BARS_BOX:
		lo = p->vflip ? p->h - p->box_y - p->box_side : p->box_y;
		hi = lo + p->box_side;
		if (y < lo)
			return lo - y;
		return y < hi ? hi - y : p->h - y;
	case VIVI_PAT_CHECKER:
		return min(p->vflip ? (yp & 15) + 1 : 16 - (yp & 15),
			   p->h - y);
	case VIVI_PAT_VRAMP:
	case VIVI_PAT_NOISE:
		return 1;
	default:
		return p->h - y;
	}
}

u64 vivi_mix64(u64 x)
{
	/* the splitmix64 finalizer: spreads a seed over all bits */
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/*
 * Random gray levels: two interleaved xorshift64* streams (independent
 * dependency chains run in parallel), 8 levels per step each, seeded per
 * (frame, row) so that rows can be drawn in any order. The bytes land in
 * CPU order: noise needs no particular one. Writes up to 15 bytes past @w;
 * index buffers have room for that.
 */
static void vivi_noise_line(u8 *d, u32 w, u32 frame, u32 row)
{
	u64 seed = (u64)frame * 0x9e3779b97f4a7c15ull ^
		   ((u64)row + 1) * 0xd1b54a32d192ed03ull;
	u64 x = vivi_mix64(seed) | 1;
	u64 y = vivi_mix64(seed + 0x9e3779b97f4a7c15ull) | 1;
	u64 r[2];
	u32 i;

	for (i = 0; i < w; i += 16) {
		x ^= x >> 12;
		x ^= x << 25;
		x ^= x >> 27;
		y ^= y >> 12;
		y ^= y << 25;
		y ^= y >> 27;
		r[0] = x * 0x2545f4914f6cdd1dull;
		r[1] = y * 0x2545f4914f6cdd1dull;
		memcpy(d + i, r, 16);
	}
}

/* Index line of the unmirrored, unscrolled picture row of class @cls. */
static void vivi_base_line(const struct vivi_scene_par *p, u32 cls, u8 *d)
{
	u32 w = p->w;
	u32 x, b, x0, x1, q, r, acc, gray, n;

	switch (p->pattern) {
	case VIVI_PAT_BARS75:
	case VIVI_PAT_BARS100:
	case VIVI_PAT_BARS_BOX:
		/* bar b holds the x with x * 8 / w == b */
		for (b = 0, x0 = 0; b < 8; b++, x0 = x1) {
			x1 = DIV_ROUND_UP((b + 1) * w, 8);
			memset(d + x0, b, x1 - x0);
		}
		if (p->pattern == VIVI_PAT_BARS_BOX && cls)
			memset(d + p->box_x, 8, p->box_side);
		break;
	case VIVI_PAT_CHECKER:
		for (x = 0; x < w; x += 16) {
			n = min_t(u32, 16, w - x);
			memset(d + x, ((x >> 4) + cls) & 1, n);
		}
		break;
	case VIVI_PAT_HRAMP:
		if (w == 1) {
			d[0] = 0;
			break;
		}
		/* gray = x * 255 / (w - 1), stepped without dividing */
		q = 255 / (w - 1);
		r = 255 % (w - 1);
		for (x = 0, gray = 0, acc = 0; x < w; x++) {
			d[x] = gray;
			gray += q;
			acc += r;
			if (acc >= w - 1) {
				acc -= w - 1;
				gray++;
			}
		}
		break;
	case VIVI_PAT_VRAMP:
		memset(d, cls, w);
		break;
	case VIVI_PAT_NOISE:
		vivi_noise_line(d, w, p->seed, cls);
		break;
	default:
		memset(d, 0, w);
		break;
	}
}

static void vivi_render_index(struct vivi_scene *sc, u32 cls, u8 *d)
{
	const struct vivi_scene_par *p = sc->par;
	u32 w = p->w, s = p->shift, x;
	u8 t;

	if (sc->view) {
		vivi_base_line(p, cls, sc->tmp);
		vivi_view_line(sc, sc->tmp, d, s);
		for (x = 0; p->hflip && x < w / 2; x++) {
			t = d[x];
			d[x] = d[w - 1 - x];
			d[w - 1 - x] = t;
		}
	} else if (!s && !p->hflip) {
		vivi_base_line(p, cls, d);
	} else {
		vivi_base_line(p, cls, sc->tmp);
		memcpy(d, sc->tmp + s, w - s);
		memcpy(d + w - s, sc->tmp, s);
		for (x = 0; p->hflip && x < w / 2; x++) {
			t = d[x];
			d[x] = d[w - 1 - x];
			d[w - 1 - x] = t;
		}
	}
	/* chroma of an odd last pixel pairs it with itself */
	d[w] = d[w - 1];
}

/* The index line of class @cls, rendering it into a buffer but @keep. */
static const u8 *vivi_get_index(struct vivi_scene *sc, u32 cls,
				const u8 *keep)
{
	u32 i;

	for (i = 0; i < 2; i++)
		if (sc->idx_ok[i] && sc->idx_cls[i] == cls)
			return sc->idx[i];
	i = sc->idx_next;
	if (sc->idx[i] == keep)
		i ^= 1;
	sc->idx_next = i ^ 1;
	vivi_render_index(sc, cls, sc->idx[i]);
	sc->idx_cls[i] = cls;
	sc->idx_ok[i] = true;
	return sc->idx[i];
}

/* The index line of picture row @y */
const u8 *vivi_scene_line(struct vivi_scene *sc, u32 y, const u8 *keep)
{
	return vivi_get_index(sc, vivi_row_class(sc, y), keep);
}
