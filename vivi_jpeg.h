/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pure MJPEG encoder of vivi
 *
 * Baseline JFIF, 8-bit, Y'CbCr 4:2:2 (H2V1), with the quantization tables
 * of ITU T.81 Annex K scaled by a 1..100 quality as libjpeg scales them,
 * and the Annex K Huffman tables, both in every frame. The input is BT.601
 * limited-range Y'CbCr 4:2:2 planes (YUV422P, as vivi_draw.c draws them); the
 * JPEG carries JFIF's full range.
 *
 * Band by band: vivi_jpeg_begin() writes the headers, each
 * vivi_jpeg_encode_band() codes one MCU row (VIVI_JPEG_BAND_LINES lines)
 * from the caller's planes, vivi_jpeg_finish() ends the scan with EOI. No
 * locks, no allocation, no printk: the state lives in the caller's scratch,
 * and nothing is written past the output size given (-ENOSPC instead).
 */
#ifndef _VIVI_JPEG_H_
#define _VIVI_JPEG_H_

#include <linux/types.h>

#define VIVI_JPEG_QUALITY_MIN	1
#define VIVI_JPEG_QUALITY_MAX	100
/*
 * Webcams stream MJPEG with tables close to libjpeg quality 90..95: they
 * have the USB bandwidth for it, and lower qualities ring visibly at sharp
 * edges. The 75% bars at 160x120 are 20 pixels wide, so every chroma block
 * holds a bar edge; the middles of the bars are off in R'G'B' by 8 at
 * quality 85 (PSNR 37 dB), 5 at 91 and 93, 4 at 92, 3 at 94 and 95: 95
 * stays within the bound of 4 with a margin.
 */
#define VIVI_JPEG_QUALITY_DEF	95
/* Lines of one MCU row, the unit of vivi_jpeg_encode_band() */
#define VIVI_JPEG_BAND_LINES	8
/* The largest width and height coded */
#define VIVI_JPEG_MAX_DIM	16384

/**
 * vivi_jpeg_scratch_size() - bytes of scratch the encoder state needs
 *
 * Return: the size in bytes, the same for every frame size (the encoder
 * reads the caller's planes)
 */
size_t vivi_jpeg_scratch_size(void);

/**
 * struct vivi_jpeg_bound - the worst case of one quality, for any size
 * @quality: VIVI_JPEG_QUALITY_MIN..VIVI_JPEG_QUALITY_MAX
 * @block_bits: the most bits a luma (0) and a chroma (1) block can take
 *
 * Working it out takes a moment (a walk over the coefficients per
 * lambda): callers keep one per quality rather than redo it per size.
 */
struct vivi_jpeg_bound {
	u32 quality;
	u32 block_bits[2];
};

/**
 * vivi_jpeg_bound_init() - work out the worst case of a quality
 * @b: filled in
 * @quality: clamped to VIVI_JPEG_QUALITY_MIN..VIVI_JPEG_QUALITY_MAX
 */
void vivi_jpeg_bound_init(struct vivi_jpeg_bound *b, u32 quality);

/**
 * vivi_jpeg_bound_size() - vivi_jpeg_max_size() from a kept bound
 * @b: from vivi_jpeg_bound_init()
 * @width: in pixels
 * @height: in lines
 *
 * Return: the size in bytes, or 0 for a zero or too large size
 */
size_t vivi_jpeg_bound_size(const struct vivi_jpeg_bound *b, u32 width,
			    u32 height);

/**
 * vivi_jpeg_max_size() - the most bytes one frame can take
 * @width: in pixels
 * @height: in lines
 * @quality: VIVI_JPEG_QUALITY_MIN..VIVI_JPEG_QUALITY_MAX
 *
 * An upper bound over every possible picture: the headers, the most bits
 * each block can take within the energy its 64 samples can carry (see
 * vivi_jpeg.c), every entropy-coded byte stuffed, and EOI.
 *
 * Return: the size in bytes, or 0 for a zero or too large size or a bad
 * quality
 */
size_t vivi_jpeg_max_size(u32 width, u32 height, u32 quality);

/**
 * vivi_jpeg_length() - the size of the JPEG a buffer starts with
 * @p: the buffer: SOI, marker segments, entropy-coded scans, EOI
 * @size: the bytes at @p that may belong to it
 *
 * Walks the marker segments and skips each scan's entropy-coded data
 * (stuffed 0xff 0x00 bytes and RSTn markers) up to the next marker, so a
 * buffer with bytes after the EOI, or one cut short, is told apart.
 *
 * Return: the bytes from SOI through EOI, or 0 if @p does not start with
 * SOI or no EOI ends the JPEG within @size bytes
 */
size_t vivi_jpeg_length(const u8 *p, size_t size);

/**
 * vivi_jpeg_begin() - start a frame and write its headers
 * @scratch: vivi_jpeg_scratch_size() bytes, any alignment, kept until
 *	vivi_jpeg_finish()
 * @width: in pixels, 1..VIVI_JPEG_MAX_DIM
 * @height: in lines, 1..VIVI_JPEG_MAX_DIM
 * @quality: VIVI_JPEG_QUALITY_MIN..VIVI_JPEG_QUALITY_MAX
 * @out: where the JPEG goes
 * @size: bytes at @out; never written past
 *
 * Return: 0, -EINVAL for a bad size, quality or NULL pointer, -ENOSPC if
 * the headers do not fit
 */
int vivi_jpeg_begin(void *scratch, u32 width, u32 height, u32 quality,
		    u8 *out, size_t size);

/**
 * vivi_jpeg_encode_band() - code the next MCU row
 * @scratch: as given to vivi_jpeg_begin()
 * @plane: Y', Cb, Cr of the band's first line: Y' @width bytes per line,
 *	Cb and Cr (@width + 1) / 2; min(8, lines left) lines each
 * @stride: bytes from one line of each plane to the next
 *
 * Return: 0, -EINVAL if all rows are coded already, begin failed or a
 * pointer is NULL, -ENOSPC once the output is full (and from then on)
 */
int vivi_jpeg_encode_band(void *scratch, const u8 *const plane[3],
			  const u32 stride[3]);

/**
 * vivi_jpeg_finish() - end the scan with EOI
 * @scratch: as given to vivi_jpeg_begin()
 * @bytesused: set to the size of the JPEG on success
 *
 * Return: 0, -EINVAL if rows are missing or begin failed, -ENOSPC if the
 * output was too small
 */
int vivi_jpeg_finish(void *scratch, size_t *bytesused);

#endif
