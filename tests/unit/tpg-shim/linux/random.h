/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for <linux/random.h>, for v4l2-tpg's noise. */
#ifndef VIVI_TPG_SHIM_RANDOM_H
#define VIVI_TPG_SHIM_RANDOM_H

#include <stdlib.h>

#include <linux/types.h>

static inline u8 get_random_u8(void)
{
	return random();
}

static inline u32 prandom_u32_max(u32 ceil)
{
	return (u32)(((u64)(u32)random() * ceil) >> 31);
}

#endif
