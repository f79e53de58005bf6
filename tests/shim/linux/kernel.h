/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for the parts of the kernel's <linux/kernel.h> (and
 * the minmax, math, align and array_size headers it pulls in) that vivi
 * uses. Same semantics, minus the kernel's compile-time type checks, which
 * the kernel build of the same source still performs.
 */
#ifndef VIVI_SHIM_LINUX_KERNEL_H
#define VIVI_SHIM_LINUX_KERNEL_H

#include <stdarg.h>
#include <stdio.h>		/* snprintf */
#include <linux/types.h>

#ifndef BIT
#define BIT(n)			(1UL << (n))
#endif
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define ALIGN(x, a)		(((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))
#define PTR_ALIGN(p, a)	((__typeof__(p))ALIGN((unsigned long)(p), (a)))

#define min(a, b) ({				\
	__typeof__(a) _min_a = (a);		\
	__typeof__(b) _min_b = (b);		\
	_min_a < _min_b ? _min_a : _min_b; })
#define max(a, b) ({				\
	__typeof__(a) _max_a = (a);		\
	__typeof__(b) _max_b = (b);		\
	_max_a > _max_b ? _max_a : _max_b; })
#define min_t(t, a, b)		min((t)(a), (t)(b))
#define max_t(t, a, b)		max((t)(a), (t)(b))
#define clamp(v, lo, hi)	min(max(v, lo), hi)
#define clamp_t(t, v, lo, hi)	min_t(t, max_t(t, v, lo), hi)
#define U64_MAX			((u64)~0ull)
/* the kernel's takes an optional message too; vivi passes none */
#define static_assert(expr)	_Static_assert(expr, #expr)

/* rounds half away from zero, for either sign */
#define DIV_ROUND_CLOSEST(x, d) ({				\
	__typeof__(x) _drc_x = (x);				\
	__typeof__(d) _drc_d = (d);				\
	(((__typeof__(x))-1) > 0 || ((__typeof__(d))-1) > 0 ||	\
	 ((_drc_x > 0) == (_drc_d > 0))) ?			\
		(_drc_x + _drc_d / 2) / _drc_d :		\
		(_drc_x - _drc_d / 2) / _drc_d; })

#define max3(a, b, c)		max(max(a, b), c)
#define U32_MAX			((u32)~0u)

#define __printf(a, b)		__attribute__((format(printf, a, b)))

/* the kernel's: the characters written, never more than @size - 1 */
static inline int vscnprintf(char *buf, size_t size, const char *fmt,
			     va_list args)
{
	int n = size ? vsnprintf(buf, size, fmt, args) : 0;

	if (n < 0)
		return 0;
	return (size_t)n >= size ? (int)(size ? size - 1 : 0) : n;
}

/* the kernel's, whose message is optional (<linux/build_bug.h>) */
#ifndef static_assert
#define static_assert(expr, ...)	__vivi_static_assert(expr, ##__VA_ARGS__, #expr)
#define __vivi_static_assert(expr, msg, ...)	_Static_assert(expr, msg)
#endif

#endif
