/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vivi-stamp.h - decode the frame stamp of vivi from a captured picture
 *
 * The stamp (its layout is in vivi_gen.h, struct vivi_gen_settings) is 96
 * black or white square cells in the bottom lines of the frame, carrying
 * the frame's sequence number and the low 44 bits of its capture time in
 * ms. Header-only, plain C99 without kernel headers, for the test tools
 * and the unit tests; tests/guest/stamp.js is the same decoder for a
 * browser's canvas, and the two must agree.
 *
 * The image may be the frame or the frame scaled to half its size (as a
 * client that asks for a smaller size gets it): the layout of the image's
 * own size is tried first, then that of a frame twice as large. A cell is
 * read as the mean luma of the pixels whose centers lie in its middle
 * half, thresholded at 128, which a pixel or two of misplacement, scaling
 * blur and MJPEG ringing at the cell edges leave alone.
 */
#ifndef VIVI_STAMP_H
#define VIVI_STAMP_H

#include <stddef.h>
#include <stdint.h>

#define VIVI_STAMP_COLS		32
#define VIVI_STAMP_ROWS		3
#define VIVI_STAMP_MIN_CELL	4
#define VIVI_STAMP_MS_MASK	0xfffffffffffull	/* 44 bits */

/**
 * vivi_stamp_check() - the 16-bit check of a stamp
 * @seq: the sequence number
 * @ms44: the capture time in ms, low 44 bits
 *
 * Return: ~sum & 0xffff of the 16-bit pieces of @seq and @ms44
 */
static inline uint32_t vivi_stamp_check(uint32_t seq, uint64_t ms44)
{
	uint32_t sum = (seq & 0xffff) + (seq >> 16) + (uint32_t)(ms44 & 0xffff) +
		       (uint32_t)((ms44 >> 16) & 0xffff) + (uint32_t)(ms44 >> 32);

	return ~sum & 0xffff;
}

/* Luma of the pixel at @p: 1 byte (Y') or R'G'B' (3, or 4 with alpha) */
static inline uint32_t vivi_stamp_luma(const uint8_t *p, unsigned int bpp)
{
	if (bpp < 3)
		return p[0];
	return (299 * p[0] + 587 * p[1] + 114 * p[2] + 500) / 1000;
}

/*
 * The image pixels [*p0, *p1) whose centers lie in the middle half of the
 * frame span [@a, @a + @c), for an image 1/@s of the frame's size: the
 * center of image pixel p is (p + 0.5) * s in frame pixels.
 */
static inline void vivi_stamp_range(unsigned int a, unsigned int c,
				    unsigned int s, unsigned int n,
				    unsigned int *p0, unsigned int *p1)
{
	unsigned int p = a / s, end = (a + c) / s + 1;

	while (p < end && (4 * p + 2) * s < 4 * a + c)
		p++;
	*p0 = p;
	while (p < end && p < n && (4 * p + 2) * s <= 4 * a + 3 * c)
		p++;
	*p1 = p;
}

/* Cell @i as 0 or 1 for a frame @s times the image's size, -1 if empty */
static inline int vivi_stamp_cell(const uint8_t *img, unsigned int w,
				  unsigned int h, size_t stride,
				  unsigned int bpp, unsigned int s,
				  unsigned int i)
{
	unsigned int fw = w * s, c = fw / VIVI_STAMP_COLS;
	unsigned int x = (fw - VIVI_STAMP_COLS * c) / 2 +
			 (i % VIVI_STAMP_COLS) * c;
	unsigned int y = h * s - VIVI_STAMP_ROWS * c +
			 (i / VIVI_STAMP_COLS) * c;
	unsigned int x0, x1, y0, y1, px, py;
	uint64_t sum = 0, n;

	vivi_stamp_range(x, c, s, w, &x0, &x1);
	vivi_stamp_range(y, c, s, h, &y0, &y1);
	n = (uint64_t)(x1 - x0) * (y1 - y0);
	if (!n)
		return -1;
	for (py = y0; py < y1; py++)
		for (px = x0; px < x1; px++)
			sum += vivi_stamp_luma(img + py * stride + px * bpp,
					       bpp);
	return sum >= 128 * n;
}

