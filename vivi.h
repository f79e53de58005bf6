/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The shared state of the vivi virtual capture driver
 */
#ifndef _VIVI_H_
#define _VIVI_H_

#include <linux/hrtimer.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/videodev2.h>
#include <media/v4l2-ctrls.h>
#include <media/v4l2-device.h>
#include <media/v4l2-dev.h>
#include <media/videobuf2-v4l2.h>

#include "vivi_config.h"
#include "vivi_fault.h"
#include "vivi_fmt.h"
#include "vivi_gen.h"
#include "vivi_jpeg.h"

#define VIVI_DRV_NAME		"vivi"
/*
 * The generator thread holds one buffer while it draws ahead, so an
 * application with this many gets seven frame periods to requeue, enough
 * to ride out a stalled (or emulated) CPU; also what read() uses.
 */
#define VIVI_MIN_BUFFERS	8

/*
 * vivi's own controls sit in the image-processing class, beside the test
 * pattern: Chromium resets every user- and camera-class control to its
 * default when it opens a camera, and must leave these test knobs alone
 */
#define VIVI_CID_BASE		(V4L2_CID_IMAGE_PROC_CLASS_BASE + 0x1000)
#define VIVI_CID_OSD_MODE	(VIVI_CID_BASE + 0)
#define VIVI_CID_MOTION_SPEED	(VIVI_CID_BASE + 1)
#define VIVI_CID_FRAME_STAMP	(VIVI_CID_BASE + 2)
#define VIVI_CID_CONSUMERS	(VIVI_CID_BASE + 3)
#define VIVI_CID_ASPECT		(VIVI_CID_BASE + 4)
#define VIVI_CID_IDLE_PICTURE	(VIVI_CID_BASE + 5)
#define VIVI_CID_FRAME_PACING	(VIVI_CID_BASE + 6)

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

/**
 * enum vivi_idle - the entries of the "Idle Picture" menu: what a capture
 *	node of a producer device shows while no producer streams
 * @VIVI_IDLE_PATTERN: the test pattern, as a device without a producer
 * @VIVI_IDLE_NO_SIGNAL: a black slate that says NO SIGNAL
 * @VIVI_IDLE_LAST_FRAME: the last frame of the producer's last stream
 *	(the pattern until there is one)
 * @VIVI_IDLE_COUNT: the number of entries
 */
enum vivi_idle {
	VIVI_IDLE_PATTERN,
	VIVI_IDLE_NO_SIGNAL,
	VIVI_IDLE_LAST_FRAME,
	VIVI_IDLE_COUNT,
};

/**
 * enum vivi_pacing - the entries of the "Frame Pacing" menu: what paces a
 *	capture node of a producer device while a producer streams
 * @VIVI_PACING_CAMERA: its own frame grid, sampling the newest fed frame
 * @VIVI_PACING_PRODUCER: the producer: a frame for each frame it queues,
 *	handed over once converted, with the producer's timestamp
 * @VIVI_PACING_COUNT: the number of entries
 */
enum vivi_pacing {
	VIVI_PACING_CAMERA,
	VIVI_PACING_PRODUCER,
	VIVI_PACING_COUNT,
};

/* the debug module parameter, in vivi_stream.c: 0 to 3 */
extern unsigned int vivi_debug;

