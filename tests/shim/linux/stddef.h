/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for the parts of the kernel's <linux/stddef.h> vivi uses. */
#ifndef VIVI_SHIM_LINUX_STDDEF_H
#define VIVI_SHIM_LINUX_STDDEF_H

/* the uapi header, which other uapi headers need */
#include_next <linux/stddef.h>
#include <stddef.h>

#define sizeof_field(type, member)	sizeof((((type *)0)->member))

#endif
