// SPDX-License-Identifier: GPL-2.0
/*
 * The producer node (producer=1): an output node that applications feed,
 * through MMAP, USERPTR, DMABUF or write(), in any format vivi has and
 * any size up to 3840x2160. The driver keeps the newest frame queued: the
 * capture node's thread reads it at its own deadlines (vivi_frame.c) and
 * converts it to its own format and size (an MJPEG frame is passed on as
 * it is, to an MJPEG capture node of its size). A buffer goes back to the
 * producer once a newer one supersedes it and no capture node reads it.
 *
 * Its capabilities are OUTPUT only, for its whole life: a node that is
 * both, or turns from one into the other, is what Chromium, PipeWire and
 * v4l2-compliance refuse in v4l2loopback.
 */

#include <linux/freezer.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <media/v4l2-ctrls.h>
#include <media/v4l2-event.h>
#include <media/v4l2-ioctl.h>
#include <media/videobuf2-vmalloc.h>

#include "vivi.h"
#include "vivi_compat.h"

#define VIVI_OUT_MIN_BUFFERS	2	/* one is always held as the newest */
#define VIVI_OUT_SUFFIX		" (producer)"	/* after the label */
#define VIVI_OUT_JPEG_MIN	4	/* SOI and EOI */

static int vivi_out_querycap(struct file *file, void *priv,
			     struct v4l2_capability *cap)
{
	vivi_node_querycap(video_drvdata(file), cap);
	return 0;
}

static struct vivi_out *vivi_file_out(struct file *file)
{
	return container_of(video_drvdata(file), struct vivi_out, node);
}

/* Frames and buffers */

/* Drop a reference to @buf; the last one gives it back. Under slock. */
static void vivi_out_unref(struct vivi_out *out, struct vivi_buffer *buf)
{
	if (--buf->refs)
		return;
	out->held--;
	vb2_buffer_done(&buf->vb.vb2_buf, VB2_BUF_STATE_DONE);
	wake_up(&out->released);
}

/**
 * vivi_out_get() - the newest frame the producer queued, held for reading
 * @out: the producer node
 * @f: set to the frame: its format, size and planes
 * @last: while the producer has no frame, take the last frame of its last
 *	stream, if there is one
 * @ref: set to what to give back with vivi_out_put()
 *
 * An MJPEG frame is not laid out in planes: @f then gives its format, size
 * and start (&vivi_gen_frame.plane[0]), and @ref its size.
 *
 * Called by a capture node's thread; the format is fixed while the
 * producer streams (see &struct vivi_node), and so while it holds a frame;
 * the last frame's copy does not change while a capture node reads it.
 *
 * Return: true if @f is a frame to read, false while there is none
 */
bool vivi_out_get(struct vivi_out *out, struct vivi_gen_frame *f,
		  bool last, struct vivi_out_ref *ref)
{
	struct vivi_dev *vivi = out->node.vivi;
	const struct v4l2_pix_format *pix = &out->node.fmt;
	void *vaddr = NULL;

	*ref = (struct vivi_out_ref){};
	spin_lock_irq(&vivi->slock);
	if (out->newest) {
		ref->buf = out->newest;
		ref->buf->refs++;
	} else if (last && out->last_ok) {
		ref->last = true;
		out->last_readers++;
	}
	spin_unlock_irq(&vivi->slock);
	if (ref->buf) {
		vaddr = vb2_plane_vaddr(&ref->buf->vb.vb2_buf, 0);
		ref->jpeg_size = ref->buf->jpeg_size;
	} else if (ref->last) {
		pix = &out->last_fmt;
		vaddr = out->last;
		ref->jpeg_size = out->last_jpeg_size;
	}
	if (vaddr && vivi_fmt_compressed(pix->pixelformat)) {
		*f = (struct vivi_gen_frame){
			.fourcc = pix->pixelformat,
			.width = pix->width,
			.height = pix->height,
			.plane[0] = vaddr,
		};
		return true;
	}
	if (vaddr && !vivi_fmt_plane_layout(pix, f, vaddr))
		return true;
	vivi_out_put(out, ref);
	return false;
}

/**
 * vivi_out_put() - give back a frame vivi_out_get() took
 * @out: the producer node
 * @ref: what vivi_out_get() set; cleared
 */
