/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for the kernel's <linux/string.h>. */
#ifndef VIVI_SHIM_LINUX_STRING_H
#define VIVI_SHIM_LINUX_STRING_H

#include <string.h>

#endif
