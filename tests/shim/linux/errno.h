/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for the kernel's <linux/errno.h>. */
#ifndef VIVI_SHIM_LINUX_ERRNO_H
#define VIVI_SHIM_LINUX_ERRNO_H

/* the uapi header has the kernel numbers; <errno.h> would include us */
#include_next <linux/errno.h>

#endif
