// SPDX-License-Identifier: GPL-2.0
/*
 * The V4L2 ioctls, controls and file operations of vivi
 */

#include <linux/kernel.h>
#include <linux/string.h>
#include <media/v4l2-common.h>
#include <media/v4l2-ctrls.h>
#include <media/v4l2-event.h>
#include <media/v4l2-fh.h>
#include <media/v4l2-ioctl.h>

#include "vivi.h"
#include "vivi_scale.h"

static int vivi_querycap(struct file *file, void *priv,
			 struct v4l2_capability *cap)
{
	vivi_node_querycap(video_drvdata(file), cap);
	return 0;
}

/* The capture node behind @file, for the ioctls only capture nodes have */
static struct vivi_cap *vivi_file_cap(struct file *file)
{
	return vivi_to_cap(video_drvdata(file));
}

static const struct vivi_fmt_list *vivi_formats(struct file *file)
{
	struct vivi_node *node = video_drvdata(file);

	return &node->vivi->cfg.formats;
}

static const struct vivi_modes *vivi_modes(struct file *file)
{
	struct vivi_node *node = video_drvdata(file);

	return &node->vivi->modes;
}

static int vivi_enum_fmt(struct file *file, void *priv,
			 struct v4l2_fmtdesc *f)
{
	const struct vivi_fmt_list *list = vivi_formats(file);

	if (f->index >= list->count)
		return -EINVAL;
	/* the core fills in the description and flags */
	f->pixelformat = list->fourcc[f->index];
	return 0;
}

static int vivi_g_fmt(struct file *file, void *priv, struct v4l2_format *f)
{
	struct vivi_node *node = video_drvdata(file);

	f->fmt.pix = node->fmt;
	return 0;
}

static int vivi_try_fmt(struct file *file, void *priv, struct v4l2_format *f)
{
	struct vivi_cap *cap = vivi_file_cap(file);

	vivi_fmt_try_pix(vivi_formats(file), vivi_modes(file), &cap->jpeg,
			 &f->fmt.pix);
	/* the HDMI input's size is its timings' */
	if (vivi_dv_input(cap))
		vivi_dv_try_pix(cap, &f->fmt.pix);
	return 0;
}

static int vivi_s_fmt(struct file *file, void *priv, struct v4l2_format *f)
{
	struct vivi_cap *cap = vivi_file_cap(file);

	vivi_try_fmt(file, priv, f);
	/* the thread reads node.fmt without a lock: see struct vivi_node */
	if (vb2_is_busy(&cap->node.queue))
		return -EBUSY;

	cap->node.fmt = f->fmt.pix;
	/* a size that does not offer the current rate snaps the rate too */
	if (!vivi_dv_input(cap))
		vivi_cap_set_interval(cap, &cap->timeperframe);
	return 0;
}

static int vivi_enum_framesizes(struct file *file, void *priv,
				struct v4l2_frmsizeenum *fsize)
{
	u32 w, h;

	/* the HDMI input has one size, its timings' (vivid does the same) */
	if (vivi_dv_input(vivi_file_cap(file)))
		return -ENOTTY;
	if (!vivi_fmt_offered(vivi_formats(file), fsize->pixel_format) ||
	    !vivi_fmt_size(vivi_modes(file), fsize->index, &w, &h))
		return -EINVAL;
	fsize->type = V4L2_FRMSIZE_TYPE_DISCRETE;
	fsize->discrete.width = w;
	fsize->discrete.height = h;
	return 0;
}

static int vivi_enum_frameintervals(struct file *file, void *priv,
				    struct v4l2_frmivalenum *fival)
{
	if (vivi_dv_input(vivi_file_cap(file)))
		return -ENOTTY;
	if (!vivi_fmt_offered(vivi_formats(file), fival->pixel_format) ||
	    !vivi_fmt_size_offered(vivi_modes(file), fival->width,
				   fival->height) ||
	    !vivi_fmt_interval(vivi_modes(file), fival->index, fival->width,
			       fival->height, &fival->discrete))
		return -EINVAL;
	fival->type = V4L2_FRMIVAL_TYPE_DISCRETE;
	return 0;
}

static int vivi_g_parm(struct file *file, void *priv,
		       struct v4l2_streamparm *a)
{
	struct vivi_cap *cap = vivi_file_cap(file);

