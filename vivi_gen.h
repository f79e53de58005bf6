/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pure test-pattern generator of vivi
 *
 * No locks, no allocation, no printk: the caller hands over the planes,
 * strides, format, size, frame number and settings, plus a scratch area of
 * vivi_gen_scratch_size() bytes, in which the generator keeps what the next
 * frame can reuse. The same source builds in userspace for unit tests and
 * benchmarks (see tests/shim).
 */
#ifndef _VIVI_GEN_H_
#define _VIVI_GEN_H_

#include <linux/types.h>

/**
 * enum vivi_gen_pattern - the entries of the V4L2_CID_TEST_PATTERN menu
 * @VIVI_PAT_BARS75: 75% color bars
 * @VIVI_PAT_BARS100: 100% color bars
 * @VIVI_PAT_BARS_BOX: color bars with a moving box
 * @VIVI_PAT_CHECKER: 16x16 checkerboard
 * @VIVI_PAT_HRAMP: horizontal gray ramp
 * @VIVI_PAT_VRAMP: vertical gray ramp
 * @VIVI_PAT_BLACK: solid black
 * @VIVI_PAT_WHITE: solid white
 * @VIVI_PAT_RED: solid red
 * @VIVI_PAT_GREEN: solid green
 * @VIVI_PAT_BLUE: solid blue
 * @VIVI_PAT_NOISE: noise
 * @VIVI_PAT_COUNT: the number of patterns
 */
enum vivi_gen_pattern {
	VIVI_PAT_BARS75,
	VIVI_PAT_BARS100,
	VIVI_PAT_BARS_BOX,
	VIVI_PAT_CHECKER,
	VIVI_PAT_HRAMP,
	VIVI_PAT_VRAMP,
	VIVI_PAT_BLACK,
	VIVI_PAT_WHITE,
	VIVI_PAT_RED,
	VIVI_PAT_GREEN,
	VIVI_PAT_BLUE,
	VIVI_PAT_NOISE,
	VIVI_PAT_COUNT,
};

/* Menu strings, NULL-terminated, in enum vivi_gen_pattern order. */
extern const char * const vivi_gen_pattern_names[VIVI_PAT_COUNT + 1];

#define VIVI_GEN_TEXT_LINES	4

/* Control ranges: the defaults leave the pattern exact. */
#define VIVI_GEN_BRIGHTNESS_DEF	128	/* 0..255, Y' offset = value - 128 */
#define VIVI_GEN_CONTRAST_DEF	128	/* 0..255, Y' gain = value / 128 */
#define VIVI_GEN_SATURATION_DEF	128	/* 0..255, CbCr gain = value / 128 */
#define VIVI_GEN_HUE_DEF	0	/* -180..180 degrees, CbCr rotation */

/*
 * The camera controls (see struct vivi_gen_settings): ranges and the
 * values at which they leave the picture exact. Zero-initialised settings
 * are at those values.
 */
#define VIVI_GEN_ZOOM_MIN	100	/* 1x */
#define VIVI_GEN_ZOOM_MAX	500	/* 5x */
#define VIVI_GEN_PAN_MAX	36000	/* arc seconds, 10 degrees; tilt too */
#define VIVI_GEN_FOV_ARCSEC	216000	/* the frame's width spans 60 degrees */
#define VIVI_GEN_EXPOSURE_MIN	3	/* 100 us units */
#define VIVI_GEN_EXPOSURE_MAX	2047
#define VIVI_GEN_EXPOSURE_REF	250	/* what auto exposure chooses */
#define VIVI_GEN_GAIN_MAX	255	/* 0 = 1x, 64 = 2x */
#define VIVI_GEN_WB_MIN		2000	/* kelvin */
#define VIVI_GEN_WB_MAX		6500
#define VIVI_GEN_WB_REF		4000	/* the scene's light */
#define VIVI_GEN_GAMMA_MIN	72
#define VIVI_GEN_GAMMA_MAX	500
#define VIVI_GEN_GAMMA_DEF	100
#define VIVI_GEN_BACKLIGHT_MAX	2

