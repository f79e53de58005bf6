/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for <linux/vmalloc.h>, for v4l2-tpg's line buffers. */
#ifndef VIVI_TPG_SHIM_VMALLOC_H
#define VIVI_TPG_SHIM_VMALLOC_H

#include <stdlib.h>

static inline void *vmalloc(size_t n)
{
	return malloc(n);
}

static inline void *vzalloc(size_t n)
{
	return calloc(1, n);
}

static inline void vfree(const void *p)
{
	free((void *)p);
}

#endif
