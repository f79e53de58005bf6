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

/* What a device's config may list: sizes and rates (struct vivi_modes) */
#define VIVI_MAX_SIZES		32
#define VIVI_MAX_RATES		16
#define VIVI_MIN_DIM		16
#define VIVI_MAX_DIM		8192
/* frames per second a rate may have: 1/10 to 240 */
#define VIVI_MIN_FPS_DIV	10
#define VIVI_MAX_FPS		240
/* the numbers of a rate's fraction, so that every product fits 64 bits */
#define VIVI_MAX_FRACT		1000000

/**
 * struct vivi_size - a frame size
 * @width: in pixels
 * @height: in lines
 *
 * u32 fields, as v4l2_find_nearest_size() wants them.
 */
struct vivi_size {
	u32 width;
	u32 height;
};

/**
 * struct vivi_modes - the frame sizes and intervals a device offers
 * @size: ENUM_FRAMESIZES order: the smallest area first
 * @n_sizes: how many of @size are used, 1 to VIVI_MAX_SIZES
 * @interval: time per frame, ENUM_FRAMEINTERVALS order: the shortest first
 * @n_intervals: how many of @interval are used, 1 to VIVI_MAX_RATES
 * @size_limits: the built-in table: its fast rates only at small sizes
 *	(120 fps up to 1280x720, 60 up to 1920x1080); a configured list is
 *	offered at every size
 * @def_size: the power-on size; 0x0 for 640x480 or the size nearest it
 * @def_interval: the power-on interval; 0/0 for 30 fps or the nearest
 * @def_fourcc: the power-on format; 0 for YUYV, or the first listed
 *
 * Part of a device's config (vivi_config.h); constant once the device
 * exists.
 */
struct vivi_modes {
	struct vivi_size size[VIVI_MAX_SIZES];
	unsigned int n_sizes;
	struct v4l2_fract interval[VIVI_MAX_RATES];
	unsigned int n_intervals;
	bool size_limits;
	struct vivi_size def_size;
	struct v4l2_fract def_interval;
	u32 def_fourcc;
};

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

bool vivi_fmt_size_suits(u32 fourcc, u32 width, u32 height);
u32 vivi_fmt_default_fourcc(const struct vivi_fmt_list *list,
			    const struct vivi_modes *modes);

void vivi_fmt_try_pix(const struct vivi_fmt_list *list,
		      const struct vivi_modes *modes,
		      const struct vivi_jpeg_bound *jpeg,
		      struct v4l2_pix_format *pix);
void vivi_fmt_fill_pix(const struct vivi_fmt_list *list,
		       const struct vivi_modes *modes,
		       const struct vivi_jpeg_bound *jpeg,
		       struct v4l2_pix_format *pix);
void vivi_fmt_default_pix(const struct vivi_fmt_list *list,
			  const struct vivi_modes *modes,
			  const struct vivi_jpeg_bound *jpeg,
			  struct v4l2_pix_format *pix);
int vivi_fmt_plane_layout(const struct v4l2_pix_format *pix,
			  struct vivi_gen_frame *f, u8 *base);

void vivi_modes_defaults(struct vivi_modes *m);
struct vivi_size vivi_modes_def_size(const struct vivi_modes *m);
u32 vivi_modes_max_width(const struct vivi_modes *m);
size_t vivi_modes_max_sizeimage(const struct vivi_modes *m);
bool vivi_fmt_size(const struct vivi_modes *m, unsigned int index,
		   u32 *width, u32 *height);
bool vivi_modes_add_size(struct vivi_modes *m, u32 width, u32 height);
bool vivi_fmt_size_offered(const struct vivi_modes *m, u32 width,
			   u32 height);
bool vivi_fmt_interval_offered(const struct vivi_modes *m,
			       const struct v4l2_fract *tpf, u32 width,
			       u32 height);
bool vivi_fmt_interval(const struct vivi_modes *m, unsigned int index,
		       u32 width, u32 height, struct v4l2_fract *tpf);
struct v4l2_fract vivi_fmt_snap_interval(const struct vivi_modes *m,
					 const struct v4l2_fract *tpf,
					 u32 width, u32 height);
u32 vivi_fps_x10(const struct v4l2_fract *tpf);

#endif
