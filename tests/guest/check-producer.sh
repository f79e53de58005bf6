#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# VM stage: the producer node (producer=1): an output node beside the
# capture node, whose frames the capture node (the consumer) shows in its
# own format and size. Its nodes and capabilities, also from configfs;
# v4l2-compliance on both; every memory mode and OBS's write() sequence
# byte for byte; format pairs and scaling against an independent reference
# (producer.py: ffmpeg and PIL); ffmpeg and GStreamer as producers; the
# test pattern and NO_SIGNAL while no producer streams; bad input; unplug
# under both; producer start/stop churn under a streaming consumer.
# VIVI_PRODUCER_PAIRS=all pairs every producer format with every
# consumer format; =cross (the default, as all takes over 5 minutes under
# TCG) every producer format with 7 consumer formats (one of each family)
# and every consumer format with 4 producer formats.
# Prints PASS:/FAIL: lines.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/configfs.sh"

T=/tmp/producer
rm -rf "$T"
mkdir -p "$T"
UNPLUG=/sys/kernel/debug/vivi/unplug
# V4L2_CAP_VIDEO_OUTPUT | V4L2_CAP_READWRITE | V4L2_CAP_STREAMING
OUT_CAPS=0x05000002
# which the V4L2 core adds to every node's device caps
EXT_PIX=0x00200000
NO_SIGNAL=0x2

check "producer: V4L2 core and configfs load, configfs mounted" core_modules

# info DEV FIELD: a line of v4l2-ctl -D ("Card type", "Bus info",
# "Device Caps")
info() {
	v4l2-ctl -d "$1" -D 2>/dev/null | sed -n "s/^[[:space:]]*$2 *: //p" | head -n 1
}

# load_producer PARAMS...: vivi with these parameters (configfs items
# removed first, or vivi would not unload); sets CAP and PROD
# (device 0's consumer and producer nodes) and CAP1 (device 1's node, if
# any)
load_producer() {
	cfs_clean >/dev/null 2>&1
	load_vivi "$@" || return 1
	if ! CAP=$(node_named "vivi 0") || ! PROD=$(node_named "vivi 0 (producer)"); then
		echo "no 'vivi 0' and 'vivi 0 (producer)' nodes"
		return 1
	fi
	CAP1=$(node_named "vivi 1") || CAP1=
}

# status DEV: the input status of DEV's input 0 (ENUMINPUT), as 0xN
status() { vivi-produce -S "$1" 2>&1 | sed -n 's/^status=//p'; }

# wait_signal DEV SECS: until DEV's input has a signal (a producer streams)
wait_signal() {
	local i
	for i in $(seq $(($2 * 5))); do
		[ "$(status "$1")" = 0 ] && return 0
		sleep 0.2
	done
	return 1
}

# wait_line FILE REGEX SECS: until FILE has a line matching REGEX; fails at
# once if the tool writing FILE failed (its "error" line)
wait_line() {
	local i
	for i in $(seq $(($3 * 5))); do
		grep -qE "$2" "$1" 2>/dev/null && return 0
		grep -qx error "$1" 2>/dev/null && return 1
		sleep 0.2
	done
	return 1
}

# bg NAME SECS CMD...: CMD in the background under deadline, its output in
# $T/NAME.log and its exit status in $T/NAME.rc when it ends
bg() {
	local name=$1 secs=$2
	shift 2
	rm -f "$T/$name.rc"
	( deadline "$secs" "$@" >"$T/$name.log" 2>&1; echo $? >"$T/$name.rc" ) &
}

# bg_pid NAME: the pid of the tool that bg NAME started (to signal it)
bg_pid() {
	local p
	for p in $(pgrep -x vivi-produce); do
		[ "$(readlink "/proc/$p/fd/1")" = "$T/$1.log" ] && { echo "$p"; return 0; }
	done
	return 1
}

# bg_stop NAME SIGNAL: signal bg NAME's tool and wait for it; its status
bg_stop() {
	local p
	p=$(bg_pid "$1") && kill "-$2" "$p"
	wait_rc "$1"
}

# ctrl_menu DEV NAME: control NAME of DEV as --list-ctrls-menus shows it,
# its line and its items, blanks squeezed, joined by '|'
ctrl_menu() {
	v4l2-ctl -d "$1" --list-ctrls-menus 2>&1 | sed -n "/^ *$2 /,/^ *[a-z_]* 0x/p" |
		tr -s ' \t' ' ' | sed 's/^ //' | sed -n "1p;/^[0-9]*: /p" | tr '\n' '|'
}

# wait_rc NAME: wait until bg NAME ended (it has its deadline); its status
wait_rc() {
	while [ ! -e "$T/$1.rc" ]; do sleep 0.2; done
	sleep 0.1
	cat "$T/$1.rc"
}

# produced NAME RC LOG: a producer that was stopped by a signal ended well
produced() {
	if [ "$2" = 0 ] && grep -q '^stopped frames=' "$3"; then
		pass "$1 ($(grep '^stopped' "$3"))"
	else
		fail "$1" "status $2: $(tail -n 3 "$3" | tr '\n' ' ')"
	fi
}

stage_start "nodes"
if load_producer n_devs=2 producer=1; then
	pass "nodes: producer=1 gives 'vivi 0' ($CAP) and 'vivi 0 (producer)' ($PROD)"
else
	fail "nodes: producer=1 gives 'vivi 0' and 'vivi 0 (producer)'" \
		"$(grep -H . /sys/class/video4linux/*/name | tr '\n' ' ')"
