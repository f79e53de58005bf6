#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The kernel version to build and test against: the running kernel if its
# headers are installed, else the one Debian's linux-headers-amd64 points at
# (the distribution's stock kernel, even when a backports kernel is also
# installed), else the newest installed headers.
k=$(uname -r)
if [ -d "/lib/modules/$k/build" ]; then
	echo "$k"
	exit 0
fi
k=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null |
	sed -n 's/^linux-headers-\([^ ,]*\).*/\1/p')
if [ -n "$k" ] && [ -d "/lib/modules/$k/build" ]; then
	echo "$k"
	exit 0
fi
ls -d /lib/modules/*/build 2>/dev/null | sort -V | tail -n 1 | cut -d/ -f4