	if (a->type != V4L2_BUF_TYPE_VIDEO_CAPTURE)
		return -EINVAL;
	a->parm.capture.capability = V4L2_CAP_TIMEPERFRAME;
	a->parm.capture.timeperframe = cap->timeperframe;
	a->parm.capture.readbuffers = VIVI_MIN_BUFFERS;
	return 0;
}

static int vivi_s_parm(struct file *file, void *priv,
		       struct v4l2_streamparm *a)
{
	struct vivi_cap *cap = vivi_file_cap(file);

	if (a->type != V4L2_BUF_TYPE_VIDEO_CAPTURE)
		return -EINVAL;
	/*
	 * The HDMI input's rate is its timings': S_PARM cannot change it
	 * (v4l2-compliance, too, wants ENOTTY without ENUM_FRAMEINTERVALS)
	 */
	if (vivi_dv_input(cap))
		return -ENOTTY;
	vivi_cap_set_interval(cap, &a->parm.capture.timeperframe);
	return vivi_g_parm(file, priv, a);
}

static int vivi_enum_input(struct file *file, void *priv,
			   struct v4l2_input *inp)
{
	struct vivi_cap *cap = vivi_file_cap(file);
	struct vivi_dev *vivi = cap->node.vivi;

	if (inp->index >= vivi->cfg.n_inputs + vivi->cfg.hdmi_input)
		return -EINVAL;
	inp->type = V4L2_INPUT_TYPE_CAMERA;
	if (inp->index < vivi->cfg.n_inputs) {
		snprintf(inp->name, sizeof(inp->name), "Camera %u",
			 inp->index);
		/* the camera films the producer's frames, when there are any */
		if (vivi->cfg.producer && !vivi_out_streaming(vivi))
			inp->status = V4L2_IN_ST_NO_SIGNAL;
		return 0;
	}
	strscpy(inp->name, "HDMI 0", sizeof(inp->name));
	inp->capabilities = V4L2_IN_CAP_DV_TIMINGS;
	if (!cap->dv_signal)
		inp->status = V4L2_IN_ST_NO_SIGNAL;
	return 0;
}

static int vivi_g_input(struct file *file, void *priv, unsigned int *i)
{
	*i = vivi_file_cap(file)->input;
	return 0;
}

/* Each input starts on its own pattern, as the inputs of the old vivi did */
static const u32 vivi_input_pattern[VIVI_MAX_INPUTS] = {
	VIVI_PAT_BARS75, VIVI_PAT_BARS100, VIVI_PAT_CHECKER, VIVI_PAT_BARS_BOX,
};

static int vivi_s_input(struct file *file, void *priv, unsigned int i)
{
	struct vivi_cap *cap = vivi_file_cap(file);
	struct vivi_dev *vivi = cap->node.vivi;

	if (i >= vivi->cfg.n_inputs + vivi->cfg.hdmi_input)
		return -EINVAL;
	if (i == cap->input)
		return 0;
	if (vb2_is_busy(&cap->node.queue))
		return -EBUSY;
	cap->input = i;
	if (vivi_dv_input(cap)) {
		vivi_dv_apply(cap);
		return v4l2_ctrl_s_ctrl(cap->ctrl_pattern, VIVI_PAT_BARS75);
	}
	/* back from the HDMI input: a size and a rate the camera offers */
	vivi_fmt_try_pix(&vivi->cfg.formats, &vivi->modes, &cap->jpeg,
			 &cap->node.fmt);
	vivi_cap_set_interval(cap, &cap->timeperframe);
	return v4l2_ctrl_s_ctrl(cap->ctrl_pattern, vivi_input_pattern[i]);
}

/* Control events, and source changes of the HDMI input */
static int vivi_subscribe_event(struct v4l2_fh *fh,
				const struct v4l2_event_subscription *sub)
{
	struct vivi_node *node = video_get_drvdata(fh->vdev);

	if (sub->type == V4L2_EVENT_SOURCE_CHANGE &&
	    node->vivi->cfg.hdmi_input)
		return v4l2_src_change_event_subscribe(fh, sub);
	return v4l2_ctrl_subscribe_event(fh, sub);
}

static int vivi_log_status(struct file *file, void *priv)
{
	struct vivi_cap *cap = vivi_file_cap(file);
	char buf[VIVI_STATUS_LEN], *line, *cur = buf;

	v4l2_ctrl_log_status(file, priv);
	vivi_status_text(cap, buf, sizeof(buf));
	while ((line = strsep(&cur, "\n")) != NULL)
		if (*line)
			v4l2_info(&cap->node.vivi->v4l2_dev, "%s\n", line);
	return 0;
}

