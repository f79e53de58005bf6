// SPDX-License-Identifier: GPL-2.0
/*
 * vivi - a virtual V4L2 capture device that serves test patterns
 *
 * This file: the module parameters, which become one configuration per
 * device (vivi_config.c) and the devices made from them (vivi_dev.c; more
 * come and go through configfs, vivi_configfs.c), and
 * the platform driver that sets a device up and tears it down. The stream
 * lives in vivi_stream.c, the ioctls in vivi_ioctl.c, the formats in
 * vivi_fmt.c.
 */

#include <linux/debugfs.h>
#include <linux/font.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/platform_device.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <media/v4l2-ioctl.h>

#include "vivi.h"
#include "vivi_compat.h"
#include "vivi_configfs.h"
#include "vivi_dev.h"

static unsigned int n_devs = 1;
module_param(n_devs, uint, 0444);
MODULE_PARM_DESC(n_devs, " number of devices, 0 to 64 (default 1)");

static int video_nr[VIVI_MAX_DEVS] = { [0 ... VIVI_MAX_DEVS - 1] = -1 };
module_param_array(video_nr, int, NULL, 0444);
MODULE_PARM_DESC(video_nr, " /dev/videoN number of each device, -1 = first free (default)");

static char *card_label[VIVI_MAX_DEVS];
module_param_array(card_label, charp, NULL, 0444);
MODULE_PARM_DESC(card_label, " card name of each device, up to 31 characters (default \"vivi N\")");

static unsigned int n_inputs = 1;
module_param(n_inputs, uint, 0444);
MODULE_PARM_DESC(n_inputs, " number of camera inputs per device, 1 to 4 (default 1)");

static char *formats_param;
module_param_named(formats, formats_param, charp, 0444);
MODULE_PARM_DESC(formats, " comma-separated fourccs that restrict and order the formats offered, e.g. \"YUYV,NV12\" (default all)");

/* Fault injection for the tests, as vivid's error-injection knobs */
static bool fault_controls;
module_param(fault_controls, bool, 0444);
MODULE_PARM_DESC(fault_controls, " testing only: offer the debugfs fault knobs as controls too, in their own class (default off)");

static bool producer[VIVI_MAX_DEVS];
module_param_array(producer, bool, NULL, 0444);
MODULE_PARM_DESC(producer, " 1: the device gets an output node too, whose frames applications write and its capture nodes show (default 0)");

static unsigned int consumers[VIVI_MAX_DEVS] = {
	[0 ... VIVI_MAX_DEVS - 1] = 1
};
module_param_array(consumers, uint, NULL, 0444);
MODULE_PARM_DESC(consumers, " capture nodes of each device, 1 to 8, each a camera with its own format, rate and controls (default 1)");

static bool hdmi_input;
module_param(hdmi_input, bool, 0444);
MODULE_PARM_DESC(hdmi_input, " one more input after the cameras, an HDMI-like one whose resolution the source sets, changed through debugfs with a source-change event (default off)");

static int fail_dev = -1;
module_param(fail_dev, int, 0444);
MODULE_PARM_DESC(fail_dev, " testing only: the probe of this device fails once fully registered, so the load unwinds; -1 = none (default)");

static struct dentry *vivi_debugfs_root;
/* set once the load cannot fail: a probe after that registers its node */
static bool vivi_nodes_live;

static int vivi_stats_show(struct seq_file *m, void *unused)
{
	struct vivi_cap *cap = m->private;
	char buf[VIVI_STATUS_LEN];
	int ret;

	ret = mutex_lock_interruptible(&cap->node.vivi->lock);
	if (ret)
		return ret;
	vivi_status_text(cap, buf, sizeof(buf));
	mutex_unlock(&cap->node.vivi->lock);
	seq_puts(m, buf);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vivi_stats);

/* Device lifetime */

/* What vivi_alloc() made, and each capture node's controls */
static void vivi_free(struct vivi_dev *vivi)
{
	unsigned int i;

	for (i = 0; i < vivi->n_caps; i++) {
		v4l2_ctrl_handler_free(&vivi->caps[i]->ctrl_handler);
		kvfree(vivi->caps[i]->scratch);
		kfree(vivi->caps[i]);
	}
	mutex_destroy(&vivi->lock);
	kfree(vivi);
}

