// SPDX-License-Identifier: GPL-2.0
/*
 * The V4L2 ioctls, controls and file operations of vivi
 */

#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <media/v4l2-common.h>
#include <media/v4l2-ctrls.h>
#include <media/v4l2-event.h>
#include <media/v4l2-fh.h>
#include <media/v4l2-ioctl.h>

#include "vivi.h"

#define VIVI_DEF_WIDTH		640
#define VIVI_DEF_HEIGHT		480
#define VIVI_DEF_FPS		30

/*
 * v4l2_format_info() of older kernels lacks a few of our formats; these
 * entries follow its layout.
 */
static const struct v4l2_format_info vivi_fallback_info[] = {
	{ .format = V4L2_PIX_FMT_RGB565X, .pixel_enc = V4L2_PIXEL_ENC_RGB,
	  .mem_planes = 1, .comp_planes = 1, .bpp = { 2 }, .hdiv = 1,
	  .vdiv = 1 },
	{ .format = V4L2_PIX_FMT_XRGB555, .pixel_enc = V4L2_PIXEL_ENC_RGB,
	  .mem_planes = 1, .comp_planes = 1, .bpp = { 2 }, .hdiv = 1,
	  .vdiv = 1 },
	{ .format = V4L2_PIX_FMT_Y16, .pixel_enc = V4L2_PIXEL_ENC_YUV,
	  .mem_planes = 1, .comp_planes = 1, .bpp = { 2 }, .hdiv = 1,
	  .vdiv = 1 },
};

static const struct v4l2_format_info *vivi_format_info(u32 fourcc)
{
	const struct v4l2_format_info *info = v4l2_format_info(fourcc);
	unsigned int i;

	if (info)
		return info;
	for (i = 0; i < ARRAY_SIZE(vivi_fallback_info); i++)
		if (vivi_fallback_info[i].format == fourcc)
			return &vivi_fallback_info[i];
	return NULL;
}

/* v4l2_find_nearest_size() wants u32 fields */
struct vivi_size {
	u32 width;
	u32 height;
};

static const struct vivi_size vivi_sizes[] = {
	{ 160, 120 }, { 320, 240 }, { 640, 360 }, { 640, 480 },
	{ 800, 600 }, { 1024, 768 }, { 1280, 720 }, { 1920, 1080 },
	{ 2560, 1440 }, { 3840, 2160 },
};

/*
 * Frame intervals, shortest first, as ENUM_FRAMEINTERVALS lists them. 12.5
 * fps is what many webcams (and vivid's webcam input) offer at 720p.
 */
static const struct v4l2_fract vivi_intervals[] = {
	{ 1, 120 }, { 1, 60 }, { 1, 50 }, { 1, 30 }, { 1, 25 }, { 1, 15 },
	{ 2, 25 }, { 1, 10 }, { 1, 5 },
};

static u32 vivi_max_fps(u32 width, u32 height)
{
	if (width * height <= 1280 * 720)
		return 120;
	if (width * height <= 1920 * 1080)
		return 60;
	return 30;
}

static bool vivi_interval_offered(const struct v4l2_fract *tpf, u32 width,
				  u32 height)
{
	/* denominator / numerator > max fps, without dividing */
	return tpf->denominator <= (u64)tpf->numerator *
				   vivi_max_fps(width, height);
}

static u64 vivi_interval_ns(const struct v4l2_fract *tpf)
{
	return div_u64((u64)tpf->numerator * NSEC_PER_SEC, tpf->denominator);
}

static bool vivi_format_offered(u32 fourcc)
{
	unsigned int i;

	for (i = 0; i < vivi_n_formats; i++)
		if (vivi_formats[i] == fourcc)
			return true;
	return false;
}

static bool vivi_size_offered(u32 width, u32 height)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(vivi_sizes); i++)
		if (vivi_sizes[i].width == width &&
		    vivi_sizes[i].height == height)
			return true;
	return false;
}

/**
 * vivi_fps_x10() - ten times the frames per second of an interval, rounded
 * @tpf: the frame interval
 *
 * Return: ten times the rate in frames per second, 0 for a zero interval
 */
u32 vivi_fps_x10(const struct v4l2_fract *tpf)
{
	if (!tpf->numerator)
		return 0;
	return DIV_ROUND_CLOSEST(tpf->denominator * 10, tpf->numerator);
}

/*
 * The offered rate closest to @tpf in time per frame; a zero fraction asks
 * for the default rate.
 */
