#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# VM stage: vivi as installed by "make install". tests/check.sh assembled
# $VIVI_BUILD/modroot (make install INSTALL_MOD_PATH=..., the kernel's own
# modules symlinked in, depmod -b), which modprobe -d reads instead of /lib
# (the guest's / is read-only). Then vivi.conf.example, make load/unload and
# the "Unknown symbol" failure that docs/troubleshooting.md explains.
set -u
. "$(dirname "$0")/lib.sh"

MR=$VIVI_BUILD/modroot
KV=$(uname -r)
CORE="videobuf2_vmalloc videobuf2_memops videobuf2_v4l2 videobuf2_common videodev mc"

loaded() { grep -q "^$1 " /proc/modules; }
# unload vivi and the V4L2 core, so that the next load must bring it back
unload_all() {
	local m
	unload_vivi
	for m in $CORE; do
		loaded "$m" && rmmod "$m"
	done
	! loaded videodev
}
# the vivi nodes, one per line
vivi_nodes() {
	local n
	for n in /sys/class/video4linux/video*; do
		[ -e "$n" ] || continue
		v4l2-ctl -d "/dev/${n##*/}" -D 2>/dev/null |
			sed -n 's/.*Bus info *: \(platform:vivi-[0-9]*\)$/\1/p'
	done | sort
}

stage_start "install"
if [ ! -e "$MR/lib/modules/$KV/updates/vivi.ko" ]; then
	fail "install: module tree" "no $MR/lib/modules/$KV/updates/vivi.ko"
fi
check "install: V4L2 core not loaded beforehand" unload_all
check "install: modprobe vivi n_devs=2" modprobe -d "$MR" vivi n_devs=2
missing=
for m in $CORE; do
	loaded "$m" || missing+=" $m"
done
if [ -z "$missing" ]; then
	pass "install: modprobe pulled in ${CORE// /, }"
else
	fail "install: modprobe pulled in the V4L2 core" "not loaded:$missing"
fi
# modprobe resolved vivi to the installed file, its dependencies to the
# kernel's own tree
deps=$(modprobe -d "$MR" --show-depends vivi 2>&1)
read -r kw path _ <<<"$(tail -n 1 <<<"$deps")"
if [ "$kw" = insmod ] &&
	[ "$(readlink -f "$path")" = "$(readlink -f "$MR/lib/modules/$KV/updates/vivi.ko")" ] &&
	grep -q "kernel/drivers/media/v4l2-core/videodev.ko" <<<"$deps"; then
	pass "install: modprobe resolves vivi to updates/vivi.ko after videodev"
else
	fail "install: modprobe resolves vivi to updates/vivi.ko after videodev" \
		"$(tr '\n' ' ' <<<"$deps")"
fi
nodes=$(vivi_nodes | tr '\n' ' ')
if [ "$nodes" = "platform:vivi-0 platform:vivi-1 " ]; then
	pass "install: two nodes, platform:vivi-0 and platform:vivi-1"
else
	fail "install: two nodes, platform:vivi-0 and platform:vivi-1" "bus infos: '$nodes'"
fi
check "install: modprobe -r vivi" modprobe -d "$MR" -r vivi
if loaded vivi; then
	fail "install: modprobe -r unloads vivi" "still loaded"
else
	pass "install: modprobe -r unloads vivi"
fi
stage_end

stage_start "vivi.conf.example"
conf=$SRC/vivi.conf.example
opts=$(sed -n 's/^options vivi //p' "$conf")
if [ "$(grep -c '^options vivi ' "$conf")" -ne 1 ] || [ -z "$opts" ]; then
	fail "conf: one options line" "$(grep -c '^options vivi ' "$conf") lines"
fi
check "conf: modprobe -C vivi.conf.example vivi" \
	modprobe -d "$MR" -C "$conf" vivi