static void vivi_release(struct v4l2_device *v4l2_dev)
{
	struct vivi_dev *vivi = container_of(v4l2_dev, struct vivi_dev,
					     v4l2_dev);

	vivi_dbg(1, vivi, "last reference gone, freeing the device\n");
	vivi_out_free(&vivi->out);
	v4l2_device_unregister(&vivi->v4l2_dev);
	vivi_free(vivi);
}

/* Capture node @index of @vivi, with its power-on picture settings */
static struct vivi_cap *vivi_cap_alloc(struct vivi_dev *vivi,
				       unsigned int index)
{
	const struct vivi_config *cfg = &vivi->cfg;
	struct vivi_cap *cap;
	u32 width;

	cap = kzalloc(sizeof(*cap), GFP_KERNEL);
	if (!cap)
		return NULL;
	/* the HDMI input's timings and the producer's size go up to VIVI_MAX_WIDTH */
	width = vivi_modes_max_width(&cfg->modes);
	if (cfg->hdmi_input || cfg->producer)
		width = max_t(u32, width, VIVI_MAX_WIDTH);
	cap->scratch = kvzalloc(vivi_frame_scratch_size(width, cfg->producer),
				GFP_KERNEL);
	if (!cap->scratch) {
		kfree(cap);
		return NULL;
	}
	cap->node.vivi = vivi;	/* early: the controls' setup reaches it */
	cap->index = index;
	cap->jpeg_quality = VIVI_JPEG_QUALITY_DEF;
	vivi_jpeg_bound_init(&cap->jpeg, VIVI_JPEG_QUALITY_DEF);
	cap->settings.pattern = VIVI_PAT_BARS75;
	cap->settings.brightness = VIVI_GEN_BRIGHTNESS_DEF;
	cap->settings.contrast = VIVI_GEN_CONTRAST_DEF;
	cap->settings.saturation = VIVI_GEN_SATURATION_DEF;
	cap->settings.hue = VIVI_GEN_HUE_DEF;
	cap->camera_osd.focus_auto = 1;
	cap->camera_osd.sharpness = VIVI_SHARPNESS_DEF;
	cap->camera_osd.power_line = VIVI_POWER_LINE_DEF;
	vivi_dv_init(cap);
	return cap;
}

static struct vivi_dev *vivi_alloc(struct platform_device *pdev,
				   const struct vivi_config *cfg)
{
	const struct font_desc *font = find_font("VGA8x16");
	struct vivi_dev *vivi;

	vivi = kzalloc(sizeof(*vivi), GFP_KERNEL);
	if (!vivi)
		return NULL;
	vivi->pdev = pdev;
	vivi->inst = pdev->id;
	vivi->cfg = *cfg;
	vivi->modes = cfg->modes;
	vivi->font = font ? font->data : NULL;
	mutex_init(&vivi->lock);
	spin_lock_init(&vivi->slock);
	for (; vivi->n_caps < cfg->consumers; vivi->n_caps++) {
		vivi->caps[vivi->n_caps] = vivi_cap_alloc(vivi, vivi->n_caps);
		if (!vivi->caps[vivi->n_caps]) {
			vivi_free(vivi);
			return NULL;
		}
	}
	return vivi;
}

/* The card name of capture node @index: the label, then " (consumer K)" */
static void vivi_node_name(const struct vivi_dev *vivi, unsigned int index,
			   char *name, size_t size)
{
	char tail[sizeof(" (consumer 8)")] = "";

	if (index)
		snprintf(tail, sizeof(tail), " (consumer %u)", index + 1);
	vivi_node_label(vivi, tail, name, size);
}

