// SPDX-License-Identifier: GPL-2.0
/*
 * The color math of vivi: BT.601 Y'CbCr from and to full-range R'G'B', the
 * picture controls (brightness, contrast, saturation, hue) and the camera's
 * sensor curve (exposure, gain, white balance, backlight, gamma; formulas
 * in vivi_gen.h).
 */

#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/string.h>
#include <linux/types.h>

#include "vivi_color.h"
#include "vivi_gen.h"

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

/* BT.601 limited range, exact to the rounded ideal value (vivi_color.h) */
void vivi_rgb_to_ycc(const u8 *rgb, u8 *ycc)
{
	vivi_rgb_to_ycc_inl(rgb[0], rgb[1], rgb[2], ycc);
}

/* The tables of vivi_rgb_to_ycc_tab(): its terms, in u32 as it sums them */
void vivi_ycc_tab_init(struct vivi_ycc_tab *tab)
{
	u32 (*t)[256][3] = tab->t;
	static const s32 m[3][3] = {
		{ 219 * 299, 224 * -10546, 224 * 31250 },
		{ 219 * 587, 224 * -20704, 224 * -26168 },
		{ 219 * 114, 224 * 31250, 224 * -5082 },
	};
	u32 c, v, k;

	for (c = 0; c < 3; c++)
		for (v = 0; v < 256; v++)
			for (k = 0; k < 3; k++)
				t[c][v][k] = (u32)(m[c][k] * (s32)v);
	for (v = 0; v < 256; v++) {
		t[0][v][0] += 16 * 255000 + 127500;
		t[0][v][1] += 128u * 15937500u + 7968750u;
		t[0][v][2] += 128u * 15937500u + 7968750u;
	}
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

/* BT.601 limited Y'CbCr back to full-range R'G'B' (vivi_color.h) */
void vivi_ycc_to_rgb(const u8 *ycc, u8 *rgb)
{
	s32 y = vivi_ycc_y(ycc[0]);
	s32 u = ycc[1] - 128;
	s32 v = ycc[2] - 128;

	rgb[0] = vivi_q16_u8(y + vivi_ycc_rv(v));
	rgb[1] = vivi_q16_u8(y + vivi_ycc_guv(u, v));
	rgb[2] = vivi_q16_u8(y + vivi_ycc_bu(u));
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

void vivi_adj_init(struct vivi_adj *a,
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
void vivi_adjust(const struct vivi_adj *a, u8 *ycc)
{
	s32 y = ycc[0] - 16, u = ycc[1] - 128, v = ycc[2] - 128;
	s32 nu = vivi_rshift_round(u * a->cs - v * a->ss, 21);
	s32 nv = vivi_rshift_round(u * a->ss + v * a->cs, 21);

	y = vivi_rshift_round(y * a->con, 7) + 16 + a->bri;
	ycc[0] = vivi_clamp8(y);
	ycc[1] = vivi_clamp8(128 + nu);
	ycc[2] = vivi_clamp8(128 + nv);
}

/* BT.601 full range (JFIF): the same weights, no headroom; clamped */
static void vivi_rgb_to_ycc_full(const u8 *rgb, u8 *ycc)
{
	s32 r = rgb[0], g = rgb[1], b = rgb[2];
	u32 s = 299 * r + 587 * g + 114 * b;
	s32 u = 31250 * b - 10546 * r - 20704 * g;
	s32 v = 31250 * r - 26168 * g - 5082 * b;

	ycc[0] = (s + 500) / 1000;
	/* the sums stay positive: |u|, |v| <= 31250 * 255 < 128 * 62500 */
	ycc[1] = min_t(s32, (u + 128 * 62500 + 31250) / 62500, 255);
	ycc[2] = min_t(s32, (v + 128 * 62500 + 31250) / 62500, 255);
}

static void vivi_ycc_full_to_rgb(const u8 *ycc, u8 *rgb)
{
	s32 y = ycc[0] << 16;
	s32 u = ycc[1] - 128;
	s32 v = ycc[2] - 128;

	rgb[0] = vivi_q16_to_u8(y + 91881 * v);
	rgb[1] = vivi_q16_to_u8(y - 22554 * u - 46802 * v);
	rgb[2] = vivi_q16_to_u8(y + 116130 * u);
}

/* to0 + (@x - @from0) * @num / @den, rounded half up and clamped */
static u8 vivi_rescale(s32 x, s32 from0, s32 to0, s32 num, s32 den)
{
	s32 n = 2 * (x - from0) * num + (2 * to0 + 1) * den;

	return n < 0 ? 0 : min_t(s32, n / (2 * den), 255);
}

/* Limited-range Y'CbCr to full range and back, without R'G'B' between */
static void vivi_ycc_range(const u8 *in, u8 *out, bool to_full)
{
	s32 y = in[0], u = in[1], v = in[2];

	if (to_full) {
		out[0] = vivi_rescale(y, 16, 0, 255, 219);
		out[1] = vivi_rescale(u, 128, 128, 255, 224);
		out[2] = vivi_rescale(v, 128, 128, 255, 224);
	} else {
		out[0] = vivi_rescale(y, 0, 16, 219, 255);
		out[1] = vivi_rescale(u, 128, 128, 224, 255);
		out[2] = vivi_rescale(v, 128, 128, 224, 255);
	}
}

/* A pair of kinds, as a case label */
#define VIVI_CC(from, to)	((from) * VIVI_CANON_COUNT + (to))

/**
 * vivi_color_line() - @n colors from one kind into another
 * @from: enum vivi_canon of @src
 * @to: enum vivi_canon of @dst
 * @src: @n pixels of three channels
 * @dst: @n pixels; may be @src
 * @n: pixels
 *
 * R'G'B' and Y'CbCr convert by the BT.601 matrix (exact to the rounded
 * ideal value towards Y'CbCr, within 1 towards R'G'B'); the two Y'CbCr
 * ranges by scaling Y' and CbCr. Results are clamped to 0..255. One loop
 * per pair of kinds, so that each pixel costs its arithmetic alone.
 */
void vivi_color_line(u32 from, u32 to, const u8 *src, u8 *dst, u32 n)
{
	u32 x;

	switch (VIVI_CC(from, to)) {
	case VIVI_CC(VIVI_CANON_RGB, VIVI_CANON_YCC_LIM):
		for (x = 0; x < n; x++, src += 3, dst += 3)
			vivi_rgb_to_ycc_inl(src[0], src[1], src[2], dst);
		break;
	case VIVI_CC(VIVI_CANON_RGB, VIVI_CANON_YCC_FULL):
		for (x = 0; x < n; x++, src += 3, dst += 3)
			vivi_rgb_to_ycc_full(src, dst);
		break;
	case VIVI_CC(VIVI_CANON_YCC_LIM, VIVI_CANON_RGB):
		for (x = 0; x < n; x++, src += 3, dst += 3)
			vivi_ycc_to_rgb(src, dst);
		break;
	case VIVI_CC(VIVI_CANON_YCC_FULL, VIVI_CANON_RGB):
		for (x = 0; x < n; x++, src += 3, dst += 3)
			vivi_ycc_full_to_rgb(src, dst);
		break;
	case VIVI_CC(VIVI_CANON_YCC_LIM, VIVI_CANON_YCC_FULL):
	case VIVI_CC(VIVI_CANON_YCC_FULL, VIVI_CANON_YCC_LIM):
		for (x = 0; x < n; x++, src += 3, dst += 3)
			vivi_ycc_range(src, dst, to == VIVI_CANON_YCC_FULL);
		break;
	default:
		memmove(dst, src, (size_t)n * 3);
		break;
	}
}

/**
 * vivi_color_convert() - one color from one kind into another
 * @from: enum vivi_canon of @c
 * @to: enum vivi_canon of @out
 * @c: three channels
 * @out: three channels; may be @c
 *
 * As vivi_color_line() converts each pixel.
 */
void vivi_color_convert(u32 from, u32 to, const u8 *c, u8 *out)
{
	vivi_color_line(from, to, c, out, 1);
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
void vivi_sensor_init(struct vivi_sensor *sn,
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
void vivi_sensor_lut(const struct vivi_sensor *sn, u8 lut[3][256])
{
	u32 ch;

	for (ch = 0; ch < 3; ch++)
		vivi_sensor_channel(sn, ch, lut[ch]);
}
