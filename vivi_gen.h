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
 *	to two calls at once.
 *
 * Return: 0, or -EINVAL if the format is unknown, a size is zero, a needed
 * plane is NULL, a stride is too small for @f->width or the band does not
 * lie inside the frame.
 */
int vivi_gen_fill(const struct vivi_gen_frame *f,
		  const struct vivi_gen_settings *s, u32 frame, void *scratch);

#endif
