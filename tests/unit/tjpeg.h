/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tjpeg.h - MJPEG frames for the unit tests: encoded by vivi_draw_mjpeg,
 * decoded by libjpeg
 */
#ifndef TJPEG_H
#define TJPEG_H

#include <stddef.h>

#include <linux/types.h>
#include "vivi_gen.h"

/* What the decoder saw besides the pixels */
struct tdec_info {
	int q[2][64];		/* natural order */
	int sampling_ok;
	int jfif;
};

/*
 * Decode @jpg into @rgb (w * h * 3), checking it is a baseline JFIF 4:2:2
 * frame of the expected size. Returns 0, or -1 with a failure recorded.
 */
int tdecode_jpeg(const u8 *jpg, size_t n, u32 w, u32 h, u8 *rgb,
		 struct tdec_info *info, const char *what);

/*
 * Encode with vivi_draw_mjpeg into a buffer of vivi_jpeg_max_size(); NULL
 * with a failure recorded. Caller frees.
 */
u8 *tencode(const struct vivi_gen_settings *s, u32 frame, u32 w, u32 h,
	    u32 quality, size_t *n, const char *what);

#endif