static struct v4l2_fract vivi_snap_interval(const struct v4l2_fract *tpf,
					    u32 width, u32 height)
{
	struct v4l2_fract best = { 1, VIVI_DEF_FPS };
	u64 want_ns, best_err = U64_MAX;
	unsigned int i;

	if (!tpf->numerator || !tpf->denominator)
		return best;
	want_ns = vivi_interval_ns(tpf);

	for (i = 0; i < ARRAY_SIZE(vivi_intervals); i++) {
		u64 ns = vivi_interval_ns(&vivi_intervals[i]);
		u64 err = ns > want_ns ? ns - want_ns : want_ns - ns;

		if (!vivi_interval_offered(&vivi_intervals[i], width, height))
			continue;
		if (err < best_err) {
			best_err = err;
			best = vivi_intervals[i];
		}
	}
	return best;
}

/*
 * Geometry from the kernel's format table. An application may ask for a
 * larger bytesperline; it is honored up to twice the minimum and kept a
 * multiple of the chroma subsampling, so every plane's stride is exact.
 */
static void vivi_fill_pix(struct v4l2_pix_format *pix,
			  const struct v4l2_format_info *info, u32 req_bpl)
{
	u32 min_bpl = pix->width * info->bpp[0];
	u32 bpl = clamp(req_bpl, min_bpl, 2 * min_bpl);
	unsigned int p;

	if (info->comp_planes > 1)
		bpl = ALIGN(bpl, info->hdiv);
	pix->bytesperline = bpl;
	pix->sizeimage = bpl * pix->height;
	for (p = 1; p < info->comp_planes; p++)
		pix->sizeimage += bpl * info->bpp[p] /
				  (info->bpp[0] * info->hdiv) *
				  DIV_ROUND_UP(pix->height, info->vdiv);
}

/**
 * vivi_plane_layout() - where the color planes of a buffer start
 * @pix: the negotiated format
 * @f: filled with fourcc, size, plane pointers and strides
 * @base: the buffer's kernel address
 *
 * Return: 0, or -EINVAL for a format the driver does not know.
 */
int vivi_plane_layout(const struct v4l2_pix_format *pix,
		      struct vivi_gen_frame *f, u8 *base)
{
	const struct v4l2_format_info *info = vivi_format_info(pix->pixelformat);
	unsigned int p;

	if (!info)
		return -EINVAL;
	memset(f, 0, sizeof(*f));
	f->fourcc = pix->pixelformat;
	f->width = pix->width;
	f->height = pix->height;
	f->plane[0] = base;
	f->stride[0] = pix->bytesperline;
	for (p = 1; p < info->comp_planes && p < ARRAY_SIZE(f->plane); p++) {
		u32 lines = p == 1 ? pix->height :
			    DIV_ROUND_UP(pix->height, info->vdiv);

		f->stride[p] = pix->bytesperline * info->bpp[p] /
			       (info->bpp[0] * info->hdiv);
		f->plane[p] = f->plane[p - 1] + f->stride[p - 1] * lines;
	}
	return 0;
}

/* YUYV, the format every webcam application handles, unless left out */
static u32 vivi_default_fourcc(void)
{
	return vivi_format_offered(V4L2_PIX_FMT_YUYV) ? V4L2_PIX_FMT_YUYV :
							vivi_formats[0];
}

static void vivi_try_pix(struct v4l2_pix_format *pix)
{
	const struct v4l2_format_info *info;
	const struct vivi_size *sz;

	if (!vivi_format_offered(pix->pixelformat))
		pix->pixelformat = vivi_default_fourcc();
	info = vivi_format_info(pix->pixelformat);

	sz = v4l2_find_nearest_size(vivi_sizes, ARRAY_SIZE(vivi_sizes),
				    width, height, pix->width, pix->height);
	pix->width = sz->width;
	pix->height = sz->height;
	pix->field = V4L2_FIELD_NONE;
	vivi_fill_pix(pix, info, pix->bytesperline);

	pix->colorspace = V4L2_COLORSPACE_SRGB;
	pix->xfer_func = V4L2_XFER_FUNC_SRGB;
	pix->ycbcr_enc = V4L2_YCBCR_ENC_601;
	pix->quantization = vivi_gen_is_yuv(pix->pixelformat) ?
			    V4L2_QUANTIZATION_LIM_RANGE :
			    V4L2_QUANTIZATION_FULL_RANGE;
	pix->flags = 0;
	pix->priv = 0;
}