/**
 * struct vivi_gen_settings - what the picture looks like
 * @pattern: one of enum vivi_gen_pattern
 * @brightness: 0..255, default VIVI_GEN_BRIGHTNESS_DEF
 * @contrast: 0..255, default VIVI_GEN_CONTRAST_DEF
 * @saturation: 0..255, default VIVI_GEN_SATURATION_DEF
 * @hue: -180..180, default VIVI_GEN_HUE_DEF
 * @hflip: mirror left-right (text is not mirrored)
 * @vflip: mirror top-bottom (text is not mirrored)
 * @motion_speed: pixels per frame of the box and of the bar scroll; 0 = still
 * @font: 256 glyphs of 8x16 pixels, 16 bytes each, MSB = leftmost pixel
 *	(the layout of the kernel's VGA8x16 font); NULL draws no text
 * @text: up to VIVI_GEN_TEXT_LINES NUL-terminated lines drawn near the
 *	top-left corner; NULL entries are skipped
 * @stamp: draw the frame stamp (see below)
 * @stamp_seq: the frame's sequence number, carried by the stamp
 * @stamp_ms: its capture time, CLOCK_REALTIME in ms; the stamp carries
 *	the low 44 bits
 * @zoom: VIVI_GEN_ZOOM_MIN..MAX, the view's magnification in percent
 * @pan: -VIVI_GEN_PAN_MAX..VIVI_GEN_PAN_MAX arc seconds, positive to the
 *	right
 * @tilt: the same range, positive up
 * @exposure: 0 for auto exposure, else VIVI_GEN_EXPOSURE_MIN..MAX
 * @gain: 0..VIVI_GEN_GAIN_MAX
 * @wb_temp: 0 for auto white balance, else VIVI_GEN_WB_MIN..MAX kelvin
 * @gamma: VIVI_GEN_GAMMA_MIN..MAX; 0 counts as VIVI_GEN_GAMMA_DEF
 * @backlight: backlight compensation, 0..VIVI_GEN_BACKLIGHT_MAX
 * @privacy: black frames: no picture and no text (the stamp stays)
 *
 * Values out of range are clamped to it.
 *
 * The camera: the picture is a scene seen through a camera whose sensor
 * and view the camera controls set. At their defaults the frame is the
 * pattern exactly, as without them.
 *
 * The view: the scene is the pattern of a w x h frame (bars scrolled,
 * box included) repeated in every direction. The frame shows it at
 * magnification z = @zoom / 100, around a center moved by @pan and @tilt
 * at w / VIVI_GEN_FOV_ARCSEC pixels per arc second (square pixels, the
 * width spans 60 degrees at 1x). Frame pixel (x, y), before the flips,
 * shows scene pixel (sx mod w, sy mod h), with exact rational arithmetic:
 *   sx = floor(w / 2 + @pan * w / 216000 + (x + 1/2 - w / 2) / z)
 *   sy = floor(h / 2 - @tilt * w / 216000 + (y + 1/2 - h / 2) / z)
 * hflip and vflip then mirror the frame, as before.
 *
 * The sensor: each R', G', B' value v of the pattern's colors (in the
 * Y'CbCr formats too, before the conversion; the text and the stamp
 * excepted) goes through, in this order, rounding each step half up:
 *   v1 = min(255, v * E / 250 * (64 + @gain) / 64 * wb)
 *	E = @exposure, or 250 with auto exposure; wb = T / 4000 for R',
 *	1 for G', 4000 / T for B', T = @wb_temp, or 4000 with auto white
 *	balance (a camera set for warmer light than the scene's makes the
 *	picture bluer)
 *   v2 = v1 + @backlight * (255 - v1) / 8	(lifts the shadows)
 *   v3 = 255 * (v2 / 255) ^ (100 / @gamma)	(within 1: fixed point)
 * and then brightness, contrast, saturation and hue act as before.
 *
 * The frame stamp is a machine-readable band at the bottom of the frame
 * that survives format conversion, scaling, MJPEG and a browser canvas,
 * so that a test can tell which frame it got and when it was captured.
 * It is drawn last, over the finished picture and text, never flipped or
 * adjusted by the picture controls, in every format.
 *
 * Layout: 96 cells, 3 rows of 32, cell i in row i / 32 and column i % 32.
 * Cells are squares of side c = width / 32 pixels, the rows stacked on the
 * bottom 3 * c lines: cell i covers x in [x0 + (i % 32) * c, + c) and y in
 * [y0 + (i / 32) * c, + c), with x0 = (width - 32 * c) / 2 and
 * y0 = height - 3 * c. Pixels of those lines outside the cells keep the
 * picture. If c < 4 or height < 3 * c, no stamp is drawn (the smallest
 * size vivi offers, 160x120, has c = 5).
 *
 * A 1 bit is a 100% white cell, a 0 bit a black one: R'G'B' 255 or 0;
 * Y' 235 or 16 with Cb = Cr = 128 in the Y'CbCr formats; all samples 255
 * or 0 in Bayer. A chroma sample that covers a cell pixel is 128 even if
 * it also covers a picture pixel (at an odd y0 in 4:2:0, or an odd x0);
 * that picture pixel keeps its luma.
 *
 * Bits, each field MSB first: cells 0..3 are the sync 1, 0, 1, 0; cells
 * 4..35 @stamp_seq; cells 36..79 ms44 = @stamp_ms & (2^44 - 1); cells
 * 80..95 a check, ~sum & 0xffff, where sum = (seq & 0xffff) + (seq >> 16)
 * + (ms44 & 0xffff) + ((ms44 >> 16) & 0xffff) + (ms44 >> 32).
 * tests/tools/vivi-stamp.h and tests/guest/stamp.js decode it.
 */