void vivi_out_put(struct vivi_out *out, struct vivi_out_ref *ref)
{
	spin_lock_irq(&out->node.vivi->slock);
	if (ref->buf)
		vivi_out_unref(out, ref->buf);
	else if (ref->last && !--out->last_readers)
		wake_up(&out->released);
	spin_unlock_irq(&out->node.vivi->slock);
	*ref = (struct vivi_out_ref){};
}

/*
 * Keep a copy of @buf, the stream's newest frame, for the "Last Frame"
 * idle picture, once no capture node reads the copy before it. Without
 * memory for it, there is no last frame: the capture nodes show the
 * pattern.
 */
static void vivi_out_keep_last(struct vivi_out *out, struct vivi_buffer *buf)
{
	struct vivi_dev *vivi = out->node.vivi;
	bool jpeg = vivi_fmt_compressed(out->node.fmt.pixelformat);
	size_t size = jpeg ? buf->jpeg_size : out->node.fmt.sizeimage;
	const void *src = vb2_plane_vaddr(&buf->vb.vb2_buf, 0);

	spin_lock_irq(&vivi->slock);
	out->last_ok = false;
	spin_unlock_irq(&vivi->slock);
	wait_event(out->released, !READ_ONCE(out->last_readers));
	if (out->last_size < size) {
		kvfree(out->last);
		out->last = kvmalloc(size, GFP_KERNEL);
		out->last_size = out->last ? size : 0;
	}
	if (!out->last || !src)
		return;
	memcpy(out->last, src, size);
	out->last_fmt = out->node.fmt;
	out->last_jpeg_size = jpeg ? size : 0;
	spin_lock_irq(&vivi->slock);
	out->last_ok = true;
	spin_unlock_irq(&vivi->slock);
}

/*
 * Stop showing the newest frame (a copy of it kept if @keep), and wait for
 * the readers of every frame
 */
static void vivi_out_stop(struct vivi_out *out, bool keep)
{
	struct vivi_dev *vivi = out->node.vivi;
	struct vivi_buffer *newest;

	spin_lock_irq(&vivi->slock);
	out->streaming = false;
	out->sequence = 0;
	newest = out->newest;
	out->newest = NULL;
	spin_unlock_irq(&vivi->slock);
	wake_up(&out->fed);
	/* out of the capture nodes' reach, still ours until unreferenced */
	if (newest && keep)
		vivi_out_keep_last(out, newest);
	if (newest)
		vivi_out_put(out, &(struct vivi_out_ref){ .buf = newest });
	/* a capture node reads a frame for one conversion, then lets go */
	wait_event(out->released, !READ_ONCE(out->held));
}

/* vb2 */

static int vivi_out_queue_setup(struct vb2_queue *vq, unsigned int *nbuffers,
				unsigned int *nplanes, unsigned int sizes[],
				struct device *alloc_devs[])
{
	struct vivi_out *out = vb2_get_drv_priv(vq);
	unsigned int size = out->node.fmt.sizeimage;

	/*
	 * CREATE_BUFS: no bigger than any format needs, or any user could
	 * have gigabytes allocated (as the capture node refuses them)
	 */
	if (*nplanes)
		return sizes[0] < size || sizes[0] > VIVI_MAX_SIZEIMAGE ?
		       -EINVAL : 0;
	*nplanes = 1;
	sizes[0] = size;
	/* with a single buffer, the held newest one, the producer would wait */
	*nbuffers = max_t(unsigned int, *nbuffers, VIVI_OUT_MIN_BUFFERS);
	return 0;
}

/*
 * A frame shorter than its format would show stale or foreign bytes; an
 * MJPEG frame takes what it needs, at least SOI and EOI
 */
