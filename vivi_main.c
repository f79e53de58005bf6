// SPDX-License-Identifier: GPL-2.0
/*
 * vivi - a virtual V4L2 capture device that serves test patterns
 *
 * This file: module parameters, device registration, the vb2 queue and
 * the generator thread.
 */

#include <linux/debugfs.h>
#include <linux/font.h>
#include <linux/freezer.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/platform_device.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <media/v4l2-common.h>
#include <media/v4l2-ioctl.h>
#include <media/videobuf2-vmalloc.h>

#include "vivi.h"
#include "vivi_compat.h"

#define VIVI_MAX_WIDTH		3840
/* the largest frame any format needs: 4 bytes a pixel, stride doubled */
#define VIVI_MAX_SIZEIMAGE	(VIVI_MAX_WIDTH * 4 * 2 * 2160)
/* the V4L2 core has this many minor numbers per node type (v4l2-dev.c) */
#define VIVI_VIDEO_NR_LIMIT	256
/* slack for the hrtimer of each deadline: precise, yet lets wake-ups merge */
#define VIVI_SLACK_NS		(50 * NSEC_PER_USEC)

static unsigned int n_devs = 1;
module_param(n_devs, uint, 0444);
MODULE_PARM_DESC(n_devs, " number of devices, 1 to 16 (default 1)");

static int video_nr[VIVI_MAX_DEVS] = { [0 ... VIVI_MAX_DEVS - 1] = -1 };
module_param_array(video_nr, int, NULL, 0444);
MODULE_PARM_DESC(video_nr, " /dev/videoN number of each device, -1 = first free (default)");

static char *card_label[VIVI_MAX_DEVS];
module_param_array(card_label, charp, NULL, 0444);
MODULE_PARM_DESC(card_label, " card name of each device, up to 31 characters (default \"vivi N\")");

unsigned int vivi_n_inputs = 1;
module_param_named(n_inputs, vivi_n_inputs, uint, 0444);
MODULE_PARM_DESC(n_inputs, " number of camera inputs per device, 1 to 4 (default 1)");

static char *formats;
module_param(formats, charp, 0444);
MODULE_PARM_DESC(formats, " comma-separated fourccs that restrict and order the formats offered, e.g. \"YUYV,NV12\" (default all)");

unsigned int vivi_debug;
module_param_named(debug, vivi_debug, uint, 0644);
MODULE_PARM_DESC(debug, " debug level, 0 to 3: 1 errors and dropped frames, 2 stream start/stop, 3 every frame (default 0)");

/* Fault injection for the tests, as vivid's error-injection knobs */
static int fail_dev = -1;
module_param(fail_dev, int, 0444);
MODULE_PARM_DESC(fail_dev, " testing only: the probe of this device fails once fully registered, so the load unwinds; -1 = none (default)");

/* Every format the driver offers, in ENUM_FMT order */
static const u32 vivi_all_formats[] = {
	V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_UYVY, V4L2_PIX_FMT_YVYU,
	V4L2_PIX_FMT_VYUY, V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_YVU420,
	V4L2_PIX_FMT_YUV422P, V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_BGR24,
	V4L2_PIX_FMT_XRGB32, V4L2_PIX_FMT_XBGR32, V4L2_PIX_FMT_RGB565,
	V4L2_PIX_FMT_RGB565X, V4L2_PIX_FMT_XRGB555, V4L2_PIX_FMT_GREY,
	V4L2_PIX_FMT_Y16, V4L2_PIX_FMT_SBGGR8, V4L2_PIX_FMT_SGBRG8,
	V4L2_PIX_FMT_SGRBG8, V4L2_PIX_FMT_SRGGB8, V4L2_PIX_FMT_NV12,
	V4L2_PIX_FMT_NV21, V4L2_PIX_FMT_NV16, V4L2_PIX_FMT_NV61,
};

u32 vivi_formats[VIVI_MAX_FORMATS];
unsigned int vivi_n_formats;

static struct platform_device *vivi_pdevs[VIVI_MAX_DEVS];
static int vivi_probe_err[VIVI_MAX_DEVS];
static struct dentry *vivi_debugfs_root;

