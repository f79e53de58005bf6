// SPDX-License-Identifier: GPL-2.0
/*
 * The stream of a capture node: its clock (absolute deadlines, the
 * frame-end timer), the thread that has each frame drawn ahead
 * (vivi_frame.c) and hands it over at its deadline, or, paced by a
 * producer, draws each frame the producer queues as it comes; and the vb2
 * queue
 */

#include <linux/freezer.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <media/videobuf2-vmalloc.h>

#include "vivi.h"
#include "vivi_compat.h"

/* slack for the hrtimer of each deadline: precise, yet lets wake-ups merge */
#define VIVI_SLACK_NS		(50 * NSEC_PER_USEC)

unsigned int vivi_debug;
module_param_named(debug, vivi_debug, uint, 0644);
MODULE_PARM_DESC(debug, " debug level, 0 to 3: 1 errors and dropped frames, 2 stream start/stop, 3 every frame (default 0)");

/**
 * struct vivi_clock - where the thread is on the frame grid
 * @tpf: the frame interval the grid was laid out for
 * @base_ns: time the grid counts from; moves when the rate changes
 * @interval_ns: @tpf in nanoseconds
 * @n: deadlines passed since @base_ns
 * @sequence: the sequence number of the next frame
 * @fed_seen: paced by the producer: the &vivi_out.generation of the
 *	producer's frame last served
 *
 * Frame n is due at base_ns + (n + 1) * interval_ns: absolute deadlines, so
 * a late wake-up never shifts later frames and nothing drifts.
 */
struct vivi_clock {
	struct v4l2_fract tpf;
	u64 base_ns;
	u64 interval_ns;
	u64 n;
	u32 sequence;
	u32 fed_seen;
};

static struct vivi_buffer *to_vivi_buffer(struct vb2_buffer *vb)
{
	return container_of(to_vb2_v4l2_buffer(vb), struct vivi_buffer, vb);
}

/* The first queued buffer, taken off the queue; NULL if there is none */
static struct vivi_buffer *vivi_take(struct vivi_cap *cap)
{
	struct vivi_buffer *buf;

	spin_lock_irq(&cap->node.vivi->slock);
	buf = list_first_entry_or_null(&cap->buf_list, struct vivi_buffer,
				       list);
	if (buf)
		list_del(&buf->list);
	spin_unlock_irq(&cap->node.vivi->slock);
	return buf;
}

/* Follow S_PARM: a new rate counts from the last deadline */
static void vivi_clock_update(struct vivi_cap *cap, struct vivi_clock *c)
{
	spin_lock_irq(&cap->node.vivi->slock);
	if (c->tpf.numerator != cap->timeperframe.numerator ||
	    c->tpf.denominator != cap->timeperframe.denominator) {
		c->base_ns += c->n * c->interval_ns;
		c->n = 0;
		c->tpf = cap->timeperframe;
		c->interval_ns = div_u64((u64)c->tpf.numerator * NSEC_PER_SEC,
					 c->tpf.denominator);
	}
	spin_unlock_irq(&cap->node.vivi->slock);
}

/*
 * The frame-end interrupt of the virtual sensor: the frame due now is
 * exposed. It is stamped here, as hardware stamps a frame in its interrupt
 * handler, so that the thread's own scheduling latency stays out of the
 * timestamps; the thread then hands it over.
 */
static enum hrtimer_restart vivi_frame_end(struct hrtimer *t)
{
	struct vivi_cap *cap = container_of(t, struct vivi_cap, frame_end);

	cap->frame_end_ns = ktime_get_ns();
	wake_up_process(cap->thread);
	return HRTIMER_NORESTART;
}

/**
 * enum vivi_wake - what ended the thread's wait for its next deadline
 * @VIVI_WAKE_DEADLINE: the deadline passed: its frame is due
 * @VIVI_WAKE_QUEUED: the thread had no buffer to draw ahead into, and one
 *	is queued now (found before sleeping, or QBUF woke it)
 * @VIVI_WAKE_EARLY: it woke before the deadline for another reason (a
 *	signal, the freezer)
 * @VIVI_WAKE_STOP: the thread is to stop
 */