const struct v4l2_ioctl_ops vivi_ioctl_ops = {
	.vidioc_querycap		= vivi_querycap,
	.vidioc_enum_fmt_vid_cap	= vivi_enum_fmt,
	.vidioc_g_fmt_vid_cap		= vivi_g_fmt,
	.vidioc_try_fmt_vid_cap		= vivi_try_fmt,
	.vidioc_s_fmt_vid_cap		= vivi_s_fmt,
	.vidioc_enum_framesizes		= vivi_enum_framesizes,
	.vidioc_enum_frameintervals	= vivi_enum_frameintervals,
	.vidioc_g_parm			= vivi_g_parm,
	.vidioc_s_parm			= vivi_s_parm,
	.vidioc_enum_input		= vivi_enum_input,
	.vidioc_g_input			= vivi_g_input,
	.vidioc_s_input			= vivi_s_input,
	.vidioc_dv_timings_cap		= vivi_dv_timings_cap,
	.vidioc_enum_dv_timings		= vivi_enum_dv_timings,
	.vidioc_g_dv_timings		= vivi_g_dv_timings,
	.vidioc_s_dv_timings		= vivi_s_dv_timings,
	.vidioc_query_dv_timings	= vivi_query_dv_timings,

	.vidioc_reqbufs			= vb2_ioctl_reqbufs,
	.vidioc_create_bufs		= vb2_ioctl_create_bufs,
	.vidioc_prepare_buf		= vb2_ioctl_prepare_buf,
	.vidioc_querybuf		= vb2_ioctl_querybuf,
	.vidioc_qbuf			= vb2_ioctl_qbuf,
	.vidioc_dqbuf			= vb2_ioctl_dqbuf,
	.vidioc_expbuf			= vb2_ioctl_expbuf,
	.vidioc_streamon		= vb2_ioctl_streamon,
	.vidioc_streamoff		= vb2_ioctl_streamoff,

	.vidioc_log_status		= vivi_log_status,
	.vidioc_subscribe_event		= vivi_subscribe_event,
	.vidioc_unsubscribe_event	= v4l2_event_unsubscribe,
};

/* a stall set while this file streamed ends with the file */
static int vivi_file_release(struct file *file)
{
	vivi_inject_release(vivi_file_cap(file), file->private_data);
	return vb2_fop_release(file);
}

const struct v4l2_file_operations vivi_fops = {
	.owner		= THIS_MODULE,
	.open		= v4l2_fh_open,
	.release	= vivi_file_release,
	.read		= vb2_fop_read,
	.poll		= vb2_fop_poll,
	.mmap		= vb2_fop_mmap,
	.unlocked_ioctl	= video_ioctl2,
};

/* Controls */

static const char * const vivi_osd_menu[] = {
	"All", "Counters Only", "None", NULL,
};

static const char * const vivi_aspect_menu[] = {
	[VIVI_ASPECT_CROP] = "Crop to Fill",
	[VIVI_ASPECT_LETTERBOX] = "Letterbox",
	[VIVI_ASPECT_STRETCH] = "Stretch",
	[VIVI_ASPECT_COUNT] = NULL,
};

static const char * const vivi_idle_menu[] = {
	[VIVI_IDLE_PATTERN] = "Test Pattern",
	[VIVI_IDLE_NO_SIGNAL] = "No Signal",
	[VIVI_IDLE_LAST_FRAME] = "Last Frame",
	[VIVI_IDLE_COUNT] = NULL,
};

static const char * const vivi_pacing_menu[] = {
	[VIVI_PACING_CAMERA] = "Camera Clock",
	[VIVI_PACING_PRODUCER] = "Producer Clock",
	[VIVI_PACING_COUNT] = NULL,
};

/*
 * The next frame takes the new quality. MJPEG's sizeimage follows it while
 * no buffers are allocated; else at the next S_FMT, so that the format an
 * application read (and sized its USERPTR buffers from) never changes
 * behind it. A frame that does not fit the buffers comes back as ERROR.
 */
static void vivi_s_jpeg_quality(struct vivi_cap *cap, u32 quality)
{
	struct vivi_dev *vivi = cap->node.vivi;

	vivi_jpeg_bound_init(&cap->jpeg, quality);
	if (!vb2_is_busy(&cap->node.queue))
		vivi_fmt_try_pix(&vivi->cfg.formats, &vivi->modes,
				 &cap->jpeg, &cap->node.fmt);
	spin_lock_irq(&vivi->slock);
	cap->jpeg_quality = quality;
	spin_unlock_irq(&vivi->slock);
}