static struct vivi_buffer *to_vivi_buffer(struct vb2_buffer *vb)
{
	return container_of(to_vb2_v4l2_buffer(vb), struct vivi_buffer, vb);
}

/* Generator thread */

static void vivi_osd_text(struct vivi_dev *vivi, struct vivi_gen_settings *s,
			  char text[][40], u32 sequence, u64 due_ns,
			  u32 fps_x10, u32 osd_mode)
{
	const struct v4l2_pix_format *pix = &vivi->fmt;
	u32 fcc = pix->pixelformat;
	u64 ms = div_u64(due_ns - vivi->stream_start_ns, NSEC_PER_MSEC);
	u32 msec, sec;
	char fps[12];
	unsigned int i;

	for (i = 0; i < VIVI_GEN_TEXT_LINES; i++)
		s->text[i] = NULL;
	if (!vivi->font || osd_mode == VIVI_OSD_NONE)
		return;

	msec = do_div(ms, 1000);
	sec = do_div(ms, 60 * 60);
	snprintf(text[0], 40, "%06u %02llu:%02u:%02u.%03u", sequence, ms,
		 sec / 60, sec % 60, msec);
	s->text[0] = text[0];
	if (osd_mode != VIVI_OSD_ALL)
		return;
	if (fps_x10 % 10)
		snprintf(fps, sizeof(fps), "%u.%u", fps_x10 / 10, fps_x10 % 10);
	else
		snprintf(fps, sizeof(fps), "%u", fps_x10 / 10);
	snprintf(text[1], 40, "%ux%u %sfps %c%c%c%c", pix->width,
		 pix->height, fps, fcc & 0xff, (fcc >> 8) & 0xff,
		 (fcc >> 16) & 0xff, fcc >> 24);
	snprintf(text[2], 40, "B%d C%d S%d H%d", s->brightness, s->contrast,
		 s->saturation, s->hue);
	s->text[1] = text[1];
	s->text[2] = text[2];
}

/* Draw frame @sequence, due at @due_ns, into @buf; returns 0 or an error. */
static int vivi_render(struct vivi_dev *vivi, struct vivi_buffer *buf,
		       u32 sequence, u64 due_ns)
{
	struct vb2_buffer *vb = &buf->vb.vb2_buf;
	char text[VIVI_GEN_TEXT_LINES][40];
	void *vaddr = vb2_plane_vaddr(vb, 0);
	struct vivi_gen_settings s;
	struct vivi_gen_frame f;
	u32 osd_mode, fps_x10;
	u64 t0, t1;
	int ret;

	spin_lock_irq(&vivi->slock);
	s = vivi->settings;
	osd_mode = vivi->osd_mode;
	fps_x10 = vivi_fps_x10(&vivi->timeperframe);
	spin_unlock_irq(&vivi->slock);
	s.font = vivi->font;
	vivi_osd_text(vivi, &s, text, sequence, due_ns, fps_x10, osd_mode);

	t0 = ktime_get_ns();
	ret = vaddr ? vivi_plane_layout(&vivi->fmt, &f, vaddr) : -EFAULT;
	if (!ret)
		ret = vivi_gen_fill(&f, &s, sequence, vivi->scratch);
	t1 = ktime_get_ns();

	spin_lock_irq(&vivi->slock);
	vivi->stats.generated++;
	vivi->stats.gen_last_ns = t1 - t0;
	vivi->stats.gen_total_ns += t1 - t0;
	vivi->stats.gen_max_ns = max(vivi->stats.gen_max_ns, t1 - t0);
	spin_unlock_irq(&vivi->slock);
	if (ret)
		vivi_dbg(1, vivi, "buffer %u not filled: %d\n", vb->index, ret);
	return ret;
}