enum vivi_wake {
	VIVI_WAKE_DEADLINE,
	VIVI_WAKE_QUEUED,
	VIVI_WAKE_EARLY,
	VIVI_WAKE_STOP,
};

/*
 * For a thread without a buffer to draw ahead into: whether one is queued.
 * If none is, the thread is starved, and the next QBUF wakes it.
 */
static bool vivi_queued(struct vivi_cap *cap)
{
	bool starved;

	spin_lock_irq(&cap->node.vivi->slock);
	starved = list_empty(&cap->buf_list);
	cap->thread_starved = starved;
	spin_unlock_irq(&cap->node.vivi->slock);
	return !starved;
}

/*
 * Sleep until @deadline. Without a buffer to draw ahead into, QBUF may wake
 * the thread early so that it draws at once: else the first frame after a
 * starved queue would be handed over late by its drawing time. The queue is
 * checked after the task state is set, so that a wake-up in between is not
 * lost. *@now is the time of waking at or after @deadline, *@end_ns when
 * the frame-end timer fired (0 if it did not).
 */
static enum vivi_wake vivi_wait(struct vivi_cap *cap, bool have_buf,
				u64 deadline, u64 *now, u64 *end_ns)
{
	set_current_state(TASK_INTERRUPTIBLE);
	if (kthread_should_stop()) {
		__set_current_state(TASK_RUNNING);
		return VIVI_WAKE_STOP;
	}
	if (!have_buf && vivi_queued(cap)) {
		__set_current_state(TASK_RUNNING);
		return VIVI_WAKE_QUEUED;
	}
	cap->frame_end_ns = 0;
	hrtimer_start_range_ns(&cap->frame_end, ns_to_ktime(deadline),
			       VIVI_SLACK_NS, HRTIMER_MODE_ABS);
	schedule();
	hrtimer_cancel(&cap->frame_end);
	*end_ns = cap->frame_end_ns;
	if (kthread_should_stop())
		return VIVI_WAKE_STOP;
	try_to_freeze();
	*now = ktime_get_ns();
	if (*now >= deadline)
		return VIVI_WAKE_DEADLINE;
	return !have_buf && vivi_queued(cap) ? VIVI_WAKE_QUEUED :
					       VIVI_WAKE_EARLY;
}

/*
 * Serve the deadline of frame @c->sequence. @buf holds the frame drawn
 * ahead (its error in @err), or is NULL: then the first queued buffer
 * takes it now, as hardware would have filled it at the deadline. A frame
 * lost on request keeps its buffer for the next one. @end_ns is when its
 * exposure ended, the frame-end interrupt; 0 for a frame served late,
 * which ends now. With @fed, the frame is drawn now and takes the
 * timestamp of the producer's frame it shows (if not 0).
 *
 * Return: false if no buffer was queued for it
 */
static bool vivi_serve_frame(struct vivi_cap *cap, struct vivi_clock *c,
			     struct vivi_buffer *buf, int err, u64 now,
			     u64 end_ns, bool fed)
{
	struct vivi_dev *vivi = cap->node.vivi;
	bool drawn = buf;
	enum vivi_fault fault;
	struct vb2_buffer *vb;
	u64 fed_ns = 0;

	if (!buf)
		buf = vivi_take(cap);
	fault = vivi_inject_frame(cap, c->sequence, now);
	if (fault == VIVI_FAULT_DROP || fault == VIVI_FAULT_STALL) {
		spin_lock_irq(&vivi->slock);
		if (buf)
			list_add(&buf->list, &cap->buf_list);
		cap->stats.dropped++;
		spin_unlock_irq(&vivi->slock);
		vivi_dbg(3, vivi, "sequence %u: %s on request\n", c->sequence,
			 fault == VIVI_FAULT_DROP ? "dropped" : "stalled");
		c->sequence++;
		return true;
	}
	if (!buf)
		return false;
	vb = &buf->vb.vb2_buf;
	if (!drawn)
		err = vivi_frame_fill(cap, vb, c->sequence, now,
				      fed ? &fed_ns : NULL);
	if (err)
		vivi_dbg(1, vivi, "sequence %u: buffer %u not filled: %d\n",
			 c->sequence, vb->index, err);
	if (fault == VIVI_FAULT_CORRUPT)
		err = -EIO;
	vivi_dbg(3, vivi, "sequence %u in buffer %u\n", c->sequence, vb->index);
	buf->vb.sequence = c->sequence++;
	buf->vb.field = V4L2_FIELD_NONE;
	vb->timestamp = fed_ns ?: end_ns ?: ktime_get_ns();
	if (!err) {
		spin_lock_irq(&vivi->slock);
		cap->stats.delivered++;
		spin_unlock_irq(&vivi->slock);
	}
	vb2_buffer_done(vb, err ? VB2_BUF_STATE_ERROR : VB2_BUF_STATE_DONE);
	return true;
}

