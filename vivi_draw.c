// SPDX-License-Identifier: GPL-2.0
/*
 * One frame drawn from its source: the pure half of vivi's frame layer
 * (see vivi_draw.h)
 */

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/types.h>

#include "vivi_draw.h"
#include "vivi_gen.h"
#include "vivi_jpeg.h"

size_t vivi_draw_scratch_size(u32 width)
{
	return max(vivi_gen_scratch_size(width),
		   vivi_jpeg_gen_scratch_size(width));
}

int vivi_draw_planes(const struct vivi_source *src,
		     const struct vivi_gen_frame *f, void *scratch)
{
	if (!src)
		return -EINVAL;
	switch (src->type) {
	case VIVI_SOURCE_PATTERN:
		return vivi_gen_fill(f, src->pattern, src->frame, scratch);
	}
	return -EINVAL;
}

int vivi_draw_mjpeg(const struct vivi_source *src, u32 width, u32 height,
		    u32 quality, u8 *out, size_t size, size_t *bytesused,
		    void *scratch)
{
	if (!src || src->type != VIVI_SOURCE_PATTERN)
		return -EINVAL;
	return vivi_jpeg_gen(src->pattern, src->frame, width, height, quality,
			     out, size, bytesused, scratch);
}