static void vivi_deliver(struct vivi_dev *vivi, struct vivi_buffer *buf,
			 u32 sequence, int err)
{
	struct vb2_buffer *vb = &buf->vb.vb2_buf;

	buf->vb.sequence = sequence;
	buf->vb.field = V4L2_FIELD_NONE;
	/* end of exposure: the moment the frame is handed over */
	vb->timestamp = ktime_get_ns();
	if (!err) {
		spin_lock_irq(&vivi->slock);
		vivi->stats.delivered++;
		spin_unlock_irq(&vivi->slock);
	}
	vb2_buffer_done(vb, err ? VB2_BUF_STATE_ERROR : VB2_BUF_STATE_DONE);
}

/* Take the first queued buffer, if any, and draw frame @sequence into it */
static struct vivi_buffer *vivi_next_frame(struct vivi_dev *vivi,
					   u32 sequence, u64 due_ns, int *err)
{
	struct vivi_buffer *buf;

	spin_lock_irq(&vivi->slock);
	buf = list_first_entry_or_null(&vivi->buf_list, struct vivi_buffer,
				       list);
	if (buf)
		list_del(&buf->list);
	spin_unlock_irq(&vivi->slock);
	if (buf)
		*err = vivi_render(vivi, buf, sequence, due_ns);
	return buf;
}

/*
 * Frame n (counted from @base_ns, which moves when the rate changes) is due
 * at base_ns + (n + 1) * interval: absolute deadlines, so a late wake-up never
 * shifts later frames and nothing drifts. The next frame is drawn ahead into
 * the first queued buffer and handed over at its deadline, so timestamps
 * carry only the wake-up jitter, not the drawing time. A deadline that finds
 * no queued buffer is a dropped frame: the sequence number still advances,
 * as with a real sensor.
 */
static int vivi_thread(void *data)
{
	struct vivi_dev *vivi = data;
	struct v4l2_fract tpf = { 0, 0 };
	u64 base_ns = vivi->stream_start_ns;
	u64 interval_ns = 0, n = 0;
	struct vivi_buffer *buf = NULL;
	u32 sequence = 0;
	int err = 0;

	set_freezable();
	for (;;) {
		u64 deadline, now, missed, late;
		ktime_t expires;

		spin_lock_irq(&vivi->slock);
		if (tpf.numerator != vivi->timeperframe.numerator ||
		    tpf.denominator != vivi->timeperframe.denominator) {
			/* a new rate counts from the last deadline */
			base_ns += n * interval_ns;
			n = 0;
			tpf = vivi->timeperframe;
			interval_ns = div_u64((u64)tpf.numerator * NSEC_PER_SEC,
					      tpf.denominator);
		}
		spin_unlock_irq(&vivi->slock);

		deadline = base_ns + (n + 1) * interval_ns;
		if (!buf)
			buf = vivi_next_frame(vivi, sequence, deadline, &err);

		expires = ns_to_ktime(deadline);
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop()) {
			__set_current_state(TASK_RUNNING);
			break;
		}
		/*
		 * Without a buffer, let QBUF wake us to draw ahead at once:
		 * else the first frame after a starved queue would be handed
		 * over late by its drawing time. Checked after the task state
		 * is set, so that a wake-up in between is not lost.
		 */
		if (!buf) {
			bool starved;

			spin_lock_irq(&vivi->slock);
			starved = list_empty(&vivi->buf_list);
			vivi->thread_starved = starved;
			spin_unlock_irq(&vivi->slock);
			if (!starved) {
				__set_current_state(TASK_RUNNING);
				continue;
			}
		}
		schedule_hrtimeout_range(&expires, VIVI_SLACK_NS,
					 HRTIMER_MODE_ABS);
		if (kthread_should_stop())
			break;
		try_to_freeze();
		now = ktime_get_ns();
		if (now < deadline)
			continue;

		missed = div64_u64(now - deadline, interval_ns);
		late = now - deadline;
		n += missed + 1;

		spin_lock_irq(&vivi->slock);
		vivi->stats.wakeups++;
		vivi->stats.late_total_ns += late;
		vivi->stats.late_max_ns = max(vivi->stats.late_max_ns, late);
		spin_unlock_irq(&vivi->slock);

		/*
		 * Hand over this deadline's frame, then catch up on the ones
		 * that passed while the thread was late: hardware would have
		 * filled a queued buffer at each of them. Only deadlines that
		 * find no buffer are lost.
		 */
		for (;;) {
			if (!buf)
				buf = vivi_next_frame(vivi, sequence, now, &err);
			if (!buf) {
				spin_lock_irq(&vivi->slock);
				vivi->stats.dropped += missed + 1;
				spin_unlock_irq(&vivi->slock);
				vivi_dbg(1, vivi,
					 "sequence %u: %llu frame(s) dropped, no buffer queued; woke %llu us late\n",
					 sequence, missed + 1,
					 div_u64(late, NSEC_PER_USEC));
				sequence += missed + 1;
				break;
			}
			vivi_dbg(3, vivi, "sequence %u in buffer %u\n", sequence,
				 buf->vb.vb2_buf.index);
			vivi_deliver(vivi, buf, sequence++, err);
			buf = NULL;
			if (!missed--)
				break;
		}
	}
	if (buf)
		vb2_buffer_done(&buf->vb.vb2_buf, VB2_BUF_STATE_ERROR);
	return 0;
}

