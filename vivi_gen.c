// SPDX-License-Identifier: GPL-2.0
/*
 * The pure test-pattern generator of vivi.
 *
 * How a frame is drawn:
 *
 * 1. The pattern's few colors (8 bars + box, 2 checker squares, 256 grays,
 *    1 solid) become a palette: converted once to the format's color space
 *    (BT.601 limited Y'CbCr, or full-range R'G'B'), with the controls
 *    applied in Y'CbCr, and pre-encoded for the byte-per-pixel formats.
 * 2. Each picture row is a line of palette indices. Rows that must look the
 *    same share a "row class" (all rows of the bars, each checker band,
 *    each gray level of the vertical ramp); noise rows are all different.
 * 3. Each plane line is a pure function of the classes of the picture rows
 *    it covers (two rows for 4:2:0 chroma) and, for Bayer, of the row
 *    parity. It is rendered once into a template slot of the scratch area
 *    and memcpy'd into every line that repeats it, so that most of a frame
 *    costs what a memcpy of it costs; lines back to back in memory take
 *    several copies of it at once. Noise rows skip the template and are
 *    converted straight into the buffer.
 * 4. Text is drawn last, per plane, over the rows it covers, with its own
 *    fixed black/white palette, so it is neither adjusted nor mirrored:
 *    each glyph row is looked up in a table of converted 8-pixel rows.
 * 5. The frame stamp (see vivi_gen.h) is drawn last, per plane, over the
 *    lines of its band, with the text palette: each of its three cell rows
 *    is converted once from an index line of cell bits, and copied into
 *    the other lines of that row.
 * 6. The palette, the templates and the glyph tables stay in the scratch
 *    area for the next call, valid while their key (struct vivi_key; the
 *    format for the glyphs) is unchanged: a still picture costs the copies,
 *    the text and the stamp.
 *
 * Layout notes: packed 4:2:2 lines are width * 2 bytes, so an odd width
 * ends with half a macropixel (the last Y' and the first chroma byte).
 * Chroma samples average the 8-bit chroma of the pixels they cover, rounded
 * half up; an odd last column or row covers just one pixel column or row.
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
 *
 * Frames wider or taller than VIVI_GEN_MAX_DIM are refused with -EINVAL.
 */

#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/string.h>
#include <linux/swab.h>
#include <linux/types.h>
#include <linux/videodev2.h>

#include "vivi_gen.h"

/* Keeps all index arithmetic well inside 32 bits. */
#define VIVI_GEN_MAX_DIM	16384

#define STAMP_COLS	32	/* cells per stamp row; 3 rows */
#define STAMP_ROWS	3
#define STAMP_MIN_CELL	4	/* smaller cells do not survive scaling */
#define STAMP_MS_MASK	0xfffffffffffull	/* the 44 bits of ms it carries */

#define NSLOTS		4	/* template lines cached per plane */
#define SCRATCH_ALIGN	64
#define GLYPH_BYTES	32	/* 8 pixels of the widest format, XRGB32 */
/*
 * A template slot holds at least this many bytes, so that narrow lines are
 * repeated in it and copied several at once: fewer, larger copies.
 */
#define SLOT_MIN	8192
#define VIVI_CACHE_MAGIC	0x7669766967656e32ull	/* "vivigen2" */

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

/* How the pixels of one plane are laid out. */
enum vivi_plane_type {
	VIVI_PT_ENC,		/* bpp bytes per pixel, pre-encoded in the palette */
	VIVI_PT_PACKED,	/* 4:2:2 macropixels, off[] = Y0, Cb, Y1, Cr bytes */
	VIVI_PT_CHROMA,	/* one chroma component, off[0] = 1 (Cb) or 2 (Cr) */
	VIVI_PT_CHROMA2,	/* interleaved chroma pairs, off[0], off[1] */
	VIVI_PT_BAYER,	/* off[] = channel at even/odd x of even, odd rows */
};

/* What VIVI_PT_ENC pixels hold. */
enum vivi_enc_kind {
	VIVI_E_NONE,
	VIVI_E_Y,
	VIVI_E_RGB24,
	VIVI_E_BGR24,
	VIVI_E_XRGB32,
	VIVI_E_XBGR32,
	VIVI_E_RGB565,
	VIVI_E_RGB565X,
	VIVI_E_XRGB555,
	VIVI_E_GREY,
	VIVI_E_Y16,
};

/* What the three 8-bit channels of a color hold */
enum vivi_canon {
	VIVI_CANON_RGB,		/* R', G', B', full range */
	VIVI_CANON_YCC_LIM,	/* Y', Cb, Cr, BT.601 limited range */
};

struct vivi_plane_desc {
	u8 type;
	u8 bpp;
	u8 vsub;
	u8 off[4];
};

struct vivi_layout {
	u32 fourcc;
	bool yuv;
	u8 enc;
	u8 nplanes;
	struct vivi_plane_desc pl[3];
};

#define P_ENC(b)	{ .type = VIVI_PT_ENC, .bpp = (b), .vsub = 1 }
#define P_PACKED(y0, u, y1, v) \
	{ .type = VIVI_PT_PACKED, .vsub = 1, .off = { y0, u, y1, v } }
#define P_CHROMA(c, vs)	{ .type = VIVI_PT_CHROMA, .vsub = (vs), .off = { c } }
#define P_CHROMA2(c0, c1, vs) \
	{ .type = VIVI_PT_CHROMA2, .vsub = (vs), .off = { c0, c1 } }
#define P_BAYER(a, b, c, d) \
	{ .type = VIVI_PT_BAYER, .vsub = 1, .off = { a, b, c, d } }