#define vivi_dbg(level, vivi, fmt, arg...) \
	v4l2_dbg(level, vivi_debug, &(vivi)->v4l2_dev, fmt, ##arg)

/**
 * struct vivi_buffer - a buffer and its place in the driver
 * @vb: the vb2 buffer; must be first
 * @list: link in &vivi_cap.buf_list, for a capture buffer
 * @refs: for a producer's buffer: the newest frame's own reference, and one
 *	per capture node reading it; the buffer goes back at the last one
 * @jpeg_size: for a producer's MJPEG frame: its bytes from SOI through EOI
 */
struct vivi_buffer {
	struct vb2_v4l2_buffer vb;
	struct list_head list;
	unsigned int refs;
	u32 jpeg_size;
};

/**
 * struct vivi_stats - what the frame thread did since STREAMON
 * @generated: frames drawn into a buffer
 * @delivered: buffers returned to userspace as DONE
 * @dropped: deadlines that passed without a queued buffer
 * @gen_last_ns: time drawing the last frame's picture took, raw or MJPEG
 *	(see vivi_frame_fill())
 * @gen_max_ns: the longest drawing time
 * @gen_total_ns: sum of all drawing times, for the mean
 * @late_max_ns: the latest wake-up after a deadline
 * @late_total_ns: sum of wake-up lateness, for the mean
 * @wakeups: deadlines the thread woke for
 * @injected_drops: frames dropped on request (faults/drop_*), also counted
 *	in @dropped
 * @stalled: deadlines that passed during a requested stall, also counted in
 *	@dropped
 * @corrupted: buffers returned with V4L2_BUF_FLAG_ERROR on request
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
	u64 injected_drops;
	u64 stalled;
	u64 corrupted;
};

struct vivi_dev;

/**
 * enum vivi_node_type - what a video node does, and so what holds it
 * @VIVI_NODE_CAPTURE: it serves frames to applications; a &struct vivi_cap
 * @VIVI_NODE_OUTPUT: applications feed it frames; a &struct vivi_out
 */
enum vivi_node_type {
	VIVI_NODE_CAPTURE,
	VIVI_NODE_OUTPUT,
};

/**
 * struct vivi_node - what every video node of a device has
 * @vivi: the device this node belongs to
 * @type: what the node does; the struct that holds this one
 * @vdev: the video node; its drvdata is this struct
 * @queue: the vb2 queue; its drv_priv is the struct that holds this one
 * @fmt: the negotiated format
 *
 * &vivi_dev.lock serializes the node's ioctls and its queue (it is
 * &video_device.lock and &vb2_queue.lock) and guards @fmt. A streaming
 * node's own code may read @fmt without it: S_FMT, the only writer,
 * returns -EBUSY while vb2_is_busy(), which is true all the while a node
 * streams. @vivi, @type and what @vdev and @queue are set up with are
 * fixed before the node is registered.
 */
struct vivi_node {
	struct vivi_dev *vivi;
	enum vivi_node_type type;
	struct video_device vdev;
	struct vb2_queue queue;
	struct v4l2_pix_format fmt;
};

/* Camera controls that the picture cannot show (see vivi_camera.c) */
#define VIVI_SHARPNESS_DEF	128
#define VIVI_POWER_LINE_DEF	V4L2_CID_POWER_LINE_FREQUENCY_60HZ
#define VIVI_FOCUS_MAX		250
#define VIVI_FOCUS_STEP		5
#define VIVI_PAN_STEP		3600	/* arc seconds: 1 degree */
#define VIVI_CAMERA_PAIRS	3	/* white balance, exposure, focus */

/**
 * struct vivi_camera_osd - the camera controls shown only as text
 * @focus_auto: V4L2_CID_FOCUS_AUTO
 * @focus: V4L2_CID_FOCUS_ABSOLUTE
 * @sharpness: V4L2_CID_SHARPNESS
 * @power_line: V4L2_CID_POWER_LINE_FREQUENCY
 */
struct vivi_camera_osd {
	u32 focus_auto;
	u32 focus;
	u32 sharpness;
	u32 power_line;
};

/**
 * struct vivi_cap - a capture node: its frame thread, clock and faults
 * @node: what every node has; @node.type is VIVI_NODE_CAPTURE
 * @buf_list: buffers queued to the driver and not yet filled
 * @thread: the frame thread while streaming, else NULL; set and cleared
 *	under &vivi_dev.lock
 * @thread_starved: the thread waits for its next deadline without a buffer
 *	to draw ahead into; the next QBUF wakes it
 * @frame_end: the timer of the next deadline, the frame-end interrupt of
 *	this virtual sensor; it stamps @frame_end_ns and wakes the thread
 * @frame_end_ns: monotonic time at which @frame_end last fired, 0 if it did
 *	not since armed
 * @timeperframe: the negotiated frame interval
 * @stats: counters of the frame thread
 * @stream_start_ns: monotonic time of STREAMON
 * @scratch: the frame layer's memory (vivi_frame_scratch_size()), sized
 *	for the widest frame
 * @faults: the faults injected into this node's stream
 * @jpeg_quality: V4L2_CID_JPEG_COMPRESSION_QUALITY, for the next frame
 * @jpeg: the MJPEG worst case at @jpeg_quality, for sizeimage
 * @index: which capture node of the device this is, from 0
 * @ctrl_handler: this node's controls: each capture node is a camera of
 *	its own, with its own picture settings
 * @input: the selected input
 * @settings: picture settings, mirrored from the controls
 * @osd_mode: what the on-screen text shows, an enum vivi_osd_mode
 * @aspect: how fed frames of another shape fill a capture frame, an enum
 *	vivi_aspect (the "Aspect" control, with &vivi_config.producer)
 * @idle: what the node shows while no producer streams, an enum vivi_idle
 *	(the "Idle Picture" control, with &vivi_config.producer)
 * @pacing: what paces the node while a producer streams, an enum
 *	vivi_pacing (the "Frame Pacing" control, with &vivi_config.producer)
 * @camera_osd: the camera controls the text shows
 * @camera_pairs: the auto clusters (auto control, manual partner); the
 *	control framework keeps pointers to them
 * @dv_timings: the HDMI input's receiver timings
 * @dv_source: the timings the source sends
 * @dv_signal: the source sends a signal
 * @ctrl_rx_power: V4L2_CID_DV_RX_POWER_PRESENT, with hdmi_input=1
 * @ctrl_pattern: V4L2_CID_TEST_PATTERN, set to the input's default on S_INPUT
 * @debugfs: this node's debugfs directory
 *
 * &vivi_dev.lock guards @thread, @jpeg, @input, the controls and the
 * HDMI input's state. &vivi_dev.slock guards @buf_list, @thread_starved,
 * @timeperframe, @stats, @faults, @jpeg_quality, @settings, @osd_mode,
 * @aspect, @idle, @pacing and @camera_osd, which the thread reads or
 * writes while streaming.
 *
 * The thread exists only between start_streaming and stop_streaming, while
 * the queue is busy: it reads &vivi_node.fmt without a lock (see &struct
 * vivi_node), and @stream_start_ns and @scratch change only while no
 * thread runs. Only the thread arms @frame_end, and it cancels it before
 * reading @frame_end_ns.
 */
struct vivi_cap {
	struct vivi_node node;
	struct list_head buf_list;
	struct task_struct *thread;
	bool thread_starved;
	struct hrtimer frame_end;
	u64 frame_end_ns;
	struct v4l2_fract timeperframe;
	struct vivi_stats stats;
	u64 stream_start_ns;
	void *scratch;
	struct vivi_faults faults;
	u32 jpeg_quality;
	struct vivi_jpeg_bound jpeg;
	unsigned int index;
	struct v4l2_ctrl_handler ctrl_handler;
	unsigned int input;
	struct vivi_gen_settings settings;
	u32 osd_mode;
	u32 aspect;
	u32 idle;
	u32 pacing;
	struct vivi_camera_osd camera_osd;
	struct v4l2_ctrl *camera_pairs[VIVI_CAMERA_PAIRS][2];
	struct v4l2_dv_timings dv_timings;
	struct v4l2_dv_timings dv_source;
	bool dv_signal;
	struct v4l2_ctrl *ctrl_rx_power;
	struct v4l2_ctrl *ctrl_pattern;
	struct dentry *debugfs;
};

/* The capture node that holds @node, a VIVI_NODE_CAPTURE one */
static inline struct vivi_cap *vivi_to_cap(struct vivi_node *node)
{
	return container_of(node, struct vivi_cap, node);
}

/**
 * struct vivi_out - the producer node: applications write frames into it,
 *	and the capture node shows the newest one
 * @node: what every node has; @node.type is VIVI_NODE_OUTPUT
 * @formats: the formats it takes: every format vivi has
 * @jpeg: vivi's own MJPEG worst case at quality 100: the least sizeimage
 *	it gives MJPEG buffers
 * @timeperframe: the nominal frame interval the producer set (S_PARM)
 * @ctrl_handler: its own controls, apart from the capture node's
 * @ctrl_consumers: "Consumers Streaming": capture nodes streaming
 * @newest: the newest frame queued, held until a newer one comes or the
 *	stream stops; NULL while none
 * @held: the buffers the driver holds: @newest, and frames it superseded
 *	that a capture node still reads
 * @streaming: between start_streaming and stop_streaming
 * @sequence: the sequence number of the next frame queued
 * @released: woken whenever @held or @last_readers drops, for
 *	stop_streaming
 * @generation: counts the frames queued, never reset: a capture node paced
 *	by the producer tells a new frame by it
 * @fed: woken at each frame queued and when the stream stops, for the
 *	capture nodes paced by the producer
 * @last: a copy of the newest frame of the last stream (@last_size
 *	bytes, kvmalloc'ed), for the "Last Frame" idle picture; NULL before
 *	the first stream ends or if the copy could not be made
 * @last_size: the size of @last's allocation
 * @last_fmt: @last's format
 * @last_jpeg_size: @last's bytes, if @last_fmt is MJPEG
 * @last_ok: @last holds a frame that capture nodes may read
 * @last_readers: capture nodes reading @last now
 *
 * &vivi_dev.lock guards @timeperframe and @ctrl_consumers' value, as it
 * does @node.fmt, and @last, @last_size, @last_fmt and @last_jpeg_size
 * (written only in stop_streaming, once no capture node reads them);
 * &vivi_dev.slock guards @newest, @held, @streaming, @sequence,
 * @generation, @last_ok, @last_readers and each held buffer's
 * &vivi_buffer.refs, which capture nodes' threads take and drop
 * (vivi_out_get(), vivi_out_put()). @jpeg is fixed at set-up.
 */
struct vivi_out {
	struct vivi_node node;
	struct vivi_fmt_list formats;
	struct vivi_jpeg_bound jpeg;
	struct v4l2_fract timeperframe;
	struct v4l2_ctrl_handler ctrl_handler;
	struct v4l2_ctrl *ctrl_consumers;
	struct vivi_buffer *newest;
	unsigned int held;
	bool streaming;
	u32 sequence;
	wait_queue_head_t released;
	u32 generation;
	wait_queue_head_t fed;
	void *last;
	size_t last_size;
	struct v4l2_pix_format last_fmt;
	u32 last_jpeg_size;
	bool last_ok;
	unsigned int last_readers;
};

/**
 * struct vivi_out_ref - a producer's frame that a capture node reads
 * @buf: the producer's queued buffer, or NULL
 * @last: the copy of the last frame of an ended stream (@buf is NULL)
 * @jpeg_size: the frame is a JPEG of this many bytes at the frame's
 *	&vivi_gen_frame.plane[0]; 0 for a raw frame
 */
struct vivi_out_ref {
	struct vivi_buffer *buf;
	bool last;
	u32 jpeg_size;
};

/**
 * struct vivi_dev - one vivi device: its capture nodes and its producer
 * @v4l2_dev: the V4L2 device; its release frees this struct
 * @pdev: the platform device this instance is bound to
 * @inst: instance number, as in "vivi-N"
 * @cfg: this device's configuration, fixed once probed
 * @lock: serializes ioctls and the vb2 queues of every node
 *	(vdev->lock, queue->lock); guards what &struct vivi_node and &struct
 *	vivi_cap say
 * @slock: guards the nodes' streaming state (see &struct vivi_cap and
 *	&struct vivi_out)
 * @font: the kernel's VGA8x16 glyphs for the on-screen text, or NULL
 * @modes: the sizes and rates the capture nodes offer: &vivi_config.modes,
 *	and with a producer its current size too (vivi_out_offer_size());
 *	guarded by @lock
 * @n_caps: the number of capture nodes, &vivi_config.consumers
 * @caps: the capture nodes, @n_caps of them, each allocated apart
 * @out: the producer node, with &vivi_config.producer
 */
struct vivi_dev {
	struct v4l2_device v4l2_dev;
	struct platform_device *pdev;
	unsigned int inst;
	struct vivi_config cfg;

	struct mutex lock;		/* ioctls and the vb2 queues */
	spinlock_t slock;		/* what the threads share */

	const u8 *font;
	struct vivi_modes modes;
	unsigned int n_caps;
	struct vivi_cap *caps[VIVI_MAX_CONSUMERS];
	struct vivi_out out;
};

/* Every node of a device has its bus_info, so that tools can pair them */
static inline void vivi_node_querycap(struct vivi_node *node,
				      struct v4l2_capability *cap)
{
	strscpy(cap->driver, VIVI_DRV_NAME, sizeof(cap->driver));
	strscpy(cap->card, node->vdev.name, sizeof(cap->card));
	snprintf(cap->bus_info, sizeof(cap->bus_info), "platform:%s-%u",
		 VIVI_DRV_NAME, node->vivi->inst);
}

/*
 * Set capture node @cap's frame interval, snapped to one its size offers;
 * the thread takes it at its next deadline. Under &vivi_dev.lock.
 */
static inline void vivi_cap_set_interval(struct vivi_cap *cap,
					 const struct v4l2_fract *want)
{
	const struct v4l2_pix_format *pix = &cap->node.fmt;
	struct v4l2_fract tpf;

	tpf = vivi_fmt_snap_interval(&cap->node.vivi->modes, want,
				     pix->width, pix->height);
	spin_lock_irq(&cap->node.vivi->slock);
	cap->timeperframe = tpf;
	spin_unlock_irq(&cap->node.vivi->slock);
}

/*
 * A node's card name: @vivi's label, cut to leave room for @tail, which
 * says which node it is (" (producer)", " (consumer 2)")
 */
static inline void vivi_node_label(const struct vivi_dev *vivi,
				   const char *tail, char *name, size_t size)
{
	snprintf(name, size, "%.*s%s", (int)(size - strlen(tail) - 1),
		 vivi->cfg.card_label, tail);
}

/* True while @vivi's producer streams: its capture node shows fed frames */
static inline bool vivi_out_streaming(struct vivi_dev *vivi)
{
	bool on;

	if (!vivi->cfg.producer)
		return false;
	spin_lock_irq(&vivi->slock);
	on = vivi->out.streaming;
	spin_unlock_irq(&vivi->slock);
	return on;
}

/* vivi_camera.c: the camera controls */
void vivi_camera_ctrls(struct vivi_cap *cap);
bool vivi_camera_text(const struct vivi_camera_osd *o, char *buf,
		      size_t size);

/* vivi_dv.c: the HDMI input */
bool vivi_dv_input(const struct vivi_cap *cap);
void vivi_dv_apply(struct vivi_cap *cap);
void vivi_dv_try_pix(struct vivi_cap *cap, struct v4l2_pix_format *pix);
void vivi_dv_init(struct vivi_cap *cap);
void vivi_dv_ctrls(struct vivi_cap *cap);
void vivi_dv_debugfs(struct vivi_cap *cap, struct dentry *dir);
int vivi_dv_timings_cap(struct file *file, void *priv,
			struct v4l2_dv_timings_cap *cap);
int vivi_enum_dv_timings(struct file *file, void *priv,
			 struct v4l2_enum_dv_timings *t);
int vivi_g_dv_timings(struct file *file, void *priv,
		      struct v4l2_dv_timings *t);
int vivi_s_dv_timings(struct file *file, void *priv,
		      struct v4l2_dv_timings *t);
int vivi_query_dv_timings(struct file *file, void *priv,
			  struct v4l2_dv_timings *t);

/* vivi_stream.c: the frame thread and the vb2 queue */
#define VIVI_STATUS_LEN		768	/* room for vivi_status_text() */
int vivi_queue_init(struct vivi_cap *cap, struct device *dev);
void vivi_queue_disconnect(struct vivi_cap *cap);
int vivi_status_text(struct vivi_cap *cap, char *buf, size_t size);

/* vivi_frame.c: one frame, from its source to a filled buffer */
size_t vivi_frame_scratch_size(u32 width, bool fed);
int vivi_frame_fill(struct vivi_cap *cap, struct vb2_buffer *vb,
		    u32 sequence, u64 due_ns, u64 *fed_ns);

/* vivi_ioctl.c: ioctls, controls and file operations */
extern const struct v4l2_ioctl_ops vivi_ioctl_ops;
extern const struct v4l2_file_operations vivi_fops;

/* vivi_output.c: the producer node */
int vivi_out_init(struct vivi_dev *vivi);
void vivi_out_disconnect(struct vivi_out *out);
void vivi_out_free(struct vivi_out *out);
bool vivi_out_get(struct vivi_out *out, struct vivi_gen_frame *f,
		  bool last, struct vivi_out_ref *ref);
void vivi_out_put(struct vivi_out *out, struct vivi_out_ref *ref);
bool vivi_out_wait(struct vivi_out *out, u32 *seen);
void vivi_out_consumer(struct vivi_out *out, bool streaming);

int vivi_ctrls_init(struct vivi_cap *cap);

#endif