/* The stamp under the layout of a frame @s times the image's size */
static inline int vivi_stamp_try(const uint8_t *img, unsigned int w,
				 unsigned int h, size_t stride,
				 unsigned int bpp, unsigned int s,
				 uint32_t *seq, uint64_t *ms)
{
	unsigned int c = w * s / VIVI_STAMP_COLS, i;
	uint32_t row[VIVI_STAMP_ROWS] = { 0 };
	uint32_t sq;
	uint64_t t;
	int b;

	if (c < VIVI_STAMP_MIN_CELL || h * s < VIVI_STAMP_ROWS * c)
		return -1;
	for (i = 0; i < VIVI_STAMP_ROWS * VIVI_STAMP_COLS; i++) {
		b = vivi_stamp_cell(img, w, h, stride, bpp, s, i);
		if (b < 0)
			return -1;
		row[i / VIVI_STAMP_COLS] = row[i / VIVI_STAMP_COLS] << 1 | b;
	}
	/* sync 1010, seq, ms44, check: 4 + 32 + 44 + 16 bits */
	sq = row[0] << 4 | row[1] >> 28;
	t = (uint64_t)(row[1] & 0x0fffffff) << 16 | row[2] >> 16;
	if (row[0] >> 28 != 0xa || (row[2] & 0xffff) != vivi_stamp_check(sq, t))
		return -1;
	*seq = sq;
	*ms = t;
	return 0;
}

/**
 * vivi_stamp_decode_px() - decode the stamp of an image of any pixel size
 * @img: the first line
 * @w: width in pixels
 * @h: height in lines
 * @stride: bytes from one line to the next
 * @bpp: 1 (8-bit luma), 3 (R'G'B') or 4 (R'G'B'A)
 * @seq: the sequence number, on success
 * @ms: the capture time in ms, low 44 bits, on success
 *
 * Return: 0, or -1 if no layout gives the sync and a matching check
 */
static inline int vivi_stamp_decode_px(const uint8_t *img, unsigned int w,
				       unsigned int h, size_t stride,
				       unsigned int bpp, uint32_t *seq,
				       uint64_t *ms)
{
	unsigned int s;

	for (s = 1; s <= 2; s++)
		if (!vivi_stamp_try(img, w, h, stride, bpp, s, seq, ms))
			return 0;
	return -1;
}

/**
 * vivi_stamp_decode() - decode the stamp of an RGB24 image
 * @rgb: the first line, R, G, B bytes per pixel
 * @w: width in pixels
 * @h: height in lines
 * @stride: bytes from one line to the next
 * @seq: the sequence number, on success
 * @ms: the capture time in ms, low 44 bits, on success
 *
 * Return: 0, or -1 (no sync, or a bad check)
 */
static inline int vivi_stamp_decode(const uint8_t *rgb, unsigned int w,
				    unsigned int h, size_t stride,
				    uint32_t *seq, uint64_t *ms)
{
	return vivi_stamp_decode_px(rgb, w, h, stride, 3, seq, ms);
}

/**
 * vivi_stamp_decode_luma() - decode the stamp of a plane of 8-bit luma
 * @y: the first line (GREY, or the Y' plane of a planar format)
 * @w: width in pixels
 * @h: height in lines
 * @stride: bytes from one line to the next
 * @seq: the sequence number, on success
 * @ms: the capture time in ms, low 44 bits, on success
 *
 * Return: 0, or -1 (no sync, or a bad check)
 */
static inline int vivi_stamp_decode_luma(const uint8_t *y, unsigned int w,
					 unsigned int h, size_t stride,
					 uint32_t *seq, uint64_t *ms)
{
	return vivi_stamp_decode_px(y, w, h, stride, 1, seq, ms);
}

#endif