static int vivi_out_buf_prepare(struct vb2_buffer *vb)
{
	struct vivi_out *out = vb2_get_drv_priv(vb->vb2_queue);
	struct vb2_v4l2_buffer *vbuf = to_vb2_v4l2_buffer(vb);
	unsigned long size = out->node.fmt.sizeimage;
	unsigned long used = vb2_get_plane_payload(vb, 0);
	unsigned long least = size;

	/*
	 * QBUF turns a bytesused of 0 into the buffer's length; a payload of
	 * 0 here comes from write(), whose emulation queues whole buffers
	 * but leaves the payload it set to be overwritten by that of the
	 * last QBUF, none
	 */
	if (!used) {
		used = vb2_plane_size(vb, 0);
		vb2_set_plane_payload(vb, 0, used);
	}
	if (vivi_fmt_compressed(out->node.fmt.pixelformat))
		least = VIVI_OUT_JPEG_MIN;
	if (vb2_plane_size(vb, 0) < size || used < least) {
		dev_warn_ratelimited(&out->node.vdev.dev,
				     "buffer %u: %lu bytes used, the format needs %lu\n",
				     vb->index, used, least);
		return -EINVAL;
	}
	if (vbuf->field == V4L2_FIELD_ANY)
		vbuf->field = V4L2_FIELD_NONE;
	if (vbuf->field != V4L2_FIELD_NONE)
		return -EINVAL;
	return 0;
}

/*
 * The size of an MJPEG frame, from SOI through EOI; 0, and a log line, if
 * the buffer does not hold a whole JPEG
 */
static u32 vivi_out_jpeg_size(struct vivi_out *out, struct vb2_buffer *vb)
{
	size_t used = vb2_get_plane_payload(vb, 0);
	size_t n = vivi_jpeg_length(vb2_plane_vaddr(vb, 0), used);

	if (!n)
		dev_warn_ratelimited(&out->node.vdev.dev,
				     "buffer %u: no JPEG from SOI to EOI in its %zu bytes\n",
				     vb->index, used);
	return n;
}

/*
 * The newest frame replaces the one shown, which goes back once unread;
 * an MJPEG frame that is no whole JPEG goes back at once, with ERROR
 */
static void vivi_out_buf_queue(struct vb2_buffer *vb)
{
	struct vivi_out *out = vb2_get_drv_priv(vb->vb2_queue);
	struct vivi_buffer *buf = container_of(to_vb2_v4l2_buffer(vb),
					       struct vivi_buffer, vb);
	bool jpeg = vivi_fmt_compressed(out->node.fmt.pixelformat);
	unsigned long flags;

	buf->jpeg_size = jpeg ? vivi_out_jpeg_size(out, vb) : 0;
	spin_lock_irqsave(&out->node.vivi->slock, flags);
	buf->vb.sequence = out->sequence++;
	if (jpeg && !buf->jpeg_size) {
		spin_unlock_irqrestore(&out->node.vivi->slock, flags);
		vb2_buffer_done(vb, VB2_BUF_STATE_ERROR);
		return;
	}
	buf->refs = 1;
	out->held++;
	if (out->newest)
		vivi_out_unref(out, out->newest);
	out->newest = buf;
	out->generation++;
	spin_unlock_irqrestore(&out->node.vivi->slock, flags);
	wake_up(&out->fed);
}

/**
 * vivi_out_wait() - wait for a frame newer than the last one seen
 * @out: the producer node
 * @seen: the &vivi_out.generation of the frame last seen; updated
 *
 * For a capture node's thread paced by the producer. It wakes at a new
 * frame, at the end of the stream, when asked to stop, and after 100 ms
 * in any case, to look at the "Frame Pacing" control again.
 *
 * Return: true if a frame newer than @seen is queued
 */
bool vivi_out_wait(struct vivi_out *out, u32 *seen)
{
	struct vivi_dev *vivi = out->node.vivi;
	bool fresh;

	wait_event_freezable_timeout(out->fed,
				     READ_ONCE(out->generation) != *seen ||
				     !READ_ONCE(out->streaming) ||
				     kthread_should_stop(),
				     HZ / 10);
	spin_lock_irq(&vivi->slock);
	fresh = out->streaming && out->newest && out->generation != *seen;
	if (fresh)
		*seen = out->generation;
	spin_unlock_irq(&vivi->slock);
	return fresh;
}

static int vivi_out_start_streaming(struct vb2_queue *vq, unsigned int count)
{
	struct vivi_out *out = vb2_get_drv_priv(vq);

	spin_lock_irq(&out->node.vivi->slock);
	out->streaming = true;
	spin_unlock_irq(&out->node.vivi->slock);
	/* dynamic debug: vivi_debug belongs to the capture clock's layer */
	dev_dbg(&out->node.vdev.dev, "producer streams %p4cc %ux%u\n",
		&out->node.fmt.pixelformat, out->node.fmt.width,
		out->node.fmt.height);
	return 0;
}

