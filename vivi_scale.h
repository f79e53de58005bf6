/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scaler and frame converter of vivi: canonical lines resized (an area
 * filter when shrinking, bilinear when enlarging, each axis on its own),
 * the aspect geometry (crop to fill, letterbox, stretch), and whole frames
 * of any raw format converted and scaled into any other. Pure: no locks,
 * no allocation, no printk; the caller passes planes and scratch.
 *
 * Which path vivi_scale_frame() takes:
 * - the same format and size, every plane's stride the same: one memcpy
 *   per plane (of the lines the destination band covers; the source's
 *   padding between lines comes along);
 * - the same format and size, a stride differs: a memcpy per line;
 * - the same size, Y'CbCr into another Y'CbCr layout: Y' copied, chroma
 *   copied or, into 4:2:0 from 4:2:2, the rounded mean of two lines,
 *   sample by sample between the planes (the same bytes as the next path
 *   gives, which replicates the chroma and averages it again);
 * - the same size, Y'CbCr into R'G'B' of three or four bytes a pixel,
 *   back, or one such R'G'B' into another, the width even: each line
 *   converted in one pass, the layouts and strides constants of the loop
 *   (the same bytes as the next path gives);
 * - the same size, another format: the source unpacked straight into the
 *   destination's kind of color (vivi_unpack_lines()), then packed
 *   (vivi_pack_lines()), a band of lines at a time;
 * - another size, but the aspect geometry maps source pixels one to one
 *   (crop to fill where the destination is a part of the source): the same
 *   as above, from the cropped columns and rows;
 * - otherwise: each source line the filter needs is unpacked, filtered
 *   horizontally once into 8.8 fixed point (kept for the next destination
 *   line too), the destination line filtered vertically from those, the
 *   bars filled; a band of such lines is then packed. The scaling runs in
 *   the source's kind of color when the destination has fewer pixels, else
 *   in the destination's, so that the conversion runs on the fewer pixels.
 */
#ifndef _VIVI_SCALE_H_
#define _VIVI_SCALE_H_

#include <linux/types.h>

struct vivi_gen_frame;
struct vivi_lines;

/* Filter weights are in 1 / VIVI_SCALE_ONE (2^14); each output's sum to it */
#define VIVI_SCALE_ONE		16384u
/* Destination lines scaled, or unpacked, before each call of the packer */
#define VIVI_SCALE_BAND		16
/* Source lines kept filtered across: a destination line of up to 4 taps */
#define VIVI_SCALE_SLOTS	4

/**
 * enum vivi_aspect - how a picture of another shape fills the frame
 * @VIVI_ASPECT_CROP: the source's centre, as large as has the frame's
 *	shape, fills the whole frame (what a sensor mode does)
 * @VIVI_ASPECT_LETTERBOX: the whole source, as large as fits, centred;
 *	black bars around it
 * @VIVI_ASPECT_STRETCH: the whole source onto the whole frame
 * @VIVI_ASPECT_COUNT: the number of modes
 */
enum vivi_aspect {
	VIVI_ASPECT_CROP,
	VIVI_ASPECT_LETTERBOX,
	VIVI_ASPECT_STRETCH,
	VIVI_ASPECT_COUNT,
};

/**
 * struct vivi_rect - a rectangle of pixels
 * @x: first column
 * @y: first line
 * @w: columns
 * @h: lines
 */
struct vivi_rect {
	u32 x;
	u32 y;
	u32 w;
	u32 h;
};

/**
 * struct vivi_scale - one frame's scaling of canonical lines
 * @sw: source width, 1 .. VIVI_PACK_MAX_DIM; set by the caller
 * @sh: source height, the same range; set by the caller
 * @dw: destination width, the same range; set by the caller
 * @dh: destination height, the same range; set by the caller
 * @aspect: enum vivi_aspect; set by the caller
 * @kind: enum vivi_canon of the source's lines and so of the destination's
 *	(its black fills the bars); set by the caller
 * @line: gives source line @y (0 .. @sh - 1): its canonical pixels, all
 *	@sw of them, in @buf (3 * @sw bytes it may fill) or in the caller's
 *	own memory, valid until the next call; NULL on an error. Set by the
 *	caller
 * @ctx: passed to @line; set by the caller
 * @crop: the source pixels the picture shows; set by vivi_scale_init()
 * @pic: where the picture lies in the destination, the rest bars; set by
 *	vivi_scale_init()
 * @buf: scratch for @line, 3 * @sw bytes
 * @hoff: per picture column, the byte of its first tap in a source line
 * @hn: the taps of every picture column (zero weights pad the fewer)
 * @hw: the taps' weights, @hn a column, column after column
 * @slot: source lines filtered horizontally, 8.8 fixed point in a u32 each
 *	(the vertical pass sums two samples in one 64-bit word)
 * @tag: the crop line each slot holds, or ~0
 * @acc: the vertical sum of a line with more taps than slots
 *
 * Per-call state on the caller's stack, pointing into the caller's
 * scratch; no lock. The vertical taps are computed per line as needed, so
 * the scratch stays a few lines long whatever the heights.
 */
struct vivi_scale {
	u32 sw;
	u32 sh;
	u32 dw;
	u32 dh;
	u32 aspect;
	u32 kind;
	const u8 *(*line)(void *ctx, u32 y, u8 *buf);
	void *ctx;
	struct vivi_rect crop;
	struct vivi_rect pic;
	u8 *buf;
	u32 *hoff;
	u32 hn;
	u16 *hw;
	u32 *slot[VIVI_SCALE_SLOTS];
	u32 tag[VIVI_SCALE_SLOTS];
	u32 *acc;
};

void vivi_scale_geometry(u32 sw, u32 sh, u32 dw, u32 dh, u32 aspect,
			 struct vivi_rect *crop, struct vivi_rect *pic);
size_t vivi_scale_scratch_size(u32 src_width, u32 dst_width);
int vivi_scale_init(struct vivi_scale *s, void *scratch);
int vivi_scale_lines(struct vivi_scale *s, u32 y0, u32 n,
		     const struct vivi_lines *dst);
int vivi_scale_frame(const struct vivi_gen_frame *src,
		     const struct vivi_gen_frame *dst, u32 aspect,
		     void *scratch);

#endif