#define FMT_PACKED(fcc, y0, u, y1, v) \
	{ V4L2_PIX_FMT_##fcc, true, VIVI_E_NONE, 1, { P_PACKED(y0, u, y1, v) } }
#define FMT_PLANAR(fcc, c1, c2, vs) \
	{ V4L2_PIX_FMT_##fcc, true, VIVI_E_Y, 3, \
	  { P_ENC(1), P_CHROMA(c1, vs), P_CHROMA(c2, vs) } }
#define FMT_SEMI(fcc, c1, c2, vs) \
	{ V4L2_PIX_FMT_##fcc, true, VIVI_E_Y, 2, \
	  { P_ENC(1), P_CHROMA2(c1, c2, vs) } }
#define FMT_ENC(fcc, e, b) \
	{ V4L2_PIX_FMT_##fcc, false, e, 1, { P_ENC(b) } }
/* Channels 0 = R, 1 = G, 2 = B */
#define FMT_BAYER(fcc, a, b, c, d) \
	{ V4L2_PIX_FMT_##fcc, false, VIVI_E_NONE, 1, { P_BAYER(a, b, c, d) } }

static const struct vivi_layout vivi_layouts[] = {
	/* Palette channels of Y'CbCr formats: 0 = Y', 1 = Cb, 2 = Cr */
	FMT_PACKED(YUYV, 0, 1, 2, 3),
	FMT_PACKED(UYVY, 1, 0, 3, 2),
	FMT_PACKED(YVYU, 0, 3, 2, 1),
	FMT_PACKED(VYUY, 1, 2, 3, 0),
	FMT_PLANAR(YUV420, 1, 2, 2),
	FMT_PLANAR(YVU420, 2, 1, 2),
	FMT_PLANAR(YUV422P, 1, 2, 1),
	FMT_SEMI(NV12, 1, 2, 2),
	FMT_SEMI(NV21, 2, 1, 2),
	FMT_SEMI(NV16, 1, 2, 1),
	FMT_SEMI(NV61, 2, 1, 1),
	FMT_ENC(RGB24, VIVI_E_RGB24, 3),
	FMT_ENC(BGR24, VIVI_E_BGR24, 3),
	FMT_ENC(XRGB32, VIVI_E_XRGB32, 4),
	FMT_ENC(XBGR32, VIVI_E_XBGR32, 4),
	FMT_ENC(RGB565, VIVI_E_RGB565, 2),
	FMT_ENC(RGB565X, VIVI_E_RGB565X, 2),
	FMT_ENC(XRGB555, VIVI_E_XRGB555, 2),
	FMT_ENC(GREY, VIVI_E_GREY, 1),
	FMT_ENC(Y16, VIVI_E_Y16, 2),
	FMT_BAYER(SBGGR8, 2, 1, 1, 0),
	FMT_BAYER(SGBRG8, 1, 2, 0, 1),
	FMT_BAYER(SGRBG8, 1, 0, 2, 1),
	FMT_BAYER(SRGGB8, 0, 1, 1, 2),
};

/*
 * A palette in the format's color space: c[] holds Y', Cb, Cr or R', G', B'
 * per entry, enc[] the bytes of a VIVI_PT_ENC pixel in memory order (first
 * byte in bits 0..7, unused bytes zero), enc8[] its first byte.
 */
struct vivi_pal {
	u8 c[3][256];
	u8 enc8[256];
	u32 enc[256];
	u32 pk[3][256];		/* packed 4:2:2: Y'0, Y'1, Cb|Cr in place */
	bool flat_chroma;	/* every entry has the same Cb and Cr */
};

/*
 * The frame lines [y0, y1) of a w x h frame in layout l: what one call
 * draws.
 */
struct vivi_band {
	const struct vivi_layout *l;
	u32 w;
	u32 h;
	u32 y0;
	u32 y1;
};

/*
 * The picture controls in fixed point: Y' gain in 1/128, CbCr matrix in
 * 2^-21.
 */
struct vivi_adj {
	u32 on;
	s32 con;
	s32 bri;
	s32 cs;
	s32 ss;
};

/*
 * The sensor controls, clamped; on = not all at their exact defaults
 */
struct vivi_sensor {
	u32 on;
	u32 exposure;
	u32 gain;
	u32 wb_temp;
	u32 gamma;
	u32 backlight;
};

/*
 * One axis of the view: scene coordinate i maps from n(i) = n0 + i * step
 * as floor(n(i) / den) mod size (see vivi_gen.h).
 */
struct vivi_axis {
	s64 n0;
	s64 step;
	s64 den;
	u32 size;
};

/*
 * What the scene's palette and index lines depend on: size, pattern,
 * motion, flips, view, sensor and picture controls. The cache key.
 */
struct vivi_scene_par {
	u32 w;
	u32 h;
	u32 pattern;		/* black while privacy closes the shutter */
	u32 seed;		/* the frame number for noise, else 0 */
	u32 shift;		/* bar scroll, pixels to the left */
	u32 box_x;
	u32 box_y;
	u32 box_side;
	u32 hflip;
	u32 vflip;
	u32 view;		/* zoom, pan or tilt: the scene is resampled */
	struct vivi_axis vx;
	struct vivi_axis vy;
	struct vivi_sensor sensor;
	struct vivi_adj adj;
};

/* The scene of one call: its parameters and its index line buffers */
struct vivi_scene {
	const struct vivi_scene_par *par;
	u8 lut[3][256];		/* R', G', B' through the sensor */
	u8 *tmp;		/* unflipped, unscrolled index line */
	u8 *idx[2];		/* index lines, padded by one repeated pixel */
	u32 idx_cls[2];
	bool idx_ok[2];
	u32 idx_next;
};

/* The frame stamp's cells; c = 0: no stamp */
struct vivi_stamp {
	u32 c;			/* cell side */
	u32 x0;			/* cells: x0..x1-1, lines y0..h-1 */
	u32 x1;
	u32 y0;
	u32 bits[STAMP_ROWS];	/* per cell row, MSB = leftmost cell */
};

/* Text and stamp, drawn over the finished planes with their own palette */
struct vivi_overlay {
	const struct vivi_band *b;
	const struct vivi_gen_settings *s;
	struct vivi_stamp st;
	struct vivi_pal *tpal;	/* black, white */
	u8 *tmp;		/* an index line of stamp cells */
	/* per plane and row parity: 8 text pixels of each glyph row byte */
	u8 (*glyph)[2][256][GLYPH_BYTES];
};

/*
 * Everything the palette and the template lines of a frame depend on,
 * made of the state of the parts that draw them. Equal keys draw equal
 * templates, so they are kept in the scratch area across calls. Zeroed
 * before it is filled in, so that it compares as bytes.
 */
struct vivi_key {
	u32 fourcc;
	struct vivi_scene_par scene;
};

/*
 * What survives between calls, at the start of the scratch area (see
 * vivi_gen_scratch_size()). Valid only while @seal matches the rest of the
 * header, so that neither garbage nor a header half overwritten is ever
 * trusted. The slots and the palette hold what @key drew; the text palette
 * and glyph tables what format @text_fourcc drew (0: none yet). Where they
 * lie depends only on the width, which the key holds.
 */
struct vivi_cache {
	u64 seal;
	struct vivi_key key;
	u32 text_fourcc;
	u32 slot_a[3][NSLOTS];
	u32 slot_b[3][NSLOTS];
	u32 slot_used[3][NSLOTS];	/* 0 = empty, else last use (LRU) */
	u32 slot_reps[3][NSLOTS];	/* copies of the line in the slot */
	u32 tick[3];
};

/* One call of vivi_gen_fill(), in the scratch area: a small stack */
struct vivi_gen {
	struct vivi_band b;
	struct vivi_key key;	/* what this call draws */
	struct vivi_scene sc;
	struct vivi_overlay ov;
	struct vivi_pal *pal;
	struct vivi_cache *c;
	u8 *slot[3][NSLOTS];
	u32 slot_bytes[3];
};

/* sin(0..90 degrees) * 16384 */
static const u16 vivi_sin_q14[91] = {
	0, 286, 572, 857, 1143, 1428, 1713, 1997, 2280, 2563, 2845, 3126,
	3406, 3686, 3964, 4240, 4516, 4790, 5063, 5334, 5604, 5872, 6138,
	6402, 6664, 6924, 7182, 7438, 7692, 7943, 8192, 8438, 8682, 8923,
	9162, 9397, 9630, 9860, 10087, 10311, 10531, 10749, 10963, 11174,
	11381, 11585, 11786, 11982, 12176, 12365, 12551, 12733, 12911, 13085,
	13255, 13421, 13583, 13741, 13894, 14044, 14189, 14330, 14466, 14598,
	14726, 14849, 14968, 15082, 15191, 15296, 15396, 15491, 15582, 15668,
	15749, 15826, 15897, 15964, 16026, 16083, 16135, 16182, 16225, 16262,
	16294, 16322, 16344, 16362, 16374, 16382, 16384,
};

/* ---- the layout table ---------------------------------------------- */

static const struct vivi_layout *vivi_layout_find(u32 fourcc)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(vivi_layouts); i++)
		if (vivi_layouts[i].fourcc == fourcc)
			return &vivi_layouts[i];
	return NULL;
}

bool vivi_gen_supported(u32 fourcc)
{
	return vivi_layout_find(fourcc);
}

bool vivi_gen_is_yuv(u32 fourcc)
{
	const struct vivi_layout *l = vivi_layout_find(fourcc);

	return l && l->yuv;
}

static u32 vivi_line_bytes(const struct vivi_plane_desc *pd, u32 w)
{
	switch (pd->type) {
	case VIVI_PT_ENC:
		return w * pd->bpp;
	case VIVI_PT_PACKED:
		return w * 2;
	case VIVI_PT_CHROMA:
		return DIV_ROUND_UP(w, 2);
	case VIVI_PT_CHROMA2:
		return DIV_ROUND_UP(w, 2) * 2;
	default:
		return w;
	}
}

/* Byte offset of even pixel @x in a line. */
static u32 vivi_x_offset(const struct vivi_plane_desc *pd, u32 x)
{
	switch (pd->type) {
	case VIVI_PT_ENC:
		return x * pd->bpp;
	case VIVI_PT_PACKED:
		return x * 2;
	case VIVI_PT_CHROMA:
		return x / 2;
	default:
		return x;
	}
}

/* The band lies in the frame, and 4:2:0 chroma lines start with it. */
static bool vivi_band_ok(const struct vivi_gen_frame *f,
			 const struct vivi_layout *l)
{
	if (!f->band_lines)
		return !f->band_y0;
	if (f->band_lines > f->height ||
	    f->band_y0 > f->height - f->band_lines)
		return false;
	return !(f->band_y0 & 1) || l->pl[l->nplanes - 1].vsub == 1;
}

/*
 * The band @f asks to draw, checked: a known format, a size within
 * VIVI_GEN_MAX_DIM, every plane there with a stride that holds a line.
 */
static int vivi_band_init(struct vivi_band *b, const struct vivi_gen_frame *f)
{
	const struct vivi_layout *l = vivi_layout_find(f->fourcc);
	u32 i, w = f->width, h = f->height;

	if (!l || !w || !h || w > VIVI_GEN_MAX_DIM || h > VIVI_GEN_MAX_DIM)
		return -EINVAL;
	for (i = 0; i < l->nplanes; i++)
		if (!f->plane[i] ||
		    f->stride[i] < vivi_line_bytes(&l->pl[i], w))
			return -EINVAL;
	if (!vivi_band_ok(f, l))
		return -EINVAL;
	b->l = l;
	b->w = w;
	b->h = h;
	b->y0 = f->band_y0;
	b->y1 = f->band_lines ? f->band_y0 + f->band_lines : h;
	return 0;
}

/* The plane lines [*r0, *r1) that cover the band; plane line *r0 is first. */
static void vivi_band_rows(const struct vivi_band *b,
			   const struct vivi_plane_desc *pd, u32 *r0, u32 *r1)
{
	*r0 = pd->vsub == 2 ? b->y0 / 2 : b->y0;
	*r1 = pd->vsub == 2 ? DIV_ROUND_UP(b->y1, 2) : b->y1;
}

/* ---- color ---------------------------------------------------------- */

/*
 * BT.601 limited range, exact to the rounded ideal value: the luma weights
 * are exact in 1/1000, the chroma weights in 1/1000000 are multiples of 16,
 * which keeps 224 * weighted sum inside 32 bits.
 */
static void vivi_rgb_to_ycc(const u8 *rgb, u8 *ycc)
{
	s32 r = rgb[0], g = rgb[1], b = rgb[2];
	u32 s = 299 * r + 587 * g + 114 * b;
	s32 u = 31250 * b - 10546 * r - 20704 * g;
	s32 v = 31250 * r - 26168 * g - 5082 * b;

	ycc[0] = (219 * s + 16 * 255000 + 127500) / 255000;
	/* u32 wrap-around is fine: the true sum lies in 0..2^32-1 */
	ycc[1] = ((u32)(224 * u) + 128u * 15937500u + 7968750u) / 15937500u;
	ycc[2] = ((u32)(224 * v) + 128u * 15937500u + 7968750u) / 15937500u;
}

static u8 vivi_clamp8(s32 x)
{
	return clamp_t(s32, x, 0, 255);
}

/* x / 2^sh rounded half away from zero, without shifting negatives */
static s32 vivi_rshift_round(s32 x, unsigned int sh)
{
	s32 half = 1 << (sh - 1);

	return x >= 0 ? (x + half) >> sh : -((half - x) >> sh);
}

/* Q16 to u8, rounded and clamped */
static u8 vivi_q16_to_u8(s32 x)
{
	x += 1 << 15;
	if (x < 0)
		return 0;
	return min_t(s32, x >> 16, 255);
}

/* BT.601 limited Y'CbCr back to full-range R'G'B' */
static void vivi_ycc_to_rgb(const u8 *ycc, u8 *rgb)
{
	s32 y = (ycc[0] - 16) * 76309;
	s32 u = ycc[1] - 128;
	s32 v = ycc[2] - 128;

	rgb[0] = vivi_q16_to_u8(y + 104597 * v);
	rgb[1] = vivi_q16_to_u8(y - 25675 * u - 53279 * v);
	rgb[2] = vivi_q16_to_u8(y + 132201 * u);
}

static s32 vivi_isin(s32 deg)
{
	deg %= 360;
	if (deg < 0)
		deg += 360;
	if (deg <= 90)
		return vivi_sin_q14[deg];
	if (deg <= 180)
		return vivi_sin_q14[180 - deg];
	if (deg <= 270)
		return -vivi_sin_q14[deg - 180];
	return -vivi_sin_q14[360 - deg];
}

static void vivi_adj_init(struct vivi_adj *a,
			  const struct vivi_gen_settings *s)
{
	s32 bri = clamp_t(s32, s->brightness, 0, 255);
	s32 sat = clamp_t(s32, s->saturation, 0, 255);
	s32 hue = clamp_t(s32, s->hue, -180, 180);

	a->con = clamp_t(s32, s->contrast, 0, 255);
	a->on = bri != VIVI_GEN_BRIGHTNESS_DEF ||
		a->con != VIVI_GEN_CONTRAST_DEF ||
		sat != VIVI_GEN_SATURATION_DEF || hue != VIVI_GEN_HUE_DEF;
	a->bri = bri - 128;
	a->cs = vivi_isin(hue + 90) * sat;
	a->ss = vivi_isin(hue) * sat;
}

/*
 * Contrast and brightness on Y'; on CbCr a rotation by the hue angle
 * (Cb' = Cb cos h - Cr sin h, Cr' = Cb sin h + Cr cos h) and the saturation
 * gain, both around 128.
 */
static void vivi_adjust(const struct vivi_adj *a, u8 *ycc)
{
	s32 y = ycc[0] - 16, u = ycc[1] - 128, v = ycc[2] - 128;
	s32 nu = vivi_rshift_round(u * a->cs - v * a->ss, 21);
	s32 nv = vivi_rshift_round(u * a->ss + v * a->cs, 21);

	y = vivi_rshift_round(y * a->con, 7) + 16 + a->bri;
	ycc[0] = vivi_clamp8(y);
	ycc[1] = vivi_clamp8(128 + nu);
	ycc[2] = vivi_clamp8(128 + nv);
}

/* ---- the camera's sensor -------------------------------------------- */

/* 2^(2^(i - 16)) in Q30, i = 0..15 */
static const u32 vivi_exp2_q30[16] = {
	1073753181, 1073764537, 1073787251, 1073832680, 1073923544,
	1074105294, 1074468888, 1075196443, 1076653033, 1079572136,
	1085434106, 1097253708, 1121280436, 1170923762, 1276901417,
	1518500250,
};

/* log2(@v) in Q16, @v >= 1, one bit at a time by squaring */
static s32 vivi_log2_q16(u32 v)
{
	u32 msb = fls(v) - 1;
	u64 m = (u64)v << (30 - msb);	/* the mantissa, 1..2 in Q30 */
	s32 r = msb << 16;
	int i;

	for (i = 15; i >= 0; i--) {
		m = (m * m) >> 30;
		if (m >= 1ull << 31) {
			m >>= 1;
			r |= 1 << i;
		}
	}
	return r;
}

/* round(255 * 2^(@e / 65536)) for @e <= 0 */
static u8 vivi_exp2_255(s32 e)
{
	u32 n = (u32)(-e) >> 16, f = e & 0xffff;
	u64 r = 1u << 30;
	int i;

	/* 2^e = 2^(f / 65536) / 2^(n + 1) when e = -(n + 1) + f / 65536 */
	if (f) {
		n++;
		for (i = 15; i >= 0; i--)
			if (f & (1u << i))
				r = (r * vivi_exp2_q30[i]) >> 30;
	}
	if (n > 24)
		return 0;
	return min_t(u64, 255, (255 * r + (1ull << (29 + n))) >> (30 + n));
}

/* The sensor controls of @s, clamped; on if any is off its default */
static void vivi_sensor_init(struct vivi_sensor *sn,
			     const struct vivi_gen_settings *s)
{
	sn->exposure = s->exposure ?
		       clamp_t(u32, s->exposure, VIVI_GEN_EXPOSURE_MIN,
			       VIVI_GEN_EXPOSURE_MAX) : VIVI_GEN_EXPOSURE_REF;
	sn->wb_temp = s->wb_temp ? clamp_t(u32, s->wb_temp, VIVI_GEN_WB_MIN,
					   VIVI_GEN_WB_MAX) : VIVI_GEN_WB_REF;
	sn->gamma = s->gamma ? clamp_t(u32, s->gamma, VIVI_GEN_GAMMA_MIN,
				       VIVI_GEN_GAMMA_MAX) : VIVI_GEN_GAMMA_DEF;
	sn->backlight = min_t(u32, s->backlight, VIVI_GEN_BACKLIGHT_MAX);
	sn->gain = min_t(u32, s->gain, VIVI_GEN_GAIN_MAX);
	sn->on = sn->exposure != VIVI_GEN_EXPOSURE_REF || sn->gain ||
		 sn->wb_temp != VIVI_GEN_WB_REF ||
		 sn->gamma != VIVI_GEN_GAMMA_DEF || sn->backlight;
}

/* The sensor's curve for channel @ch (0 = R'), formulas in vivi_gen.h */
static void vivi_sensor_channel(const struct vivi_sensor *sn, u32 ch, u8 *lut)
{
	u64 num = (u64)sn->exposure * (64 + sn->gain);
	u32 den = VIVI_GEN_EXPOSURE_REF * 64;
	s32 log255 = vivi_log2_q16(255);
	u32 v, v1;

	if (ch == 0) {
		num *= sn->wb_temp;
		den *= VIVI_GEN_WB_REF;
	} else if (ch == 2) {
		num *= VIVI_GEN_WB_REF;
		den *= sn->wb_temp;
	}
	for (v = 0; v < 256; v++) {
		v1 = min_t(u64, 255, div_u64(v * num + den / 2, den));
		v1 += (sn->backlight * (255 - v1) + 4) / 8;
		if (sn->gamma != VIVI_GEN_GAMMA_DEF && v1 && v1 < 255)
			v1 = vivi_exp2_255((vivi_log2_q16(v1) - log255) *
					   (s32)VIVI_GEN_GAMMA_DEF /
					   (s32)sn->gamma);
		lut[v] = v1;
	}
}

/* The sensor's curves of R', G' and B' */
static void vivi_sensor_lut(const struct vivi_sensor *sn, u8 lut[3][256])
{
	u32 ch;

	for (ch = 0; ch < 3; ch++)
		vivi_sensor_channel(sn, ch, lut[ch]);
}

/* ---- view and motion ------------------------------------------------ */

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

static void vivi_view_init(struct vivi_scene_par *p,
			   const struct vivi_gen_settings *s)
{
	u32 zoom = clamp_t(u32, s->zoom, VIVI_GEN_ZOOM_MIN, VIVI_GEN_ZOOM_MAX);
	s32 pan = clamp_t(s32, s->pan, -VIVI_GEN_PAN_MAX, VIVI_GEN_PAN_MAX);
	s32 tilt = clamp_t(s32, s->tilt, -VIVI_GEN_PAN_MAX, VIVI_GEN_PAN_MAX);

	p->view = zoom != VIVI_GEN_ZOOM_MIN || pan || tilt;
	vivi_axis_init(&p->vx, p->w, p->w, pan, zoom);
	vivi_axis_init(&p->vy, p->h, p->w, -tilt, zoom);
}

/*
 * Index line @d of the view from scene line @src, scrolled left by
 * @shift: one division, then a running remainder
 */
static void vivi_view_line(const struct vivi_scene_par *p, const u8 *src,
			   u8 *d, u32 shift)
{
	const struct vivi_axis *a = &p->vx;
	s64 q = div64_s64(a->n0, a->den), rem;
	s64 dq = div64_s64(a->step, a->den), dr = a->step - dq * a->den;
	u32 w = p->w, x, sx;

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
 * the flips, the view, the sensor and the picture controls. Privacy shows
 * black, neither sensed nor adjusted. @p must be zeroed.
 */
static void vivi_scene_init(struct vivi_scene_par *p,
			    const struct vivi_gen_settings *s, u32 w, u32 h,
			    u32 frame)
{
	u32 side = min(w, h);

	p->w = w;
	p->h = h;
	/* privacy: the shutter is closed */
	p->pattern = s->privacy ? VIVI_PAT_BLACK : s->pattern;
	p->seed = p->pattern == VIVI_PAT_NOISE ? frame : 0;
	p->hflip = s->hflip;
	p->vflip = s->vflip;
	vivi_view_init(p, s);
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

/* ---- palettes ------------------------------------------------------- */

static u32 vivi_quant(u32 v, u32 max)
{
	return (v * max + 127) / 255;
}

static void vivi_encode(u8 *e, u8 kind, const u8 *c)
{
	u32 s = 299 * c[0] + 587 * c[1] + 114 * c[2];
	u32 v;

	switch (kind) {
	case VIVI_E_Y:
		e[0] = c[0];
		break;
	case VIVI_E_RGB24:
		e[0] = c[0];
		e[1] = c[1];
		e[2] = c[2];
		break;
	case VIVI_E_BGR24:
		e[0] = c[2];
		e[1] = c[1];
		e[2] = c[0];
		break;
	case VIVI_E_XRGB32:
		e[0] = 0xff;
		e[1] = c[0];
		e[2] = c[1];
		e[3] = c[2];
		break;
	case VIVI_E_XBGR32:
		e[0] = c[2];
		e[1] = c[1];
		e[2] = c[0];
		e[3] = 0xff;
		break;
	case VIVI_E_RGB565:
	case VIVI_E_RGB565X:
		v = vivi_quant(c[0], 31) << 11 | vivi_quant(c[1], 63) << 5 |
		    vivi_quant(c[2], 31);
		e[kind == VIVI_E_RGB565X] = v & 0xff;
		e[kind != VIVI_E_RGB565X] = v >> 8;
		break;
	case VIVI_E_XRGB555:
		v = 0x8000 | vivi_quant(c[0], 31) << 10 |
		    vivi_quant(c[1], 31) << 5 | vivi_quant(c[2], 31);
		e[0] = v & 0xff;
		e[1] = v >> 8;
		break;
	case VIVI_E_GREY:
		e[0] = (s + 500) / 1000;
		break;
	case VIVI_E_Y16:
		v = (257 * s + 500) / 1000;
		e[0] = v & 0xff;
		e[1] = v >> 8;
		break;
	default:
		break;
	}
}

/* @c of kind @from (enum vivi_canon) in kind @to; @c and @out may alias */
static void vivi_color_convert(u32 from, u32 to, const u8 *c, u8 *out)
{
	if (from == to)
		memmove(out, c, 3);
	else if (from == VIVI_CANON_RGB)
		vivi_rgb_to_ycc(c, out);
	else
		vivi_ycc_to_rgb(c, out);
}

/* The kind of color @l's samples carry */
static u32 vivi_layout_canon(const struct vivi_layout *l)
{
	return l->yuv ? VIVI_CANON_YCC_LIM : VIVI_CANON_RGB;
}

/* Entry @i of @p: color @c of kind @kind (enum vivi_canon) in @l's terms */
static void vivi_pal_set(struct vivi_pal *p, const struct vivi_layout *l,
			 u32 i, const u8 *c, u32 kind)
{
	const struct vivi_plane_desc *pd = &l->pl[0];
	u8 n[3], e[4];

	vivi_color_convert(kind, vivi_layout_canon(l), c, n);
	p->c[0][i] = n[0];
	p->c[1][i] = n[1];
	p->c[2][i] = n[2];
	memset(e, 0, sizeof(e));
	vivi_encode(e, l->enc, n);
	p->enc8[i] = e[0];
	p->enc[i] = e[0] | e[1] << 8 | e[2] << 16 | (u32)e[3] << 24;
	if (pd->type == VIVI_PT_PACKED) {
		p->pk[0][i] = (u32)n[0] << pd->off[0] * 8;
		p->pk[1][i] = (u32)n[0] << pd->off[2] * 8;
		p->pk[2][i] = (u32)n[1] << pd->off[1] * 8 |
			      (u32)n[2] << pd->off[3] * 8;
	}
}

static void vivi_pal_done(struct vivi_pal *p, const struct vivi_layout *l,
			  u32 n)
{
	u32 i;

	p->flat_chroma = l->yuv;
	for (i = 1; i < n && p->flat_chroma; i++)
		p->flat_chroma = p->c[1][i] == p->c[1][0] &&
				 p->c[2][i] == p->c[2][0];
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
static void vivi_pal_build(struct vivi_scene *sc, const struct vivi_layout *l,
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
static u32 vivi_row_class(const struct vivi_scene *sc, u32 y)
{
	const struct vivi_scene_par *p = sc->par;
	u32 yp = p->vflip ? p->h - 1 - y : y;

	if (p->view)
		yp = vivi_axis_at(&p->vy, yp);

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
 * Rows y.. sharing the row class of @y (at least 1): the loops below copy
 * one template over the whole run without asking again.
 */
static u32 vivi_class_run(const struct vivi_scene *sc, u32 y)
{
	const struct vivi_scene_par *p = sc->par;
	u32 yp = p->vflip ? p->h - 1 - y : y;
	u32 lo, hi;

	/* a resampled view: the runs below hold for the scene, not the frame */
	if (p->view && (p->pattern == VIVI_PAT_BARS_BOX ||
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

static u64 vivi_mix64(u64 x)
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

	if (p->view) {
		vivi_base_line(p, cls, sc->tmp);
		vivi_view_line(p, sc->tmp, d, s);
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
static const u8 *vivi_scene_line(struct vivi_scene *sc, u32 y, const u8 *keep)
{
	return vivi_get_index(sc, vivi_row_class(sc, y), keep);
}

/* ---- conversion of index spans to plane bytes ----------------------- */

/* Store @v with its bits 0..7 at d[0], as one store on any CPU. */
static inline void vivi_put64(u8 *d, u64 v)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __swab64(v);
#endif
	memcpy(d, &v, sizeof(v));
}

/* The low @n bytes of @v, bits 0..7 first */
static void vivi_put_bytes(u8 *d, u64 v, u32 n)
{
	for (; n; n--, v >>= 8)
		*d++ = v;
}

/* t0[a[0]], t1[a[1]], t0[a[2]], ... as the bytes of a word */
static inline u64 vivi_pick8(const u8 *t0, const u8 *t1, const u8 *a)
{
	return (u64)t0[a[0]] | (u64)t1[a[1]] << 8 |
	       (u64)t0[a[2]] << 16 | (u64)t1[a[3]] << 24 |
	       (u64)t0[a[4]] << 32 | (u64)t1[a[5]] << 40 |
	       (u64)t0[a[6]] << 48 | (u64)t1[a[7]] << 56;
}

/*
 * A packed 4:2:2 macropixel from pixels a[0], a[1]. U and V never sit in
 * adjacent bytes, so both 9-bit sums fit in one addition.
 */
static inline u64 vivi_pair(const struct vivi_pal *p, const u8 *a,
			    u64 rnd, u64 mask)
{
	u64 uv = (u64)p->pk[2][a[0]] + p->pk[2][a[1]] + rnd;

	return p->pk[0][a[0]] | p->pk[1][a[1]] | ((uv >> 1) & mask);
}

/*
 * Convert @n pixels of index lines @a (and @b, the second row of 4:2:0
 * chroma; else == @a) into @d. @par is the row parity for Bayer. The span
 * starts at an even x; for an odd @n, a[n] and b[n] must repeat the last
 * pixel. Pixels are assembled into 64-bit words, stored at once: noise
 * converts every line, and byte stores would dominate its time.
 */
static void vivi_convert(const struct vivi_pal *p, const struct vivi_plane_desc *pd,
			 u8 *d, const u8 *a, const u8 *b, u32 par, u32 n)
{
	const u32 *e = p->enc;
	const u8 *c0, *c1;
	u32 x, k, s0, s1;
	u64 v, w, rnd, mask;

	switch (pd->type) {
	case VIVI_PT_ENC:
		switch (pd->bpp) {
		case 1:
			for (x = 0; x + 8 <= n; x += 8)
				vivi_put64(d + x, vivi_pick8(p->enc8, p->enc8,
							     a + x));
			for (; x < n; x++)
				d[x] = p->enc8[a[x]];
			break;
		case 2:
			for (x = 0; x + 4 <= n; x += 4, d += 8)
				vivi_put64(d, e[a[x]] | (u64)e[a[x + 1]] << 16 |
					   (u64)e[a[x + 2]] << 32 |
					   (u64)e[a[x + 3]] << 48);
			for (; x < n; x++, d += 2)
				vivi_put_bytes(d, e[a[x]], 2);
			break;
		case 3:
			/* eight 3-byte pixels in three words */
			for (x = 0; x + 8 <= n; x += 8, d += 24) {
				v = e[a[x + 2]];
				w = e[a[x + 5]];
				vivi_put64(d, e[a[x]] | (u64)e[a[x + 1]] << 24 |
					   v << 48);
				vivi_put64(d + 8, v >> 16 |
					   (u64)e[a[x + 3]] << 8 |
					   (u64)e[a[x + 4]] << 32 | w << 56);
				vivi_put64(d + 16, w >> 8 |
					   (u64)e[a[x + 6]] << 16 |
					   (u64)e[a[x + 7]] << 40);
			}
			for (; x < n; x++, d += 3)
				vivi_put_bytes(d, e[a[x]], 3);
			break;
		default:
			for (x = 0; x + 2 <= n; x += 2, d += 8)
				vivi_put64(d, e[a[x]] | (u64)e[a[x + 1]] << 32);
			if (x < n)
				vivi_put_bytes(d, e[a[x]], 4);
			break;
		}
		break;
	case VIVI_PT_PACKED:
		/* per pixel pair: Y'0, Y'1 and the rounded CbCr average */
		s0 = pd->off[1] * 8;
		s1 = pd->off[3] * 8;
		rnd = 1ull << s0 | 1ull << s1;
		mask = 0xffull << s0 | 0xffull << s1;
		for (x = 0; x + 4 <= n; x += 4, d += 8)
			vivi_put64(d, vivi_pair(p, a + x, rnd, mask) |
				   vivi_pair(p, a + x + 2, rnd, mask) << 32);
		/* 1..3 pixels left; an odd n reads the pad a[n] */
		for (; x < n; x += 2, d += 4)
			vivi_put_bytes(d, vivi_pair(p, a + x, rnd, mask),
				       min(n - x, 2u) * 2);
		break;
	case VIVI_PT_CHROMA:
		c0 = p->c[pd->off[0]];
		for (k = 0; k < n; k += 2)
			*d++ = (c0[a[k]] + c0[a[k + 1]] + c0[b[k]] +
				c0[b[k + 1]] + 2) >> 2;
		break;
	case VIVI_PT_CHROMA2:
		c0 = p->c[pd->off[0]];
		c1 = p->c[pd->off[1]];
		for (k = 0; k < n; k += 2, d += 2) {
			d[0] = (c0[a[k]] + c0[a[k + 1]] + c0[b[k]] +
				c0[b[k + 1]] + 2) >> 2;
			d[1] = (c1[a[k]] + c1[a[k + 1]] + c1[b[k]] +
				c1[b[k + 1]] + 2) >> 2;
		}
		break;
	default:
		c0 = p->c[pd->off[par * 2]];
		c1 = p->c[pd->off[par * 2 + 1]];
		for (x = 0; x + 8 <= n; x += 8)
			vivi_put64(d + x, vivi_pick8(c0, c1, a + x));
		for (; x < n; x++)
			d[x] = x & 1 ? c1[a[x]] : c0[a[x]];
		break;
	}
}

/* ---- text and stamp ------------------------------------------------- */

/* The text palette and the glyph tables of every plane of @ov's format */
static void vivi_overlay_prepare(struct vivi_overlay *ov)
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
				vivi_put_glyph(d, glyph + GLYPH_BYTES *
					       font[(u8)str[k] * 16 + row], gb);
		}
	}
}

/*
 * The stamp's cells and its 96 bits as three 32-bit cell rows: the sync
 * 1010 and seq[31:4]; seq[3:0] and ms44[43:16]; ms44[15:0] and the check.
 * c stays 0 when the stamp is off or does not fit.
 */
static void vivi_stamp_init(struct vivi_stamp *st,
			    const struct vivi_gen_settings *s, u32 w, u32 h)
{
	u64 ms = s->stamp_ms & STAMP_MS_MASK;
	u32 seq = s->stamp_seq, c = w / STAMP_COLS, sum;

	if (!s->stamp || c < STAMP_MIN_CELL || h < STAMP_ROWS * c)
		return;
	st->c = c;
	st->x0 = (w - STAMP_COLS * c) / 2;
	st->x1 = st->x0 + STAMP_COLS * c;
	st->y0 = h - STAMP_ROWS * c;
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
	u32 r, r0, r1, k, xs, xe, bs, n, ya = 0, yb = 0, last = STAMP_ROWS;
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
static void vivi_overlay_draw(const struct vivi_overlay *ov, u32 pl,
			      u8 *plane, u32 stride)
{
	vivi_draw_text(ov, pl, plane, stride);
	vivi_draw_stamp(ov, pl, plane, stride);
}

/* ---- the pattern path: scratch, cache, templates -------------------- */

/* An index line: w pixels, a pad pixel and the noise overrun. */
static size_t vivi_idx_bytes(u32 w)
{
	return ALIGN((size_t)w + 16, SCRATCH_ALIGN);
}

/*
 * A template slot of plane @pl: the widest line, XRGB32 (packed 4:2:2 needs
 * less) in plane 0, a chroma line (at most w + 1 bytes) in the others.
 */
static size_t vivi_slot_bytes(u32 w, u32 pl)
{
	size_t line = pl ? vivi_idx_bytes(w) :
		      ALIGN((size_t)w * 4 + 16, SCRATCH_ALIGN);

	return max_t(size_t, line, SLOT_MIN);
}

static size_t vivi_aligned(size_t bytes)
{
	return ALIGN(bytes, SCRATCH_ALIGN);
}

/* Matches the carving in vivi_carve_all(), plus room to align the start. */
size_t vivi_gen_scratch_size(u32 width)
{
	u32 w = clamp_t(u32, width, 1, VIVI_GEN_MAX_DIM);

	return SCRATCH_ALIGN + vivi_aligned(sizeof(struct vivi_cache)) +
	       vivi_aligned(sizeof(struct vivi_gen)) +
	       2 * vivi_aligned(sizeof(struct vivi_pal)) +
	       vivi_aligned(3 * sizeof(u8[2][256][GLYPH_BYTES])) +
	       3 * vivi_idx_bytes(w) + NSLOTS * vivi_slot_bytes(w, 0) +
	       2 * NSLOTS * vivi_slot_bytes(w, 1);
}

/*
 * The slot of plane @pl's line keys (@ka, @kb), rendered on a miss into
 * the least recently used one. The slots persist across calls (see struct
 * vivi_cache).
 */
static u32 vivi_get_template(struct vivi_gen *g, u32 pl,
			     const struct vivi_plane_desc *pd, u32 ka, u32 kb,
			     u32 ya, u32 yb, u32 par)
{
	struct vivi_cache *c = g->c;
	u32 *used = c->slot_used[pl];
	u32 *reps = c->slot_reps[pl];
	u32 max_reps = g->slot_bytes[pl] / vivi_line_bytes(pd, g->b.w);
	u32 tick = ++c->tick[pl];
	const u8 *a, *b;
	u32 i, lru = 0;

	for (i = 0; i < NSLOTS; i++) {
		/* a count the slot cannot hold is a miss: the copy never spins */
		if (used[i] && c->slot_a[pl][i] == ka &&
		    c->slot_b[pl][i] == kb && reps[i] && reps[i] <= max_reps) {
			used[i] = tick;
			return i;
		}
		if (used[i] < used[lru])
			lru = i;
	}
	a = vivi_scene_line(&g->sc, ya, NULL);
	b = ya == yb ? a : vivi_scene_line(&g->sc, yb, a);
	vivi_convert(g->pal, pd, g->slot[pl][lru], a, b, par, g->b.w);
	c->slot_a[pl][lru] = ka;
	c->slot_b[pl][lru] = kb;
	reps[lru] = 1;
	/* a wrapped tick only makes a slot look empty: drawn again */
	used[lru] = tick;
	return lru;
}

/*
 * Copy slot @i of plane @pl into @n lines of @lb bytes from @line. Lines
 * that follow each other in memory take several copies of the template at
 * once, repeated in the slot on first need.
 */
static u8 *vivi_copy_run(struct vivi_gen *g, u32 pl, u32 i, u8 *line,
			 u32 stride, u32 lb, u32 n)
{
	u32 *reps = &g->c->slot_reps[pl][i];
	u32 want = min(n, g->slot_bytes[pl] / lb);
	u8 *t = g->slot[pl][i];
	u32 k;

	if (stride != lb || n < 4 || want < 2) {
		for (; n; n--, line += stride)
			memcpy(line, t, lb);
		return line;
	}
	for (; *reps < want; *reps += k) {
		k = min(*reps, want - *reps);
		memcpy(t + (size_t)*reps * lb, t, (size_t)k * lb);
	}
	for (; n; n -= k, line += (size_t)k * lb) {
		k = min(n, *reps);
		memcpy(line, t, (size_t)k * lb);
	}
	return line;
}

/* Noise: every row differs, so it is converted straight into the plane. */
static void vivi_fill_direct(struct vivi_gen *g,
			     const struct vivi_plane_desc *pd, u8 *line,
			     u32 stride, u32 r, u32 r1)
{
	bool sub = pd->vsub == 2;
	u32 ya, yb;
	const u8 *a, *b;

	for (; r < r1; r++, line += stride) {
		ya = sub ? 2 * r : r;
		yb = sub ? min(ya + 1, g->b.h - 1) : ya;
		a = vivi_scene_line(&g->sc, ya, NULL);
		b = ya == yb ? a : vivi_scene_line(&g->sc, yb, a);
		vivi_convert(g->pal, pd, line, a, b,
			     pd->type == VIVI_PT_BAYER ? r & 1 : 0, g->b.w);
	}
}

/* Plane lines from plane line @r on that repeat the template of line @r. */
static u32 vivi_line_run(struct vivi_gen *g, const struct vivi_plane_desc *pd,
			 bool flat, u32 r, u32 ph)
{
	u32 run;

	if (flat)
		return ph - r;
	if (pd->type == VIVI_PT_BAYER)
		return 1;
	if (pd->vsub != 2)
		return vivi_class_run(&g->sc, r);
	/* chroma line r covers picture rows 2r and 2r + 1 (if any) */
	run = vivi_class_run(&g->sc, 2 * r);
	if (2 * r + run == g->b.h)
		return DIV_ROUND_UP(run, 2);
	return max(run / 2, 1u);
}

static void vivi_fill_plane(struct vivi_gen *g, u32 pl, u8 *line, u32 stride)
{
	const struct vivi_plane_desc *pd = &g->b.l->pl[pl];
	bool sub = pd->vsub == 2;
	bool chroma = pd->type == VIVI_PT_CHROMA ||
		      pd->type == VIVI_PT_CHROMA2;
	bool flat = chroma && g->pal->flat_chroma;
	u32 lb = vivi_line_bytes(pd, g->b.w);
	u32 ph = sub ? DIV_ROUND_UP(g->b.h, 2) : g->b.h;
	u32 r, r1, n, ya, yb, ka, kb, par, i;

	vivi_band_rows(&g->b, pd, &r, &r1);
	if (g->sc.par->pattern == VIVI_PAT_NOISE && !flat) {
		vivi_fill_direct(g, pd, line, stride, r, r1);
		return;
	}
	for (; r < r1; r += n) {
		ya = sub ? 2 * r : r;
		yb = sub ? min(ya + 1, g->b.h - 1) : ya;
		par = pd->type == VIVI_PT_BAYER ? r & 1 : 0;
		if (flat) {
			ka = 0;
			kb = 0;
		} else {
			ka = vivi_row_class(&g->sc, ya);
			kb = sub ? vivi_row_class(&g->sc, yb) : par;
		}
		i = vivi_get_template(g, pl, pd, ka, kb, ya, yb, par);
		n = min(vivi_line_run(g, pd, flat, r, ph), r1 - r);
		line = vivi_copy_run(g, pl, i, line, stride, lb, n);
	}
}

/* The next @bytes of scratch, keeping *@p aligned */
static u8 *vivi_carve(u8 **p, size_t bytes)
{
	u8 *r = *p;

	*p += vivi_aligned(bytes);
	return r;
}

/* Carve the scratch area; everything after the cache is laid out by @w. */
static struct vivi_gen *vivi_carve_all(void *scratch, u32 w)
{
	struct vivi_cache *c;
	struct vivi_gen *g;
	u32 i, k;
	u8 *p;

	p = PTR_ALIGN((u8 *)scratch, SCRATCH_ALIGN);
	c = (struct vivi_cache *)vivi_carve(&p, sizeof(*c));
	/* the per-call state lives in the scratch area too: a small stack */
	g = (struct vivi_gen *)vivi_carve(&p, sizeof(*g));
	memset(g, 0, sizeof(*g));
	g->c = c;
	g->sc.par = &g->key.scene;
	g->ov.b = &g->b;
	g->pal = (struct vivi_pal *)vivi_carve(&p, sizeof(*g->pal));
	g->ov.tpal = (struct vivi_pal *)vivi_carve(&p, sizeof(*g->ov.tpal));
	g->ov.glyph = (u8 (*)[2][256][GLYPH_BYTES])
		      vivi_carve(&p, 3 * sizeof(*g->ov.glyph));
	g->sc.tmp = vivi_carve(&p, vivi_idx_bytes(w));
	g->ov.tmp = g->sc.tmp;
	g->sc.idx[0] = vivi_carve(&p, vivi_idx_bytes(w));
	g->sc.idx[1] = vivi_carve(&p, vivi_idx_bytes(w));
	for (k = 0; k < 3; k++) {
		g->slot_bytes[k] = vivi_slot_bytes(w, k);
		for (i = 0; i < NSLOTS; i++)
			g->slot[k][i] = vivi_carve(&p, g->slot_bytes[k]);
	}
	return g;
}

/* The seal of the cache header: the magic mixed with every byte after it */
static u64 vivi_cache_seal(const struct vivi_cache *c)
{
	const u8 *p = (const u8 *)c + sizeof(c->seal);
	const u8 *end = (const u8 *)c + sizeof(*c);
	u64 h = VIVI_CACHE_MAGIC, v;

	for (; p + sizeof(v) <= end; p += sizeof(v)) {
		memcpy(&v, p, sizeof(v));
		h = vivi_mix64(h ^ v);
	}
	for (; p < end; p++)
		h = vivi_mix64(h ^ *p);
	return h;
}

/*
 * Reuse what the scratch area holds from the last call if it was drawn
 * for the same key; else draw the palette again and forget the templates.
 * A header whose seal does not match is forgotten whole.
 */
static void vivi_cache_update(struct vivi_gen *g)
{
	bool text = g->ov.s->font || g->ov.st.c;
	struct vivi_cache *c = g->c;
	const struct vivi_key *k = &g->key;

	if (c->seal != vivi_cache_seal(c)) {
		memset(c, 0, sizeof(*c));
	} else if (!memcmp(&c->key, k, sizeof(*k))) {
		if (!text || c->text_fourcc == k->fourcc)
			return;
	}
	if (memcmp(&c->key, k, sizeof(*k))) {
		memset(c->slot_used, 0, sizeof(c->slot_used));
		memset(c->slot_reps, 0, sizeof(c->slot_reps));
		c->key = *k;
		vivi_pal_build(&g->sc, g->b.l, g->pal);
	}
	/* the stamp draws with the text palette */
	if (text && c->text_fourcc != k->fourcc) {
		vivi_overlay_prepare(&g->ov);
		c->text_fourcc = k->fourcc;
	}
}

int vivi_gen_fill(const struct vivi_gen_frame *f,
		  const struct vivi_gen_settings *s, u32 frame, void *scratch)
{
	struct vivi_band b;
	struct vivi_gen *g;
	u32 i;

	if (!f || !s || !scratch || s->pattern >= VIVI_PAT_COUNT ||
	    vivi_band_init(&b, f))
		return -EINVAL;

	g = vivi_carve_all(scratch, b.w);
	g->b = b;
	g->key.fourcc = f->fourcc;
	vivi_scene_init(&g->key.scene, s, b.w, b.h, frame);
	g->ov.s = s;
	vivi_stamp_init(&g->ov.st, s, b.w, b.h);
	vivi_cache_update(g);

	for (i = 0; i < b.l->nplanes; i++) {
		vivi_fill_plane(g, i, f->plane[i], f->stride[i]);
		vivi_overlay_draw(&g->ov, i, f->plane[i], f->stride[i]);
	}
	/* the header is trusted next time only as this call left it */
	g->c->seal = vivi_cache_seal(g->c);
	return 0;
}
