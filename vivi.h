/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The shared state of the vivi virtual capture driver
 */
#ifndef _VIVI_H_
#define _VIVI_H_

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/videodev2.h>
#include <media/v4l2-ctrls.h>
#include <media/v4l2-device.h>
#include <media/v4l2-dev.h>
#include <media/videobuf2-v4l2.h>

#include "vivi_gen.h"

#define VIVI_DRV_NAME		"vivi"
#define VIVI_MAX_DEVS		16
#define VIVI_MAX_INPUTS		4
#define VIVI_MAX_FORMATS	24
/*
 * The generator thread holds one buffer while it draws ahead, so an
 * application with this many gets seven frame periods to requeue, enough
 * to ride out a stalled (or emulated) CPU; also what read() uses.
 */
#define VIVI_MIN_BUFFERS	8

#define VIVI_CID_BASE		(V4L2_CID_USER_BASE | 0xf000)
#define VIVI_CID_OSD_MODE	(VIVI_CID_BASE + 0)
#define VIVI_CID_MOTION_SPEED	(VIVI_CID_BASE + 1)

/**
 * enum vivi_osd_mode - the entries of the "OSD Text" menu
 * @VIVI_OSD_ALL: counters, format and picture controls
 * @VIVI_OSD_COUNTERS: sequence number and time only
 * @VIVI_OSD_NONE: no text
 */
enum vivi_osd_mode {
	VIVI_OSD_ALL,
	VIVI_OSD_COUNTERS,
	VIVI_OSD_NONE,
};

extern unsigned int vivi_debug;

#define vivi_dbg(level, vivi, fmt, arg...) \
	v4l2_dbg(level, vivi_debug, &(vivi)->v4l2_dev, fmt, ##arg)

/**
 * struct vivi_buffer - a capture buffer and its place in the queue
 * @vb: the vb2 buffer; must be first
 * @list: link in &vivi_dev.buf_list
 */
struct vivi_buffer {
	struct vb2_v4l2_buffer vb;
	struct list_head list;
};

/**
 * struct vivi_stats - what the generator thread did since STREAMON
 * @generated: frames drawn into a buffer
 * @delivered: buffers returned to userspace as DONE
 * @dropped: deadlines that passed without a queued buffer
 * @gen_last_ns: time the last vivi_gen_fill() took
 * @gen_max_ns: the longest vivi_gen_fill()
 * @gen_total_ns: sum of all vivi_gen_fill() times, for the mean
 * @late_max_ns: the latest wake-up after a deadline
 * @late_total_ns: sum of wake-up lateness, for the mean
 * @wakeups: deadlines the thread woke for
 */
struct vivi_stats {
	u64 generated;
	u64 delivered;
	u64 dropped;
	u64 gen_last_ns;
	u64 gen_max_ns;
	u64 gen_total_ns;
	u64 late_max_ns;
	u64 late_total_ns;
	u64 wakeups;
};

/**
 * struct vivi_dev - one vivi capture device
 * @v4l2_dev: the V4L2 device; its release frees this struct
 * @vdev: the video node
 * @ctrl_handler: the controls
 * @queue: the vb2 capture queue
 * @pdev: the platform device this instance is bound to
 * @inst: instance number, as in "vivi-N"
 * @lock: serializes ioctls and the vb2 queue (vdev->lock, queue->lock);
 *	guards @fmt, @input and the controls
 * @slock: guards @buf_list, @thread_starved, @timeperframe, @settings and
 *	@stats, the state that the generator thread reads or writes while
 *	streaming
 * @buf_list: buffers queued to the driver and not yet filled
 * @thread: the generator thread while streaming, else NULL; set and cleared
 *	under @lock
 * @thread_starved: the thread waits for its next deadline without a buffer
 *	to draw ahead into; the next QBUF wakes it
 * @fmt: the negotiated format
 * @timeperframe: the negotiated frame interval
 * @input: the selected input
 * @settings: picture settings, mirrored from the controls
 * @osd_mode: what the on-screen text shows, an enum vivi_osd_mode
 * @stats: counters of the generator thread
 * @stream_start_ns: monotonic time of STREAMON
 * @font: the kernel's VGA8x16 glyphs for the on-screen text, or NULL
 * @scratch: template memory for vivi_gen_fill(), sized for the widest frame
 * @debugfs: this device's debugfs directory
 * @ctrl_pattern: V4L2_CID_TEST_PATTERN, set to the input's default on S_INPUT
 */
struct vivi_dev {
	struct v4l2_device v4l2_dev;
	struct video_device vdev;
	struct v4l2_ctrl_handler ctrl_handler;
	struct vb2_queue queue;
	struct platform_device *pdev;
	unsigned int inst;

	struct mutex lock;		/* ioctls and the vb2 queue */
	spinlock_t slock;		/* what the thread shares */
	struct list_head buf_list;
	struct task_struct *thread;
	bool thread_starved;

	struct v4l2_pix_format fmt;
	struct v4l2_fract timeperframe;
	unsigned int input;
	struct vivi_gen_settings settings;
	u32 osd_mode;
	struct vivi_stats stats;
	u64 stream_start_ns;

	const u8 *font;
	void *scratch;
	struct dentry *debugfs;
	struct v4l2_ctrl *ctrl_pattern;
};

/* vivi_main.c */
extern unsigned int vivi_n_inputs;
extern u32 vivi_formats[VIVI_MAX_FORMATS];
extern unsigned int vivi_n_formats;

int vivi_start_streaming(struct vivi_dev *vivi);
void vivi_stop_streaming(struct vivi_dev *vivi);
int vivi_status_text(struct vivi_dev *vivi, char *buf, size_t size);

/* vivi_ioctl.c */
extern const struct v4l2_ioctl_ops vivi_ioctl_ops;
extern const struct v4l2_file_operations vivi_fops;

void vivi_fmt_default(struct vivi_dev *vivi);
int vivi_ctrls_init(struct vivi_dev *vivi);
int vivi_plane_layout(const struct v4l2_pix_format *pix,
		      struct vivi_gen_frame *f, u8 *base);
u32 vivi_fps_x10(const struct v4l2_fract *tpf);

#endif
