// SPDX-License-Identifier: GPL-2.0
/*
 * vivi's camera controls: the set a good USB webcam offers, with the
 * ranges, steps and defaults of a typical UVC camera, so that an app's
 * camera-settings code meets what it meets on hardware.
 *
 * Zoom, pan, tilt, exposure, gain, white balance, gamma, backlight
 * compensation and privacy act on the picture (the formulas are in
 * vivi_gen.h and docs/device.md). Focus, sharpness and the power line
 * frequency cannot be shown honestly by a synthetic, perfectly sharp and
 * flicker-free scene: they keep their values and, when any differs from
 * its default, appear as a fourth line of the on-screen text.
 *
 * Each auto/manual pair is an auto cluster, so that the manual control is
 * INACTIVE while its auto control is on, as on a real camera.
 */

#include <linux/kernel.h>
#include <media/v4l2-ctrls.h>

#include "vivi.h"

/* The menu entries of V4L2_CID_EXPOSURE_AUTO that a UVC camera offers */
#define VIVI_EXPOSURE_SKIP	(BIT(V4L2_EXPOSURE_AUTO) | \
				 BIT(V4L2_EXPOSURE_SHUTTER_PRIORITY))

static int vivi_camera_s_ctrl(struct v4l2_ctrl *ctrl)
{
	struct vivi_cap *cap = container_of(ctrl->handler, struct vivi_cap,
					    ctrl_handler);
	struct vivi_dev *vivi = cap->node.vivi;
	struct vivi_gen_settings *s = &cap->settings;
	struct vivi_camera_osd *o = &cap->camera_osd;
	unsigned long flags;

	/* the thread copies the settings under slock before each frame */
	spin_lock_irqsave(&vivi->slock, flags);
	switch (ctrl->id) {
	case V4L2_CID_EXPOSURE_AUTO:	/* cluster: exposure time */
		s->exposure = ctrl->val == V4L2_EXPOSURE_MANUAL ?
			      ctrl->cluster[1]->val : 0;
		break;
	case V4L2_CID_AUTO_WHITE_BALANCE:	/* cluster: temperature */
		s->wb_temp = ctrl->val ? 0 : ctrl->cluster[1]->val;
		break;
	case V4L2_CID_FOCUS_AUTO:	/* cluster: focus */
		o->focus_auto = ctrl->val;
		o->focus = ctrl->cluster[1]->val;
		break;
	case V4L2_CID_GAIN:
		s->gain = ctrl->val;
		break;
	case V4L2_CID_GAMMA:
		s->gamma = ctrl->val;
		break;
	case V4L2_CID_BACKLIGHT_COMPENSATION:
		s->backlight = ctrl->val;
		break;
	case V4L2_CID_SHARPNESS:
		o->sharpness = ctrl->val;
		break;
	case V4L2_CID_POWER_LINE_FREQUENCY:
		o->power_line = ctrl->val;
		break;
	case V4L2_CID_ZOOM_ABSOLUTE:
		s->zoom = ctrl->val;
		break;
	case V4L2_CID_PAN_ABSOLUTE:
		s->pan = ctrl->val;
		break;
	case V4L2_CID_TILT_ABSOLUTE:
		s->tilt = ctrl->val;
		break;
	case V4L2_CID_PRIVACY:
		s->privacy = ctrl->val;
		break;
	}
	spin_unlock_irqrestore(&vivi->slock, flags);
	return 0;
}

static const struct v4l2_ctrl_ops vivi_camera_ops = {
	.s_ctrl = vivi_camera_s_ctrl,
};

/*
 * Auto control @aut and its manual partner @man as pair @k of @cap, whose
 * array the cluster keeps: the partner is INACTIVE while auto is on
 */
static void vivi_camera_pair(struct vivi_cap *cap, unsigned int k,
			     struct v4l2_ctrl *aut, struct v4l2_ctrl *man,
			     u8 manual_val)
{
	struct v4l2_ctrl **pair = cap->camera_pairs[k];

	if (cap->ctrl_handler.error)
		return;
	pair[0] = aut;
	pair[1] = man;
	v4l2_ctrl_auto_cluster(2, pair, manual_val, false);
}

/**
 * vivi_camera_ctrls() - add the camera controls to a capture node's handler
 * @cap: the capture node
 *
 * Errors are left in the handler's error, as the control framework does.
 */
