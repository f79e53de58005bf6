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
 * @stamp: draw the frame stamp (see below)
 * @stamp_seq: the frame's sequence number, carried by the stamp
 * @stamp_ms: its capture time, CLOCK_REALTIME in ms; the stamp carries
 *	the low 44 bits
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