# every option reached the module: sysfs shows each value (arrays as a
# comma list padded with defaults)
for o in $opts; do
	name=${o%%=*} val=${o#*=}
	got=$(cat "/sys/module/vivi/parameters/$name" 2>/dev/null)
	case "$got" in
	"$val" | "$val",*) pass "conf: $name=$val" ;;
	*) fail "conf: $name=$val" "sysfs has '$got'" ;;
	esac
done
# and took effect: the numbers, card names, inputs and formats
n_devs=$(sed -n 's/.*n_devs=\([0-9]*\).*/\1/p' <<<"$opts")
nr=$(sed -n 's/.*video_nr=\([0-9,]*\).*/\1/p' <<<"$opts" | tr , ' ')
labels=$(sed -n 's/.*card_label=\([^ ]*\).*/\1/p' <<<"$opts" | tr , ' ')
n_in=$(sed -n 's/.*n_inputs=\([0-9]*\).*/\1/p' <<<"$opts")
fmts=$(sed -n 's/.*formats=\([^ ]*\).*/\1/p' <<<"$opts")
i=0
for n in $nr; do
	label=$(cut -d' ' -f$((i + 1)) <<<"$labels")
	info=$(v4l2-ctl -d "/dev/video$n" -D 2>&1)
	inputs=$(v4l2-ctl -d "/dev/video$n" --list-inputs 2>&1 | grep -c '^	Input')
	got_fmts=$(list_formats "/dev/video$n" 2>&1 | paste -sd,)
	if ! grep -q "Bus info *: platform:vivi-$i\$" <<<"$info"; then
		fail "conf: /dev/video$n is vivi-$i" "$(tr '\n' ' ' <<<"$info")"
	elif ! grep -q "Card type *: $label\$" <<<"$info"; then
		fail "conf: /dev/video$n is '$label'" "$(grep 'Card type' <<<"$info")"
	elif [ "$inputs" != "$n_in" ]; then
		fail "conf: /dev/video$n has $n_in inputs" "$inputs"
	elif [ "$got_fmts" != "$fmts" ]; then
		fail "conf: /dev/video$n offers $fmts" "$got_fmts"
	else
		pass "conf: /dev/video$n is vivi-$i '$label', $n_in inputs, $fmts"
	fi
	i=$((i + 1))
done
if [ "$i" = "$n_devs" ] && [ "$(vivi_nodes | wc -l)" = "$n_devs" ]; then
	pass "conf: $n_devs devices"
else
	fail "conf: $n_devs devices" "$(vivi_nodes | tr '\n' ' ')"
fi
modprobe -d "$MR" -r vivi
stage_end

stage_start "make load / unload"
check "load: V4L2 core not loaded beforehand" unload_all
# -o modules: use the vivi.ko that is there (the guest cannot build)
check "load: make load ARGS=\"n_devs=2\"" \
	make -s -C "$SRC" -o modules load ARGS="n_devs=2"
nodes=$(vivi_nodes | tr '\n' ' ')
if loaded videodev && [ "$nodes" = "platform:vivi-0 platform:vivi-1 " ]; then
	pass "load: make load gives two devices"
else
	fail "load: make load gives two devices" "bus infos: '$nodes'"
fi
check "load: make unload" make -s -C "$SRC" unload
if loaded vivi; then
	fail "load: make unload removes vivi" "still loaded"
else
	pass "load: make unload removes vivi"
fi
stage_end

stage_start "troubleshooting"
unload_all
clear_dmesg
if out=$(insmod "$KO" 2>&1); then
	fail "trouble: insmod without videodev fails" "it loaded"
	rmmod vivi
elif ! dmesg | grep -q 'vivi: Unknown symbol video_ioctl2'; then
	fail "trouble: dmesg says Unknown symbol video_ioctl2" "$out; $(dmesg | tail -n 2)"
else
	pass "trouble: insmod without videodev fails, dmesg: Unknown symbol video_ioctl2"
fi
check "trouble: modprobe videodev and configfs, then insmod works" \
	sh -c "modprobe -a videodev videobuf2-v4l2 videobuf2-vmalloc configfs && insmod $KO"
unload_vivi
stage_end