/*
 * Serve every deadline up to @now: hand over this deadline's frame in
 * @buf (drawn ahead), then catch up on the ones that passed while the
 * thread was late, as hardware would have filled a queued buffer at each.
 * Only deadlines that find no buffer, or that a test asked to lose, are
 * lost: the sequence number still advances, as with a real sensor.
 */
static void vivi_serve(struct vivi_cap *cap, struct vivi_clock *c,
		       struct vivi_buffer *buf, int err, u64 deadline, u64 now,
		       u64 end_ns)
{
	struct vivi_dev *vivi = cap->node.vivi;
	u64 late = now - deadline;
	u64 missed = div64_u64(late, c->interval_ns);

	c->n += missed + 1;
	spin_lock_irq(&vivi->slock);
	cap->stats.wakeups++;
	cap->stats.late_total_ns += late;
	cap->stats.late_max_ns = max(cap->stats.late_max_ns, late);
	spin_unlock_irq(&vivi->slock);

	do {
		if (!vivi_serve_frame(cap, c, buf, err, now, end_ns, false)) {
			spin_lock_irq(&vivi->slock);
			cap->stats.dropped += missed + 1;
			spin_unlock_irq(&vivi->slock);
			vivi_dbg(1, vivi,
				 "sequence %u: %llu frame(s) dropped, no buffer queued; woke %llu us late\n",
				 c->sequence, missed + 1,
				 div_u64(late, NSEC_PER_USEC));
			c->sequence += missed + 1;
			return;
		}
		buf = NULL;
		/* only the first deadline's frame ended when the timer fired */
		end_ns = 0;
	} while (missed--);
}

/* The "Frame Pacing" control says Producer Clock, and a producer streams */
static bool vivi_producer_paced(struct vivi_cap *cap)
{
	struct vivi_dev *vivi = cap->node.vivi;
	bool paced;

	if (!vivi->cfg.producer)
		return false;
	spin_lock_irq(&vivi->slock);
	paced = cap->pacing == VIVI_PACING_PRODUCER && vivi->out.streaming;
	spin_unlock_irq(&vivi->slock);
	return paced;
}

/*
 * Paced by the producer: serve one frame for each frame it queues, drawn
 * as it comes. Frames it queues faster than they are drawn are skipped,
 * as a display skips them; one that finds no buffer queued is lost. The
 * camera's grid restarts from each, for when the producer stops.
 */
static void vivi_follow(struct vivi_cap *cap, struct vivi_clock *c)
{
	struct vivi_dev *vivi = cap->node.vivi;

	if (vivi_out_wait(&vivi->out, &c->fed_seen) &&
	    !vivi_serve_frame(cap, c, NULL, 0, ktime_get_ns(), 0, true)) {
		spin_lock_irq(&vivi->slock);
		cap->stats.dropped++;
		spin_unlock_irq(&vivi->slock);
		vivi_dbg(1, vivi, "sequence %u: dropped, no buffer queued\n",
			 c->sequence);
		c->sequence++;
	}
	c->base_ns = ktime_get_ns();
	c->n = 0;
}

/* A frame drawn ahead for a deadline goes back to the head of the queue */
static void vivi_untake(struct vivi_cap *cap, struct vivi_buffer *buf)
{
	spin_lock_irq(&cap->node.vivi->slock);
	list_add(&buf->list, &cap->buf_list);
	spin_unlock_irq(&cap->node.vivi->slock);
}

