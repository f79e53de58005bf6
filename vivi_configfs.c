// SPDX-License-Identifier: GPL-2.0
/*
 * Devices made at run time: /sys/kernel/config/vivi/NAME holds one
 * device's configuration, an attribute a setting (vivi_config_text.c reads
 * and writes them), as the UVC gadget and vkms make theirs. "enabled"
 * creates the device from it and removes it again (vivi_dev.c), as an
 * unplug does; "nodes" lists its /dev paths. docs/configfs.md is the
 * user's page.
 */

#include <linux/configfs.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#include "vivi.h"
#include "vivi_config.h"
#include "vivi_configfs.h"
#include "vivi_dev.h"

/**
 * struct vivi_cfs_dev - one /sys/kernel/config/vivi/NAME
 * @item: its configfs item
 * @lock: guards @cfg and @id: an attribute's read or write, enabled's
 *	create and remove
 * @cfg: the configuration; the device keeps a copy of its own
 * @id: the device's ID while enabled, else -1
 */
struct vivi_cfs_dev {
	struct config_item item;
	struct mutex lock;	/* guards cfg and id */
	struct vivi_config cfg;
	int id;
};

static struct configfs_subsystem vivi_cfs_subsys;

static struct vivi_cfs_dev *to_vivi_cfs(struct config_item *item)
{
	return container_of(item, struct vivi_cfs_dev, item);
}

static ssize_t vivi_cfs_show(struct config_item *item,
			     enum vivi_config_attr attr, char *page)
{
	struct vivi_cfs_dev *d = to_vivi_cfs(item);
	size_t len;

	mutex_lock(&d->lock);
	len = vivi_config_show(&d->cfg, attr, page, PAGE_SIZE);
	mutex_unlock(&d->lock);
	return len;
}

static ssize_t vivi_cfs_store(struct config_item *item,
			      enum vivi_config_attr attr, const char *page,
			      size_t len)
{
	struct vivi_cfs_dev *d = to_vivi_cfs(item);
	struct vivi_config_why why;
	int ret = -EBUSY;

	mutex_lock(&d->lock);
	if (d->id < 0)
		ret = vivi_config_store(&d->cfg, attr, page, len, &why);
	mutex_unlock(&d->lock);
	if (ret == -EBUSY)
		pr_info("vivi: %s: %s: cannot change while enabled\n",
			config_item_name(item), vivi_config_attr_name(attr));
	else if (ret)
		pr_err("vivi: %s: %s%s\n", config_item_name(item),
		       vivi_config_attr_name(why.attr), why.text);
	return ret ?: len;
}

/* Each setting's show and store, named as vivi_config_attr_name() says */
#define VIVI_CFS_ATTR(_name, _attr)					\
static ssize_t vivi_cfs_##_name##_show(struct config_item *item,	\
				       char *page)			\
{									\
	return vivi_cfs_show(item, _attr, page);			\
}									\
static ssize_t vivi_cfs_##_name##_store(struct config_item *item,	\
					const char *page, size_t len)	\
{									\
	return vivi_cfs_store(item, _attr, page, len);			\
}									\
CONFIGFS_ATTR(vivi_cfs_, _name)

VIVI_CFS_ATTR(label, VIVI_CONFIG_LABEL);
VIVI_CFS_ATTR(video_nr, VIVI_CONFIG_VIDEO_NR);
VIVI_CFS_ATTR(inputs, VIVI_CONFIG_INPUTS);
VIVI_CFS_ATTR(formats, VIVI_CONFIG_FORMATS);
VIVI_CFS_ATTR(hdmi_input, VIVI_CONFIG_HDMI_INPUT);
VIVI_CFS_ATTR(fault_controls, VIVI_CONFIG_FAULT_CONTROLS);
VIVI_CFS_ATTR(sizes, VIVI_CONFIG_SIZES);
VIVI_CFS_ATTR(rates, VIVI_CONFIG_RATES);
VIVI_CFS_ATTR(default_size, VIVI_CONFIG_DEFAULT_SIZE);
VIVI_CFS_ATTR(default_rate, VIVI_CONFIG_DEFAULT_RATE);
VIVI_CFS_ATTR(default_format, VIVI_CONFIG_DEFAULT_FORMAT);
VIVI_CFS_ATTR(producer, VIVI_CONFIG_PRODUCER);
VIVI_CFS_ATTR(consumers, VIVI_CONFIG_CONSUMERS);

/*
 * Create the device. The item depends on it from now on, so configfs
 * refuses its rmdir with EBUSY until the device is removed again.
 */
static int vivi_cfs_enable(struct vivi_cfs_dev *d)
{
	const char *name = config_item_name(&d->item);
	struct vivi_config_why why;
	int ret, id;

	ret = vivi_config_validate(&d->cfg, &why);
	if (ret) {
		pr_err("vivi: %s: %s%s\n", name,
		       vivi_config_attr_name(why.attr), why.text);
		return ret;
	}
	ret = configfs_depend_item_unlocked(&vivi_cfs_subsys, &d->item);
	if (ret)
		return ret;
	id = vivi_dev_create(&d->cfg);
	if (id < 0) {
		configfs_undepend_item_unlocked(&d->item);
		if (id == -ENOSPC)
			pr_err("vivi: %s: there are %u devices already\n",
			       name, VIVI_MAX_DEVS);
		else
			pr_err("vivi: %s: the device was not made: %d\n",
			       name, id);
		return id;
	}
	d->id = id;
	return 0;
}

