// SPDX-License-Identifier: GPL-2.0
/*
 * vivi's HDMI input (module parameter hdmi_input=1): an input whose
 * resolution and rate the (virtual) source sets, as on an HDMI capture
 * card, so that apps can be tested against a source change.
 *
 * The source's timings are set from debugfs (vivi/videoN/source: a
 * WxHpR name from the table below, or "none" for no signal). A change
 * queues V4L2_EVENT_SOURCE_CHANGE (resolution) for the input's
 * subscribers. As the DV timings API has it, the receiver keeps its own
 * timings until the application sets them (QUERY_DV_TIMINGS, then
 * S_DV_TIMINGS, which the format and the frame interval follow): a
 * running stream goes on at the old timings, and S_DV_TIMINGS is refused
 * with EBUSY while buffers are allocated. vivid's HDMI input behaves the
 * same.
 *
 * The timings are a table of CEA-861 and DMT ones at sizes vivi draws, so
 * that this file needs nothing beyond videodev (the kernel's
 * v4l2-dv-timings helpers would add a module that insmod users must load
 * first).
 */

#include <linux/debugfs.h>
#include <linux/gcd.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/v4l2-dv-timings.h>
#include <media/v4l2-ctrls.h>
#include <media/v4l2-event.h>

#include "vivi.h"

static const struct v4l2_dv_timings vivi_dv_table[] = {
	V4L2_DV_BT_DMT_640X480P60,
	V4L2_DV_BT_DMT_800X600P60,
	V4L2_DV_BT_DMT_1024X768P60,
	V4L2_DV_BT_CEA_1280X720P25,
	V4L2_DV_BT_CEA_1280X720P30,
	V4L2_DV_BT_CEA_1280X720P50,
	V4L2_DV_BT_CEA_1280X720P60,
	V4L2_DV_BT_CEA_1920X1080P25,
	V4L2_DV_BT_CEA_1920X1080P30,
	V4L2_DV_BT_CEA_1920X1080P50,
	V4L2_DV_BT_CEA_1920X1080P60,
	V4L2_DV_BT_CEA_3840X2160P30,
};

/* The power-on timings of the source and of the receiver */
#define VIVI_DV_DEFAULT		6	/* 1280x720p60 */

static const struct v4l2_dv_timings_cap vivi_dv_cap = {
	.type = V4L2_DV_BT_656_1120,
	V4L2_INIT_BT_TIMINGS(640, VIVI_MAX_WIDTH, 480, VIVI_MAX_HEIGHT,
			     25000000, 300000000,
			     V4L2_DV_BT_STD_CEA861 | V4L2_DV_BT_STD_DMT,
			     V4L2_DV_BT_CAP_PROGRESSIVE)
};

/**
 * vivi_dv_input() - true if @cap's current input is the HDMI input
 * @cap: the capture node
 *
 * Return: true on the HDMI input
 */
bool vivi_dv_input(const struct vivi_cap *cap)
{
	const struct vivi_config *cfg = &cap->node.vivi->cfg;

	return cfg->hdmi_input && cap->input == cfg->n_inputs;
}

/* The frame interval of @t, reduced */
static struct v4l2_fract vivi_dv_interval(const struct v4l2_dv_timings *t)
{
	u32 num = V4L2_DV_BT_FRAME_WIDTH(&t->bt) * V4L2_DV_BT_FRAME_HEIGHT(&t->bt);
	u32 den = t->bt.pixelclock;
	u32 g = gcd(num, den);

	return (struct v4l2_fract){ num / g, den / g };
}

/* Rounded frames per second of @t */
static u32 vivi_dv_fps(const struct v4l2_dv_timings *t)
{
	struct v4l2_fract tpf = vivi_dv_interval(t);

	return DIV_ROUND_CLOSEST(tpf.denominator, tpf.numerator);
}

/* The table's entry that @t describes, or NULL */
static const struct v4l2_dv_timings *vivi_dv_find(const struct v4l2_dv_timings *t)
{
	const struct v4l2_bt_timings *bt = &t->bt;
	unsigned int i;

	if (t->type != V4L2_DV_BT_656_1120)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(vivi_dv_table); i++) {
		const struct v4l2_bt_timings *e = &vivi_dv_table[i].bt;

		if (bt->width == e->width && bt->height == e->height &&
		    bt->interlaced == e->interlaced &&
		    bt->pixelclock == e->pixelclock &&
		    V4L2_DV_BT_FRAME_WIDTH(bt) == V4L2_DV_BT_FRAME_WIDTH(e) &&
		    V4L2_DV_BT_FRAME_HEIGHT(bt) == V4L2_DV_BT_FRAME_HEIGHT(e))
			return &vivi_dv_table[i];
	}
	return NULL;
}