/**
 * vivi_start_streaming() - start the generator thread
 * @vivi: the device
 *
 * Return: 0 or a negative error.
 */
int vivi_start_streaming(struct vivi_dev *vivi)
{
	struct task_struct *t;

	spin_lock_irq(&vivi->slock);
	memset(&vivi->stats, 0, sizeof(vivi->stats));
	vivi->thread_starved = false;
	spin_unlock_irq(&vivi->slock);
	vivi->stream_start_ns = ktime_get_ns();

	t = kthread_run(vivi_thread, vivi, "vivi-%u", vivi->inst);
	if (IS_ERR(t))
		return PTR_ERR(t);
	vivi->thread = t;
	vivi_dbg(2, vivi, "streaming %p4cc %ux%u at %u/%u s\n",
		 &vivi->fmt.pixelformat, vivi->fmt.width, vivi->fmt.height,
		 vivi->timeperframe.numerator, vivi->timeperframe.denominator);
	return 0;
}

/**
 * vivi_stop_streaming() - stop the generator thread and wait for it
 * @vivi: the device
 */
void vivi_stop_streaming(struct vivi_dev *vivi)
{
	struct vivi_stats st;

	if (!vivi->thread)
		return;
	kthread_stop(vivi->thread);
	spin_lock_irq(&vivi->slock);
	vivi->thread_starved = false;
	st = vivi->stats;
	spin_unlock_irq(&vivi->slock);
	vivi->thread = NULL;
	vivi_dbg(2, vivi,
		 "stopped: %llu frames generated, %llu delivered, %llu dropped\n",
		 st.generated, st.delivered, st.dropped);
}

/**
 * vivi_status_text() - the driver's state as text lines
 * @vivi: the device
 * @buf: where to write
 * @size: size of @buf
 *
 * Shared by VIDIOC_LOG_STATUS and the debugfs stats file; the caller holds
 * &vivi_dev.lock.
 *
 * Return: the length written, as scnprintf() counts it.
 */
int vivi_status_text(struct vivi_dev *vivi, char *buf, size_t size)
{
	const struct v4l2_pix_format *pix = &vivi->fmt;
	u32 fcc = pix->pixelformat;
	struct v4l2_fract tpf;
	struct vivi_stats st;
	u64 gen_mean, late_mean;

	lockdep_assert_held(&vivi->lock);
	spin_lock_irq(&vivi->slock);
	st = vivi->stats;
	tpf = vivi->timeperframe;
	spin_unlock_irq(&vivi->slock);
	gen_mean = st.generated ? div64_u64(st.gen_total_ns, st.generated) : 0;
	late_mean = st.wakeups ? div64_u64(st.late_total_ns, st.wakeups) : 0;

	return scnprintf(buf, size,
			 "streaming: %s\n"
			 "input: %u\n"
			 "format: %c%c%c%c %ux%u bytesperline %u sizeimage %u\n"
			 "interval: %u/%u s\n"
			 "frames generated: %llu\n"
			 "frames delivered: %llu\n"
			 "frames dropped: %llu\n"
			 "generator ns: last %llu mean %llu max %llu\n"
			 "wake-up lateness ns: mean %llu max %llu\n",
			 vivi->thread ? "yes" : "no", vivi->input,
			 fcc & 0xff, (fcc >> 8) & 0xff, (fcc >> 16) & 0xff,
			 fcc >> 24, pix->width, pix->height,
			 pix->bytesperline, pix->sizeimage,
			 tpf.numerator, tpf.denominator,
			 st.generated, st.delivered, st.dropped,
			 st.gen_last_ns, gen_mean, st.gen_max_ns,
			 late_mean, st.late_max_ns);
}

