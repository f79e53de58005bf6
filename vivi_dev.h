/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The devices of vivi and their lifetime: each device is a platform device
 * "vivi.ID" made from a config, its ID taken from a registry. vivi_main.c's
 * platform driver binds them (probe builds the V4L2 device, remove tears
 * it down); module parameters and configfs (vivi_configfs.c) call the same
 * create and destroy.
 */
#ifndef _VIVI_DEV_H_
#define _VIVI_DEV_H_

#include <linux/types.h>

struct dentry;
struct platform_device;
struct vivi_config;

/* devices from parameters and from configfs, all together */
#define VIVI_MAX_DEVS		64

int vivi_dev_create(const struct vivi_config *cfg);
int vivi_dev_destroy(unsigned int id);
void vivi_dev_destroy_all(void);
size_t vivi_dev_nodes(unsigned int id, char *buf, size_t size);
void vivi_dev_probed(struct platform_device *pdev, int ret);
void vivi_dev_for_each(void (*fn)(struct platform_device *pdev));
void vivi_dev_plug_debugfs(struct dentry *root);
void vivi_dev_plug_debugfs_remove(void);

#endif
