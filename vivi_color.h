/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The color math of vivi: BT.601 both ways, the picture controls and the
 * camera's sensor curve. Pure: no locks, no allocation, no printk.
 */
#ifndef _VIVI_COLOR_H_
#define _VIVI_COLOR_H_

#include <linux/types.h>

struct vivi_gen_settings;

/**
 * enum vivi_canon - what the three 8-bit channels of a color hold
 * @VIVI_CANON_RGB: R', G', B', full range (sRGB)
 * @VIVI_CANON_YCC_LIM: Y', Cb, Cr, BT.601 limited range (Y' 16..235,
 *	CbCr 16..240)
 * @VIVI_CANON_YCC_FULL: Y', Cb, Cr, BT.601 full range (JFIF: 0..255)
 * @VIVI_CANON_COUNT: the number of kinds
 */
enum vivi_canon {
	VIVI_CANON_RGB,
	VIVI_CANON_YCC_LIM,
	VIVI_CANON_YCC_FULL,
	VIVI_CANON_COUNT,
};

/**
 * struct vivi_adj - the picture controls in fixed point
 * @on: not all at their defaults: colors go through vivi_adjust()
 * @con: Y' gain in 1/128
 * @bri: Y' offset
 * @cs: cos(hue) * saturation, 2^-21
 * @ss: sin(hue) * saturation, 2^-21
 *
 * Pure per-call state: no lock.
 */
struct vivi_adj {
	u32 on;
	s32 con;
	s32 bri;
	s32 cs;
	s32 ss;
};

/**
 * struct vivi_sensor - the sensor controls, clamped
 * @on: not all at their exact defaults: colors go through the curve
 * @exposure: VIVI_GEN_EXPOSURE_MIN..MAX, VIVI_GEN_EXPOSURE_REF for auto
 * @gain: 0..VIVI_GEN_GAIN_MAX
 * @wb_temp: VIVI_GEN_WB_MIN..MAX kelvin, VIVI_GEN_WB_REF for auto
 * @gamma: VIVI_GEN_GAMMA_MIN..MAX
 * @backlight: 0..VIVI_GEN_BACKLIGHT_MAX
 *
 * Pure per-call state: no lock.
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
 * BT.601 limited range from full-range R'G'B', exact to the rounded ideal
 * value: the luma weights are exact in 1/1000, the chroma weights in
 * 1/1000000 are multiples of 16, which keeps 224 * weighted sum inside 32
 * bits. Inline for the converter's loops; vivi_rgb_to_ycc() is this.
 */
static inline void vivi_rgb_to_ycc_inl(s32 r, s32 g, s32 b, u8 *ycc)
{
	u32 s = 299 * r + 587 * g + 114 * b;
	s32 u = 31250 * b - 10546 * r - 20704 * g;
	s32 v = 31250 * r - 26168 * g - 5082 * b;

	ycc[0] = (219 * s + 16 * 255000 + 127500) / 255000;
	/* u32 wrap-around is fine: the true sum lies in 0..2^32-1 */
	ycc[1] = ((u32)(224 * u) + 128u * 15937500u + 7968750u) / 15937500u;
	ycc[2] = ((u32)(224 * v) + 128u * 15937500u + 7968750u) / 15937500u;
}

/*
 * BT.601 limited Y'CbCr to full-range R'G'B' in Q16, in parts: R' is
 * vivi_q16_u8(vivi_ycc_y(Y') + vivi_ycc_rv(Cr - 128)), G' adds
 * vivi_ycc_guv(Cb - 128, Cr - 128), B' vivi_ycc_bu(Cb - 128); the Y' part
 * carries the rounding, so that 4:2:x chroma is weighed once per sample
 */
static inline s32 vivi_ycc_y(s32 y)
{
	return (y - 16) * 76309 + (1 << 15);
}

static inline s32 vivi_ycc_rv(s32 v)
{
	return 104597 * v;
}

static inline s32 vivi_ycc_guv(s32 u, s32 v)
{
	return -25675 * u - 53279 * v;
}

static inline s32 vivi_ycc_bu(s32 u)
{
	return 132201 * u;
}

/* Q16 (rounding already added) to 0..255, without branches */
static inline u8 vivi_q16_u8(s32 x)
{
	x >>= 16;
	return x < 0 ? 0 : x > 255 ? 255 : x;
}

/**
 * struct vivi_ycc_tab - vivi_rgb_to_ycc_inl()'s sums by table
 * @t: entry [c][v] holds the terms of channel c (0 R', 1 G', 2 B') at
 *	value v for Y', Cb and Cr (the constants in R''s)
 *
 * A pixel costs nine loads and three divisions by a constant, and gives
 * the same bytes. Filled by vivi_ycc_tab_init(), in the caller's scratch;
 * no lock.
 */
struct vivi_ycc_tab {
	u32 t[3][256][3];
};

static inline void vivi_rgb_to_ycc_tab(const struct vivi_ycc_tab *tab,
				       u8 r, u8 g, u8 b, u8 *ycc)
{
	const u32 *tr = tab->t[0][r], *tg = tab->t[1][g], *tb = tab->t[2][b];

	ycc[0] = (tr[0] + tg[0] + tb[0]) / 255000;
	ycc[1] = (tr[1] + tg[1] + tb[1]) / 15937500u;
	ycc[2] = (tr[2] + tg[2] + tb[2]) / 15937500u;
}

void vivi_rgb_to_ycc(const u8 *rgb, u8 *ycc);
void vivi_ycc_to_rgb(const u8 *ycc, u8 *rgb);
void vivi_ycc_tab_init(struct vivi_ycc_tab *tab);
void vivi_color_convert(u32 from, u32 to, const u8 *c, u8 *out);
void vivi_color_line(u32 from, u32 to, const u8 *src, u8 *dst, u32 n);

void vivi_adj_init(struct vivi_adj *a, const struct vivi_gen_settings *s);
void vivi_adjust(const struct vivi_adj *a, u8 *ycc);

void vivi_sensor_init(struct vivi_sensor *sn,
		      const struct vivi_gen_settings *s);
void vivi_sensor_lut(const struct vivi_sensor *sn, u8 lut[3][256]);

#endif