static int vivi_s_ctrl(struct v4l2_ctrl *ctrl)
{
	struct vivi_cap *cap = container_of(ctrl->handler, struct vivi_cap,
					    ctrl_handler);
	struct vivi_dev *vivi = cap->node.vivi;
	struct vivi_gen_settings *s = &cap->settings;
	unsigned long flags;

	if (ctrl->id == V4L2_CID_JPEG_COMPRESSION_QUALITY) {
		vivi_s_jpeg_quality(cap, ctrl->val);
		return 0;
	}

	/* the thread copies the settings under slock before each frame */
	spin_lock_irqsave(&vivi->slock, flags);
	switch (ctrl->id) {
	case V4L2_CID_TEST_PATTERN:
		s->pattern = ctrl->val;
		break;
	case V4L2_CID_BRIGHTNESS:
		s->brightness = ctrl->val;
		break;
	case V4L2_CID_CONTRAST:
		s->contrast = ctrl->val;
		break;
	case V4L2_CID_SATURATION:
		s->saturation = ctrl->val;
		break;
	case V4L2_CID_HUE:
		s->hue = ctrl->val;
		break;
	case V4L2_CID_HFLIP:
		s->hflip = ctrl->val;
		break;
	case V4L2_CID_VFLIP:
		s->vflip = ctrl->val;
		break;
	case VIVI_CID_OSD_MODE:
		cap->osd_mode = ctrl->val;
		break;
	case VIVI_CID_ASPECT:
		cap->aspect = ctrl->val;
		break;
	case VIVI_CID_IDLE_PICTURE:
		cap->idle = ctrl->val;
		break;
	case VIVI_CID_FRAME_PACING:
		cap->pacing = ctrl->val;
		break;
	case VIVI_CID_MOTION_SPEED:
		s->motion_speed = ctrl->val;
		break;
	case VIVI_CID_FRAME_STAMP:
		s->stamp = ctrl->val;
		break;
	}
	spin_unlock_irqrestore(&vivi->slock, flags);
	return 0;
}

static const struct v4l2_ctrl_ops vivi_ctrl_ops = {
	.s_ctrl = vivi_s_ctrl,
};

static const struct v4l2_ctrl_config vivi_ctrl_osd = {
	.ops = &vivi_ctrl_ops,
	.id = VIVI_CID_OSD_MODE,
	.name = "OSD Text",
	.type = V4L2_CTRL_TYPE_MENU,
	.max = ARRAY_SIZE(vivi_osd_menu) - 2,
	.def = VIVI_OSD_ALL,
	.qmenu = vivi_osd_menu,
};

static const struct v4l2_ctrl_config vivi_ctrl_motion = {
	.ops = &vivi_ctrl_ops,
	.id = VIVI_CID_MOTION_SPEED,
	.name = "Motion Speed",
	.type = V4L2_CTRL_TYPE_INTEGER,
	.min = 0,
	.max = 64,
	.step = 1,
	.def = 0,
};

/* a producer's frames of another shape: cropped as a sensor mode does */
static const struct v4l2_ctrl_config vivi_ctrl_aspect = {
	.ops = &vivi_ctrl_ops,
	.id = VIVI_CID_ASPECT,
	.name = "Aspect",
	.type = V4L2_CTRL_TYPE_MENU,
	.max = VIVI_ASPECT_COUNT - 1,
	.def = VIVI_ASPECT_CROP,
	.qmenu = vivi_aspect_menu,
};

/* what consumers see while no producer streams */
static const struct v4l2_ctrl_config vivi_ctrl_idle = {
	.ops = &vivi_ctrl_ops,
	.id = VIVI_CID_IDLE_PICTURE,
	.name = "Idle Picture",
	.type = V4L2_CTRL_TYPE_MENU,
	.max = VIVI_IDLE_COUNT - 1,
	.def = VIVI_IDLE_PATTERN,
	.qmenu = vivi_idle_menu,
};