/*
 * The next frame is drawn ahead into the first queued buffer and handed
 * over at its deadline, stamped by the frame-end timer: timestamps carry
 * only the timer interrupt's jitter, not the drawing time. Paced by a
 * producer, the thread follows its frames instead (vivi_follow()).
 */
static int vivi_thread(void *data)
{
	struct vivi_cap *cap = data;
	struct vivi_clock c = {
		.base_ns = cap->stream_start_ns,
		.sequence = vivi_inject_sequence_start(cap),
	};
	struct vivi_buffer *buf = NULL;
	int err = 0;

	set_freezable();
	while (!kthread_should_stop()) {
		u64 deadline, now, end_ns = 0;

		if (vivi_producer_paced(cap)) {
			if (buf)
				vivi_untake(cap, buf);
			buf = NULL;
			vivi_follow(cap, &c);
			continue;
		}
		vivi_clock_update(cap, &c);
		deadline = c.base_ns + (c.n + 1) * c.interval_ns;
		if (!buf) {
			buf = vivi_take(cap);
			if (buf)
				err = vivi_frame_fill(cap, &buf->vb.vb2_buf,
						      c.sequence, deadline,
						      NULL);
		}
		switch (vivi_wait(cap, buf, deadline, &now, &end_ns)) {
		case VIVI_WAKE_DEADLINE:
			vivi_serve(cap, &c, buf, err, deadline, now, end_ns);
			buf = NULL;
			break;
		case VIVI_WAKE_QUEUED:	/* draw ahead into it, then wait */
		case VIVI_WAKE_EARLY:	/* wait again */
		case VIVI_WAKE_STOP:	/* the loop ends */
			break;
		}
	}
	if (buf)
		vb2_buffer_done(&buf->vb.vb2_buf, VB2_BUF_STATE_ERROR);
	return 0;
}

static int vivi_start_thread(struct vivi_cap *cap)
{
	struct vivi_dev *vivi = cap->node.vivi;
	struct task_struct *t;

	spin_lock_irq(&vivi->slock);
	memset(&cap->stats, 0, sizeof(cap->stats));
	cap->thread_starved = false;
	spin_unlock_irq(&vivi->slock);
	cap->stream_start_ns = ktime_get_ns();

	vivi_hrtimer_setup(&cap->frame_end, vivi_frame_end, CLOCK_MONOTONIC,
			   HRTIMER_MODE_ABS);
	/* the timer wakes cap->thread: set it before the thread runs */
	/* "vivi-N" for the first capture node, "vivi-N.K" for consumer K */
	if (cap->index)
		t = kthread_create(vivi_thread, cap, "vivi-%u.%u", vivi->inst,
				   cap->index + 1);
	else
		t = kthread_create(vivi_thread, cap, "vivi-%u", vivi->inst);
	if (IS_ERR(t))
		return PTR_ERR(t);
	cap->thread = t;
	wake_up_process(t);
	vivi_dbg(2, vivi, "streaming %p4cc %ux%u at %u/%u s\n",
		 &cap->node.fmt.pixelformat, cap->node.fmt.width, cap->node.fmt.height,
		 cap->timeperframe.numerator, cap->timeperframe.denominator);
	return 0;
}

static void vivi_stop_thread(struct vivi_cap *cap)
{
	struct vivi_dev *vivi = cap->node.vivi;
	struct vivi_stats st;

	if (!cap->thread)
		return;
	kthread_stop(cap->thread);
	spin_lock_irq(&vivi->slock);
	cap->thread_starved = false;
	st = cap->stats;
	spin_unlock_irq(&vivi->slock);
	cap->thread = NULL;
	vivi_dbg(2, vivi,
		 "stopped: %llu frames generated, %llu delivered, %llu dropped\n",
		 st.generated, st.delivered, st.dropped);
}

/**
 * vivi_status_text() - a node's state as text lines
 * @cap: the capture node
 * @buf: where to write
 * @size: size of @buf
 *
 * Shared by VIDIOC_LOG_STATUS and the debugfs stats file; the caller holds
 * &vivi_dev.lock.
 *
 * Return: the length written, as scnprintf() counts it.
 */
