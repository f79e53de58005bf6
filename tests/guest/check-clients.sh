#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# VM stage: real clients (v4l2-ctl, ffmpeg, GStreamer, OpenCV, Chromium)
# capture from vivi; each checks the frame count, the size and the 75% bars
# of what it got (clients.py). Runs inside the guest; prints PASS:/FAIL:.
set -u
. "$(dirname "$0")/lib.sh"

PATTERNS="75% Color Bars|100% Color Bars|Color Bars with Moving Box|Checkerboard 16x16|Horizontal Gray Ramp|Vertical Gray Ramp|Solid Black|Solid White|Solid Red|Solid Green|Solid Blue|Noise|"

check "clients: V4L2 core modules load" core_modules
check "clients: load vivi" load_vivi n_devs=1
D=$(vivi_node 0) || D=/dev/video0

# expect NAME TEXT REGEX...: PASS if every extended regex matches a line
expect() {
	local name=$1 text=$2 re missing=()
	shift 2
	for re in "$@"; do
		grep -qE -- "$re" <<<"$text" || missing+=("$re")
	done
	if [ ${#missing[@]} -eq 0 ]; then
		pass "$name"
	else
		fail "$name" "missing: ${missing[*]:0:3}"
	fi
}

stage_start "v4l2-ctl"
all=$(v4l2-ctl -d "$D" --all 2>&1)
expect "v4l2-ctl --all: device, format, rate and input" "$all" \
	"Driver name *: vivi\$" "Card type *: vivi 0\$" \
	"Bus info *: platform:vivi-0\$" "Width/Height *: 640/480\$" \
	"Pixel Format *: 'YUYV'" "Bytes per Line *: 1280\$" \
	"Size Image *: 614400\$" "Frames per second: 30.000 \(30/1\)" \
	"Video input *: 0 \(Camera 0"
expect "v4l2-ctl --all: every control at its default" "$all" \
	"brightness .*: min=0 max=255 step=1 default=128 value=128" \
	"contrast .*: min=0 max=255 step=1 default=128 value=128" \
	"saturation .*: min=0 max=255 step=1 default=128 value=128" \
	"hue .*: min=-180 max=180 step=1 default=0 value=0" \
	"horizontal_flip .*\(bool\) *: default=0 value=0" \
	"vertical_flip .*\(bool\) *: default=0 value=0" \
	"osd_text .*\(menu\) *: min=0 max=2 default=0 value=0" \
	"motion_speed .*\(int\) *: min=0 max=64 step=1 default=0 value=0" \
	"test_pattern .*\(menu\) *: min=0 max=11 default=0 value=0"

# --list-formats-ext: every format, each with the expected sizes and rates
formats_ext_ok v4l2-ctl "$D"

menus=$(v4l2-ctl -d "$D" --list-ctrls-menus 2>&1)
# menu NAME: the items listed under control NAME, '|'-separated
menu() {
	awk -v c="$1" '$1 == c { on = 1; next }
		on && /^\t+[0-9]+: / { sub(/^\t+[0-9]+: /, ""); printf "%s|", $0; next }
		{ on = 0 }' <<<"$menus"
}
got=$(menu test_pattern)
if [ "$got" = "$PATTERNS" ]; then
	pass "v4l2-ctl --list-ctrls-menus: test_pattern lists the 12 patterns"
else
	fail "v4l2-ctl --list-ctrls-menus: test_pattern lists the 12 patterns" "got: $got"
fi
got=$(menu osd_text)
if [ "$got" = "All|Counters Only|None|" ]; then
	pass "v4l2-ctl --list-ctrls-menus: osd_text menu"
else
	fail "v4l2-ctl --list-ctrls-menus: osd_text menu" "got: $got"
fi

# the I/O modes check-base does not cover: userptr and poll() at 1280x720
# with pixel checks, read() of an exact RGB24 stream
rm -f /tmp/user.raw /tmp/poll.raw /tmp/read.raw
v4l2-ctl -d "$D" -v width=1280,height=720,pixelformat=NV12 -p 30 >/dev/null
v4l2-ctl -d "$D" --stream-user=8 --stream-count=30 --stream-to=/tmp/user.raw >/dev/null 2>&1
v4l2-ctl -d "$D" -v pixelformat=YU12
v4l2-ctl -d "$D" --stream-mmap=4 --stream-poll --stream-count=30 \
	--stream-to=/tmp/poll.raw >/dev/null 2>&1
v4l2-ctl -d "$D" -v pixelformat=RGB3
dd if="$D" of=/tmp/read.raw bs=$((1280 * 720 * 3)) count=10 iflag=fullblock 2>/dev/null
clients.py frames \
	"v4l2-ctl --stream-user NV12|NV12|1280x720|30|/tmp/user.raw" \
	"v4l2-ctl --stream-mmap --stream-poll YU12|YU12|1280x720|30|/tmp/poll.raw" \
	"read() RGB3 (exact)|RGB3|1280x720|10|/tmp/read.raw"
rm -f /tmp/user.raw /tmp/poll.raw /tmp/read.raw
stage_end

# four devices from here on, so that one ffmpeg or GStreamer run streams
# from several at once (every process start costs seconds under TCG)
check "clients: load vivi with 4 devices" load_vivi n_devs=4
devs=()
for i in 0 1 2 3; do
	devs+=("$(vivi_node $i)")
done

stage_start "ffmpeg"
# ffv1 is lossless and fast enough under TCG; what reaches the file is
# what vivi gave, so RGB24 must still be exact
specs=()
for size in 640x480 1280x720; do
	set --
	outs=()
	i=0
	for spec in yuyv422:yuv422p:3 nv12:yuv420p:3 yuv420p:yuv420p:3 rgb24:bgr0:0; do
		IFS=: read -r pf enc tol <<<"$spec"
		set -- "$@" -f v4l2 -input_format "$pf" -video_size "$size" \
			-framerate 30 -i "${devs[$i]}"
		outs+=(-map "$i:v" -frames:v 30 -c:v ffv1 "/tmp/ff-$pf-$size.mkv")
		specs+=("ffmpeg: -f v4l2 $pf $size to ffv1|/tmp/ff-$pf-$size.mkv|$size|30|ffv1|$enc|$tol")
		i=$((i + 1))
	done
	rm -f /tmp/ff-*-"$size".mkv
	if ! err=$(deadline 400 ffmpeg -v error -y "$@" "${outs[@]}" 2>&1); then
		fail "ffmpeg: -f v4l2 at $size from 4 devices" "$err"
	fi
done
clients.py videos "${specs[@]}"
rm -f /tmp/ff-*.mkv
stage_end

stage_start "GStreamer"
# io_used DEV MODE TRACE: the syscalls (strace -y) show that MODE really
# was used on DEV. (The V4L2 core's dev_debug trace is no good here: with
# four devices streaming at once its continued printk lines split apart.)
io_used() {
	local dev=$1 mode=$2 log=$3
	# bufs MEMORY: buffers of that memory type were requested on dev
	bufs() {
		grep -E "<$dev>, VIDIOC_(REQBUFS|CREATE_BUFS), " "$log" |
			grep "memory=V4L2_MEMORY_$1" | grep -qE "count=[1-9]"
	}
	case $mode in
	rw) grep -q "read([0-9]*<$dev>, " "$log" && ! bufs MMAP &&
		! bufs USERPTR && ! bufs DMABUF ;;
	mmap) bufs MMAP && ! grep -q "<$dev>, VIDIOC_EXPBUF" "$log" ;;
	userptr) bufs USERPTR ;;
	dmabuf) bufs MMAP && grep -q "<$dev>, VIDIOC_EXPBUF" "$log" ;;
	esac
}
# v4l2src's userptr mode imports the buffers of a downstream pool, which
# filesink does not have: a videoconvert to a lossless repacking offers one
MODES="rw mmap userptr dmabuf"
# FORMAT:FOURCC:CAPS:WxH:FPS:USERPTR-REPACK:ITS-FOURCC - the first asks for
# ranges that only one size and rate fit
for run in "YUY2:YUYV:width=[1100,1400],height=[700,800],framerate=[26/1,35/1]:1280x720:30:Y42B:422P" \
	"I420:YU12:width=640,height=480,framerate=15/1:640x480:15:YV12:YV12" \
	"NV12:NV12:width=320,height=240,framerate=60/1:320x240:60:I420:YU12"; do
	IFS=: read -r gf fcc caps size fps ugf ufcc <<<"$run"
	w=${size%x*} h=${size#*x}
	set --
	i=0
	for mode in $MODES; do
		set -- "$@" v4l2src name=src$i device="${devs[$i]}" io-mode=$mode \
			num-buffers=30 ! "video/x-raw,format=$gf,$caps" !
		[ $mode = userptr ] &&
			set -- "$@" videoconvert ! "video/x-raw,format=$ugf" !
		set -- "$@" filesink location=/tmp/gst-$gf-$mode.raw
		i=$((i + 1))
	done
	rm -f /tmp/gst-*.raw
	log=$(deadline 400 strace -f -qq -y --seccomp-bpf -e trace=ioctl,read -e signal=none \
		-o /tmp/gst.strace gst-launch-1.0 "$@" 2>&1)
	rc=$?
	if [ $rc -eq 124 ]; then
		fail "gstreamer: $gf, io-mode $MODES" "$log"
		continue
	elif [ $rc -ne 0 ]; then
		fail "gstreamer: $gf, io-mode $MODES" "$(grep -iE 'error|fail' <<<"$log" | head -n 3 | tr '\n' ' ')"
		continue
	fi
	specs=()
	i=0
	for mode in $MODES; do
		name="gstreamer: v4l2src io-mode=$mode $gf"
		# what v4l2src set on the device through caps negotiation
		fmt=$(v4l2-ctl -d "${devs[$i]}" -V -P 2>&1)
		if grep -q "Width/Height *: $w/$h\$" <<<"$fmt" &&
			grep -q "Pixel Format *: '$fcc'" <<<"$fmt" &&
			grep -q "Frames per second: $fps.000" <<<"$fmt"; then
			pass "$name: caps negotiate $size at $fps fps"
		else
			fail "$name: caps negotiate $size at $fps fps" "device: $(grep -E 'Width|Pixel|per second' <<<"$fmt" | tr -s ' \n' ' ')"
		fi
		if io_used "${devs[$i]}" $mode /tmp/gst.strace; then
			pass "$name: the syscalls show $mode I/O"
		else
			fail "$name: the syscalls show $mode I/O" \
				"$(grep -E "<${devs[$i]}>, (VIDIOC_(REQBUFS|CREATE_BUFS|EXPBUF)|\")" /tmp/gst.strace | head -n 3 | tr '\n' ' ')"
		fi
		if [ $mode = userptr ]; then
			specs+=("$name (repacked to $ugf)|$ufcc|$size|30|/tmp/gst-$gf-$mode.raw")
		else
			specs+=("$name|$fcc|$size|30|/tmp/gst-$gf-$mode.raw")
		fi
		i=$((i + 1))
	done
	clients.py frames "${specs[@]}"
done
rm -f /tmp/gst-*.raw /tmp/gst.strace
stage_end

stage_start "OpenCV"
D=${devs[0]}
n=${D#/dev/video}
# OpenCV takes BGR3 when offered: no conversion, so exact
clients.py opencv "opencv: CAP_V4L2 1280x720" "$n" 1280x720 60 --want-fourcc BGR3 --tol 0
expect "opencv: vivi was set to 1280x720 BGR3" "$(v4l2-ctl -d "$D" -V)" \
	"Width/Height *: 1280/720\$" "Pixel Format *: 'BGR3'"
# forced to YUYV, OpenCV converts with BT.601 limited range itself
clients.py opencv "opencv: CAP_V4L2 1280x720 YUYV" "$n" 1280x720 60 --fourcc YUYV --want-fourcc YUYV --tol 4
expect "opencv: vivi was set to 1280x720 YUYV" "$(v4l2-ctl -d "$D" -V)" \
	"Width/Height *: 1280/720\$" "Pixel Format *: 'YUYV'"
stage_end

# mirror_frame DEV OUT: a YUYV 640x480 frame of DEV's pattern mirrored
# (hflip), which a producer then feeds: the bars in reverse order tell the
# fed picture from the pattern
mirror_frame() {
	v4l2-ctl -d "$1" -c horizontal_flip=1 &&
		capture_frame "$1" YUYV 640 480 "$2" >/dev/null &&
		v4l2-ctl -d "$1" -c horizontal_flip=0
}

# fed_start BROWSER: "vivi 0" ($D), and a producer device "Fed" ($F, its
# output node $FP) whose producer feeds it mirror_frame's picture (its
# pid in $PROD_PID)
fed_start() {
	check "$1: load vivi n_devs=2 producer=0,1 card_label=,Fed" \
		load_vivi n_devs=2 producer=0,1 card_label=,Fed
	D=$(vivi_node 0)
	F=$(node_named Fed) FP=$(node_named "Fed (producer)")
	mirror_frame "$F" /tmp/mirror.yuyv || fail "$1: a mirrored frame of $F" "none"
	vivi-produce -f YUYV -s 640x480 "$FP" /tmp/mirror.yuyv >"$OUT/$1-prod.log" 2>&1 &
	PROD_PID=$!
}

fed_stop() {
	kill "$PROD_PID" 2>/dev/null
	wait "$PROD_PID" 2>/dev/null
}

stage_start "Chromium"
fed_start chromium
# camera.html, then (one browser start for the three) pan, tilt and zoom
# through the Image Capture constraints (ptz.html), then camera.html on
# Fed; each logs its result to the same log, camera.html's "RESULT WxH
# ...", ptz.html's "RESULT N ...", the last "FED RESULT WxH ..."
t0=$(date +%s)
chromium_start "file://$GUEST/camera.html?label=vivi%200&next=ptz.html&fed=Fed" \
	"$OUT/chromium.log"
# a frame arrives a minute or more after the start under TCG
browser_wait "$OUT/chromium.log" '(RESULT [0-9]+x|ERROR)' 600 >/dev/null
echo "chromium: result after $(($(date +%s) - t0)) s"
echo "chromium: captured $(v4l2-ctl -d "$D" -V -P | grep -E "Pixel Format|Width|per second" | tr -s ' \n' ' ')"
browser_wait "$OUT/chromium.log" '(RESULT [0-9]+ |ERROR)' 600 >/dev/null
echo "chromium: ptz result after $(($(date +%s) - t0)) s, zoom_absolute now $(v4l2-ctl -d "$D" -C zoom_absolute)"
browser_wait "$OUT/chromium.log" '(FED RESULT|ERROR)' 600 >/dev/null
echo "chromium: the fed camera's result after $(($(date +%s) - t0)) s"
browser_stop
fed_stop
clients.py chromium "chromium: getUserMedia" "$OUT/chromium.log" 640x480 "vivi 0" 4
clients.py ptz "chromium: pan/tilt/zoom" "$OUT/chromium.log" 4
clients.py chromium "chromium: a producer device's camera shows the fed frames" \
	"$OUT/chromium.log" 640x480 Fed 4 --tag FED --hflip
# a camera keeps its zoom when the app closes: back to 1x for Firefox
v4l2-ctl -d "$D" -c zoom_absolute=100
stage_end

stage_start "Firefox"
# Firefox probes sizes with TRY_FMT and takes exact matches only: 960x720
# is one vivi added for it. It picks the format itself; the colors to expect
# follow from the one vivi streamed (MJPEG is read as limited range,
# docs/device.md). 960x720, where it picks MJPEG, runs in make check-full:
# check-configfs's Firefox part streams MJPEG at 1366x768.
# In make check-full, then in the same browser start the fed camera
# (fed_start): picking cameras by label takes Firefox minutes under TCG.
full=${VIVI_FULL:-0}
if [ "$full" = 1 ]; then
	fed_start firefox
	pick="&label=vivi%200&fed=Fed"
else
	check "firefox: load vivi" load_vivi n_devs=1
	D=$(vivi_node 0) pick=
fi
for size in $(full_or 640x480 "640x480 960x720"); do
	L=$OUT/firefox-$size.log
	t0=$(date +%s)
	firefox_start "file://$GUEST/camera.html?w=${size%x*}&h=${size#*x}$pick" "$L"
	browser_wait "$L" '(RESULT|ERROR)' 600 >/dev/null
	fmt=$(sed -n 's/^format: \([^ ]*\).*/\1/p' /sys/kernel/debug/vivi/"${D#/dev/}"/stats)
	[ "$full" = 1 ] && browser_wait "$L" '(FED RESULT|ERROR)' 600 >/dev/null &&
		ffmt=$(sed -n 's/^format: \([^ ]*\).*/\1/p' /sys/kernel/debug/vivi/"${F#/dev/}"/stats)
	browser_stop
	echo "firefox: $size: result after $(($(date +%s) - t0)) s, vivi streamed $fmt"
	clients.py chromium "firefox: getUserMedia $size ($fmt)" "$L" "$size" "vivi 0" 4 \
		$([ "$fmt" = MJPG ] && echo --limited)
	[ "$full" = 1 ] &&
		clients.py chromium "firefox: a producer device's camera shows the fed frames $size ($ffmt)" \
			"$L" "$size" Fed 4 --tag FED --hflip $([ "$ffmt" = MJPG ] && echo --limited)
done
[ "$full" = 1 ] && fed_stop
stage_end

stage_start "PipeWire"
# the path of the camera portal and of browsers on current desktops: a
# session bus, pipewire and wireplumber (its Bluetooth part off: it wants
# logind), udev's properties for the node (v4l_id; the guest runs in a
# chroot, which systemd's tools ignore only when told)
# and a producer device beside it, "Fed", whose capture node PipeWire must
# list before a producer streams, and which then shows the fed frames
check "pipewire: load vivi with card_label=PipeCam,Fed producer=0,1" \
	load_vivi n_devs=2 card_label=PipeCam,Fed producer=0,1
D=$(vivi_node 0)
F=$(node_named Fed) FP=$(node_named "Fed (producer)")
mirror_frame "$F" /tmp/pw-mirror.yuyv || fail "pipewire: a mirrored frame of $F" "none"
export SYSTEMD_IGNORE_CHROOT=1 XDG_RUNTIME_DIR=/tmp/xdg XDG_CONFIG_HOME=/tmp/pwconf
mkdir -p -m 0700 "$XDG_RUNTIME_DIR"
mkdir -p "$XDG_CONFIG_HOME/wireplumber/bluetooth.lua.d"
echo 'bluez_monitor.enabled = false' >"$XDG_CONFIG_HOME/wireplumber/bluetooth.lua.d/51-vivi.lua"
/lib/systemd/systemd-udevd --daemon 2>/dev/null
udevadm trigger --action=add --subsystem-match=video4linux
udevadm settle -t 30
bus=$(dbus-daemon --session --fork --print-address=1 --print-pid=1)
export DBUS_SESSION_BUS_ADDRESS=${bus%%$'\n'*}
dbus_pid=${bus##*$'\n'}
pipewire >"$OUT/pipewire.log" 2>&1 &
pw_pid=$!
sleep 2
wireplumber >"$OUT/wireplumber.log" 2>&1 &
wp_pid=$!
# pw_source DEV: "ID ROLE NICK | DESCRIPTION" of the Video/Source node of
# DEV, if PipeWire has one
pw_source() {
	pw-dump 2>/dev/null | python3 -c '
import json, sys
for o in json.load(sys.stdin):
    p = (o.get("info") or {}).get("props") or {}
    if p.get("media.class") == "Video/Source" and p.get("api.v4l2.path") == sys.argv[1]:
        print(o["id"], p.get("media.role"), p.get("node.nick"), "|", p.get("node.description"))
' "$1"
}
node=
for _ in $(seq 60); do
	node=$(pw_source "$D")
	[ -n "$node" ] && break
	sleep 1
done
id=${node%% *}
if [ -n "$node" ] && [ "$(cut -d' ' -f2-3 <<<"$node")" = "Camera PipeCam" ]; then
	pass "pipewire: $D is node $id, Video/Source, role Camera, nick PipeCam, description '${node#*| }'"
else
	fail "pipewire: $D as a Video/Source Camera node named PipeCam" "${node:-no node within 60 s}"
fi
# pw_frames ID OUT: 30 RGB24 640x480 frames of PipeWire node ID into OUT
# (none if ID is empty); gst-launch's errors on stdout
pw_frames() {
	rm -f "$2"
	[ -n "$1" ] && timeout 300 gst-launch-1.0 -q pipewiresrc path="$1" num-buffers=30 ! \
		video/x-raw,width=640,height=480 ! videoconvert ! video/x-raw,format=RGB ! \
		filesink location="$2" 2>&1
}
if err=$(pw_frames "$id" /tmp/pw.rgb); then
	fmt=$(sed -n 's/^format: \([^ ]*\).*/\1/p' /sys/kernel/debug/vivi/"${D#/dev/}"/stats)
	clients.py frames "pipewire: pipewiresrc, vivi streaming $fmt|RGB3|640x480|30|/tmp/pw.rgb|4"
else
	fail "pipewire: pipewiresrc 30 frames" "${err:-no node}"
fi
fed=$(pw_source "$F")
if [ "$(cut -d' ' -f2-3 <<<"$fed")" = "Camera Fed" ] && [ -z "$(pw_source "$FP")" ]; then
	pass "pipewire: with no producer streaming, the producer device's capture node $F is a Camera node too (${fed%% *}), its output node none"
else
	fail "pipewire: the producer device's capture node listed, its output node not" \
		"capture: '${fed}', output: '$(pw_source "$FP")'"
fi
vivi-produce -f YUYV -s 640x480 "$FP" /tmp/pw-mirror.yuyv >/tmp/pw-prod.log 2>&1 &
prod=$!
for _ in $(seq 100); do
	grep -q '^streaming' /tmp/pw-prod.log && break
	sleep 0.2
done
if err=$(pw_frames "${fed%% *}" /tmp/pw-fed.rgb); then
	bars.py "pipewire: pipewiresrc on the producer device: 30 frames, each the fed picture (the bars mirrored)" \
		/tmp/pw-fed.rgb --raw 640x480 --frames 30 --hflip --tol 4
else
	fail "pipewire: pipewiresrc on the producer device" "${err:-no node}"
fi
kill "$prod" 2>/dev/null
wait "$prod" 2>/dev/null
if [ "$(pw_source "$F")" = "$fed" ]; then
	pass "pipewire: the producer gone, the capture node stays listed"
else
	fail "pipewire: the producer gone, the capture node stays listed" "'$(pw_source "$F")'"
fi
kill "$wp_pid" "$pw_pid" "$dbus_pid" 2>/dev/null
wait "$wp_pid" "$pw_pid" 2>/dev/null
udevadm control --exit 2>/dev/null
pkill -9 -x systemd-udevd 2>/dev/null
unset SYSTEMD_IGNORE_CHROOT DBUS_SESSION_BUS_ADDRESS
stage_end

check "clients: unload vivi" unload_vivi
