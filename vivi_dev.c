// SPDX-License-Identifier: GPL-2.0
/*
 * Device lifetime: create a device from a config, destroy it, unplug and
 * replug it, and the registry of device IDs. A device is a platform device
 * "vivi.ID" whose platform data is a copy of its config; the platform
 * driver in vivi_main.c builds the V4L2 device when it binds (probe) and
 * tears it down when it lets go (remove), so destroy, unplug, sysfs unbind
 * and module unload all end in the same remove.
 */

#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "vivi.h"
#include "vivi_dev.h"

/**
 * struct vivi_slot - one device of the registry
 * @pdev: its platform device, "vivi.ID"; unbound while unplugged
 * @probe_err: what its last probe returned, 0 for success
 */
struct vivi_slot {
	struct platform_device *pdev;
	int probe_err;
};

/*
 * ID -> struct vivi_slot. vivi_devs_lock serializes create, destroy,
 * unplug and replug, and guards which IDs are taken. A probe runs inside
 * create's platform_device_register_data() (or under replug or a sysfs
 * bind) and finds its slot with xa_load() alone: a slot is freed only once
 * its device is unregistered, when no probe can run any more.
 */
static DEFINE_XARRAY_ALLOC(vivi_devs);
static DEFINE_MUTEX(vivi_devs_lock);

/**
 * vivi_dev_probed() - record how a device's probe went
 * @pdev: the device
 * @ret: what the probe returns
 *
 * For vivi_dev_create(), which returns the error of a device that could
 * not be set up.
 */
void vivi_dev_probed(struct platform_device *pdev, int ret)
{
	struct vivi_slot *slot = NULL;

	if (pdev->id >= 0)
		slot = xa_load(&vivi_devs, pdev->id);
	if (slot)
		slot->probe_err = ret;
}

/**
 * vivi_dev_create() - make a device from a configuration
 * @cfg: the configuration, which the caller has checked with
 *	vivi_config_validate() and logged if refused; the device keeps a copy
 *
 * Takes the lowest free ID, registers the platform device "vivi.ID" and
 * binds it: the probe builds the V4L2 device, and registers its node
 * unless the module is still loading (vivi_main.c). A device that fails
 * to probe is unregistered again and its ID freed.
 *
 * Return: the device's ID, or -EINVAL for a configuration that does not
 * validate, -ENOSPC with VIVI_MAX_DEVS devices, or the error of the probe
 * or of the registration
 */
int vivi_dev_create(const struct vivi_config *cfg)
{
	struct vivi_config_why why;
	struct platform_device *pdev;
	struct vivi_slot *slot;
	u32 id;
	int ret;

	/* the probe trusts its config: never build a device from a bad one */
	if (vivi_config_validate(cfg, &why))
		return -EINVAL;
	slot = kzalloc(sizeof(*slot), GFP_KERNEL);
	if (!slot)
		return -ENOMEM;
	mutex_lock(&vivi_devs_lock);
	ret = xa_alloc(&vivi_devs, &id, slot, XA_LIMIT(0, VIVI_MAX_DEVS - 1),
		       GFP_KERNEL);
	if (ret == -EBUSY)
		ret = -ENOSPC;	/* every ID taken: -EBUSY says video_nr is */
	if (ret)
		goto unlock;
	/* the driver is registered: this probes, and records the result */
	pdev = platform_device_register_data(NULL, VIVI_DRV_NAME, id, cfg,
					     sizeof(*cfg));
	if (IS_ERR(pdev)) {
		ret = PTR_ERR(pdev);
		goto erase;
	}
	slot->pdev = pdev;
	/* a failed probe leaves the device unbound */
	ret = slot->probe_err ?: (platform_get_drvdata(pdev) ? 0 : -ENODEV);
	if (ret) {
		pr_err("vivi: device %u failed to probe: %d\n", id, ret);
		platform_device_unregister(pdev);
		goto erase;
	}
	mutex_unlock(&vivi_devs_lock);
	return id;

erase:
	xa_erase(&vivi_devs, id);
unlock:
	mutex_unlock(&vivi_devs_lock);
	kfree(slot);
	return ret;
}

/*
 * Unplug, as a USB camera goes away: the driver lets go of the device (see
 * vivi_queue_disconnect(): blocked DQBUF and poll wake with EIO and
 * POLLERR, as uvcvideo's; the stream stops, queued buffers come back with
 * ERROR), the node is unregistered and its open files fail with ENODEV.
 */
static int vivi_unplug(struct platform_device *pdev)
{
	bool bound;

	device_lock(&pdev->dev);
	bound = platform_get_drvdata(pdev);
	device_unlock(&pdev->dev);
	if (!bound)
		return -ENODEV;
	device_release_driver(&pdev->dev);
	return 0;
}

/* Bind again: the same label, and the same node number once every old file is closed */
static int vivi_replug(struct platform_device *pdev)
{
	int ret = device_attach(&pdev->dev);

	if (ret < 0)
		return ret;
	return ret ? 0 : -EIO;
}