int vivi_status_text(struct vivi_cap *cap, char *buf, size_t size)
{
	struct vivi_dev *vivi = cap->node.vivi;
	const struct v4l2_pix_format *pix = &cap->node.fmt;
	u32 fcc = pix->pixelformat;
	struct v4l2_fract tpf;
	struct vivi_stats st;
	u64 gen_mean, late_mean;

	lockdep_assert_held(&vivi->lock);
	spin_lock_irq(&vivi->slock);
	st = cap->stats;
	tpf = cap->timeperframe;
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
			 "wake-up lateness ns: mean %llu max %llu\n"
			 "faults: dropped %llu stalled %llu corrupt %llu\n",
			 cap->thread ? "yes" : "no", cap->input,
			 fcc & 0xff, (fcc >> 8) & 0xff, (fcc >> 16) & 0xff,
			 fcc >> 24, pix->width, pix->height,
			 pix->bytesperline, pix->sizeimage,
			 tpf.numerator, tpf.denominator,
			 st.generated, st.delivered, st.dropped,
			 st.gen_last_ns, gen_mean, st.gen_max_ns,
			 late_mean, st.late_max_ns,
			 st.injected_drops, st.stalled, st.corrupted);
}

/* videobuf2 queue */

/*
 * The largest buffer any format of the device needs, the HDMI input's and
 * the producer's sizes too
 */
static size_t vivi_max_sizeimage(const struct vivi_config *cfg)
{
	size_t most = vivi_modes_max_sizeimage(&cfg->modes);

	if (cfg->hdmi_input || cfg->producer)
		return max_t(size_t, most, VIVI_MAX_SIZEIMAGE);
	return most;
}

static int vivi_queue_setup(struct vb2_queue *vq, unsigned int *nbuffers,
			    unsigned int *nplanes, unsigned int sizes[],
			    struct device *alloc_devs[])
{
	struct vivi_cap *cap = vb2_get_drv_priv(vq);
	unsigned int have = vivi_vb2_num_buffers(vq);
	int err = vivi_inject_fail(cap, VIVI_FAIL_REQBUFS);

	if (err) {
		vivi_dbg(1, cap->node.vivi, "buffer allocation fails on request: %d\n",
			 err);
		return err;
	}

	/*
	 * CREATE_BUFS: no bigger than any format needs, or any user could
	 * have gigabytes allocated (and vmalloc warn when that fails)
	 */
	if (*nplanes)
		return sizes[0] < cap->node.fmt.sizeimage ||
		       sizes[0] > vivi_max_sizeimage(&cap->node.vivi->cfg) ?
		       -EINVAL : 0;
	if (have + *nbuffers < VIVI_MIN_BUFFERS)
		*nbuffers = VIVI_MIN_BUFFERS - have;
	*nplanes = 1;
	/*
	 * The format as the application read it: a quality changed while
	 * buffers existed takes effect in sizeimage at the next S_FMT
	 */
	sizes[0] = cap->node.fmt.sizeimage;
	return 0;
}

static int vivi_buf_prepare(struct vb2_buffer *vb)
{
	struct vivi_cap *cap = vb2_get_drv_priv(vb->vb2_queue);
	unsigned long size = cap->node.fmt.sizeimage;

	if (vb2_plane_size(vb, 0) < size) {
		vivi_dbg(1, cap->node.vivi, "buffer %u too small (%lu < %lu)\n",
			 vb->index, vb2_plane_size(vb, 0), size);
		return -EINVAL;
	}
	vb2_set_plane_payload(vb, 0, size);
	return 0;
}

static void vivi_buf_queue(struct vb2_buffer *vb)
{
	struct vivi_cap *cap = vb2_get_drv_priv(vb->vb2_queue);
	struct vivi_buffer *buf = to_vivi_buffer(vb);
	unsigned long flags;

	spin_lock_irqsave(&cap->node.vivi->slock, flags);
	list_add_tail(&buf->list, &cap->buf_list);
	if (cap->thread_starved && cap->thread) {
		cap->thread_starved = false;
		wake_up_process(cap->thread);
	}
	spin_unlock_irqrestore(&cap->node.vivi->slock, flags);
}