/* what paces the capture node while a producer streams */
static const struct v4l2_ctrl_config vivi_ctrl_pacing = {
	.ops = &vivi_ctrl_ops,
	.id = VIVI_CID_FRAME_PACING,
	.name = "Frame Pacing",
	.type = V4L2_CTRL_TYPE_MENU,
	.max = VIVI_PACING_COUNT - 1,
	.def = VIVI_PACING_CAMERA,
	.qmenu = vivi_pacing_menu,
};

/* sequence and capture time as blocks at the bottom: see vivi_gen.h */
static const struct v4l2_ctrl_config vivi_ctrl_stamp = {
	.ops = &vivi_ctrl_ops,
	.id = VIVI_CID_FRAME_STAMP,
	.name = "Frame Stamp",
	.type = V4L2_CTRL_TYPE_BOOLEAN,
	.max = 1,
	.step = 1,
};

/* The controls of capture node @cap: MJPEG's quality, the fault knobs */
static void vivi_cap_ctrls(struct vivi_cap *cap, struct v4l2_ctrl_handler *hdl)
{
	struct vivi_dev *vivi = cap->node.vivi;

	if (vivi_fmt_offered(&vivi->cfg.formats, V4L2_PIX_FMT_MJPEG))
		v4l2_ctrl_new_std(hdl, &vivi_ctrl_ops,
				  V4L2_CID_JPEG_COMPRESSION_QUALITY,
				  VIVI_JPEG_QUALITY_MIN, VIVI_JPEG_QUALITY_MAX, 1,
				  VIVI_JPEG_QUALITY_DEF);
	if (vivi->cfg.fault_controls)
		vivi_inject_ctrls(cap, hdl);
}

/**
 * vivi_ctrls_init() - create a capture node's controls, apply their defaults
 * @cap: the capture node
 *
 * Return: 0 or a negative error; the device's release frees the handler.
 */
int vivi_ctrls_init(struct vivi_cap *cap)
{
	struct vivi_dev *vivi = cap->node.vivi;
	struct v4l2_ctrl_handler *hdl = &cap->ctrl_handler;
	const struct v4l2_ctrl_ops *ops = &vivi_ctrl_ops;
	struct v4l2_ctrl_config osd = vivi_ctrl_osd;
	int ret;

	/* fed frames are the application's picture: no text unless asked */
	if (vivi->cfg.producer)
		osd.def = VIVI_OSD_NONE;
	v4l2_ctrl_handler_init(hdl, 31 + VIVI_KNOB_COUNT + 1);
	cap->ctrl_pattern =
		v4l2_ctrl_new_std_menu_items(hdl, ops, V4L2_CID_TEST_PATTERN,
					     VIVI_PAT_COUNT - 1, 0,
					     VIVI_PAT_BARS75,
					     vivi_gen_pattern_names);
	v4l2_ctrl_new_std(hdl, ops, V4L2_CID_BRIGHTNESS, 0, 255, 1,
			  VIVI_GEN_BRIGHTNESS_DEF);
	v4l2_ctrl_new_std(hdl, ops, V4L2_CID_CONTRAST, 0, 255, 1,
			  VIVI_GEN_CONTRAST_DEF);
	v4l2_ctrl_new_std(hdl, ops, V4L2_CID_SATURATION, 0, 255, 1,
			  VIVI_GEN_SATURATION_DEF);
	v4l2_ctrl_new_std(hdl, ops, V4L2_CID_HUE, -180, 180, 1,
			  VIVI_GEN_HUE_DEF);
	v4l2_ctrl_new_std(hdl, ops, V4L2_CID_HFLIP, 0, 1, 1, 0);
	v4l2_ctrl_new_std(hdl, ops, V4L2_CID_VFLIP, 0, 1, 1, 0);
	v4l2_ctrl_new_custom(hdl, &osd, NULL);
	v4l2_ctrl_new_custom(hdl, &vivi_ctrl_motion, NULL);
	v4l2_ctrl_new_custom(hdl, &vivi_ctrl_stamp, NULL);
	if (vivi->cfg.producer) {
		v4l2_ctrl_new_custom(hdl, &vivi_ctrl_aspect, NULL);
		v4l2_ctrl_new_custom(hdl, &vivi_ctrl_idle, NULL);
		v4l2_ctrl_new_custom(hdl, &vivi_ctrl_pacing, NULL);
	}
	vivi_camera_ctrls(cap);
	vivi_dv_ctrls(cap);
	vivi_cap_ctrls(cap, hdl);
	ret = hdl->error;
	if (ret)
		return ret;
	return v4l2_ctrl_handler_setup(hdl);
}
