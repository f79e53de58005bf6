/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for the kernel's <linux/minmax.h>: in the kernel.h stand-in. */
#ifndef VIVI_SHIM_LINUX_MINMAX_H
#define VIVI_SHIM_LINUX_MINMAX_H

#include <linux/kernel.h>

#endif