/**
 * vivi_dv_try_pix() - the size of @pix forced to the receiver's timings
 * @cap: the capture node, its device on the HDMI input
 * @pix: the format asked for
 */
void vivi_dv_try_pix(struct vivi_cap *cap, struct v4l2_pix_format *pix)
{
	struct vivi_dev *vivi = cap->node.vivi;

	pix->width = cap->dv_timings.bt.width;
	pix->height = cap->dv_timings.bt.height;
	pix->bytesperline = 0;
	/* the timings' size, whatever sizes the camera inputs offer */
	vivi_fmt_fill_pix(&vivi->cfg.formats, &vivi->modes, &cap->jpeg, pix);
}

/**
 * vivi_dv_apply() - the node's format size and frame interval from the
 *	receiver's timings
 * @cap: the capture node, with no buffers allocated
 *
 * Called with &vivi_dev.lock held, on S_DV_TIMINGS and when the HDMI input
 * is selected.
 */
void vivi_dv_apply(struct vivi_cap *cap)
{
	struct vivi_dev *vivi = cap->node.vivi;
	struct v4l2_fract tpf = vivi_dv_interval(&cap->dv_timings);

	vivi_dv_try_pix(cap, &cap->node.fmt);
	spin_lock_irq(&vivi->slock);
	cap->timeperframe = tpf;
	spin_unlock_irq(&vivi->slock);
}

/* The DV timings ioctls: ENODATA on any input but the HDMI one */
int vivi_dv_timings_cap(struct file *file, void *priv,
			struct v4l2_dv_timings_cap *cap)
{
	if (!vivi_dv_input(vivi_to_cap(video_drvdata(file))))
		return -ENODATA;
	if (cap->pad)
		return -EINVAL;
	*cap = vivi_dv_cap;
	return 0;
}

int vivi_enum_dv_timings(struct file *file, void *priv,
			 struct v4l2_enum_dv_timings *t)
{
	if (!vivi_dv_input(vivi_to_cap(video_drvdata(file))))
		return -ENODATA;
	if (t->pad || t->index >= ARRAY_SIZE(vivi_dv_table))
		return -EINVAL;
	memset(t->reserved, 0, sizeof(t->reserved));
	t->timings = vivi_dv_table[t->index];
	return 0;
}

int vivi_g_dv_timings(struct file *file, void *priv,
		      struct v4l2_dv_timings *t)
{
	struct vivi_cap *cap = vivi_to_cap(video_drvdata(file));

	if (!vivi_dv_input(cap))
		return -ENODATA;
	*t = cap->dv_timings;
	return 0;
}

int vivi_s_dv_timings(struct file *file, void *priv,
		      struct v4l2_dv_timings *t)
{
	struct vivi_cap *cap = vivi_to_cap(video_drvdata(file));
	const struct v4l2_dv_timings *e;

	if (!vivi_dv_input(cap))
		return -ENODATA;
	e = vivi_dv_find(t);
	if (!e)
		return -EINVAL;
	*t = *e;
	if (e == vivi_dv_find(&cap->dv_timings))
		return 0;
	if (vb2_is_busy(&cap->node.queue))
		return -EBUSY;
	cap->dv_timings = *e;
	vivi_dv_apply(cap);
	return 0;
}

int vivi_query_dv_timings(struct file *file, void *priv,
			  struct v4l2_dv_timings *t)
{
	struct vivi_cap *cap = vivi_to_cap(video_drvdata(file));

	if (!vivi_dv_input(cap))
		return -ENODATA;
	if (!cap->dv_signal)
		return -ENOLINK;
	*t = cap->dv_source;
	return 0;
}

/**
 * vivi_dv_init() - power-on timings: a 1280x720p60 source, matched
 * @cap: the capture node
 */
void vivi_dv_init(struct vivi_cap *cap)
{
	cap->dv_timings = vivi_dv_table[VIVI_DV_DEFAULT];
	cap->dv_source = vivi_dv_table[VIVI_DV_DEFAULT];
	cap->dv_signal = true;
}