fi
n_cap=${CAP#/dev/video}
n_out=${PROD#/dev/video}
if [ "$n_out" = $((n_cap + 1)) ]; then
	pass "nodes: the output node is registered right after the capture node"
else
	fail "nodes: the output node is registered right after the capture node" "$CAP, $PROD"
fi
got=$(info "$PROD" "Device Caps")
if [ -n "$got" ] && [ $((got & ~EXT_PIX)) = $((OUT_CAPS)) ]; then
	pass "nodes: output node device caps exactly VIDEO_OUTPUT|STREAMING|READWRITE, and the core's EXT_PIX_FORMAT ($got)"
else
	fail "nodes: output node device caps" "$got, want $OUT_CAPS (and EXT_PIX_FORMAT)"
fi
got=$(info "$CAP" "Device Caps")
if (( got & 0x1 )) && ! (( got & 0x2 )); then
	pass "nodes: the capture node stays capture only ($got)"
else
	fail "nodes: the capture node stays capture only" "device caps $got"
fi
if [ "$(info "$PROD" "Card type")" = "vivi 0 (producer)" ] &&
	[ "$(info "$CAP" "Card type")" = "vivi 0" ]; then
	pass "nodes: QUERYCAP card names 'vivi 0' and 'vivi 0 (producer)'"
else
	fail "nodes: QUERYCAP card names" "'$(info "$CAP" "Card type")', '$(info "$PROD" "Card type")'"
fi
if [ "$(info "$PROD" "Bus info")" = "platform:vivi-0" ] &&
	[ "$(info "$CAP" "Bus info")" = "platform:vivi-0" ]; then
	pass "nodes: both nodes have bus_info platform:vivi-0"
else
	fail "nodes: both nodes have bus_info platform:vivi-0" \
		"'$(info "$CAP" "Bus info")', '$(info "$PROD" "Bus info")'"
fi
if [ -n "$CAP1" ] && ! node_named "vivi 1 (producer)" >/dev/null; then
	pass "nodes: device 1 (producer not set) has no output node"
else
	fail "nodes: device 1 (producer not set) has no output node" \
		"$(grep -H . /sys/class/video4linux/*/name | tr '\n' ' ')"
fi
# the capture node's "Aspect" menu: with a producer only, Crop to Fill first
menu=$(ctrl_menu "$CAP" aspect)
want='aspect 0x009f1904 (menu) : min=0 max=2 default=0 value=0 (Crop to Fill)|0: Crop to Fill|1: Letterbox|2: Stretch|'
if [ "$menu" = "$want" ] && [ -n "$CAP1" ] &&
	! v4l2-ctl -d "$CAP1" -l 2>&1 | grep -q '^ *aspect '; then
	pass "nodes: the capture node's Aspect menu: Crop to Fill (default), Letterbox, Stretch; none without a producer"
else
	fail "nodes: the capture node's Aspect menu" "'$menu'; device 1: $(v4l2-ctl -d "${CAP1:-none}" -l 2>&1 | grep -c '^ *aspect ') aspect controls"
fi
all_out=$(list_formats "$PROD" --list-formats-out)
want=$(list_formats "$CAP" | sort | tr '\n' ' ')
got=$(sort <<<"$all_out" | tr '\n' ' ')
if [ "$got" = "$want" ] && [ "$(wc -w <<<"$got")" = 25 ]; then
	pass "nodes: the output node offers the capture node's 24 raw formats and MJPEG"
else
	fail "nodes: the output node offers the capture node's 24 raw formats and MJPEG" \
		"got $got; want $want"
fi
# the raw ones, which the capture node converts
out_fmts=$(grep -vx MJPG <<<"$all_out")
fmt=$(v4l2-ctl -d "$PROD" --get-fmt-video-out 2>&1)
if grep -q "Width/Height *: 640/480" <<<"$fmt" &&
	grep -q "Pixel Format *: 'YUYV'" <<<"$fmt"; then
	pass "nodes: the output node's default format is YUYV 640x480"
else
	fail "nodes: the output node's default format is YUYV 640x480" "$(tr '\n' ' ' <<<"$fmt")"
fi
parm=$(v4l2-ctl -d "$PROD" --get-output-parm 2>&1)
if grep -q "Frames per second: 30.000 (30/1)" <<<"$parm"; then
	pass "nodes: G_PARM on the output node: 1/30 by default"
else
	fail "nodes: G_PARM on the output node: 1/30 by default" "$(tr '\n' ' ' <<<"$parm")"
fi
v4l2-ctl -d "$PROD" --set-output-parm 15 >/dev/null 2>&1
parm=$(v4l2-ctl -d "$PROD" --get-output-parm 2>&1)
if grep -q "Frames per second: 15.000 " <<<"$parm"; then
	pass "nodes: S_PARM on the output node sets 1/15"
else
	fail "nodes: S_PARM on the output node sets 1/15" "$(tr '\n' ' ' <<<"$parm")"
fi
v4l2-ctl -d "$PROD" --set-output-parm 30 >/dev/null 2>&1
outs=$(v4l2-ctl -d "$PROD" --list-outputs 2>&1 | grep -c '^[[:space:]]*Output *:')
if [ "$outs" = 1 ]; then
	pass "nodes: ENUM_OUTPUT lists one output"
else
	fail "nodes: ENUM_OUTPUT lists one output" "$outs: $(v4l2-ctl -d "$PROD" --list-outputs 2>&1 | tr '\n' ' ')"
fi
if load_vivi n_devs=2; then
	names=$(cat /sys/class/video4linux/*/name 2>/dev/null)
	if [ "$(wc -l <<<"$names")" = 2 ] && ! grep -q producer <<<"$names"; then
		pass "nodes: without producer=, two devices make two nodes, no output node"
	else
		fail "nodes: without producer=, no output node" "$(tr '\n' ',' <<<"$names")"
	fi
else
	fail "nodes: load vivi n_devs=2" "$(dmesg | tail -n 2 | tr '\n' ' ')"
fi
# configfs
if cfs_load n_devs=0 && cfs_mkdir pc; then
	if [ "$(cfs_get pc producer)" = 0 ]; then
		pass "nodes: configfs producer reads 0 by default"
	else
		fail "nodes: configfs producer reads 0 by default" "'$(cfs_get pc producer)'"
	fi
	if cfs_set pc producer 1 && cfs_set pc consumers 2 && cfs_enable pc; then
		mapfile -t nodes <<<"$(cfs_nodes pc | tr ' ' '\n' | grep .)"
		caps2=$(info "${nodes[2]:-}" "Device Caps")
		if [ ${#nodes[@]} = 3 ] && [ "$(info "${nodes[0]}" "Card type")" = pc ] &&
			[ "$(info "${nodes[1]}" "Card type")" = "pc (consumer 2)" ] &&
			[ "$(info "${nodes[2]}" "Card type")" = "pc (producer)" ] &&
			[ $((${caps2:-0} & ~EXT_PIX)) = $((OUT_CAPS)) ]; then
			pass "nodes: configfs producer=1 consumers=2: nodes lists ${nodes[*]}, the capture nodes then the output node"
		else
			fail "nodes: configfs producer=1 consumers=2: nodes lists the capture nodes, then the output node" \
				"nodes '$(cfs_nodes pc | tr '\n' ' ')': $(for n in "${nodes[@]}"; do echo "$n '$(info "$n" "Card type")' $(info "$n" "Device Caps");"; done)"
		fi
		cfs_disable pc
		if ! node_named pc >/dev/null && ! node_named "pc (consumer 2)" >/dev/null &&
			! node_named "pc (producer)" >/dev/null; then
			pass "nodes: configfs enabled=0 removes the three nodes"
		else
			fail "nodes: configfs enabled=0 removes the three nodes" \
				"$(grep -H . /sys/class/video4linux/*/name | tr '\n' ' ')"
		fi
	else
		fail "nodes: configfs producer=1, consumers=2 and enabled=1" "$CFS_ERRNO ($CFS_ERR)"
	fi
	cfs_clean >/dev/null
else
	fail "nodes: configfs item" "$CFS_ERRNO ($CFS_ERR)"
fi
stage_end

# the frames of the passthrough and churn parts: 8 distinct YUYV frames
producer.py random "$T/rand.yuyv" 640 480 8 25

stage_start "compliance"
load_producer n_devs=2 producer=1 ||
	fail "compliance: load vivi producer=1" "$(dmesg | tail -n 2 | tr '\n' ' ')"
compliance_skew "compliance: output node -s" "$PROD" -s
compliance_skew "compliance: capture node -s, no producer" "$CAP" -s
bg prod 600 vivi-produce "$PROD" "$T/rand.yuyv"
if wait_line "$T/prod.log" '^streaming' 30 && wait_signal "$CAP" 10; then
	compliance_skew "compliance: capture node -s, a producer streaming" "$CAP" -s
else
	fail "compliance: capture node -s, a producer streaming" "no producer: $(tr '\n' ' ' <"$T/prod.log")"
fi
produced "compliance: the producer streamed through it" "$(bg_stop prod TERM)" "$T/prod.log"
stage_end

stage_start "passthrough"
load_producer n_devs=2 producer=1 ||
	fail "passthrough: load vivi producer=1" "$(dmesg | tail -n 2 | tr '\n' ' ')"
for mode in mmap userptr dmabuf write; do
	bg prod 120 vivi-produce -m "$mode" -e "$CAP1" "$PROD" "$T/rand.yuyv"
	if ! wait_line "$T/prod.log" '^streaming' 30; then
		fail "passthrough $mode: the producer streams" "$(tr '\n' ' ' <"$T/prod.log"); dmesg: $(dmesg | tail -n 3 | tr '\n' ' ')"
		bg_stop prod KILL >/dev/null
		continue
	fi
	deadline 60 vivi-produce -c -f YUYV -s 640x480 -n 60 -M "$T/rand.yuyv" \
		"$CAP" >"$T/cons.log" 2>&1
	rc=$(bg_stop prod TERM)
	fed_run "passthrough $mode: YUYV 640x480 frames come out unchanged" "$T/cons.log" 40
	produced "passthrough $mode: the producer stops cleanly" "$rc" "$T/prod.log"
done
stage_end

# pair_formats: the producer and consumer formats of the pairs part, as
# "P:C1,C2,..." lines
pair_formats() {
	local p few_p few_c cons all
	all=$(raw_formats "$CAP" | paste -sd,)
	few_p=" YUYV YU12 RGB3 BA81 "
	few_c="YUYV,NV12,422P,XR24,RGBP,GREY,RGGB"
	for p in $out_fmts; do
		cons=$all
		[ "${VIVI_PRODUCER_PAIRS:-cross}" = all ] || [[ $few_p == *" $p "* ]] ||
			cons=$few_c
		echo "$p:$cons"
	done
}

# The long matrices, in make check-full: the format pairs (every producer
# format to a consumer format of each family, 576 pairs with
# VIVI_PRODUCER_PAIRS=all) and ffmpeg's and GStreamer's producers, whose
# reference frames take minutes to hash under TCG. check-kernel's producer
# part checks fed frames byte for byte on every kernel.
if [ "${VIVI_FULL:-0}" = 1 ]; then
stage_start "format pairs"
load_producer n_devs=1 producer=1 ||
	fail "pairs: load vivi producer=1" "$(dmesg | tail -n 2 | tr '\n' ' ')"
mkdir -p "$T/pairs/p"
producer.py blocks "$T/pairs/blocks.rgb" 320 240 16 7
out_fmts=$(raw_formats "$PROD" --list-formats-out)
# shellcheck disable=SC2086
producer.py encode "$T/pairs/blocks.rgb" 320 240 "$T/pairs/p" $out_fmts
# each producer's comparison runs while the next one's frames are captured
t0=$(date +%s)
while IFS=: read -r p cons <&3; do
	c=$T/pairs/c-$p
	mkdir -p "$c"
	bg prod 120 vivi-produce -f "$p" -s 320x240 "$PROD" "$T/pairs/p/$p.raw"
	if ! wait_line "$T/prod.log" '^streaming' 30; then
		fail "pairs: $p 320x240 to every consumer format" "producer: $(tr '\n' ' ' <"$T/prod.log")"
		bg_stop prod KILL >/dev/null
		continue
	fi
	deadline 120 vivi-produce -c -s 320x240 -r 120 -F "$cons" -o "$c" \
		"$CAP" >"$c.txt" 2>&1
	echo "pairs: $p: $(grep -c . "$c.txt") consumer formats captured at $(($(date +%s) - t0)) s"
	rc=$(bg_stop prod TERM)
	[ "$rc" = 0 ] || fail "pairs: $p: the producer" "status $rc: $(tail -n 2 "$T/prod.log" | tr '\n' ' ')"
	specs=$(awk -v d="$c" 'NF == 3 && $2 ~ /^[0-9]+$/ { print $1 ":" $2 ":" d "/" $1 ".raw" }' "$c.txt")
	want=$(tr ',' '\n' <<<"$cons" | wc -l)
	if [ "$(wc -l <<<"$specs")" != "$want" ]; then
		fail "pairs: $p 320x240 to $want consumer formats" \
			"captured $(wc -l <<<"$specs"): $(tail -n 2 "$c.txt" | tr '\n' ' ')"
		continue
	fi
	wait "${cmp_pid:-}" 2>/dev/null
	# shellcheck disable=SC2086
	producer.py compare "pairs: $p 320x240 to $want consumer formats" \
		"$p" 320 240 "$T/pairs/p/$p.raw" 320 240 \
		--ideal "$T/pairs/blocks.rgb" $specs >"$c.res" 2>&1 &
	cmp_pid=$!
done 3<<<"$(pair_formats)"
t1=$(date +%s)
wait "${cmp_pid:-}" 2>/dev/null
cat "$T"/pairs/c-*.res
echo "pairs: captures $((t1 - t0)) s, comparisons $(($(date +%s) - t1)) s after"
stage_end
fi

# scale NAME PW PH BLOCK CW CH CROP [PLACE]: a PWxPH YUYV picture of
# BLOCK-pixel blocks fed, the consumer at CWxCH in YUYV and RGB3 against
# the reference: the CROP box of the picture (all of it if empty) in the
# PLACE box of a black frame (all of it if none)
scale() {
	local name=$1 pw=$2 ph=$3 b=$4 cw=$5 ch=$6 crop=$7 place=${8:-} specs
	local src=$T/scale-${pw}x$ph-$b
	# the picture and its reference once for the cases that share them
	if [ ! -e "$src/YUYV.raw" ]; then
		mkdir -p "$src"
		producer.py blocks "$src/blocks.rgb" "$pw" "$ph" "$b" 11
		producer.py encode "$src/blocks.rgb" "$pw" "$ph" "$src" YUYV
	fi
	rm -rf "$T/scale"
	mkdir -p "$T/scale/c"
	bg prod 120 vivi-produce -f YUYV -s "${pw}x$ph" "$PROD" "$src/YUYV.raw"
	if ! wait_line "$T/prod.log" '^streaming' 30; then
		fail "$name" "producer: $(tr '\n' ' ' <"$T/prod.log")"
		bg_stop prod KILL >/dev/null
		return
	fi
	deadline 120 vivi-produce -c -s "${cw}x$ch" -r 30 -F YUYV,RGB3 \
		-o "$T/scale/c" "$CAP" >"$T/scale/c.txt" 2>&1
	bg_stop prod TERM >/dev/null
	specs=$(awk -v d="$T/scale/c" 'NF == 3 && $2 ~ /^[0-9]+$/ { print $1 ":" $2 ":" d "/" $1 ".raw" }' "$T/scale/c.txt")
	# shellcheck disable=SC2086
	producer.py compare "$name" YUYV "$pw" "$ph" "$src/YUYV.raw" \
		"$cw" "$ch" ${crop:+--crop "$crop"} ${place:+--place "$place"} \
		--ideal "$src/blocks.rgb" $specs
}

stage_start "scaling"
load_producer n_devs=1 producer=1 ||
	fail "scaling: load vivi producer=1" "$(dmesg | tail -n 2 | tr '\n' ' ')"
scale "scaling: 1920x1080 to 640x480 in YUYV and RGB3, the centred 1440x1080 cropped" \
	1920 1080 60 640 480 240,0,1680,1080
scale "scaling: 640x360 to 1280x720 in YUYV and RGB3" 640 360 20 1280 720 ""
# the "Aspect" control: the whole picture, in a 640x360 band between black
# bars, then stretched over the whole frame
v4l2-ctl -d "$CAP" -c aspect=1 >"$T/ctrl.err" 2>&1
got=$(v4l2-ctl -d "$CAP" -C aspect 2>&1)
if [ "$(sed -n 's/^aspect: \([0-9]*\).*/\1/p' <<<"$got")" = 1 ]; then
	pass "scaling: the Aspect control takes Letterbox"
	scale "scaling: 1920x1080 to 640x480 in YUYV and RGB3, letterboxed" \
		1920 1080 60 640 480 "" 0,60,640,420
else
	fail "scaling: the Aspect control takes Letterbox" "set: '$(cat "$T/ctrl.err")'; reads '$got'"
fi
v4l2-ctl -d "$CAP" -c aspect=2 &&
	scale "scaling: 1920x1080 to 640x480 in YUYV and RGB3, stretched" \
		1920 1080 60 640 480 ""
v4l2-ctl -d "$CAP" -c aspect=0
stage_end

# fed_by NAME REFCMD -- PRODCMD: PRODCMD feeds $PROD; once the consumer has
# a signal, 45 YUYV 640x480 frames are captured with v4l2-ctl; each must be
# one of the frames REFCMD writes (the same source into a pipe)
fed_by() {
	local name=$1 ref=() rc
	shift
	while [ "$1" != -- ]; do ref+=("$1"); shift; done
	shift
	"${ref[@]}" 2>"$T/ref.err" | producer.py hashes 614400 >"$T/ref.txt"
	[ -s "$T/ref.txt" ] || { fail "$name" "no reference frames: $(tail -n 2 "$T/ref.err")"; return; }
	bg prod 120 "$@"
	if ! wait_signal "$CAP" 60; then
		fail "$name" "no signal on $CAP within 60 s: $(tail -n 3 "$T/prod.log" | tr '\n' ' ')"
		wait_rc prod >/dev/null
		return
	fi
	rm -f "$T/cap.raw"
	deadline 60 v4l2-ctl -d "$CAP" -v width=640,height=480,pixelformat=YUYV \
		--stream-mmap --stream-count=45 --stream-to="$T/cap.raw" >"$T/cap.log" 2>&1
	producer.py hashes 614400 <"$T/cap.raw" >"$T/cap.txt"
	producer.py fed "$name: the consumer shows exactly the fed frames" \
		"$T/ref.txt" "$T/cap.txt" 30
	rc=$(wait_rc prod)
	if [ "$rc" = 0 ]; then
		pass "$name: the producer ends well"
	else
		fail "$name: the producer ends well" "status $rc: $(tail -n 3 "$T/prod.log" | tr '\n' ' ')"
	fi
}

if [ "${VIVI_FULL:-0}" = 1 ]; then
stage_start "real producers"
load_producer n_devs=1 producer=1 ||
	fail "real producers: load vivi producer=1" "$(dmesg | tail -n 2 | tr '\n' ' ')"
src=testsrc2=size=640x480:rate=30
fed_by "ffmpeg -f v4l2" \
	ffmpeg -v error -f lavfi -i "$src" -frames:v 180 -pix_fmt yuyv422 \
		-f rawvideo - -- \
	ffmpeg -v error -re -f lavfi -i "$src" -frames:v 180 -pix_fmt yuyv422 \
		-f v4l2 "$PROD"
caps=video/x-raw,format=YUY2,width=640,height=480,framerate=30/1
fed_by "GStreamer v4l2sink" \
	gst-launch-1.0 -q videotestsrc pattern=ball num-buffers=180 ! "$caps" \
		! fdsink fd=1 -- \
	gst-launch-1.0 -q videotestsrc pattern=ball num-buffers=180 ! "$caps" \
		! v4l2sink "device=$PROD"
stage_end
fi

# frame_of FILE SIZE K OUT: frame K (0-based; -1: the last) of FILE
frame_of() {
	local k=$3 n
	n=$(($(stat -c %s "$1") / $2))
	[ "$k" -ge 0 ] || k=$((n + k))
	dd if="$1" of="$4" bs="$2" skip="$k" count=1 status=none
}

# idle_setup PART: vivi with a producer, and $T/idle-fed.rgb: two RGB24
# 320x240 frames of random blocks
idle_setup() {
	load_producer n_devs=1 producer=1 ||
		fail "$1: load vivi producer=1" "$(dmesg | tail -n 2 | tr '\n' ' ')"
	producer.py blocks "$T/i1.rgb" 320 240 16 3
	producer.py blocks "$T/i2.rgb" 320 240 16 4
	cat "$T/i1.rgb" "$T/i2.rgb" >"$T/idle-fed.rgb"
}

stage_start "idle"
idle_setup idle
rm -f "$T/idle.rgb"
bg cons 180 vivi-produce -c -f RGB3 -s 320x240 -r 30 -M "$T/idle-fed.rgb" \
	-O "$T/idle.rgb" "$CAP"
sleep 3
deadline 60 vivi-produce -f RGB3 -s 320x240 -r 30 -n 90 "$PROD" "$T/idle-fed.rgb" \
	>"$T/prod.log" 2>&1
prc=$?
sleep 3
crc=$(bg_stop cons USR1)
[ "$prc" = 0 ] || fail "idle: the producer" "status $prc: $(tail -n 2 "$T/prod.log" | tr '\n' ' ')"
[ "$crc" = 0 ] || fail "idle: the consumer" "status $crc: $(tail -n 2 "$T/cons.log" | tr '\n' ' ')"
# phases: before (no fed frame yet), during (fed frames), after; a frame's
# status is read just after its DQBUF, so the two frames at each change
# may see the other phase's status
awk -v ns="$NO_SIGNAL" '
	/^seq=/ {
		split($2, s, "="); split($3, m, "=")
		n++; st[n] = s[2]; fed[n] = m[2] >= 0
	}
	/^frames=/ { summary = $0; split($2, g, "=") }
	END {
		for (i = 1; i <= n && !fed[i]; i++) ;
		first = i
		for (; i <= n && fed[i]; i++) ;
		last = i - 1
		for (; i <= n && !fed[i]; i++) ;
		printf "frames %d, fed %d to %d, %s\n", n, first, last, summary
		bad = 0
		for (i = 1; i < first - 2; i++) if (st[i] != ns) bad++
		print (first > 10 && first <= n && !bad ? "PASS" : "FAIL") \
			": idle: before a producer, status NO_SIGNAL (" first - 1 " frames, " bad " not)"
		bad = 0
		for (i = first + 2; i < last - 2; i++) if (st[i] != "0") bad++
		print (last - first > 30 && !bad ? "PASS" : "FAIL") \
			": idle: while a producer streams, its frames and status 0 (" last - first + 1 " frames, " bad " not 0)"
		bad = 0
		for (i = last + 3; i <= n; i++) if (st[i] != ns) bad++
		print (n - last > 10 && i > n && !bad ? "PASS" : "FAIL") \
			": idle: after the producer stops, no fed frame and NO_SIGNAL (" n - last " frames, " bad " not; " (i > n ? "no fed frame" : "a fed frame again at " i) ")"
		print (summary != "" && g[2] == 0 ? "PASS" : "FAIL") \
			": idle: the consumer sequence has no gap across it all (" summary ")"
	}' "$T/cons.log"
frame_of "$T/idle.rgb" 230400 0 "$T/idle-first.rgb"
frame_of "$T/idle.rgb" 230400 -1 "$T/idle-last.rgb"
bars.py "idle: the first frame, before a producer, is the 75% bars" \
	"$T/idle-first.rgb" --raw 320x240
bars.py "idle: the last frame, after the producer stopped, is the 75% bars" \
	"$T/idle-last.rgb" --raw 320x240
stage_end

# idle_got NAME WANT: 10 RGB3 320x240 frames of the consumer, each compared
# with $T/idle-fed.rgb's two frames: every one must be frame WANT of them
# (-1: neither) with the input status NO_SIGNAL
idle_got() {
	deadline 60 vivi-produce -c -f RGB3 -s 320x240 -r 30 -n 10 \
		-M "$T/idle-fed.rgb" "$CAP" >"$T/cons.log" 2>&1
	awk -v name="$1" -v want="$2" -v ns="$NO_SIGNAL" '
		/^seq=/ { n++; if ($2 != "status=" ns || $3 != "match=" want) { bad++; what = $0 } }
		END {
			if (n == 10 && !bad) print "PASS: " name " (10 frames)"
			else print "FAIL: " name ": " n " frames, " bad + 0 " not frame " want " with NO_SIGNAL: " what
		}' "$T/cons.log"
}

stage_start "idle pictures"
idle_setup "idle pictures"
menu=$(ctrl_menu "$CAP" idle_picture)
want='idle_picture 0x009f1905 (menu) : min=0 max=2 default=0 value=0 (Test Pattern)|0: Test Pattern|1: No Signal|2: Last Frame|'
if [ "$menu" = "$want" ]; then
	pass "idle pictures: the Idle Picture menu: Test Pattern (default), No Signal, Last Frame"
else
	fail "idle pictures: the Idle Picture menu" "'$menu'"
fi
v4l2-ctl -d "$CAP" -c idle_picture=1
if capture_frame "$CAP" RGB3 320 240 "$T/slate.rgb" >/dev/null 2>"$T/cap.err"; then
	producer.py slate "idle pictures: No Signal: black with one line of text" \
		"$T/slate.rgb" 320 240
else
	fail "idle pictures: No Signal: capture" "$(tail -n 2 "$T/cap.err" | tr '\n' ' ')"
fi
v4l2-ctl -d "$CAP" -c idle_picture=2
if capture_frame "$CAP" RGB3 320 240 "$T/none.rgb" >/dev/null 2>"$T/cap.err"; then
	bars.py "idle pictures: Last Frame before any stream ended: the 75% bars" \
		"$T/none.rgb" --raw 320x240
else
	fail "idle pictures: Last Frame before any stream: capture" "$(tail -n 2 "$T/cap.err" | tr '\n' ' ')"
fi
# 31 frames, the last of them frame 0 of the two; then the producer takes
# another format and size, which the copy of its last frame must not follow
deadline 60 vivi-produce -f RGB3 -s 320x240 -r 30 -n 31 "$PROD" "$T/idle-fed.rgb" \
	>"$T/prod.log" 2>&1 ||
	fail "idle pictures: the producer" "$(tail -n 2 "$T/prod.log" | tr '\n' ' ')"
v4l2-ctl -d "$PROD" --set-fmt-video-out width=1280,height=720,pixelformat=NV12
idle_got "idle pictures: Last Frame: after the stream, its last frame, byte for byte, with NO_SIGNAL" 0
v4l2-ctl -d "$CAP" -c idle_picture=0
idle_got "idle pictures: back to Test Pattern: no fed frame" -1
stage_end

stage_start "pacing"
# the "Frame Pacing" control's menu
load_producer n_devs=1 producer=1 ||
	fail "pacing: load vivi producer=1" "$(dmesg | tail -n 2 | tr '\n' ' ')"
menu=$(ctrl_menu "$CAP" frame_pacing)
want='frame_pacing 0x009f1906 (menu) : min=0 max=1 default=0 value=0 (Camera Clock)|0: Camera Clock|1: Producer Clock|'
if [ "$menu" = "$want" ]; then
	pass "pacing: the Frame Pacing menu: Camera Clock (default), Producer Clock"
else
	fail "pacing: the Frame Pacing menu" "'$menu'"
fi
# the consumers part judges both modes, on three consumers at once
stage_end

# mjpeg_fed MODE: 90 JPEGs fed through MODE (mmap, write) to an MJPEG
# consumer of their size: each of its frames while fed is one of them byte
# for byte, none refused, no sequence gap
mjpeg_fed() {
	local name="mjpeg: $1: an MJPEG consumer gets the fed JPEGs byte for byte" prc crc
	bg cons 180 vivi-produce -c -f MJPG -s 640x480 -r 30 -M "$T/fed.mjpg" "$CAP"
	sleep 2
	deadline 60 vivi-produce -m "$1" -f MJPG -s 640x480 -r 30 -n 90 "$PROD" \
		"$T/fed.mjpg" >"$T/prod.log" 2>&1
	prc=$?
	sleep 1
	crc=$(bg_stop cons USR1)
	if [ "$prc" != 0 ] || ! grep -q '^stopped frames=90 errors=0$' "$T/prod.log"; then
		fail "mjpeg: $1: 90 JPEGs queued, none refused" "status $prc: $(tail -n 2 "$T/prod.log" | tr '\n' ' ')"
	else
		pass "mjpeg: $1: 90 JPEGs queued, none refused"
	fi
	[ "$crc" = 0 ] || fail "$name" "consumer status $crc: $(tail -n 2 "$T/cons.log" | tr '\n' ' ')"
	# between the first fed frame and the last, every frame a fed one
	awk -v name="$name" '
		/^seq=/ { split($3, m, "="); n++; mt[n] = m[2] }
		/^frames=/ { summary = $0; split($2, g, "=") }
		END {
			for (i = 1; i <= n && mt[i] < 0; i++) ;
			first = i
			for (last = n; last > first && mt[last] < 0; last--) ;
			for (i = first; i <= last; i++)
				if (mt[i] < 0) other++; else seen[mt[i]] = 1
			for (k in seen) d++
			ok = first <= n && last - first + 1 >= 45 && !other && d >= 20 && g[2] == 0
			print (ok ? "PASS: " : "FAIL: ") name " (" last - first + 1 \
				" frames while fed, " other + 0 " of them not a fed JPEG, " \
				d + 0 " distinct JPEGs of 30; " summary ")"
		}' "$T/cons.log"
}

# ctrl_of DEV NAME: control NAME's value on DEV (a menu's index)
ctrl_of() { v4l2-ctl -d "$1" -C "$2" 2>&1 | sed -n "s/^$2: \([^ ]*\).*/\1/p"; }

# intervals LOG: "sequence timestamp" of each frame of a vivi-produce -c log
intervals() {
	awk '/^seq=/ { split($1, s, "="); split($5, t, "="); print s[2], t[2] }' "$1"
}

# consumers=N: capture nodes that each show the producer's picture, each in
# its own format, size, rate and pacing, with controls of its own
stage_start "consumers"
clear_dmesg
if load_producer n_devs=1 producer=1 consumers=3 &&
	C2=$(node_named "vivi 0 (consumer 2)") && C3=$(node_named "vivi 0 (consumer 3)"); then
	pass "consumers: consumers=3 gives 'vivi 0' ($CAP), 'vivi 0 (consumer 2)' ($C2), 'vivi 0 (consumer 3)' ($C3) and the producer ($PROD)"
else
	fail "consumers: consumers=3 gives three capture nodes and the producer" \
		"$(grep -H . /sys/class/video4linux/*/name | tr '\n' ' ')"
	C2=$CAP C3=$CAP
fi
n=${CAP#/dev/video}
why=
[ "$C2 $C3 $PROD" = "/dev/video$((n + 1)) /dev/video$((n + 2)) /dev/video$((n + 3))" ] ||
	why="numbers $CAP $C2 $C3 $PROD;"
for d in "$CAP" "$C2" "$C3"; do
	got=$(info "$d" "Device Caps")
	[ -n "$got" ] && [ $((got & ~EXT_PIX)) = $((0x05000001)) ] ||
		why+=" $d caps $got;"
	[ "$(info "$d" "Bus info")" = platform:vivi-0 ] ||
		why+=" $d bus '$(info "$d" "Bus info")';"
done
if [ -z "$why" ]; then
	pass "consumers: numbered in a row, producer last; each capture node VIDEO_CAPTURE|STREAMING|READWRITE only, all on platform:vivi-0"
else
	fail "consumers: numbered in a row, capture only, one bus_info" "$why"
fi
got=$(v4l2-ctl -d "$PROD" -l 2>&1 | grep consumers_streaming | tr -s ' ')
if [[ $got == *"min=0 max=3 step=1 default=0 value=0"* ]]; then
	pass "consumers: Consumers Streaming on the output node counts up to 3, reads 0"
else
	fail "consumers: Consumers Streaming counts up to 3" "'$got'"
fi
# controls of their own: consumer 2 brighter, consumer 3 paced by the producer
v4l2-ctl -d "$C2" -c brightness=200
v4l2-ctl -d "$C3" -c frame_pacing=1
got="$(ctrl_of "$CAP" brightness) $(ctrl_of "$C2" brightness) $(ctrl_of "$C3" brightness) $(ctrl_of "$CAP" frame_pacing) $(ctrl_of "$C2" frame_pacing) $(ctrl_of "$C3" frame_pacing)"
if [ "$got" = "128 200 128 0 0 1" ]; then
	pass "consumers: each capture node has its own controls (brightness 128 200 128, frame_pacing 0 0 1)"
else
	fail "consumers: each capture node has its own controls" "brightness and frame_pacing of the three: $got"
fi
v4l2-ctl -d "$C2" -c brightness=128
# three consumers at once: 30 and 15 fps on the camera's clock, and one
# paced by the producer, which feeds 40 distinct frames at 5 fps
producer.py random "$T/many.yuyv" 320 240 40 9
bg c1 120 vivi-produce -c -f YUYV -s 320x240 -r 30 -M "$T/many.yuyv" "$CAP"
bg c2 120 vivi-produce -c -f YUYV -s 320x240 -r 15 -M "$T/many.yuyv" "$C2"
bg c3 120 vivi-produce -c -f YUYV -s 320x240 -r 30 -M "$T/many.yuyv" "$C3"
for c in c1 c2 c3; do wait_line "$T/$c.log" '^seq=' 30; done
got=$(v4l2-ctl -d "$PROD" -C consumers_streaming 2>&1)
if [ "$got" = "consumers_streaming: 3" ]; then
	pass "consumers: Consumers Streaming reads 3 while the three stream"
else
	fail "consumers: Consumers Streaming reads 3 while the three stream" "'$got'"
fi
deadline 60 vivi-produce -f YUYV -s 320x240 -r 5 -n 40 -P "$PROD" \
	"$T/many.yuyv" >"$T/many-prod.log" 2>&1 ||
	fail "consumers: the producer" "$(tail -n 2 "$T/many-prod.log" | tr '\n' ' ')"
sleep 1
for c in c1 c2 c3; do
	rc=$(bg_stop "$c" USR1)
	[ "$rc" = 0 ] || fail "consumers: consumer $c" "status $rc: $(tail -n 2 "$T/$c.log" | tr '\n' ' ')"
	cp "$T/$c.log" "$OUT/consumers-$c.log"
done
producer.py pacing "consumers: consumer 1 at 30 fps, camera clock: it keeps its rate, repeating fed frames" \
	camera "$T/many-prod.log" "$T/c1.log" 40
producer.py pacing "consumers: consumer 2 at 15 fps, camera clock, at the same time" \
	camera "$T/many-prod.log" "$T/c2.log" 40
producer.py pacing "consumers: consumer 3, producer clock, at the same time: each fed frame once, with its timestamp" \
	producer "$T/many-prod.log" "$T/c3.log" 40
for c in c1:0.0333333 c2:0.0666667; do
	if r=$(intervals "$T/${c%%:*}.log" | median_interval "${c#*:}" 0.02); then
		pass "consumers: ${c%%:*}'s frame interval is its own rate's, ${c#*:} s ($r)"
	else
		fail "consumers: ${c%%:*}'s frame interval is its own rate's, ${c#*:} s" "$r"
	fi
done
got=$(v4l2-ctl -d "$PROD" -C consumers_streaming 2>&1)
if [ "$got" = "consumers_streaming: 0" ]; then
	pass "consumers: Consumers Streaming back to 0"
else
	fail "consumers: Consumers Streaming back to 0" "'$got'"
fi
# two formats and sizes at once from one 1280x720 picture, each against
# the reference
rm -rf "$T/two"
mkdir -p "$T/two/a" "$T/two/b"
producer.py blocks "$T/two/blocks.rgb" 1280 720 80 13
producer.py encode "$T/two/blocks.rgb" 1280 720 "$T/two" YUYV
bg prod 120 vivi-produce -f YUYV -s 1280x720 "$PROD" "$T/two/YUYV.raw"
if wait_line "$T/prod.log" '^streaming' 30; then
	bg c1 120 vivi-produce -c -s 640x360 -r 30 -F NV12 -o "$T/two/a" "$CAP"
	bg c2 120 vivi-produce -c -s 320x240 -r 15 -F RGB3 -o "$T/two/b" "$C2"
	rc1=$(wait_rc c1)
	rc2=$(wait_rc c2)
	bg_stop prod TERM >/dev/null
	[ "$rc1 $rc2" = "0 0" ] ||
		fail "consumers: NV12 640x360 and RGB3 320x240 at once" "status $rc1 $rc2: $(tail -n 1 "$T/c1.log" "$T/c2.log" | tr '\n' ' ')"
	for c in c1:a:640:360: c2:b:320:240:160,0,1120,720; do
		IFS=: read -r log dir cw ch crop <<<"$c"
		specs=$(awk -v d="$T/two/$dir" 'NF == 3 && $2 ~ /^[0-9]+$/ { print $1 ":" $2 ":" d "/" $1 ".raw" }' "$T/$log.log")
		# shellcheck disable=SC2086
		producer.py compare "consumers: $log's ${cw}x$ch from the 1280x720 producer, while the other consumer streams" \
			YUYV 1280 720 "$T/two/YUYV.raw" "$cw" "$ch" ${crop:+--crop "$crop"} \
			--ideal "$T/two/blocks.rgb" $specs
	done
else
	fail "consumers: a 1280x720 producer" "$(tr '\n' ' ' <"$T/prod.log")"
	bg_stop prod KILL >/dev/null
fi
# the producer's size joins the capture nodes' sizes while it is set, so
# that a consumer can take the fed frames as they are
sizes() {
	v4l2-ctl -d "$1" --list-framesizes=YUYV | sed -n 's/.*Discrete \([0-9x]*\).*/\1/p' | paste -sd' '
}
base=$(sizes "$CAP")
v4l2-ctl -d "$PROD" -x width=1366,height=768,pixelformat=YUYV
v4l2-ctl -d "$C3" -v width=1366,height=768,pixelformat=YUYV
with=$(sizes "$C2")
# ENUM order: the smaller area first, then the narrower
want=$(tr ' ' '\n' <<<"$base 1366x768" | awk -F x '{ print $1 * $2, $1, $0 }' |
	sort -n -k1,1 -k2,2 | cut -d' ' -f3 | paste -sd' ')
if [ "$with" = "$want" ] && [ "$(wc -w <<<"$base")" = 13 ]; then
	pass "consumers: a producer at 1366x768 adds 1366x768 to the capture nodes' 13 sizes, in ENUM order"
else
	fail "consumers: a producer at 1366x768 adds its size to the capture nodes' sizes" "'$with', want '$want'"
fi
producer.py random "$T/wide.yuyv" 1366 768 4 5
bg prod 120 vivi-produce -f YUYV -s 1366x768 "$PROD" "$T/wide.yuyv"
if wait_line "$T/prod.log" '^streaming' 30; then
	deadline 60 vivi-produce -c -f YUYV -s 1366x768 -n 30 -M "$T/wide.yuyv" \
		"$C2" >"$T/cons.log" 2>&1
	fed_run "consumers: a consumer at the producer's 1366x768 gets its frames unchanged" "$T/cons.log" 20
else
	fail "consumers: a 1366x768 producer" "$(tr '\n' ' ' <"$T/prod.log")"
fi
produced "consumers: the 1366x768 producer ends well" "$(bg_stop prod TERM)" "$T/prod.log"
v4l2-ctl -d "$PROD" -x width=640,height=480,pixelformat=YUYV
got="$(sizes "$C2") / $(v4l2-ctl -d "$C3" -V | sed -n 's/.*Width\/Height *: //p')"
if [ "$got" = "$base / 1280/720" ]; then
	pass "consumers: the producer back at 640x480: 1366x768 leaves the list, and an idle consumer set to it moves to 1280x720"
else
	fail "consumers: the producer back at 640x480: the list and an idle consumer at 1366x768" "'$got'"
fi
check "consumers: kernel log clean" dmesg_clean
stage_end

stage_start "mjpeg"
# an MJPEG producer: its JPEGs go on as they are to an MJPEG consumer of
# their size; a raw consumer gets a slate saying so; a buffer that is no
# whole JPEG comes back with ERROR
load_producer n_devs=1 producer=1 ||
	fail "mjpeg: load vivi producer=1" "$(dmesg | tail -n 2 | tr '\n' ' ')"
# 30 JPEGs, each another picture (testsrc2 moves), by ffmpeg's encoder
ffmpeg -v error -f lavfi -i testsrc2=size=640x480:rate=30 -frames:v 30 \
	-c:v mjpeg -pix_fmt yuvj422p -q:v 4 -f mjpeg -y "$T/fed.mjpg"
for mode in mmap write; do
	mjpeg_fed "$mode"
done
# a raw consumer: the format slate, two lines of text
bg prod 120 vivi-produce -f MJPG -s 640x480 -r 30 -n 300 "$PROD" "$T/fed.mjpg"
if wait_line "$T/prod.log" '^streaming' 60; then
	rm -f "$T/slate.rgb"
	deadline 60 vivi-produce -c -f RGB3 -s 640x480 -r 30 -n 10 -O "$T/slate.rgb" \
		"$CAP" >"$T/cons.log" 2>&1
	frame_of "$T/slate.rgb" 921600 -1 "$T/slate-last.rgb"
	producer.py slate "mjpeg: a raw consumer of an MJPEG producer shows the format slate" \
		"$T/slate-last.rgb" 640 480 --lines 2
else
	fail "mjpeg: the producer for the slate" "$(tail -n 2 "$T/prod.log" | tr '\n' ' ')"
fi
bg_stop prod TERM >/dev/null
# buffers that are no whole JPEG: the first JPEG without SOI, and without EOI
python3 - "$T" <<'PY'
import sys
t = sys.argv[1]
d = open(t + "/fed.mjpg", "rb").read()
first = d[:d.index(b"\xff\xd9\xff\xd8") + 2]
open(t + "/bad-soi.mjpg", "wb").write(b"\0\0" + first[2:])
open(t + "/bad-eoi.mjpg", "wb").write(first[:-2] + b"\0\0")
PY
# (6 frames each: the log line is rate-limited to 10 in 5 s)
for bad in soi eoi; do
	name="mjpeg: a JPEG without $(tr a-z A-Z <<<"$bad") comes back with ERROR"
	cfs_mark
	deadline 60 vivi-produce -f MJPG -s 640x480 -r 30 -b 2 -n 6 "$PROD" \
		"$T/bad-$bad.mjpg" >"$T/prod.log" 2>&1
	prc=$?
	errors=$(sed -n 's/^stopped frames=6 errors=//p' "$T/prod.log")
	log=$(cfs_log_first 'no JPEG from SOI to EOI')
	if [ "$prc" = 0 ] && [ "${errors:-0}" -ge 4 ] && [ -n "$log" ]; then
		pass "$name ($errors of the 4 dequeued; '$log')"
	else
		fail "$name" "status $prc, errors '${errors}', log '$log': $(tail -n 2 "$T/prod.log" | tr '\n' ' ')"
	fi
done
stage_end

# fmt_out ARGS: v4l2-ctl --set-fmt-video-out ARGS, then the format it reads
fmt_out() {
	v4l2-ctl -d "$PROD" --set-fmt-video-out "$1" >/dev/null 2>&1
	v4l2-ctl -d "$PROD" --get-fmt-video-out 2>&1 |
		awk '/Width\/Height/ { wh = $3 } /Pixel Format/ { pf = $4 }
			/Bytes per Line/ { bpl = $5 } /Size Image/ { si = $4 }
			END { print wh, pf, bpl, si }'
}

# fmt_is NAME ARGS WANT: fmt_out ARGS reads WANT ("W/H 'FCC' BPL SIZE"; a
# field * matches anything)
fmt_is() {
	local got
	got=$(fmt_out "$2")
	# shellcheck disable=SC2053
	if [[ $got == $3 ]]; then
		pass "$1 ($got)"
	else
		fail "$1" "reads '$got', want '$3'"
	fi
}

stage_start "bad input"
load_producer n_devs=1 producer=1 ||
	fail "bad input: load vivi producer=1" "$(dmesg | tail -n 2 | tr '\n' ' ')"
vivi-produce -t "$PROD"
fmt_is "bad input: S_FMT 4000x3000 YUYV snaps to 3840x2160" \
	width=4000,height=3000,pixelformat=YUYV "3840/2160 'YUYV' 7680 16588800"
fmt_is "bad input: S_FMT 8x8 YUYV grows to 16x16" \
	width=8,height=8,pixelformat=YUYV "16/16 'YUYV' 32 512"
fmt_is "bad input: S_FMT 321x241 NV12 rounds down to 320x240" \
	width=321,height=241,pixelformat=NV12 "320/240 'NV12' 320 115200"
fmt_is "bad input: S_FMT 321x241 RGB3 keeps its odd size" \
	width=321,height=241,pixelformat=RGB3 "321/241 'RGB3' 963 *"
fmt_is "bad input: S_FMT YUYV 640x480 with bytesperline 1536 keeps it" \
	width=640,height=480,pixelformat=YUYV,bytesperline=1536 "640/480 'YUYV' 1536 737280"
fmt_is "bad input: S_FMT YUYV 640x480 with bytesperline 100 gets the minimum" \
	width=640,height=480,pixelformat=YUYV,bytesperline=100 "640/480 'YUYV' 1280 614400"
# a padded producer stream: frames of 1536-byte lines, the consumer at the
# same format and size gets the unpadded pictures
producer.py random "$T/pad-src.yuyv" 640 480 2 9
python3 -c '
import sys
src = open(sys.argv[1], "rb").read()
out = bytearray()
for y in range(len(src) // 1280):
    out += src[y * 1280:(y + 1) * 1280] + bytes([0x80]) * 256
open(sys.argv[2], "wb").write(out)' "$T/pad-src.yuyv" "$T/pad.yuyv"
bg prod 120 vivi-produce -l 1536 "$PROD" "$T/pad.yuyv"
if wait_line "$T/prod.log" '^streaming' 30; then
	deadline 60 vivi-produce -c -f YUYV -s 640x480 -n 30 -M "$T/pad-src.yuyv" \
		"$CAP" >"$T/cons.log" 2>&1
	fed_run "bad input: a producer at bytesperline 1536 feeds the pictures without the padding" "$T/cons.log" 15
else
	fail "bad input: a producer at bytesperline 1536" "$(tr '\n' ' ' <"$T/prod.log")"
fi
bg_stop prod TERM >/dev/null
stage_end

stage_start "unplug"
if ! load_producer n_devs=1 producer=1 consumers=2 ||
	! C2=$(node_named "vivi 0 (consumer 2)"); then
	fail "unplug: load vivi producer=1 consumers=2" "$(dmesg | tail -n 2 | tr '\n' ' ')"
fi
clear_dmesg
bg prod 60 vivi-produce "$PROD" "$T/rand.yuyv"
wait_line "$T/prod.log" '^streaming' 30
bg cons 60 vivi-produce -c -f YUYV -s 640x480 -M "$T/rand.yuyv" "$CAP"
bg cons2 60 vivi-produce -c -f RGB3 -s 320x240 "$C2"
if wait_line "$T/cons.log" 'match=[0-9]' 30 && wait_line "$T/cons2.log" '^seq=' 30; then
	pass "unplug: producer and two consumers stream"
else
	fail "unplug: producer and two consumers stream" "$(tail -n 2 "$T/prod.log" "$T/cons.log" "$T/cons2.log" | tr '\n' ' ')"
fi
echo 0 >"$UNPLUG"
prc=$(wait_rc prod)
crc=$(wait_rc cons)
crc2=$(wait_rc cons2)
if [ "$prc" = 2 ]; then
	pass "unplug: the producer gets an error and ends ($(grep -v '^error' "$T/prod.log" | tail -n 1))"
else
	fail "unplug: the producer gets an error and ends" "status $prc: $(tail -n 3 "$T/prod.log" | tr '\n' ' ')"
fi
if [ "$crc $crc2" = "2 2" ] && grep -q '^dqbuf: ' "$T/cons.log" &&
	grep -q '^dqbuf: ' "$T/cons2.log"; then
	pass "unplug: both consumers get an error and end ($(grep -h '^dqbuf' "$T/cons.log" "$T/cons2.log" | paste -sd' '))"
else
	fail "unplug: both consumers get an error and end" "status $crc $crc2: $(tail -n 3 "$T/cons.log" "$T/cons2.log" | tr '\n' ' ')"
fi
if ! node_named "vivi 0" >/dev/null && ! node_named "vivi 0 (producer)" >/dev/null &&
	! node_named "vivi 0 (consumer 2)" >/dev/null &&
	[ ! -e "$CAP" ] && [ ! -e "$C2" ] && [ ! -e "$PROD" ]; then
	pass "unplug: the three nodes are gone"
else
	fail "unplug: the three nodes are gone" "$(ls /dev/video* 2>&1 | tr '\n' ' ')"
fi
check "unplug: kernel log clean" dmesg_clean
check "unplug: vivi unloads afterwards" unload_vivi
stage_end

stage_start "churn"
# two consumers, one on the camera's clock and one on the producer's
if ! load_producer n_devs=1 producer=1 consumers=2 ||
	! C2=$(node_named "vivi 0 (consumer 2)"); then
	fail "churn: load vivi producer=1 consumers=2" "$(dmesg | tail -n 2 | tr '\n' ' ')"
fi
v4l2-ctl -d "$C2" -c frame_pacing=1
cycles=${VIVI_PRODUCER_CYCLES:-200}
bg c1 900 vivi-produce -c -f YUYV -s 640x480 -r 60 -M "$T/rand.yuyv" "$CAP"
bg c2 900 vivi-produce -c -f YUYV -s 640x480 -M "$T/rand.yuyv" "$C2"
wait_line "$T/c1.log" '^seq=' 30
wait_line "$T/c2.log" '^seq=' 30
# each cycle: open, S_FMT, REQBUFS, 4 frames at 60 fps, STREAMOFF, close,
# then as long again with no producer (the camera-clock consumer at 60 fps
# too, to see both)
t0=$(date +%s)
deadline $((cycles + 60)) vivi-produce -r 60 -n 4 -C "$cycles" "$PROD" "$T/rand.yuyv" \
	>"$T/prod.log" 2>&1
rc=$?
t1=$(date +%s)
sleep 1
if [ "$rc" = 0 ] && grep -qx "stopped frames=$((cycles * 4)) errors=0" "$T/prod.log"; then
	pass "churn: $cycles producer start/stream/stop cycles end cleanly ($((t1 - t0)) s)"
else
	fail "churn: $cycles producer start/stream/stop cycles end cleanly" "status $rc: $(tail -n 2 "$T/prod.log" | tr '\n' ' ')"
fi
for c in c1:camera c2:producer; do
	log=$T/${c%%:*}.log
	crc=$(bg_stop "${c%%:*}" USR1)
	cp "$log" "$OUT/churn-${c%%:*}.log"
	summary=$(grep '^frames=' "$log")
	fed=$(grep -c 'match=[0-9]' "$log")
	idle=$(grep -c 'match=-1' "$log")
	changes=$(awk '/^seq=/ { f = $3 !~ /=-1/; if (n && f != p) c++; p = f; n++ } END { print c + 0 }' "$log")
	if [ "$crc" = 0 ] && [[ $summary == *" gaps=0 "*" backwards=0" ]]; then
		pass "churn: the ${c#*:}-clock consumer streams throughout without a sequence gap ($summary)"
	else
		fail "churn: the ${c#*:}-clock consumer streams throughout without a sequence gap" \
			"status $crc, $summary $(grep -v '^seq=' "$log" | tail -n 2 | tr '\n' ' ')"
	fi
	if [ "$fed" -gt "$cycles" ] && [ "$changes" -ge "$cycles" ]; then
		pass "churn: the ${c#*:}-clock consumer shows fed frames and the pattern in turn ($fed fed, $idle not, $changes changes)"
	else
		fail "churn: the ${c#*:}-clock consumer shows fed frames and the pattern in turn" \
			"$fed fed, $idle not, $changes changes, want > $cycles and >= $cycles"
	fi
done
check "churn: kernel log clean" dmesg_clean
check "churn: vivi unloads" unload_vivi
stage_end
