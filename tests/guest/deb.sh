#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# VM step of tests/deb-test.sh. In a suite's root with the vivi-dkms package
# installed (DKMS built vivi for this kernel): modprobe vivi finds that
# build, a node streams 30 RGB24 frames, each one checked for the bars
# (bars.py). With VIVI_KO set instead: that file (make sign's module) is
# insmod-ed after the V4L2 core and streams the same way. VIVI_SIGNER: the
# signer modinfo must name. Prints PASS:/FAIL: lines.
set -u
here=$(cd "$(dirname "$0")" && pwd)
kv=$(uname -r)
tag="deb: $kv"
[ -z "${VIVI_KO:-}" ] || tag="sign: $kv"
raw=$VIVI_OUT/frames-$kv.raw

pass() { echo "PASS: $tag: $1"; }
fail() { echo "FAIL: $tag: $1: $2"; }

# the vivi node's /dev path
vivi_dev() {
	local n
	for n in /sys/class/video4linux/video*; do
		if v4l2-ctl -d "/dev/${n##*/}" -D 2>/dev/null |
			grep -q 'Bus info *: platform:vivi-0$'; then
			echo "/dev/${n##*/}"
			return
		fi
	done
}

if [ -n "${VIVI_KO:-}" ]; then
	ko=$VIVI_KO
	modprobe -a videodev videobuf2-v4l2 videobuf2-vmalloc
	# configfs: a module on Debian's kernels (built in elsewhere)
	modprobe configfs 2>/dev/null
	load=(insmod "$ko")
else
	# modprobe's own answer: DKMS's install for this kernel
	ko=$(modinfo -n vivi 2>&1)
	case "$ko" in
	/lib/modules/"$kv"/updates/dkms/vivi.ko* | /usr/lib/modules/"$kv"/updates/dkms/vivi.ko*)
		pass "modprobe finds DKMS's build ($ko)" ;;
	*) fail "modprobe finds DKMS's build" "modinfo -n vivi: $ko" ;;
	esac
	load=(modprobe vivi)
fi
signer=$(modinfo -F signer "$ko" 2>&1)
if [ -z "${VIVI_SIGNER:-}" ]; then
	echo "$tag: not signed here (signer '$signer')"
elif [ "$signer" = "$VIVI_SIGNER" ]; then
	pass "signed by '$signer'"
else
	fail "signed by '$VIVI_SIGNER'" "modinfo -F signer: '$signer'"
fi
if ! out=$("${load[@]}" 2>&1); then
	fail "${load[*]}" "$out"
	exit 1
fi
pass "${load[*]}"
dev=$(vivi_dev)
if [ -z "$dev" ]; then
	fail "a vivi node" "none with bus info platform:vivi-0"
	exit 1
fi
rm -f "$raw"
if v4l2-ctl -d "$dev" -v width=640,height=480,pixelformat=RGB3 \
	--stream-mmap --stream-count=30 --stream-to="$raw" >/dev/null 2>&1; then
	/usr/bin/python3 "$here/bars.py" "$tag: $dev streams 30 frames of bars" \
		"$raw" --raw 640x480 --frames 30
else
	fail "$dev streams 30 frames" "v4l2-ctl failed"
fi
rm -f "$raw"
if rmmod vivi; then
	pass "rmmod vivi"
else
	fail "rmmod vivi" "still loaded"
fi
