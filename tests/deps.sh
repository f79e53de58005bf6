#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages the build, 'make run' and 'make check' need,
# only those that are missing.
set -euo pipefail
pkgs=(
	build-essential cpio gzip xz-utils zstd kmod sparse
	linux-image-amd64 linux-headers-amd64
	qemu-system-x86 busybox-static
	v4l-utils ffmpeg python3 python3-pil
	gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
	python3-opencv chromium strace
)
missing=()
for p in "${pkgs[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		grep -q 'install ok installed'; then
		missing+=("$p")
	fi
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing packages: ${missing[*]}" >&2
	echo "deps: run as root, or: sudo apt-get install ${missing[*]}" >&2
	exit 1
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
