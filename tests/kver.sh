#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Print the kernel version to build and test against.
#
#   tests/kver.sh         the main kernel: the running one if its headers are
#                         installed, else the one Debian's linux-headers-amd64
#                         points to, else the newest installed headers
#   tests/kver.sh SERIES  the newest kernel of SERIES (e.g. 6.12) with both
#                         headers and /boot/vmlinuz; status 1 if there is none
set -uo pipefail

if [ $# -gt 0 ]; then
	for d in $(ls -d /lib/modules/"$1".*/build 2>/dev/null | sort -rV); do
		v=$(cut -d/ -f4 <<<"$d")
		if [ -e "/boot/vmlinuz-$v" ]; then
			echo "$v"
			exit 0
		fi
	done
	exit 1
fi
v=$(uname -r)
if [ ! -d "/lib/modules/$v/build" ]; then
	v=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null |
		sed -n 's/^linux-headers-\([^ ,]*\).*/\1/p')
fi
if [ -z "$v" ] || [ ! -d "/lib/modules/$v/build" ]; then
	v=$(ls -d /lib/modules/*/build 2>/dev/null | sort -V | tail -n 1 |
		cut -d/ -f4)
fi
[ -n "$v" ] && echo "$v"
