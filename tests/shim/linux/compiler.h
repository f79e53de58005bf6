/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for the parts of the kernel's <linux/compiler.h> vivi uses. */
#ifndef VIVI_SHIM_LINUX_COMPILER_H
#define VIVI_SHIM_LINUX_COMPILER_H

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
/* glibc's <sys/cdefs.h> has one too */
#ifndef __always_inline
#define __always_inline	inline __attribute__((__always_inline__))
#endif
#ifndef noinline
#define noinline	__attribute__((__noinline__))
#endif

#endif