/* The capture node: its queue, power-on format and video device */
static int vivi_node_init(struct vivi_dev *vivi, struct vivi_cap *cap)
{
	struct vivi_node *node = &cap->node;
	struct video_device *vdev = &node->vdev;
	int ret;

	node->type = VIVI_NODE_CAPTURE;
	vivi_fmt_default_pix(&vivi->cfg.formats, &vivi->cfg.modes, &cap->jpeg,
			     &node->fmt);
	cap->timeperframe = vivi_fmt_snap_interval(&vivi->cfg.modes,
						   &vivi->cfg.modes.def_interval,
						   node->fmt.width,
						   node->fmt.height);
	ret = vivi_queue_init(cap, &vivi->pdev->dev);
	if (ret)
		return ret;

	vivi_node_name(vivi, cap->index, vdev->name, sizeof(vdev->name));
	vdev->fops = &vivi_fops;
	vdev->ioctl_ops = &vivi_ioctl_ops;
	vdev->release = video_device_release_empty;
	vdev->v4l2_dev = &vivi->v4l2_dev;
	vdev->ctrl_handler = &cap->ctrl_handler;
	vdev->queue = &node->queue;
	vdev->lock = &vivi->lock;
	vdev->vfl_dir = VFL_DIR_RX;
	vdev->device_caps = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING |
			    V4L2_CAP_READWRITE;
	video_set_drvdata(vdev, node);
	if (!vivi->cfg.hdmi_input) {
		/* no input has DV timings: as without the ioctls */
		v4l2_disable_ioctl(vdev, VIDIOC_DV_TIMINGS_CAP);
		v4l2_disable_ioctl(vdev, VIDIOC_ENUM_DV_TIMINGS);
		v4l2_disable_ioctl(vdev, VIDIOC_G_DV_TIMINGS);
		v4l2_disable_ioctl(vdev, VIDIOC_S_DV_TIMINGS);
		v4l2_disable_ioctl(vdev, VIDIOC_QUERY_DV_TIMINGS);
	}
	return 0;
}

/* Register one node; the first capture node takes the number asked for */
static int vivi_vdev_register(struct vivi_dev *vivi, struct video_device *vdev,
			      int nr)
{
	int ret = video_register_device(vdev, VFL_TYPE_VIDEO, nr);

	if (ret)
		return ret;
	/* the core took the next free number; the teardown unregisters it */
	if (vivi->cfg.nr_exact && nr >= 0 && vdev->num != nr) {
		v4l2_err(&vivi->v4l2_dev, "/dev/video%d is taken\n", nr);
		return -EBUSY;
	}
	v4l2_info(&vivi->v4l2_dev, "\"%s\" registered as %s\n", vdev->name,
		  video_device_node_name(vdev));
	return 0;
}

/* Capture node @cap's debugfs files, in a directory named after its node */
static void vivi_node_debugfs(struct vivi_cap *cap)
{
	cap->debugfs = debugfs_create_dir(video_device_node_name(&cap->node.vdev),
					  vivi_debugfs_root);
	debugfs_create_file("stats", 0444, cap->debugfs, cap,
			    &vivi_stats_fops);
	vivi_inject_debugfs(cap, cap->debugfs);
	vivi_dv_debugfs(cap, cap->debugfs);
}

/*
 * Make the nodes live, with their debugfs files: the capture nodes, then
 * the producer's, each taking the next free number after the first. Nothing
 * may fail after this in a module load: once registered, any process
 * (udev's v4l_id, PipeWire) may open a node, and a failed load frees the
 * module under that file.
 */
static int vivi_nodes_register(struct vivi_dev *vivi)
{
	int nr = vivi->cfg.video_nr;
	unsigned int i;
	int ret;

	for (i = 0; i < vivi->n_caps; i++) {
		ret = vivi_vdev_register(vivi, &vivi->caps[i]->node.vdev,
					 i ? -1 : nr);
		if (ret)
			return ret;
		vivi_node_debugfs(vivi->caps[i]);
	}
	if (!vivi->cfg.producer)
		return 0;
	return vivi_vdev_register(vivi, &vivi->out.node.vdev, -1);
}

/*
 * The one teardown, for a probe that fails once the V4L2 device is
 * registered and for remove (an unplug, a sysfs unbind, a destroyed
 * device, the module's unload), as uvcvideo's probe error path and
 * disconnect share theirs. Whatever was set up goes; the memory goes with
 * the last reference, in vivi_release().
 */
static void vivi_teardown(struct vivi_dev *vivi)
{
	struct vivi_config *cfg = dev_get_platdata(&vivi->pdev->dev);
	struct vivi_cap *cap;
	unsigned int i;

	for (i = 0; i < vivi->n_caps; i++) {
		cap = vivi->caps[i];
		debugfs_remove_recursive(cap->debugfs);
		cap->debugfs = NULL;
		/* a node is registered only once the module has loaded */
		if (!video_is_registered(&cap->node.vdev))
			continue;
		/* a replug (or sysfs bind) brings the first back as the same number */
		if (!i) {
			cfg->video_nr = cap->node.vdev.num;
			cfg->nr_exact = false;
		}
		v4l2_info(&vivi->v4l2_dev, "removing %s\n",
			  video_device_node_name(&cap->node.vdev));
		/* open files get ENODEV; memory goes when the last one closes */
		video_unregister_device(&cap->node.vdev);
		vivi_queue_disconnect(cap);
	}
	/* once no capture node reads the producer's frames */
	if (video_is_registered(&vivi->out.node.vdev)) {
		video_unregister_device(&vivi->out.node.vdev);
		vivi_out_disconnect(&vivi->out);
	}
	v4l2_device_put(&vivi->v4l2_dev);
}

