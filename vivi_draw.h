/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One frame drawn from its source, the pure half of vivi's frame layer
 *
 * The driver's half (vivi_frame.c) says what the frame shows and where its
 * picture comes from; these functions draw it, into the planes of a raw
 * format or band by band through the MJPEG encoder. No locks, no
 * allocation, no printk: the caller hands over the planes or the output,
 * and one scratch area for every frame of a stream, raw or MJPEG in any
 * order. The unit tests call the same functions.
 */
#ifndef _VIVI_DRAW_H_
#define _VIVI_DRAW_H_

#include <linux/types.h>

struct vivi_gen_frame;
struct vivi_gen_settings;

/**
 * enum vivi_source_type - where a frame's picture comes from
 * @VIVI_SOURCE_PATTERN: the test pattern generator (vivi_gen.c)
 * @VIVI_SOURCE_FED: a frame an application fed, converted and scaled
 *	(vivi_scale.c)
 */
enum vivi_source_type {
	VIVI_SOURCE_PATTERN,
	VIVI_SOURCE_FED,
};

/**
 * struct vivi_source - where a frame's picture comes from, and what that
 *	source needs to draw it
 * @type: the source
 * @pattern: VIVI_SOURCE_PATTERN: pattern, controls, text and stamp
 * @frame: VIVI_SOURCE_PATTERN: the frame number; drives motion and seeds
 *	the noise
 * @fed: VIVI_SOURCE_FED: the whole frame, any raw format of the packer's
 *	table, at most as wide as the scratch was sized for
 * @aspect: VIVI_SOURCE_FED: enum vivi_aspect, when the shapes differ
 */
struct vivi_source {
	enum vivi_source_type type;
	const struct vivi_gen_settings *pattern;
	u32 frame;
	const struct vivi_gen_frame *fed;
	u32 aspect;
};

/**
 * vivi_draw_scratch_size() - bytes of scratch vivi_draw_planes() and
 *	vivi_draw_mjpeg() need
 * @width: the widest frame that will be drawn
 *
 * Return: the size in bytes
 */
size_t vivi_draw_scratch_size(u32 width);

/**
 * vivi_draw_fed_scratch_size() - bytes of scratch for fed frames too
 * @width: the widest frame that will be drawn
 * @fed_width: the widest frame that will be fed
 *
 * The scaler's part comes after the rest, so that a fed frame never
 * touches the pattern's cache.
 *
 * Return: the size in bytes
 */
size_t vivi_draw_fed_scratch_size(u32 width, u32 fed_width);

/**
 * vivi_draw_planes() - draw a frame, or a band of it, into raw planes
 * @src: where the picture comes from
 * @f: format, size, planes and band, as for vivi_gen_fill()
 * @scratch: vivi_draw_scratch_size(@f->width) bytes (for a fed frame,
 *	vivi_draw_fed_scratch_size()), any alignment; what the source keeps
 *	from one frame to the next lies at its start (see vivi_gen_fill())
 *
 * Return: 0, or -EINVAL for an unknown source or the source's error
 */
int vivi_draw_planes(const struct vivi_source *src,
		     const struct vivi_gen_frame *f, void *scratch);

/**
 * vivi_draw_mjpeg() - draw a frame and code it as MJPEG, band by band
 * @src: where the picture comes from
 * @width: in pixels
 * @height: in lines
 * @quality: VIVI_JPEG_QUALITY_MIN..VIVI_JPEG_QUALITY_MAX
 * @out: where the JPEG goes
 * @size: bytes at @out; never written past
 * @bytesused: set to the size of the JPEG on success
 * @scratch: vivi_draw_scratch_size(@width) bytes, any alignment, the same
 *	area as for vivi_draw_planes(): the source's part stays at its start,
 *	the encoder's state and the band follow it
 *
 * Return: 0, or the error of the source or of the encoder (-ENOSPC if the
 * JPEG does not fit)
 */
int vivi_draw_mjpeg(const struct vivi_source *src, u32 width, u32 height,
		    u32 quality, u8 *out, size_t size, size_t *bytesused,
		    void *scratch);

#endif