/**
 * vivi_dv_ctrls() - the receiver's controls, with hdmi_input=1
 * @cap: the capture node
 *
 * V4L2_CID_DV_RX_POWER_PRESENT: bit 0, the HDMI input, is set while the
 * source sends a signal.
 */
void vivi_dv_ctrls(struct vivi_cap *cap)
{
	if (cap->node.vivi->cfg.hdmi_input)
		cap->ctrl_rx_power =
			v4l2_ctrl_new_std(&cap->ctrl_handler, NULL,
					  V4L2_CID_DV_RX_POWER_PRESENT,
					  0, 1, 0, 1);
}

/* "1280x720p60", or "none" */
static int vivi_dv_name(const struct v4l2_dv_timings *t, bool signal,
			char *buf, size_t size)
{
	if (!signal)
		return scnprintf(buf, size, "none\n");
	return scnprintf(buf, size, "%ux%up%u\n", t->bt.width, t->bt.height,
			 vivi_dv_fps(t));
}

static ssize_t vivi_dv_source_read(struct file *file, char __user *ubuf,
				   size_t len, loff_t *ppos)
{
	struct vivi_cap *cap = file->private_data;
	struct vivi_dev *vivi = cap->node.vivi;
	char buf[32];
	int n, ret;

	ret = mutex_lock_interruptible(&vivi->lock);
	if (ret)
		return ret;
	n = vivi_dv_name(&cap->dv_source, cap->dv_signal, buf, sizeof(buf));
	mutex_unlock(&vivi->lock);
	return simple_read_from_buffer(ubuf, len, ppos, buf, n);
}

/* The table entry named @name ("WxHpR"), or NULL */
static const struct v4l2_dv_timings *vivi_dv_named(const char *name)
{
	char buf[32];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(vivi_dv_table); i++) {
		vivi_dv_name(&vivi_dv_table[i], true, buf, sizeof(buf));
		if (!strcmp(name, strim(buf)))
			return &vivi_dv_table[i];
	}
	return NULL;
}

/* A new source: tell the input's subscribers that its resolution changed */
static void vivi_dv_source_change(struct vivi_node *node)
{
	struct v4l2_event ev = {
		.type = V4L2_EVENT_SOURCE_CHANGE,
		.id = node->vivi->cfg.n_inputs,
		.u.src_change.changes = V4L2_EVENT_SRC_CH_RESOLUTION,
	};

	v4l2_event_queue(&node->vdev, &ev);
}

static ssize_t vivi_dv_source_write(struct file *file,
				    const char __user *ubuf, size_t len,
				    loff_t *ppos)
{
	struct vivi_cap *cap = file->private_data;
	struct vivi_dev *vivi = cap->node.vivi;
	const struct v4l2_dv_timings *e = NULL;
	char buf[32];
	bool signal;
	int ret;

	if (*ppos || len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	signal = strcmp(strim(buf), "none");
	if (signal) {
		e = vivi_dv_named(strim(buf));
		if (!e) {
			v4l2_info(&vivi->v4l2_dev,
				  "source: '%s' is not WxHpR of a timing offered (ENUM_DV_TIMINGS), or none\n",
				  strim(buf));
			return -EINVAL;
		}
	}
	ret = mutex_lock_interruptible(&vivi->lock);
	if (ret)
		return ret;
	if (signal != cap->dv_signal ||
	    (signal && e != vivi_dv_find(&cap->dv_source))) {
		cap->dv_signal = signal;
		if (e)
			cap->dv_source = *e;
		if (cap->ctrl_rx_power)
			v4l2_ctrl_s_ctrl(cap->ctrl_rx_power, signal);
		vivi_dv_source_change(&cap->node);
	}
	mutex_unlock(&vivi->lock);
	return len;
}

static const struct file_operations vivi_dv_source_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = vivi_dv_source_read,
	.write = vivi_dv_source_write,
	.llseek = default_llseek,
};

/**
 * vivi_dv_debugfs() - the source knob, with hdmi_input=1
 * @cap: the node whose input the source feeds, told of each change
 * @dir: the node's debugfs directory
 */
void vivi_dv_debugfs(struct vivi_cap *cap, struct dentry *dir)
{
	if (cap->node.vivi->cfg.hdmi_input)
		debugfs_create_file("source", 0600, dir, cap,
				    &vivi_dv_source_fops);
}
