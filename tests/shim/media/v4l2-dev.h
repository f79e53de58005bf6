/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for the one part of the kernel's <media/v4l2-dev.h>
 * that vivi_config.h uses: the size of a node's name, which bounds a card
 * label. 32 bytes, as in 6.1 (newer kernels have 64).
 */
#ifndef VIVI_SHIM_MEDIA_V4L2_DEV_H
#define VIVI_SHIM_MEDIA_V4L2_DEV_H

struct video_device {
	char name[32];
};

#endif
