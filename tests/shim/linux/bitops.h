/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for the parts of the kernel's <linux/bitops.h> vivi uses. */
#ifndef VIVI_SHIM_LINUX_BITOPS_H
#define VIVI_SHIM_LINUX_BITOPS_H

#include <linux/types.h>

/* 1-based index of the most significant set bit, 0 for 0 */
static inline int fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

/* Index of the least significant set bit; undefined for 0 */
static inline unsigned long __ffs64(u64 x)
{
	return __builtin_ctzll(x);
}

#endif