static void vivi_out_stop_streaming(struct vb2_queue *vq)
{
	struct vivi_out *out = vb2_get_drv_priv(vq);

	vivi_out_stop(out, true);
	dev_dbg(&out->node.vdev.dev, "producer stopped\n");
}

static const struct vb2_ops vivi_out_vb2_ops = {
	.queue_setup		= vivi_out_queue_setup,
	.buf_prepare		= vivi_out_buf_prepare,
	.buf_queue		= vivi_out_buf_queue,
	.start_streaming	= vivi_out_start_streaming,
	.stop_streaming		= vivi_out_stop_streaming,
	VIVI_VB2_WAIT_OPS
};

/* Formats: any size the format allows, up to VIVI_MAX_WIDTH x VIVI_MAX_HEIGHT */

static void vivi_out_try_pix(struct vivi_out *out, struct v4l2_pix_format *pix)
{
	u32 asked = pix->sizeimage;

	if (!vivi_fmt_offered(&out->formats, pix->pixelformat))
		pix->pixelformat = V4L2_PIX_FMT_YUYV;
	pix->width = clamp_t(u32, pix->width, VIVI_MIN_DIM, VIVI_MAX_WIDTH);
	pix->height = clamp_t(u32, pix->height, VIVI_MIN_DIM, VIVI_MAX_HEIGHT);
	/* subsampled chroma and Bayer take even sizes */
	if (!vivi_fmt_size_suits(pix->pixelformat, pix->width, pix->height))
		pix->width &= ~1;
	if (!vivi_fmt_size_suits(pix->pixelformat, pix->width, pix->height))
		pix->height &= ~1;
	vivi_fmt_fill_pix(&out->formats, NULL, &out->jpeg, pix);
	/*
	 * An MJPEG producer may want room for more than vivi's own encoder
	 * at quality 100 could make (4:4:4, say)
	 */
	if (vivi_fmt_compressed(pix->pixelformat))
		pix->sizeimage = clamp_t(u32, asked, pix->sizeimage,
					 VIVI_MAX_SIZEIMAGE);
}

static int vivi_out_enum_fmt(struct file *file, void *priv,
			     struct v4l2_fmtdesc *f)
{
	struct vivi_out *out = vivi_file_out(file);

	if (f->index >= out->formats.count)
		return -EINVAL;
	f->pixelformat = out->formats.fourcc[f->index];
	return 0;
}

static int vivi_out_g_fmt(struct file *file, void *priv,
			  struct v4l2_format *f)
{
	f->fmt.pix = vivi_file_out(file)->node.fmt;
	return 0;
}

static int vivi_out_try_fmt(struct file *file, void *priv,
			    struct v4l2_format *f)
{
	vivi_out_try_pix(vivi_file_out(file), &f->fmt.pix);
	return 0;
}

/*
 * The capture nodes offer their sizes and the producer's current one, so
 * that a consumer may take the fed frames as they are (a copy). A capture
 * node without buffers whose size left the list with the producer's last
 * one moves to the nearest size left, as S_FMT would. Under
 * &vivi_dev.lock.
 */
static void vivi_out_offer_size(struct vivi_out *out)
{
	struct vivi_dev *vivi = out->node.vivi;
	const struct vivi_fmt_list *fmts = &vivi->cfg.formats;
	const struct v4l2_pix_format *pix = &out->node.fmt;
	struct v4l2_pix_format *cpix;
	struct vivi_cap *cap;
	bool suits = true;
	unsigned int i;

	vivi->modes = vivi->cfg.modes;
	for (i = 0; i < fmts->count; i++)
		suits &= vivi_fmt_size_suits(fmts->fourcc[i], pix->width,
					     pix->height);
	if (suits)
		vivi_modes_add_size(&vivi->modes, pix->width, pix->height);
	for (i = 0; i < vivi->n_caps; i++) {
		cap = vivi->caps[i];
		cpix = &cap->node.fmt;
		if (vb2_is_busy(&cap->node.queue) || vivi_dv_input(cap) ||
		    vivi_fmt_size_offered(&vivi->modes, cpix->width,
					  cpix->height))
			continue;
		vivi_fmt_try_pix(fmts, &vivi->modes, &cap->jpeg, cpix);
		vivi_cap_set_interval(cap, &cap->timeperframe);
	}
}

static int vivi_out_s_fmt(struct file *file, void *priv,
			  struct v4l2_format *f)
{
	struct vivi_out *out = vivi_file_out(file);