static void vivi_cfs_disable(struct vivi_cfs_dev *d)
{
	vivi_dev_destroy(d->id);
	d->id = -1;
	configfs_undepend_item_unlocked(&d->item);
}

static ssize_t vivi_cfs_enabled_show(struct config_item *item, char *page)
{
	struct vivi_cfs_dev *d = to_vivi_cfs(item);
	int on;

	mutex_lock(&d->lock);
	on = d->id >= 0;
	mutex_unlock(&d->lock);
	return sysfs_emit(page, "%d\n", on);
}

static ssize_t vivi_cfs_enabled_store(struct config_item *item,
				      const char *page, size_t len)
{
	struct vivi_cfs_dev *d = to_vivi_cfs(item);
	unsigned int on;
	int ret;

	ret = kstrtouint(page, 10, &on);
	if (!ret && on > 1)
		ret = -EINVAL;
	if (ret) {
		pr_err("vivi: %s: enabled takes 0 or 1\n",
		       config_item_name(item));
		return ret;
	}
	mutex_lock(&d->lock);
	if (on && d->id < 0)
		ret = vivi_cfs_enable(d);
	else if (!on && d->id >= 0)
		vivi_cfs_disable(d);
	mutex_unlock(&d->lock);
	return ret ?: len;
}
CONFIGFS_ATTR(vivi_cfs_, enabled);

static ssize_t vivi_cfs_nodes_show(struct config_item *item, char *page)
{
	struct vivi_cfs_dev *d = to_vivi_cfs(item);
	size_t len = 0;

	mutex_lock(&d->lock);
	if (d->id >= 0)
		len = vivi_dev_nodes(d->id, page, PAGE_SIZE);
	mutex_unlock(&d->lock);
	return len;
}
CONFIGFS_ATTR_RO(vivi_cfs_, nodes);

static struct configfs_attribute *vivi_cfs_attrs[] = {
	&vivi_cfs_attr_label,
	&vivi_cfs_attr_video_nr,
	&vivi_cfs_attr_inputs,
	&vivi_cfs_attr_formats,
	&vivi_cfs_attr_hdmi_input,
	&vivi_cfs_attr_fault_controls,
	&vivi_cfs_attr_sizes,
	&vivi_cfs_attr_rates,
	&vivi_cfs_attr_default_size,
	&vivi_cfs_attr_default_rate,
	&vivi_cfs_attr_default_format,
	&vivi_cfs_attr_producer,
	&vivi_cfs_attr_consumers,
	&vivi_cfs_attr_enabled,
	&vivi_cfs_attr_nodes,
	NULL,
};

/* After the rmdir, which the item's dependency refuses while enabled */
static void vivi_cfs_release(struct config_item *item)
{
	struct vivi_cfs_dev *d = to_vivi_cfs(item);

	mutex_destroy(&d->lock);
	kfree(d);
}

static struct configfs_item_operations vivi_cfs_item_ops = {
	.release = vivi_cfs_release,
};

static const struct config_item_type vivi_cfs_dev_type = {
	.ct_item_ops = &vivi_cfs_item_ops,
	.ct_attrs = vivi_cfs_attrs,
	.ct_owner = THIS_MODULE,
};

/* mkdir: a configuration with the defaults, labelled with its name */
static struct config_item *vivi_cfs_make(struct config_group *group,
					 const char *name)
{
	struct vivi_cfs_dev *d = kzalloc(sizeof(*d), GFP_KERNEL);

	if (!d)
		return ERR_PTR(-ENOMEM);
	vivi_config_defaults(&d->cfg, 0);
	strscpy(d->cfg.card_label, name, sizeof(d->cfg.card_label));
	d->cfg.nr_exact = true;
	d->id = -1;
	mutex_init(&d->lock);
	config_item_init_type_name(&d->item, name, &vivi_cfs_dev_type);
	return &d->item;
}

static struct configfs_group_operations vivi_cfs_group_ops = {
	.make_item = vivi_cfs_make,
};

static const struct config_item_type vivi_cfs_type = {
	.ct_group_ops = &vivi_cfs_group_ops,
	.ct_owner = THIS_MODULE,
};

static struct configfs_subsystem vivi_cfs_subsys = {
	.su_group = {
		.cg_item = {
			.ci_namebuf = VIVI_DRV_NAME,
			.ci_type = &vivi_cfs_type,
		},
	},
};

/**
 * vivi_configfs_register() - make /sys/kernel/config/vivi
 *
 * Return: 0, or the error of configfs_register_subsystem()
 */
int vivi_configfs_register(void)
{
	int ret;

	config_group_init(&vivi_cfs_subsys.su_group);
	mutex_init(&vivi_cfs_subsys.su_mutex);
	ret = configfs_register_subsystem(&vivi_cfs_subsys);
	if (ret)
		pr_err("vivi: configfs: cannot register: %d\n", ret);
	return ret;
}

/**
 * vivi_configfs_unregister() - remove /sys/kernel/config/vivi
 *
 * configfs holds the module while any NAME exists, so none does here.
 */
void vivi_configfs_unregister(void)
{
	configfs_unregister_subsystem(&vivi_cfs_subsys);
	mutex_destroy(&vivi_cfs_subsys.su_mutex);
}