struct vivi_gen_settings {
	u32 pattern;
	s32 brightness;
	s32 contrast;
	s32 saturation;
	s32 hue;
	bool hflip;
	bool vflip;
	u32 motion_speed;
	const u8 *font;
	const char *text[VIVI_GEN_TEXT_LINES];
	bool stamp;
	u32 stamp_seq;
	u64 stamp_ms;
	u32 zoom;
	s32 pan;
	s32 tilt;
	u32 exposure;
	u32 gain;
	u32 wb_temp;
	u32 gamma;
	u32 backlight;
	bool privacy;
};

/**
 * struct vivi_gen_frame - where and in what layout to draw
 * @fourcc: a V4L2_PIX_FMT_* for which vivi_gen_supported() is true
 * @width: in pixels
 * @height: in lines
 * @plane: start of each color plane in memory order (YUV420: Y, Cb, Cr;
 *	YVU420: Y, Cr, Cb; NV12: Y, CbCr); unused entries are NULL
 * @stride: bytes from one line of that plane to the next; may exceed the
 *	bytes a line needs, and the bytes beyond are never written
 * @band_y0: with @band_lines, the first frame line to draw; else 0
 * @band_lines: draw only frame lines [@band_y0, @band_y0 + @band_lines),
 *	exactly as the whole frame has them, into planes whose first line is
 *	the plane line covering frame line @band_y0 (for 4:2:0, @band_y0 must
 *	be even); 0 draws the whole frame
 */
struct vivi_gen_frame {
	u32 fourcc;
	u32 width;
	u32 height;
	u8 *plane[3];
	u32 stride[3];
	u32 band_y0;
	u32 band_lines;
};

/**
 * vivi_gen_supported() - true if the generator can draw @fourcc
 * @fourcc: V4L2_PIX_FMT_*
 *
 * Return: true if vivi_gen_fill() can draw @fourcc
 */
bool vivi_gen_supported(u32 fourcc);

/**
 * vivi_gen_is_yuv() - true if @fourcc carries Y'CbCr (BT.601, limited range)
 * @fourcc: V4L2_PIX_FMT_*
 *
 * False for RGB and Bayer (sRGB, full range) and for GREY/Y16 (BT.601 luma,
 * full range).
 *
 * Return: true for the Y'CbCr formats
 */
bool vivi_gen_is_yuv(u32 fourcc);

/**
 * vivi_gen_scratch_size() - bytes of scratch vivi_gen_fill() needs
 * @width: the widest frame that will be drawn
 *
 * Return: the size in bytes
 */
size_t vivi_gen_scratch_size(u32 width);

/**
 * vivi_gen_fill() - draw one frame
 * @f: format, size and planes
 * @s: pattern, controls and text
 * @frame: frame number; drives motion and seeds the noise
 * @scratch: vivi_gen_scratch_size(@f->width) bytes, any alignment, any
 *	initial contents. It also keeps the palette, template lines and text
 *	glyphs of the last call, reused while what they depend on is
 *	unchanged: pass the same area for the frames of one stream, and never
 *	to two calls at once. The rule that keeps this safe: the cache lives
 *	at the start of the area whoever calls, and everything in it lies at
 *	offsets set by the width alone; a caller that needs scratch of its own
 *	takes it after vivi_gen_scratch_size() bytes (see vivi_draw_mjpeg()).
 *	The cache's header is sealed: contents that do not match the seal,
 *	whatever wrote them, are never trusted, and a frame is always the
 *	same as one drawn with a fresh area.
 *
 * Return: 0, or -EINVAL if the format is unknown, a size is zero, a needed
 * plane is NULL, a stride is too small for @f->width or the band does not
 * lie inside the frame.
 */
int vivi_gen_fill(const struct vivi_gen_frame *f,
		  const struct vivi_gen_settings *s, u32 frame, void *scratch);

/**
 * vivi_gen_overlay() - draw only the text and the stamp over a frame
 * @f: format, size, planes and band, as vivi_gen_fill() takes them,
 *	holding a picture already (from vivi_pack_lines(), say)
 * @s: the text lines, font, privacy and stamp of these settings; the
 *	picture's are not used
 * @scratch: as vivi_gen_fill()'s, and the same area may serve both
 *
 * Draws exactly what vivi_gen_fill() draws over its picture: a frame
 * filled with the text and stamp off, then overlaid with @s, equals one
 * filled with @s.
 *
 * Return: 0, or -EINVAL for what vivi_gen_fill() refuses.
 */
int vivi_gen_overlay(const struct vivi_gen_frame *f,
		     const struct vivi_gen_settings *s, void *scratch);

#endif