void vivi_camera_ctrls(struct vivi_cap *cap)
{
	struct v4l2_ctrl_handler *hdl = &cap->ctrl_handler;
	const struct v4l2_ctrl_ops *ops = &vivi_camera_ops;
	struct v4l2_ctrl *aut, *man;

	/* user class */
	v4l2_ctrl_new_std(hdl, ops, V4L2_CID_GAMMA, VIVI_GEN_GAMMA_MIN,
			  VIVI_GEN_GAMMA_MAX, 1, VIVI_GEN_GAMMA_DEF);
	v4l2_ctrl_new_std(hdl, ops, V4L2_CID_GAIN, 0, VIVI_GEN_GAIN_MAX, 1, 0);
	v4l2_ctrl_new_std(hdl, ops, V4L2_CID_SHARPNESS, 0, 255, 1,
			  VIVI_SHARPNESS_DEF);
	v4l2_ctrl_new_std(hdl, ops, V4L2_CID_BACKLIGHT_COMPENSATION, 0,
			  VIVI_GEN_BACKLIGHT_MAX, 1, 0);
	v4l2_ctrl_new_std_menu(hdl, ops, V4L2_CID_POWER_LINE_FREQUENCY,
			       V4L2_CID_POWER_LINE_FREQUENCY_60HZ, 0,
			       VIVI_POWER_LINE_DEF);
	aut = v4l2_ctrl_new_std(hdl, ops, V4L2_CID_AUTO_WHITE_BALANCE,
				0, 1, 1, 1);
	man = v4l2_ctrl_new_std(hdl, ops, V4L2_CID_WHITE_BALANCE_TEMPERATURE,
				VIVI_GEN_WB_MIN, VIVI_GEN_WB_MAX, 1,
				VIVI_GEN_WB_REF);
	vivi_camera_pair(cap, 0, aut, man, 0);

	/* camera class */
	aut = v4l2_ctrl_new_std_menu(hdl, ops, V4L2_CID_EXPOSURE_AUTO,
				     V4L2_EXPOSURE_APERTURE_PRIORITY,
				     VIVI_EXPOSURE_SKIP,
				     V4L2_EXPOSURE_APERTURE_PRIORITY);
	man = v4l2_ctrl_new_std(hdl, ops, V4L2_CID_EXPOSURE_ABSOLUTE,
				VIVI_GEN_EXPOSURE_MIN, VIVI_GEN_EXPOSURE_MAX,
				1, VIVI_GEN_EXPOSURE_REF);
	vivi_camera_pair(cap, 1, aut, man, V4L2_EXPOSURE_MANUAL);
	aut = v4l2_ctrl_new_std(hdl, ops, V4L2_CID_FOCUS_AUTO, 0, 1, 1, 1);
	man = v4l2_ctrl_new_std(hdl, ops, V4L2_CID_FOCUS_ABSOLUTE, 0,
				VIVI_FOCUS_MAX, VIVI_FOCUS_STEP, 0);
	vivi_camera_pair(cap, 2, aut, man, 0);
	v4l2_ctrl_new_std(hdl, ops, V4L2_CID_ZOOM_ABSOLUTE, VIVI_GEN_ZOOM_MIN,
			  VIVI_GEN_ZOOM_MAX, 1, VIVI_GEN_ZOOM_MIN);
	v4l2_ctrl_new_std(hdl, ops, V4L2_CID_PAN_ABSOLUTE, -VIVI_GEN_PAN_MAX,
			  VIVI_GEN_PAN_MAX, VIVI_PAN_STEP, 0);
	v4l2_ctrl_new_std(hdl, ops, V4L2_CID_TILT_ABSOLUTE, -VIVI_GEN_PAN_MAX,
			  VIVI_GEN_PAN_MAX, VIVI_PAN_STEP, 0);
	v4l2_ctrl_new_std(hdl, ops, V4L2_CID_PRIVACY, 0, 1, 1, 0);
}

/**
 * vivi_camera_text() - the on-screen line of the controls not shown
 * @o: their values
 * @buf: where to write the line
 * @size: its size
 *
 * Return: true if a line was written: some value differs from its default
 */
bool vivi_camera_text(const struct vivi_camera_osd *o, char *buf,
		      size_t size)
{
	static const char * const hz[] = { "PLoff", "PL50Hz", "PL60Hz" };
	char focus[8] = "AF";

	if (o->focus_auto && !o->focus && o->sharpness == VIVI_SHARPNESS_DEF &&
	    o->power_line == VIVI_POWER_LINE_DEF)
		return false;
	if (!o->focus_auto)
		snprintf(focus, sizeof(focus), "F%u", o->focus);
	snprintf(buf, size, "%s Sh%u %s", focus, o->sharpness,
		 hz[min_t(u32, o->power_line, ARRAY_SIZE(hz) - 1)]);
	return true;
}