static int vivi_stats_show(struct seq_file *m, void *unused)
{
	struct vivi_dev *vivi = m->private;
	char buf[512];
	int ret;

	ret = mutex_lock_interruptible(&vivi->lock);
	if (ret)
		return ret;
	vivi_status_text(vivi, buf, sizeof(buf));
	mutex_unlock(&vivi->lock);
	seq_puts(m, buf);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vivi_stats);

/* videobuf2 queue */

static int vivi_queue_setup(struct vb2_queue *vq, unsigned int *nbuffers,
			    unsigned int *nplanes, unsigned int sizes[],
			    struct device *alloc_devs[])
{
	struct vivi_dev *vivi = vb2_get_drv_priv(vq);
	unsigned int have = vivi_vb2_num_buffers(vq);

	/*
	 * CREATE_BUFS: no bigger than any format needs, or any user could
	 * have gigabytes allocated (and vmalloc warn when that fails)
	 */
	if (*nplanes)
		return sizes[0] < vivi->fmt.sizeimage ||
		       sizes[0] > VIVI_MAX_SIZEIMAGE ? -EINVAL : 0;
	if (have + *nbuffers < VIVI_MIN_BUFFERS)
		*nbuffers = VIVI_MIN_BUFFERS - have;
	*nplanes = 1;
	sizes[0] = vivi->fmt.sizeimage;
	return 0;
}

static int vivi_buf_prepare(struct vb2_buffer *vb)
{
	struct vivi_dev *vivi = vb2_get_drv_priv(vb->vb2_queue);
	unsigned long size = vivi->fmt.sizeimage;

	if (vb2_plane_size(vb, 0) < size) {
		vivi_dbg(1, vivi, "buffer %u too small (%lu < %lu)\n",
			 vb->index, vb2_plane_size(vb, 0), size);
		return -EINVAL;
	}
	vb2_set_plane_payload(vb, 0, size);
	return 0;
}

static void vivi_buf_queue(struct vb2_buffer *vb)
{
	struct vivi_dev *vivi = vb2_get_drv_priv(vb->vb2_queue);
	struct vivi_buffer *buf = to_vivi_buffer(vb);
	unsigned long flags;

	spin_lock_irqsave(&vivi->slock, flags);
	list_add_tail(&buf->list, &vivi->buf_list);
	if (vivi->thread_starved && vivi->thread) {
		vivi->thread_starved = false;
		wake_up_process(vivi->thread);
	}
	spin_unlock_irqrestore(&vivi->slock, flags);
}

static void vivi_return_all_buffers(struct vivi_dev *vivi,
				    enum vb2_buffer_state state)
{
	struct vivi_buffer *buf, *tmp;
	unsigned long flags;

	spin_lock_irqsave(&vivi->slock, flags);
	list_for_each_entry_safe(buf, tmp, &vivi->buf_list, list) {
		list_del(&buf->list);
		vb2_buffer_done(&buf->vb.vb2_buf, state);
	}
	spin_unlock_irqrestore(&vivi->slock, flags);
}

static int vivi_vb2_start_streaming(struct vb2_queue *vq, unsigned int count)
{
	struct vivi_dev *vivi = vb2_get_drv_priv(vq);
	int ret;

	ret = vivi_start_streaming(vivi);
	if (ret)
		vivi_return_all_buffers(vivi, VB2_BUF_STATE_QUEUED);
	return ret;
}

