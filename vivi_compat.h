/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one place where kernel version differences live
 */
#ifndef _VIVI_COMPAT_H_
#define _VIVI_COMPAT_H_

#include <linux/hrtimer.h>
#include <linux/version.h>
#include <media/videobuf2-core.h>

/* 6.8 hid the buffer count behind an accessor */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 8, 0)
#define vivi_vb2_num_buffers(q)	vb2_get_num_buffers(q)
#else
#define vivi_vb2_num_buffers(q)	((q)->num_buffers)
#endif

/*
 * VIVI_PLATFORM_REMOVE(fn): the platform_driver initializer for a .remove
 * that returns void. 6.11 made .remove return void; .remove_new was the
 * interim name from 6.3; before that .remove returned int, so fn is called
 * through fn##_int, which VIVI_PLATFORM_REMOVE_INT(fn) defines.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
#define VIVI_PLATFORM_REMOVE(fn)	.remove = fn
#define VIVI_PLATFORM_REMOVE_INT(fn)
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
#define VIVI_PLATFORM_REMOVE(fn)	.remove_new = fn
#define VIVI_PLATFORM_REMOVE_INT(fn)
#else
#define VIVI_PLATFORM_REMOVE(fn)	.remove = fn##_int
#define VIVI_PLATFORM_REMOVE_INT(fn)				\
static int fn##_int(struct platform_device *pdev)		\
{								\
	fn(pdev);						\
	return 0;						\
}
#endif

/* hrtimer_setup() replaced hrtimer_init() and the callback assignment in 6.13 */
static inline void vivi_hrtimer_setup(struct hrtimer *t,
				      enum hrtimer_restart (*fn)(struct hrtimer *),
				      clockid_t clock, enum hrtimer_mode mode)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
	hrtimer_setup(t, fn, clock, mode);
#else
	hrtimer_init(t, clock, mode);
	t->function = fn;
#endif
}

/* the vb2 core takes care of q->lock by itself since 6.15 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 15, 0)
#define VIVI_VB2_WAIT_OPS
#else
#define VIVI_VB2_WAIT_OPS				\
	.wait_prepare = vb2_ops_wait_prepare,		\
	.wait_finish = vb2_ops_wait_finish,
#endif

#endif