/**
 * vivi_fmt_default() - set the power-on format and frame rate
 * @vivi: the device
 */
void vivi_fmt_default(struct vivi_dev *vivi)
{
	struct v4l2_pix_format *pix = &vivi->fmt;

	memset(pix, 0, sizeof(*pix));
	pix->pixelformat = vivi_default_fourcc();
	pix->width = VIVI_DEF_WIDTH;
	pix->height = VIVI_DEF_HEIGHT;
	vivi_try_pix(pix);
	vivi->timeperframe = (struct v4l2_fract){ 1, VIVI_DEF_FPS };
}

static int vivi_querycap(struct file *file, void *priv,
			 struct v4l2_capability *cap)
{
	struct vivi_dev *vivi = video_drvdata(file);

	strscpy(cap->driver, VIVI_DRV_NAME, sizeof(cap->driver));
	strscpy(cap->card, vivi->vdev.name, sizeof(cap->card));
	snprintf(cap->bus_info, sizeof(cap->bus_info), "platform:%s-%u",
		 VIVI_DRV_NAME, vivi->inst);
	return 0;
}

static int vivi_enum_fmt(struct file *file, void *priv,
			 struct v4l2_fmtdesc *f)
{
	if (f->index >= vivi_n_formats)
		return -EINVAL;
	/* the core fills in the description and flags */
	f->pixelformat = vivi_formats[f->index];
	return 0;
}

static int vivi_g_fmt(struct file *file, void *priv, struct v4l2_format *f)
{
	struct vivi_dev *vivi = video_drvdata(file);

	f->fmt.pix = vivi->fmt;
	return 0;
}

static int vivi_try_fmt(struct file *file, void *priv, struct v4l2_format *f)
{
	vivi_try_pix(&f->fmt.pix);
	return 0;
}

static int vivi_s_fmt(struct file *file, void *priv, struct v4l2_format *f)
{
	struct vivi_dev *vivi = video_drvdata(file);
	struct v4l2_fract tpf;

	vivi_try_pix(&f->fmt.pix);
	if (vb2_is_busy(&vivi->queue))
		return -EBUSY;

	vivi->fmt = f->fmt.pix;
	/* a size that does not offer the current rate snaps the rate too */
	tpf = vivi_snap_interval(&vivi->timeperframe, vivi->fmt.width,
				 vivi->fmt.height);
	spin_lock_irq(&vivi->slock);
	vivi->timeperframe = tpf;
	spin_unlock_irq(&vivi->slock);
	return 0;
}

static int vivi_enum_framesizes(struct file *file, void *priv,
				struct v4l2_frmsizeenum *fsize)
{
	if (!vivi_format_offered(fsize->pixel_format) ||
	    fsize->index >= ARRAY_SIZE(vivi_sizes))
		return -EINVAL;
	fsize->type = V4L2_FRMSIZE_TYPE_DISCRETE;
	fsize->discrete.width = vivi_sizes[fsize->index].width;
	fsize->discrete.height = vivi_sizes[fsize->index].height;
	return 0;
}

static int vivi_enum_frameintervals(struct file *file, void *priv,
				    struct v4l2_frmivalenum *fival)
{
	unsigned int i, n = 0;

	if (!vivi_format_offered(fival->pixel_format) ||
	    !vivi_size_offered(fival->width, fival->height))
		return -EINVAL;

	for (i = 0; i < ARRAY_SIZE(vivi_intervals); i++) {
		if (!vivi_interval_offered(&vivi_intervals[i], fival->width,
					   fival->height))
			continue;
		if (n++ == fival->index) {
			fival->type = V4L2_FRMIVAL_TYPE_DISCRETE;
			fival->discrete = vivi_intervals[i];
			return 0;
		}
	}
	return -EINVAL;
}

static int vivi_g_parm(struct file *file, void *priv,
		       struct v4l2_streamparm *a)
{
	struct vivi_dev *vivi = video_drvdata(file);

	if (a->type != V4L2_BUF_TYPE_VIDEO_CAPTURE)
		return -EINVAL;
	a->parm.capture.capability = V4L2_CAP_TIMEPERFRAME;
	a->parm.capture.timeperframe = vivi->timeperframe;
	a->parm.capture.readbuffers = VIVI_MIN_BUFFERS;
	return 0;
}

static int vivi_s_parm(struct file *file, void *priv,
		       struct v4l2_streamparm *a)
{
	struct vivi_dev *vivi = video_drvdata(file);
	struct v4l2_fract tpf;

