/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for the parts of the kernel's <linux/time64.h> vivi uses. */
#ifndef VIVI_SHIM_LINUX_TIME64_H
#define VIVI_SHIM_LINUX_TIME64_H

#define NSEC_PER_SEC	1000000000L

#endif