	vivi_out_try_pix(out, &f->fmt.pix);
	/* capture nodes read node.fmt without a lock while frames are held */
	if (vb2_is_busy(&out->node.queue))
		return -EBUSY;
	out->node.fmt = f->fmt.pix;
	/* each write() of MJPEG is a frame, of its own size */
	out->node.queue.fileio_write_immediately =
		vivi_fmt_compressed(out->node.fmt.pixelformat);
	vivi_out_offer_size(out);
	return 0;
}

static int vivi_out_enum_framesizes(struct file *file, void *priv,
				    struct v4l2_frmsizeenum *fsize)
{
	struct vivi_out *out = vivi_file_out(file);
	u32 fcc = fsize->pixel_format, odd = VIVI_MIN_DIM + 1;
	bool even_w = !vivi_fmt_size_suits(fcc, odd, VIVI_MIN_DIM);
	bool even_h = !vivi_fmt_size_suits(fcc, VIVI_MIN_DIM, odd);

	if (fsize->index || !vivi_fmt_offered(&out->formats, fcc))
		return -EINVAL;
	fsize->type = even_w || even_h ? V4L2_FRMSIZE_TYPE_STEPWISE :
					 V4L2_FRMSIZE_TYPE_CONTINUOUS;
	fsize->stepwise.min_width = VIVI_MIN_DIM;
	fsize->stepwise.max_width = VIVI_MAX_WIDTH;
	fsize->stepwise.step_width = even_w ? 2 : 1;
	fsize->stepwise.min_height = VIVI_MIN_DIM;
	fsize->stepwise.max_height = VIVI_MAX_HEIGHT;
	fsize->stepwise.step_height = even_h ? 2 : 1;
	return 0;
}

/* Any interval from 1/240 s to 10 s, at any size the format takes */
static int vivi_out_enum_frameintervals(struct file *file, void *priv,
					struct v4l2_frmivalenum *fival)
{
	struct vivi_out *out = vivi_file_out(file);
	struct v4l2_pix_format pix = {
		.pixelformat = fival->pixel_format,
		.width = fival->width,
		.height = fival->height,
	};

	if (fival->index || !vivi_fmt_offered(&out->formats, pix.pixelformat))
		return -EINVAL;
	vivi_out_try_pix(out, &pix);
	if (pix.width != fival->width || pix.height != fival->height)
		return -EINVAL;
	fival->type = V4L2_FRMIVAL_TYPE_CONTINUOUS;
	fival->stepwise.min = (struct v4l2_fract){ 1, VIVI_MAX_FPS };
	fival->stepwise.max = (struct v4l2_fract){ VIVI_MIN_FPS_DIV, 1 };
	fival->stepwise.step = (struct v4l2_fract){ 1, 1 };
	return 0;
}

/* The producer's nominal rate: capture nodes keep their own clocks */
static int vivi_out_g_parm(struct file *file, void *priv,
			   struct v4l2_streamparm *a)
{
	struct vivi_out *out = vivi_file_out(file);

	if (a->type != V4L2_BUF_TYPE_VIDEO_OUTPUT)
		return -EINVAL;
	memset(&a->parm.output, 0, sizeof(a->parm.output));
	a->parm.output.capability = V4L2_CAP_TIMEPERFRAME;
	a->parm.output.timeperframe = out->timeperframe;
	a->parm.output.writebuffers = VIVI_OUT_MIN_BUFFERS;
	return 0;
}

static int vivi_out_s_parm(struct file *file, void *priv,
			   struct v4l2_streamparm *a)
{
	struct vivi_out *out = vivi_file_out(file);
	struct v4l2_fract *tpf = &a->parm.output.timeperframe;

	if (a->type != V4L2_BUF_TYPE_VIDEO_OUTPUT)
		return -EINVAL;
	/* 1/240 s to 10 s, as a configured rate may be */
	if (!tpf->numerator || !tpf->denominator)
		*tpf = (struct v4l2_fract){ 1, VIVI_DEF_FPS };
	else if ((u64)tpf->numerator * VIVI_MAX_FPS < tpf->denominator)
		*tpf = (struct v4l2_fract){ 1, VIVI_MAX_FPS };
	else if (tpf->numerator / VIVI_MIN_FPS_DIV >= tpf->denominator)
		*tpf = (struct v4l2_fract){ VIVI_MIN_FPS_DIV, 1 };
	out->timeperframe = *tpf;
	return vivi_out_g_parm(file, priv, a);
}