/**
 * vivi_dev_destroy() - remove a device, as an unplug does, for good
 * @id: what vivi_dev_create() returned
 *
 * Open files fail with ENODEV from now on; the device's memory goes when
 * the last of them closes. The ID is free again.
 *
 * Return: 0, or -ENOENT if there is no such device
 */
int vivi_dev_destroy(unsigned int id)
{
	struct vivi_slot *slot;

	mutex_lock(&vivi_devs_lock);
	slot = xa_erase(&vivi_devs, id);
	if (slot) {
		vivi_unplug(slot->pdev);
		platform_device_unregister(slot->pdev);
	}
	mutex_unlock(&vivi_devs_lock);
	if (!slot)
		return -ENOENT;
	kfree(slot);
	return 0;
}

/**
 * vivi_dev_destroy_all() - remove every device, the last made first
 */
void vivi_dev_destroy_all(void)
{
	unsigned int id;

	for (id = VIVI_MAX_DEVS; id-- > 0;)
		vivi_dev_destroy(id);
}

/* @vivi's registered nodes: its capture nodes, then the producer's */
static size_t vivi_dev_node_names(struct vivi_dev *vivi, char *buf,
				  size_t size)
{
	struct video_device *vdev;
	size_t len = 0;
	unsigned int i;

	for (i = 0; i <= vivi->n_caps; i++) {
		vdev = i < vivi->n_caps ? &vivi->caps[i]->node.vdev :
					  &vivi->out.node.vdev;
		if (video_is_registered(vdev))
			len += scnprintf(buf + len, size - len, "/dev/%s\n",
					 video_device_node_name(vdev));
	}
	return len;
}

/**
 * vivi_dev_nodes() - the /dev paths of a device's nodes, one a line
 * @id: what vivi_dev_create() returned
 * @buf: filled in, always terminated
 * @size: the bytes of @buf
 *
 * Return: the length of the text; 0 for no node (unplugged, or no device)
 */
size_t vivi_dev_nodes(unsigned int id, char *buf, size_t size)
{
	struct vivi_slot *slot;
	struct vivi_dev *vivi;
	size_t len = 0;

	if (size)
		buf[0] = 0;
	mutex_lock(&vivi_devs_lock);
	slot = xa_load(&vivi_devs, id);
	if (slot) {
		/* the driver data is set and cleared under the device lock */
		device_lock(&slot->pdev->dev);
		vivi = platform_get_drvdata(slot->pdev);
		if (vivi)
			len = vivi_dev_node_names(vivi, buf, size);
		device_unlock(&slot->pdev->dev);
	}
	mutex_unlock(&vivi_devs_lock);
	return len;
}

/**
 * vivi_dev_for_each() - call @fn for each device, by ascending ID
 * @fn: called with the registry locked: it must not create, destroy,
 *	unplug or replug
 */
void vivi_dev_for_each(void (*fn)(struct platform_device *pdev))
{
	struct vivi_slot *slot;
	unsigned long id;

	mutex_lock(&vivi_devs_lock);
	xa_for_each(&vivi_devs, id, slot)
		fn(slot->pdev);
	mutex_unlock(&vivi_devs_lock);
}

/*
 * debugfs vivi/unplug and vivi/replug take a device ID: the tests' way to
 * pull a camera out and plug it back in
 */
static struct dentry *vivi_plug_files[2];

static ssize_t vivi_plug_write(struct file *file, const char __user *ubuf,
			       size_t len, loff_t *ppos)
{
	bool replug = file->private_data == &vivi_plug_files[1];
	const char *what = replug ? "replug" : "unplug";
	struct vivi_slot *slot;
	unsigned int id;
	int ret;

	ret = kstrtouint_from_user(ubuf, len, 10, &id);
	if (ret) {
		pr_info("vivi: %s: takes the number of a device\n", what);
		return ret;
	}
	mutex_lock(&vivi_devs_lock);
	slot = xa_load(&vivi_devs, id);
	if (!slot)
		ret = -ENODEV;
	else if (replug)
		ret = vivi_replug(slot->pdev);
	else
		ret = vivi_unplug(slot->pdev);
	mutex_unlock(&vivi_devs_lock);
	if (!slot)
		pr_info("vivi: %s: there is no device %u\n", what, id);
	return ret ?: len;
}

static const struct file_operations vivi_plug_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = vivi_plug_write,
};

/**
 * vivi_dev_plug_debugfs() - make the unplug and replug knobs
 * @root: vivi's debugfs directory
 */
void vivi_dev_plug_debugfs(struct dentry *root)
{
	vivi_plug_files[0] = debugfs_create_file("unplug", 0200, root,
						 &vivi_plug_files[0],
						 &vivi_plug_fops);
	vivi_plug_files[1] = debugfs_create_file("replug", 0200, root,
						 &vivi_plug_files[1],
						 &vivi_plug_fops);
}

/**
 * vivi_dev_plug_debugfs_remove() - remove the knobs
 *
 * Waits for a running unplug or replug, so none races the unload.
 */
void vivi_dev_plug_debugfs_remove(void)
{
	debugfs_remove(vivi_plug_files[0]);
	debugfs_remove(vivi_plug_files[1]);
}
