/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for the kernel's <linux/string.h>. */
#ifndef VIVI_SHIM_LINUX_STRING_H
#define VIVI_SHIM_LINUX_STRING_H

#include <errno.h>
#include <string.h>
#include <sys/types.h>

/* the kernel's: copies what fits, always terminated; -E2BIG if cut */
static inline ssize_t strscpy(char *dst, const char *src, size_t size)
{
	size_t i;

	if (!size)
		return -E2BIG;
	for (i = 0; i < size - 1 && src[i]; i++)
		dst[i] = src[i];
	dst[i] = 0;
	return src[i] ? -E2BIG : (ssize_t)i;
}

#endif
