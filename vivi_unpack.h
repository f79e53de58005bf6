/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The unpacker of vivi, the packer's mirror: the planes of any raw format
 * into canonical lines. Pure: no locks, no allocation, no printk.
 */
#ifndef _VIVI_UNPACK_H_
#define _VIVI_UNPACK_H_

#include <linux/types.h>

struct vivi_gen_frame;
struct vivi_lines;

int vivi_unpack_lines(const struct vivi_gen_frame *f, u32 y0, u32 n,
		      const struct vivi_lines *dst);

#endif
