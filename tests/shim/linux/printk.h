/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for the kernel's <linux/printk.h>: a log line is kept
 * in vivi_shim_log (the last one) and counted, not printed, so a test can
 * check what the code logged without its output filling the test's.
 * Kernel-only conversions such as %p4cc come out as a plain pointer.
 */
#ifndef VIVI_SHIM_LINUX_PRINTK_H
#define VIVI_SHIM_LINUX_PRINTK_H

#include <stdarg.h>
#include <stdio.h>

/* weak: one copy for every file that includes this */
__attribute__((weak)) char vivi_shim_log[256];
__attribute__((weak)) unsigned int vivi_shim_log_count;

static inline void vivi_shim_printk(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(vivi_shim_log, sizeof(vivi_shim_log), fmt, ap);
	va_end(ap);
	vivi_shim_log_count++;
}

#define pr_err(fmt, ...)	vivi_shim_printk(fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...)	vivi_shim_printk(fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...)	vivi_shim_printk(fmt, ##__VA_ARGS__)

#endif
