/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The format layer of vivi: the formats (MJPEG, then the packer's table of
 * raw layouts), sizes and frame intervals, and the helpers that negotiate
 * them. Nothing here knows about devices, queues or locks; callers pass
 * the list of formats a device offers.
 */
#ifndef _VIVI_FMT_H_
#define _VIVI_FMT_H_

#include <linux/types.h>
#include <linux/videodev2.h>

struct vivi_gen_frame;
struct vivi_jpeg_bound;

/* Every format vivi has, so a device's list never overflows */
#define VIVI_MAX_FORMATS	25

/*
 * The largest buffer: 9 bytes a pixel of the largest size. A raw frame
 * takes at most 8 (4 bytes a pixel, stride doubled); MJPEG's worst case at
 * quality 100 takes 8.8, which vivi_fmt_check_table() checks at load.
 */
#define VIVI_MAX_WIDTH		3840
#define VIVI_MAX_HEIGHT		2160
#define VIVI_MAX_SIZEIMAGE	(VIVI_MAX_WIDTH * 9 * VIVI_MAX_HEIGHT)

#define VIVI_DEF_WIDTH		640
#define VIVI_DEF_HEIGHT		480
#define VIVI_DEF_FPS		30

/**
 * struct vivi_fmt_list - the formats one device offers, in ENUM_FMT order
 * @fourcc: the formats, each one vivi_fmt_list_all() lists
 * @count: how many of @fourcc are used
 */
struct vivi_fmt_list {
	u32 fourcc[VIVI_MAX_FORMATS];
	unsigned int count;
};

int vivi_fmt_check_table(void);
void vivi_fmt_list_all(struct vivi_fmt_list *list);
int vivi_fmt_list_parse(struct vivi_fmt_list *list, const char *spec);
bool vivi_fmt_offered(const struct vivi_fmt_list *list, u32 fourcc);
bool vivi_fmt_compressed(u32 fourcc);
bool vivi_fmt_known(u32 fourcc);

void vivi_fmt_try_pix(const struct vivi_fmt_list *list,
		      const struct vivi_jpeg_bound *jpeg,
		      struct v4l2_pix_format *pix);
void vivi_fmt_default_pix(const struct vivi_fmt_list *list,
			  const struct vivi_jpeg_bound *jpeg,
			  struct v4l2_pix_format *pix);
int vivi_fmt_plane_layout(const struct v4l2_pix_format *pix,
			  struct vivi_gen_frame *f, u8 *base);

bool vivi_fmt_size(unsigned int index, u32 *width, u32 *height);
bool vivi_fmt_size_offered(u32 width, u32 height);
bool vivi_fmt_interval(unsigned int index, u32 width, u32 height,
		       struct v4l2_fract *tpf);
struct v4l2_fract vivi_fmt_snap_interval(const struct v4l2_fract *tpf,
					 u32 width, u32 height);
u32 vivi_fps_x10(const struct v4l2_fract *tpf);

#endif