/* Each capture node's controls and queue, then the producer's node */
static int vivi_nodes_init(struct vivi_dev *vivi)
{
	unsigned int i;
	int ret;

	for (i = 0; i < vivi->n_caps; i++) {
		ret = vivi_ctrls_init(vivi->caps[i]) ?:
		      vivi_node_init(vivi, vivi->caps[i]);
		if (ret)
			return ret;
	}
	return vivi->cfg.producer ? vivi_out_init(vivi) : 0;
}

static int vivi_probe(struct platform_device *pdev)
{
	const struct vivi_config *cfg = dev_get_platdata(&pdev->dev);
	struct vivi_dev *vivi;
	int ret;

	if (!cfg)
		return -EINVAL;
	vivi = vivi_alloc(pdev, cfg);
	if (!vivi)
		return -ENOMEM;

	ret = v4l2_device_register(&pdev->dev, &vivi->v4l2_dev);
	if (ret)
		goto free_vivi;
	/* from here on, vivi_release() frees everything */
	vivi->v4l2_dev.release = vivi_release;

	ret = vivi_nodes_init(vivi);
	if (ret)
		goto put_dev;
	if (cfg->fail_probe) {
		v4l2_info(&vivi->v4l2_dev, "fail_dev=%u: failing the probe\n",
			  vivi->inst);
		ret = -EIO;
		goto put_dev;
	}
	/* at load, vivi_init() registers every node once all devices probed */
	if (vivi_nodes_live) {
		ret = vivi_nodes_register(vivi);
		if (ret)
			goto put_dev;
	}
	platform_set_drvdata(pdev, vivi);
	return 0;

put_dev:
	vivi_teardown(vivi);
	return ret;
free_vivi:
	vivi_free(vivi);
	return ret;
}

static void vivi_remove(struct platform_device *pdev)
{
	vivi_teardown(platform_get_drvdata(pdev));
}

VIVI_PLATFORM_REMOVE_INT(vivi_remove)