static void vivi_return_all_buffers(struct vivi_cap *cap,
				    enum vb2_buffer_state state)
{
	struct vivi_buffer *buf, *tmp;
	unsigned long flags;

	spin_lock_irqsave(&cap->node.vivi->slock, flags);
	list_for_each_entry_safe(buf, tmp, &cap->buf_list, list) {
		list_del(&buf->list);
		vb2_buffer_done(&buf->vb.vb2_buf, state);
	}
	spin_unlock_irqrestore(&cap->node.vivi->slock, flags);
}

static int vivi_start_streaming(struct vb2_queue *vq, unsigned int count)
{
	struct vivi_cap *cap = vb2_get_drv_priv(vq);
	int ret;

	/* a STREAMON that raced the unplug finds the node gone */
	if (!video_is_registered(&cap->node.vdev)) {
		vivi_return_all_buffers(cap, VB2_BUF_STATE_QUEUED);
		return -ENODEV;
	}
	vivi_inject_stream_start(cap);
	ret = vivi_inject_fail(cap, VIVI_FAIL_STREAMON);
	if (ret)
		vivi_dbg(1, cap->node.vivi, "STREAMON fails on request: %d\n", ret);
	else
		ret = vivi_start_thread(cap);
	if (ret)
		vivi_return_all_buffers(cap, VB2_BUF_STATE_QUEUED);
	else if (cap->node.vivi->cfg.producer)
		vivi_out_consumer(&cap->node.vivi->out, true);
	return ret;
}

static void vivi_stop_streaming(struct vb2_queue *vq)
{
	struct vivi_cap *cap = vb2_get_drv_priv(vq);

	vivi_stop_thread(cap);
	vivi_return_all_buffers(cap, VB2_BUF_STATE_ERROR);
	if (cap->node.vivi->cfg.producer)
		vivi_out_consumer(&cap->node.vivi->out, false);
}

/**
 * vivi_queue_disconnect() - a removed node's stream stops, as a USB camera's
 * @cap: the capture node, already unregistered
 *
 * The queue errs, so a blocked DQBUF, read() or poll() wakes with EIO or
 * POLLERR however the woken call and this one race for the lock; the
 * thread stops and queued buffers come back with ERROR. The queue itself
 * is released at the last close, as uvcvideo's: releasing it here would
 * stop streaming under the waiter, which would then get EINVAL.
 */
void vivi_queue_disconnect(struct vivi_cap *cap)
{
	struct mutex *lock = cap->node.queue.lock;

	vb2_queue_error(&cap->node.queue);
	mutex_lock(lock);
	vivi_stop_thread(cap);
	vivi_return_all_buffers(cap, VB2_BUF_STATE_ERROR);
	mutex_unlock(lock);
}

static const struct vb2_ops vivi_vb2_ops = {
	.queue_setup		= vivi_queue_setup,
	.buf_prepare		= vivi_buf_prepare,
	.buf_queue		= vivi_buf_queue,
	.start_streaming	= vivi_start_streaming,
	.stop_streaming		= vivi_stop_streaming,
	VIVI_VB2_WAIT_OPS
};

/**
 * vivi_queue_init() - set up the vb2 queue of a capture node
 * @cap: the capture node; its device's lock becomes the queue's lock
 * @dev: the device that allocates buffers
 *
 * Return: 0 or a negative error
 */
int vivi_queue_init(struct vivi_cap *cap, struct device *dev)
{
	struct vb2_queue *q = &cap->node.queue;

	INIT_LIST_HEAD(&cap->buf_list);
	q->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	q->io_modes = VB2_MMAP | VB2_USERPTR | VB2_DMABUF | VB2_READ;
	q->drv_priv = cap;
	q->buf_struct_size = sizeof(struct vivi_buffer);
	q->ops = &vivi_vb2_ops;
	q->mem_ops = &vb2_vmalloc_memops;
	q->timestamp_flags = V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC |
			     V4L2_BUF_FLAG_TSTAMP_SRC_EOF;
	q->lock = &cap->node.vivi->lock;
	q->dev = dev;
	return vb2_queue_init(q);
}
