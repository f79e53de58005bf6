/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /sys/kernel/config/vivi: devices made and removed at run time
 * (vivi_configfs.c, docs/configfs.md).
 */
#ifndef _VIVI_CONFIGFS_H_
#define _VIVI_CONFIGFS_H_

int vivi_configfs_register(void);
void vivi_configfs_unregister(void);

#endif