static void vivi_vb2_stop_streaming(struct vb2_queue *vq)
{
	struct vivi_dev *vivi = vb2_get_drv_priv(vq);

	vivi_stop_streaming(vivi);
	vivi_return_all_buffers(vivi, VB2_BUF_STATE_ERROR);
}

static const struct vb2_ops vivi_vb2_ops = {
	.queue_setup		= vivi_queue_setup,
	.buf_prepare		= vivi_buf_prepare,
	.buf_queue		= vivi_buf_queue,
	.start_streaming	= vivi_vb2_start_streaming,
	.stop_streaming		= vivi_vb2_stop_streaming,
	VIVI_VB2_WAIT_OPS
};

/* Device lifetime */

static void vivi_release(struct v4l2_device *v4l2_dev)
{
	struct vivi_dev *vivi = container_of(v4l2_dev, struct vivi_dev,
					     v4l2_dev);

	vivi_dbg(1, vivi, "last reference gone, freeing the device\n");
	v4l2_ctrl_handler_free(&vivi->ctrl_handler);
	v4l2_device_unregister(&vivi->v4l2_dev);
	mutex_destroy(&vivi->lock);
	kvfree(vivi->scratch);
	kfree(vivi);
}

static int vivi_probe(struct platform_device *pdev)
{
	const struct font_desc *font = find_font("VGA8x16");
	struct video_device *vdev;
	struct vivi_dev *vivi;
	struct vb2_queue *q;
	unsigned int inst = pdev->id;
	int ret;

	vivi = kzalloc(sizeof(*vivi), GFP_KERNEL);
	if (!vivi)
		return -ENOMEM;
	vivi->pdev = pdev;
	vivi->inst = inst;
	vivi->font = font ? font->data : NULL;
	mutex_init(&vivi->lock);
	spin_lock_init(&vivi->slock);
	INIT_LIST_HEAD(&vivi->buf_list);
	vivi->settings.pattern = VIVI_PAT_BARS75;
	vivi->settings.brightness = VIVI_GEN_BRIGHTNESS_DEF;
	vivi->settings.contrast = VIVI_GEN_CONTRAST_DEF;
	vivi->settings.saturation = VIVI_GEN_SATURATION_DEF;
	vivi->settings.hue = VIVI_GEN_HUE_DEF;
	vivi_fmt_default(vivi);

	vivi->scratch = kvmalloc(vivi_gen_scratch_size(VIVI_MAX_WIDTH),
				 GFP_KERNEL);
	if (!vivi->scratch) {
		ret = -ENOMEM;
		goto free_vivi;
	}

	ret = v4l2_device_register(&pdev->dev, &vivi->v4l2_dev);
	if (ret)
		goto free_scratch;
	/* from here on, vivi_release() frees everything */
	vivi->v4l2_dev.release = vivi_release;

	ret = vivi_ctrls_init(vivi);
	if (ret)
		goto put_dev;

	q = &vivi->queue;
	q->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	q->io_modes = VB2_MMAP | VB2_USERPTR | VB2_DMABUF | VB2_READ;
	q->drv_priv = vivi;
	q->buf_struct_size = sizeof(struct vivi_buffer);
	q->ops = &vivi_vb2_ops;
	q->mem_ops = &vb2_vmalloc_memops;
	q->timestamp_flags = V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC |
			     V4L2_BUF_FLAG_TSTAMP_SRC_EOF;
	q->lock = &vivi->lock;
	q->dev = &pdev->dev;
	ret = vb2_queue_init(q);
	if (ret)
		goto put_dev;

	vdev = &vivi->vdev;
	if (card_label[inst] && *card_label[inst])
		strscpy(vdev->name, card_label[inst], sizeof(vdev->name));
	else
		snprintf(vdev->name, sizeof(vdev->name), "%s %u",
			 VIVI_DRV_NAME, inst);
	vdev->fops = &vivi_fops;
	vdev->ioctl_ops = &vivi_ioctl_ops;
	vdev->release = video_device_release_empty;
	vdev->v4l2_dev = &vivi->v4l2_dev;
	vdev->queue = q;
	vdev->lock = &vivi->lock;
	vdev->vfl_dir = VFL_DIR_RX;
	vdev->device_caps = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING |
			    V4L2_CAP_READWRITE;
	video_set_drvdata(vdev, vivi);

	ret = video_register_device(vdev, VFL_TYPE_VIDEO, video_nr[inst]);
	if (ret)
		goto put_dev;

	platform_set_drvdata(pdev, vivi);
	vivi->debugfs = debugfs_create_dir(video_device_node_name(vdev),
					   vivi_debugfs_root);
	debugfs_create_file("stats", 0444, vivi->debugfs, vivi,
			    &vivi_stats_fops);
	if (fail_dev == inst) {
		v4l2_info(&vivi->v4l2_dev, "fail_dev=%d: failing the probe\n",
			  fail_dev);
		ret = -EIO;
		goto unregister;
	}
	v4l2_info(&vivi->v4l2_dev, "\"%s\" registered as %s\n", vdev->name,
		  video_device_node_name(vdev));
	return 0;

unregister:
	platform_set_drvdata(pdev, NULL);
	debugfs_remove_recursive(vivi->debugfs);
	vb2_video_unregister_device(vdev);
put_dev:
	v4l2_device_put(&vivi->v4l2_dev);
	return ret;
free_scratch:
	kvfree(vivi->scratch);
free_vivi:
	mutex_destroy(&vivi->lock);
	kfree(vivi);
	return ret;
}