static int vivi_probe_recorded(struct platform_device *pdev)
{
	int ret = vivi_probe(pdev);

	vivi_dev_probed(pdev, ret);
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

/*
 * The parameter behind each setting of a device's config, for the log:
 * card_label, video_nr, producer and consumers have an entry per device,
 * the others
 * apply to every device
 */
static const struct {
	const char *name;
	bool per_dev;
} vivi_params[VIVI_CONFIG_ATTRS] = {
	[VIVI_CONFIG_LABEL] = { "card_label", true },
	[VIVI_CONFIG_VIDEO_NR] = { "video_nr", true },
	[VIVI_CONFIG_INPUTS] = { "n_inputs" },
	[VIVI_CONFIG_FORMATS] = { "formats" },
	[VIVI_CONFIG_HDMI_INPUT] = { "hdmi_input" },
	[VIVI_CONFIG_FAULT_CONTROLS] = { "fault_controls" },
	[VIVI_CONFIG_PRODUCER] = { "producer", true },
	[VIVI_CONFIG_CONSUMERS] = { "consumers", true },
};

/* The parameters that are no device's setting */
static int vivi_check_params(void)
{
	if (n_devs > VIVI_MAX_DEVS) {
		pr_err("vivi: n_devs=%u is out of range 0..%u\n", n_devs,
		       VIVI_MAX_DEVS);
		return -EINVAL;
	}
	if (fail_dev < -1 || fail_dev >= (int)n_devs) {
		pr_err("vivi: fail_dev=%d is out of range -1..%d\n", fail_dev,
		       (int)n_devs - 1);
		return -EINVAL;
	}
	if (vivi_debug > 3) {
		pr_err("vivi: debug=%u is out of range 0..3\n", vivi_debug);
		return -EINVAL;
	}
	return 0;
}

/*
 * Device @inst's configuration: the defaults, then each parameter through
 * its setter, then the check of the whole. A refusal is logged with the
 * parameter's name (and the device's index, for per-device parameters).
 */
static int vivi_param_config(struct vivi_config *cfg, unsigned int inst)
{
	struct vivi_config_why why;
	int ret;

	vivi_config_defaults(cfg, inst);
	vivi_config_set_hdmi_input(cfg, hdmi_input);
	vivi_config_set_fault_controls(cfg, fault_controls);
	vivi_config_set_producer(cfg, producer[inst]);
	cfg->fail_probe = fail_dev == inst;
	ret = vivi_config_set_inputs(cfg, n_inputs, &why) ?:
	      vivi_config_set_video_nr(cfg, video_nr[inst], &why) ?:
	      vivi_config_set_consumers(cfg, consumers[inst], &why) ?:
	      vivi_config_parse_formats(cfg, formats_param, &why);
	/* an empty card_label entry keeps the default */
	if (!ret && card_label[inst] && *card_label[inst])
		ret = vivi_config_set_label(cfg, card_label[inst], &why);
	if (!ret)
		ret = vivi_config_validate(cfg, &why);
	if (!ret)
		return 0;
	if (vivi_params[why.attr].per_dev)
		pr_err("vivi: %s[%u]%s\n", vivi_params[why.attr].name, inst,
		       why.text);
	else
		pr_err("vivi: %s%s\n", vivi_params[why.attr].name, why.text);
	return ret;
}

/*
 * Every parameter is checked before any device is made, entries of
 * card_label and video_nr past n_devs too: a typo there fails the load
 */
static int vivi_check_configs(void)
{
	struct vivi_config cfg;
	unsigned int inst;
	int ret = vivi_check_params();

	for (inst = 0; !ret && inst < VIVI_MAX_DEVS; inst++)
		ret = vivi_param_config(&cfg, inst);
	return ret;
}

/*
 * Register the node of a device that probed at load. Nodes before it are
 * live already, so a failure no longer fails the load: the device is
 * unbound, as a camera that failed to probe, and the others stay.
 */
static void vivi_node_go_live(struct platform_device *pdev)
{
	struct vivi_dev *vivi = platform_get_drvdata(pdev);
	int ret = vivi_nodes_register(vivi);

	if (ret) {
		v4l2_err(&vivi->v4l2_dev, "no video node: %d\n", ret);
		device_release_driver(&pdev->dev);
	}
}

/*
 * The devices of the parameters, IDs 0 to n_devs - 1. Their nodes go live
 * only once every one has probed: once registered, any process (udev's
 * v4l_id, PipeWire) may open a node, and a failed load would free the
 * module under that file.
 */
static int vivi_create_param_devs(void)
{
	struct vivi_config cfg;
	unsigned int inst;
	int ret;

	for (inst = 0; inst < n_devs; inst++) {
		ret = vivi_param_config(&cfg, inst);
		if (!ret)
			ret = vivi_dev_create(&cfg);
		if (ret < 0)
			return ret;
	}
	vivi_nodes_live = true;
	vivi_dev_for_each(vivi_node_go_live);
	return 0;
}

static int __init vivi_init(void)
{
	int ret;

	ret = vivi_fmt_check_table();
	if (!ret)
		ret = vivi_check_configs();
	if (ret)
		return ret;

	vivi_debugfs_root = debugfs_create_dir(VIVI_DRV_NAME, NULL);
	ret = platform_driver_register(&vivi_pdrv);
	if (ret)
		goto remove_debugfs;
	ret = vivi_create_param_devs();
	if (ret)
		goto destroy;
	/* last: a device made through configfs would not wait for the load */
	ret = vivi_configfs_register();
	if (ret)
		goto destroy;
	vivi_dev_plug_debugfs(vivi_debugfs_root);
	return 0;

destroy:
	vivi_dev_destroy_all();
	platform_driver_unregister(&vivi_pdrv);
remove_debugfs:
	debugfs_remove_recursive(vivi_debugfs_root);
	return ret;
}

static void __exit vivi_exit(void)
{
	vivi_dev_plug_debugfs_remove();
	vivi_configfs_unregister();
	vivi_dev_destroy_all();
	platform_driver_unregister(&vivi_pdrv);
	debugfs_remove_recursive(vivi_debugfs_root);
}

module_init(vivi_init);
module_exit(vivi_exit);

MODULE_DESCRIPTION("Virtual V4L2 capture device serving test patterns");
MODULE_AUTHOR("The vivi developers");
MODULE_LICENSE("GPL");
MODULE_VERSION("0.1");