static int vivi_out_enum_output(struct file *file, void *priv,
				struct v4l2_output *o)
{
	if (o->index)
		return -EINVAL;
	strscpy(o->name, "Producer", sizeof(o->name));
	o->type = V4L2_OUTPUT_TYPE_ANALOG;
	return 0;
}

static int vivi_out_g_output(struct file *file, void *priv, unsigned int *i)
{
	*i = 0;
	return 0;
}

static int vivi_out_s_output(struct file *file, void *priv, unsigned int i)
{
	return i ? -EINVAL : 0;
}

static int vivi_out_log_status(struct file *file, void *priv)
{
	struct vivi_out *out = vivi_file_out(file);
	struct vivi_dev *vivi = out->node.vivi;
	bool streaming;
	u32 seq;

	v4l2_ctrl_log_status(file, priv);
	spin_lock_irq(&vivi->slock);
	streaming = out->streaming;
	seq = out->sequence;
	spin_unlock_irq(&vivi->slock);
	v4l2_info(&vivi->v4l2_dev, "producer: %s, %p4cc %ux%u, %u frames queued\n",
		  streaming ? "streaming" : "idle", &out->node.fmt.pixelformat,
		  out->node.fmt.width, out->node.fmt.height, seq);
	return 0;
}

static const struct v4l2_ioctl_ops vivi_out_ioctl_ops = {
	.vidioc_querycap		= vivi_out_querycap,
	.vidioc_enum_fmt_vid_out	= vivi_out_enum_fmt,
	.vidioc_g_fmt_vid_out		= vivi_out_g_fmt,
	.vidioc_try_fmt_vid_out		= vivi_out_try_fmt,
	.vidioc_s_fmt_vid_out		= vivi_out_s_fmt,
	.vidioc_enum_framesizes		= vivi_out_enum_framesizes,
	.vidioc_enum_frameintervals	= vivi_out_enum_frameintervals,
	.vidioc_g_parm			= vivi_out_g_parm,
	.vidioc_s_parm			= vivi_out_s_parm,
	.vidioc_enum_output		= vivi_out_enum_output,
	.vidioc_g_output		= vivi_out_g_output,
	.vidioc_s_output		= vivi_out_s_output,

	.vidioc_reqbufs			= vb2_ioctl_reqbufs,
	.vidioc_create_bufs		= vb2_ioctl_create_bufs,
	.vidioc_prepare_buf		= vb2_ioctl_prepare_buf,
	.vidioc_querybuf		= vb2_ioctl_querybuf,
	.vidioc_qbuf			= vb2_ioctl_qbuf,
	.vidioc_dqbuf			= vb2_ioctl_dqbuf,
	.vidioc_expbuf			= vb2_ioctl_expbuf,
	.vidioc_streamon		= vb2_ioctl_streamon,
	.vidioc_streamoff		= vb2_ioctl_streamoff,

	.vidioc_log_status		= vivi_out_log_status,
	.vidioc_subscribe_event		= v4l2_ctrl_subscribe_event,
	.vidioc_unsubscribe_event	= v4l2_event_unsubscribe,
};

static const struct v4l2_file_operations vivi_out_fops = {
	.owner		= THIS_MODULE,
	.open		= v4l2_fh_open,
	.release	= vb2_fop_release,
	.write		= vb2_fop_write,
	.poll		= vb2_fop_poll,
	.mmap		= vb2_fop_mmap,
	.unlocked_ioctl	= video_ioctl2,
};

/* Controls */

static const struct v4l2_ctrl_config vivi_ctrl_consumers = {
	.id = VIVI_CID_CONSUMERS,
	.name = "Consumers Streaming",
	.type = V4L2_CTRL_TYPE_INTEGER,
	.min = 0,
	.step = 1,	/* .max: the device's capture nodes */
	.flags = V4L2_CTRL_FLAG_READ_ONLY,
};

/**
 * vivi_out_consumer() - a capture node starts or stops streaming
 * @out: the producer node of its device
 * @streaming: true at its start, false at its stop
 *
 * "Consumers Streaming" counts them, with a control event, so that a
 * producer can idle while nobody watches. Under &vivi_dev.lock.
 */