static void vivi_remove(struct platform_device *pdev)
{
	struct vivi_dev *vivi = platform_get_drvdata(pdev);

	debugfs_remove_recursive(vivi->debugfs);
	v4l2_info(&vivi->v4l2_dev, "removing %s\n",
		  video_device_node_name(&vivi->vdev));
	/* stops streaming; the memory goes when the last file closes */
	vb2_video_unregister_device(&vivi->vdev);
	v4l2_device_put(&vivi->v4l2_dev);
}

VIVI_PLATFORM_REMOVE_INT(vivi_remove)

static int vivi_probe_recorded(struct platform_device *pdev)
{
	int ret = vivi_probe(pdev);

	if (pdev->id >= 0 && pdev->id < VIVI_MAX_DEVS)
		vivi_probe_err[pdev->id] = ret;
	return ret;
}

static struct platform_driver vivi_pdrv = {
	.probe = vivi_probe_recorded,
	VIVI_PLATFORM_REMOVE(vivi_remove),
	.driver = {
		.name = VIVI_DRV_NAME,
	},
};

/* Module parameters */

static int vivi_parse_formats(void)
{
	char *list, *cur, *tok;
	unsigned int i;
	int ret = 0;

	vivi_n_formats = 0;
	if (!formats || !*formats) {
		for (i = 0; i < ARRAY_SIZE(vivi_all_formats); i++)
			vivi_formats[vivi_n_formats++] = vivi_all_formats[i];
		return 0;
	}

	list = kstrdup(formats, GFP_KERNEL);
	if (!list)
		return -ENOMEM;
	cur = list;
	while ((tok = strsep(&cur, ",")) != NULL) {
		char c[4] = { ' ', ' ', ' ', ' ' };
		size_t len = strlen(tok);
		u32 fcc;

		if (!len || len > 4) {
			pr_err("vivi: formats: bad entry '%s': a fourcc has 1 to 4 characters\n",
			       tok);
			ret = -EINVAL;
			break;
		}
		memcpy(c, tok, len);
		fcc = v4l2_fourcc(c[0], c[1], c[2], c[3]);
		for (i = 0; i < ARRAY_SIZE(vivi_all_formats); i++)
			if (vivi_all_formats[i] == fcc)
				break;
		if (i == ARRAY_SIZE(vivi_all_formats)) {
			pr_err("vivi: formats: unsupported format '%s'\n", tok);
			ret = -EINVAL;
			break;
		}
		for (i = 0; i < vivi_n_formats; i++)
			if (vivi_formats[i] == fcc)
				break;
		if (i < vivi_n_formats) {
			pr_err("vivi: formats: '%s' is listed twice\n", tok);
			ret = -EINVAL;
			break;
		}
		vivi_formats[vivi_n_formats++] = fcc;
	}
	kfree(list);
	return ret;
}

