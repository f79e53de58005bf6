/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for the parts of the kernel's <media/v4l2-common.h>
 * that vivi_fmt.c uses, so that the unit tests can link it: the format
 * info struct (without a table: v4l2_format_info() knows no format, and
 * vivi_fmt_info() answers from vivi's own fallback entries) and
 * v4l2_find_nearest_size(), with the kernel's rule.
 */
#ifndef VIVI_SHIM_MEDIA_V4L2_COMMON_H
#define VIVI_SHIM_MEDIA_V4L2_COMMON_H

#include <stdlib.h>
#include <linux/stddef.h>
#include <linux/time64.h>
#include <linux/types.h>
#include <linux/videodev2.h>

enum v4l2_pixel_encoding {
	V4L2_PIXEL_ENC_UNKNOWN = 0,
	V4L2_PIXEL_ENC_YUV = 1,
	V4L2_PIXEL_ENC_RGB = 2,
	V4L2_PIXEL_ENC_BAYER = 3,
};

struct v4l2_format_info {
	u32 format;
	u8 pixel_enc;
	u8 mem_planes;
	u8 comp_planes;
	u8 bpp[4];
	u8 hdiv;
	u8 vdiv;
	u8 block_w[4];
	u8 block_h[4];
};

static inline const struct v4l2_format_info *v4l2_format_info(u32 format)
{
	(void)format;
	return NULL;
}

/* the entry with the least |w - width| + |h - height|; the last of ties */
static inline const void *vivi_shim_nearest_size(const void *array, size_t n,
						 size_t entry, size_t w_off,
						 size_t h_off, s32 width,
						 s32 height)
{
	const void *best = NULL;
	u32 min_err = (u32)-1;
	size_t i;

	for (i = 0; i < n; i++) {
		const u8 *e = (const u8 *)array + i * entry;
		s32 w = *(const u32 *)(e + w_off), h = *(const u32 *)(e + h_off);
		u32 err = abs(w - width) + abs(h - height);

		if (err > min_err)
			continue;
		min_err = err;
		best = e;
		if (!err)
			break;
	}
	return best;
}

#define v4l2_find_nearest_size(array, array_size, width_field,		\
			       height_field, width, height)		\
	((__typeof__(&(array)[0]))vivi_shim_nearest_size((array),	\
		(array_size), sizeof(*(array)),				\
		offsetof(__typeof__(*(array)), width_field),		\
		offsetof(__typeof__(*(array)), height_field),		\
		(width), (height)))

#endif