void vivi_out_consumer(struct vivi_out *out, bool streaming)
{
	struct v4l2_ctrl *c = out->ctrl_consumers;

	if (c)
		v4l2_ctrl_s_ctrl(c, v4l2_ctrl_g_ctrl(c) + (streaming ? 1 : -1));
}

/* Set-up and teardown */

static int vivi_out_queue_init(struct vivi_out *out, struct device *dev)
{
	struct vb2_queue *q = &out->node.queue;

	q->type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	q->io_modes = VB2_MMAP | VB2_USERPTR | VB2_DMABUF | VB2_WRITE;
	q->drv_priv = out;
	q->buf_struct_size = sizeof(struct vivi_buffer);
	q->ops = &vivi_out_vb2_ops;
	q->mem_ops = &vb2_vmalloc_memops;
	q->timestamp_flags = V4L2_BUF_FLAG_TIMESTAMP_COPY;
	q->lock = &out->node.vivi->lock;
	q->dev = dev;
	return vb2_queue_init(q);
}

/**
 * vivi_out_init() - set up the producer node of a device, not registered
 * @vivi: the device, with &vivi_config.producer
 *
 * Return: 0 or a negative error; vivi_out_free() frees what it made
 */
int vivi_out_init(struct vivi_dev *vivi)
{
	struct vivi_out *out = &vivi->out;
	struct video_device *vdev = &out->node.vdev;
	struct v4l2_pix_format *pix = &out->node.fmt;
	struct v4l2_ctrl_config consumers = vivi_ctrl_consumers;
	int ret;

	out->node.vivi = vivi;
	out->node.type = VIVI_NODE_OUTPUT;
	init_waitqueue_head(&out->released);
	init_waitqueue_head(&out->fed);
	/* the capture node converts from every raw format, passes MJPEG on */
	vivi_fmt_list_all(&out->formats);
	vivi_jpeg_bound_init(&out->jpeg, VIVI_JPEG_QUALITY_MAX);
	pix->pixelformat = V4L2_PIX_FMT_YUYV;
	pix->width = VIVI_DEF_WIDTH;
	pix->height = VIVI_DEF_HEIGHT;
	vivi_out_try_pix(out, pix);
	vivi_out_offer_size(out);
	out->timeperframe = (struct v4l2_fract){ 1, VIVI_DEF_FPS };

	consumers.max = vivi->n_caps;
	v4l2_ctrl_handler_init(&out->ctrl_handler, 1);
	out->ctrl_consumers = v4l2_ctrl_new_custom(&out->ctrl_handler,
						   &consumers, NULL);
	ret = out->ctrl_handler.error;
	if (ret)
		return ret;
	ret = vivi_out_queue_init(out, &vivi->pdev->dev);
	if (ret)
		return ret;

	vivi_node_label(vivi, VIVI_OUT_SUFFIX, vdev->name, sizeof(vdev->name));
	vdev->fops = &vivi_out_fops;
	vdev->ioctl_ops = &vivi_out_ioctl_ops;
	vdev->release = video_device_release_empty;
	vdev->v4l2_dev = &vivi->v4l2_dev;
	vdev->ctrl_handler = &out->ctrl_handler;
	vdev->queue = &out->node.queue;
	vdev->lock = &vivi->lock;
	vdev->vfl_dir = VFL_DIR_TX;
	vdev->device_caps = V4L2_CAP_VIDEO_OUTPUT | V4L2_CAP_STREAMING |
			    V4L2_CAP_READWRITE;
	video_set_drvdata(vdev, &out->node);
	return 0;
}

/**
 * vivi_out_disconnect() - the producer node's stream stops at an unplug
 * @out: the producer node, already unregistered
 *
 * As vivi_queue_disconnect() for a capture node: a blocked DQBUF or
 * write() wakes with EIO, the newest frame goes back, and the queue is
 * released at the last close.
 */
void vivi_out_disconnect(struct vivi_out *out)
{
	vb2_queue_error(&out->node.queue);
	mutex_lock(out->node.queue.lock);
	vivi_out_stop(out, false);
	mutex_unlock(out->node.queue.lock);
}

/* At the device's last reference */
void vivi_out_free(struct vivi_out *out)
{
	kvfree(out->last);
	v4l2_ctrl_handler_free(&out->ctrl_handler);
}
