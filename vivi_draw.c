// SPDX-License-Identifier: GPL-2.0
/*
 * One frame drawn from its source: the pure half of vivi's frame layer
 * (see vivi_draw.h). An MJPEG frame goes band by band: the source draws
 * VIVI_DRAW_BAND_LINES lines as YUV 4:2:2 into the scratch area, the
 * encoder codes them an MCU row at a time, and no whole raw frame is ever
 * held.
 */

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/types.h>
#include <linux/videodev2.h>

#include "vivi_draw.h"
#include "vivi_gen.h"
#include "vivi_jpeg.h"
#include "vivi_scale.h"

/* Lines the source draws per band of an MJPEG frame: four MCU rows */
#define VIVI_DRAW_BAND_LINES	32
#define VIVI_DRAW_ALIGN		64

/* Bytes of one band of YUV 4:2:2 lines @width wide */
static size_t vivi_draw_band_size(u32 width)
{
	return (size_t)VIVI_DRAW_BAND_LINES *
	       (width + 2 * DIV_ROUND_UP(width, 2));
}

size_t vivi_draw_scratch_size(u32 width)
{
	u32 w = clamp_t(u32, width, 1, VIVI_JPEG_MAX_DIM);

	/* the source's part first (its cache stays put), the encoder, the band */
	return vivi_gen_scratch_size(w) + vivi_jpeg_scratch_size() +
	       VIVI_DRAW_ALIGN + vivi_draw_band_size(w);
}

size_t vivi_draw_fed_scratch_size(u32 width, u32 fed_width)
{
	return vivi_draw_scratch_size(width) +
	       vivi_scale_scratch_size(fed_width, width);
}

int vivi_draw_planes(const struct vivi_source *src,
		     const struct vivi_gen_frame *f, void *scratch)
{
	if (!src || !f || !scratch)
		return -EINVAL;
	switch (src->type) {
	case VIVI_SOURCE_PATTERN:
		return vivi_gen_fill(f, src->pattern, src->frame, scratch);
	case VIVI_SOURCE_FED:
		return vivi_scale_frame(src->fed, f, src->aspect, (u8 *)scratch +
					vivi_draw_scratch_size(f->width));
	}
	return -EINVAL;
}

/* Code the lines of @band, drawn, an MCU row at a time */
static int vivi_draw_encode(void *js, const struct vivi_gen_frame *band)
{
	const u8 *mcu[3];
	u32 k;
	int ret = 0;

	for (k = 0; !ret && k < band->band_lines; k += VIVI_JPEG_BAND_LINES) {
		mcu[0] = band->plane[0] + k * band->stride[0];
		mcu[1] = band->plane[1] + k * band->stride[1];
		mcu[2] = band->plane[2] + k * band->stride[2];
		ret = vivi_jpeg_encode_band(js, mcu, band->stride);
	}
	return ret;
}

int vivi_draw_mjpeg(const struct vivi_source *src, u32 width, u32 height,
		    u32 quality, u8 *out, size_t size, size_t *bytesused,
		    void *scratch)
{
	struct vivi_gen_frame band = {
		.fourcc = V4L2_PIX_FMT_YUV422P,
		.width = width,
		.height = height,
	};
	u32 cw = DIV_ROUND_UP(width, 2), y;
	u8 *js, *p;
	int ret;

	if (!src || !scratch || !bytesused || !width ||
	    width > VIVI_JPEG_MAX_DIM)
		return -EINVAL;
	/*
	 * The source's part sits at the start of the area in every path, raw
	 * or MJPEG, so that no other layout ever overwrites part of it; the
	 * encoder's state and the band come after it (the encoder checks the
	 * rest of the arguments)
	 */
	js = (u8 *)scratch + vivi_gen_scratch_size(width);
	ret = vivi_jpeg_begin(js, width, height, quality, out, size);
	if (ret)
		return ret;
	p = PTR_ALIGN(js + vivi_jpeg_scratch_size(), VIVI_DRAW_ALIGN);
	band.plane[0] = p;
	band.plane[1] = p + VIVI_DRAW_BAND_LINES * width;
	band.plane[2] = band.plane[1] + VIVI_DRAW_BAND_LINES * cw;
	band.stride[0] = width;
	band.stride[1] = cw;
	band.stride[2] = cw;
	for (y = 0; y < height; y += VIVI_DRAW_BAND_LINES) {
		band.band_y0 = y;
		band.band_lines = min_t(u32, VIVI_DRAW_BAND_LINES, height - y);
		ret = vivi_draw_planes(src, &band, scratch) ?:
		      vivi_draw_encode(js, &band);
		if (ret)
			return ret;
	}
	return vivi_jpeg_finish(js, bytesused);
}