static int vivi_check_params(void)
{
	unsigned int i;

	if (n_devs < 1 || n_devs > VIVI_MAX_DEVS) {
		pr_err("vivi: n_devs=%u is out of range 1..%u\n", n_devs,
		       VIVI_MAX_DEVS);
		return -EINVAL;
	}
	if (vivi_n_inputs < 1 || vivi_n_inputs > VIVI_MAX_INPUTS) {
		pr_err("vivi: n_inputs=%u is out of range 1..%u\n",
		       vivi_n_inputs, VIVI_MAX_INPUTS);
		return -EINVAL;
	}
	if (fail_dev < -1 || fail_dev >= (int)n_devs) {
		pr_err("vivi: fail_dev=%d is out of range -1..%u\n", fail_dev,
		       n_devs - 1);
		return -EINVAL;
	}
	if (vivi_debug > 3) {
		pr_err("vivi: debug=%u is out of range 0..3\n", vivi_debug);
		return -EINVAL;
	}
	for (i = 0; i < VIVI_MAX_DEVS; i++) {
		if (video_nr[i] < -1 || video_nr[i] >= VIVI_VIDEO_NR_LIMIT) {
			pr_err("vivi: video_nr[%u]=%d is out of range -1..%d\n",
			       i, video_nr[i], VIVI_VIDEO_NR_LIMIT - 1);
			return -EINVAL;
		}
		if (card_label[i] &&
		    strlen(card_label[i]) >= sizeof_field(struct video_device,
							  name)) {
			pr_err("vivi: card_label[%u] is longer than %zu characters\n",
			       i, sizeof_field(struct video_device, name) - 1);
			return -EINVAL;
		}
	}
	return vivi_parse_formats();
}

static void vivi_unregister_devs(void)
{
	int i;

	for (i = VIVI_MAX_DEVS - 1; i >= 0; i--) {
		platform_device_unregister(vivi_pdevs[i]);
		vivi_pdevs[i] = NULL;
	}
}

static int __init vivi_init(void)
{
	unsigned int i;
	int ret;

	ret = vivi_check_params();
	if (ret)
		return ret;

	vivi_debugfs_root = debugfs_create_dir(VIVI_DRV_NAME, NULL);
	ret = platform_driver_register(&vivi_pdrv);
	if (ret)
		goto remove_debugfs;

	for (i = 0; i < n_devs; i++) {
		struct platform_device *pdev;

		pdev = platform_device_register_simple(VIVI_DRV_NAME, i,
						       NULL, 0);
		if (IS_ERR(pdev)) {
			ret = PTR_ERR(pdev);
			goto unregister;
		}
		vivi_pdevs[i] = pdev;
		/* a failed probe leaves the device unbound: fail the load */
		if (vivi_probe_err[i] || !platform_get_drvdata(pdev)) {
			ret = vivi_probe_err[i] ?: -ENODEV;
			pr_err("vivi: device %u failed to probe: %d\n", i, ret);
			goto unregister;
		}
	}
	return 0;

unregister:
	vivi_unregister_devs();
	platform_driver_unregister(&vivi_pdrv);
remove_debugfs:
	debugfs_remove_recursive(vivi_debugfs_root);
	return ret;
}

static void __exit vivi_exit(void)
{
	vivi_unregister_devs();
	platform_driver_unregister(&vivi_pdrv);
	debugfs_remove_recursive(vivi_debugfs_root);
}

module_init(vivi_init);
module_exit(vivi_exit);

MODULE_DESCRIPTION("Virtual V4L2 capture device serving test patterns");
MODULE_AUTHOR("The vivi developers");
MODULE_LICENSE("GPL");
MODULE_VERSION("0.1");
