/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for <linux/slab.h>: v4l2-tpg needs nothing from it. */
#ifndef VIVI_TPG_SHIM_SLAB_H
#define VIVI_TPG_SHIM_SLAB_H
#endif
