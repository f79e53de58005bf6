/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for what the kernel's v4l2-tpg (drivers/media/common/
 * v4l2-tpg, built by bench_tpg from Debian's linux-source package) takes
 * from <linux/module.h> and the headers it pulls in. Benchmark use only.
 */
#ifndef VIVI_TPG_SHIM_MODULE_H
#define VIVI_TPG_SHIM_MODULE_H

#include <stdio.h>
#include <string.h>

#include <linux/kernel.h>
#include <linux/types.h>

#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)
#define MODULE_AUTHOR(s)
#define MODULE_DESCRIPTION(s)
#define MODULE_LICENSE(s)

#define fallthrough		__attribute__((__fallthrough__))
#define __packed		__attribute__((__packed__))
#define pr_info(...)		printf(__VA_ARGS__)
#define WARN_ON_ONCE(c)		({ int _w = !!(c); if (_w) fprintf(stderr, "tpg: WARN_ON_ONCE(%s)\n", #c); _w; })
#define noinline		__attribute__((__noinline__))
#define min3(a, b, c)		min(min(a, b), c)
#define max3(a, b, c)		max(max(a, b), c)
#define array_size(a, b)	((size_t)(a) * (b))
#define array3_size(a, b, c)	((size_t)(a) * (b) * (c))

#endif
