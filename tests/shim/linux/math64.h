/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for the parts of the kernel's <linux/math64.h> vivi uses. */
#ifndef VIVI_SHIM_LINUX_MATH64_H
#define VIVI_SHIM_LINUX_MATH64_H

#include <linux/types.h>

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

static inline s64 div64_s64(s64 dividend, s64 divisor)
{
	return dividend / divisor;
}

#endif