	if (a->type != V4L2_BUF_TYPE_VIDEO_CAPTURE)
		return -EINVAL;
	tpf = vivi_snap_interval(&a->parm.capture.timeperframe,
				 vivi->fmt.width, vivi->fmt.height);
	/* the generator thread picks this up at its next deadline */
	spin_lock_irq(&vivi->slock);
	vivi->timeperframe = tpf;
	spin_unlock_irq(&vivi->slock);
	return vivi_g_parm(file, priv, a);
}

static int vivi_enum_input(struct file *file, void *priv,
			   struct v4l2_input *inp)
{
	if (inp->index >= vivi_n_inputs)
		return -EINVAL;
	inp->type = V4L2_INPUT_TYPE_CAMERA;
	snprintf(inp->name, sizeof(inp->name), "Camera %u", inp->index);
	return 0;
}

static int vivi_g_input(struct file *file, void *priv, unsigned int *i)
{
	struct vivi_dev *vivi = video_drvdata(file);

	*i = vivi->input;
	return 0;
}

/* Each input starts on its own pattern, as the inputs of the old vivi did */
static const u32 vivi_input_pattern[VIVI_MAX_INPUTS] = {
	VIVI_PAT_BARS75, VIVI_PAT_BARS100, VIVI_PAT_CHECKER, VIVI_PAT_BARS_BOX,
};

static int vivi_s_input(struct file *file, void *priv, unsigned int i)
{
	struct vivi_dev *vivi = video_drvdata(file);

	if (i >= vivi_n_inputs)
		return -EINVAL;
	if (i == vivi->input)
		return 0;
	if (vb2_is_busy(&vivi->queue))
		return -EBUSY;
	vivi->input = i;
	return v4l2_ctrl_s_ctrl(vivi->ctrl_pattern, vivi_input_pattern[i]);
}

static int vivi_log_status(struct file *file, void *priv)
{
	struct vivi_dev *vivi = video_drvdata(file);
	char buf[512], *line, *cur = buf;

	v4l2_ctrl_log_status(file, priv);
	vivi_status_text(vivi, buf, sizeof(buf));
	while ((line = strsep(&cur, "\n")) != NULL)
		if (*line)
			v4l2_info(&vivi->v4l2_dev, "%s\n", line);
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
	.vidioc_subscribe_event		= v4l2_ctrl_subscribe_event,
	.vidioc_unsubscribe_event	= v4l2_event_unsubscribe,
};

const struct v4l2_file_operations vivi_fops = {
	.owner		= THIS_MODULE,
	.open		= v4l2_fh_open,
	.release	= vb2_fop_release,
	.read		= vb2_fop_read,
	.poll		= vb2_fop_poll,
	.mmap		= vb2_fop_mmap,
	.unlocked_ioctl	= video_ioctl2,
};

/* Controls */

static const char * const vivi_osd_menu[] = {
	"All", "Counters Only", "None", NULL,
};

static int vivi_s_ctrl(struct v4l2_ctrl *ctrl)
{
	struct vivi_dev *vivi = container_of(ctrl->handler, struct vivi_dev,
					     ctrl_handler);
	struct vivi_gen_settings *s = &vivi->settings;
	unsigned long flags;

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
		vivi->osd_mode = ctrl->val;
		break;
	case VIVI_CID_MOTION_SPEED:
		s->motion_speed = ctrl->val;
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

/**
 * vivi_ctrls_init() - create the controls and apply their defaults
 * @vivi: the device
 *
 * Return: 0 or a negative error; on error the handler is already freed.
 */
int vivi_ctrls_init(struct vivi_dev *vivi)
{
	struct v4l2_ctrl_handler *hdl = &vivi->ctrl_handler;
	const struct v4l2_ctrl_ops *ops = &vivi_ctrl_ops;
	int ret;

	v4l2_ctrl_handler_init(hdl, 10);
	vivi->ctrl_pattern =
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
	v4l2_ctrl_new_custom(hdl, &vivi_ctrl_osd, NULL);
	v4l2_ctrl_new_custom(hdl, &vivi_ctrl_motion, NULL);
	ret = hdl->error;
	if (ret) {
		v4l2_ctrl_handler_free(hdl);
		return ret;
	}
	vivi->v4l2_dev.ctrl_handler = hdl;
	return v4l2_ctrl_handler_setup(hdl);
}
