#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# VM stage: loading, parameters, compliance, streaming with real clients.
# Runs inside the guest; prints PASS:/FAIL: lines.
set -u
. "$(dirname "$0")/lib.sh"

stage_start "parameters"
check "params: V4L2 core modules load" core_modules
# bad_param NAME PARAMS EXPECT: insmod fails with EINVAL, dmesg names it, and
# nothing is left behind
bad_param() {
	local name=$1 params=$2 expect=$3 out
	clear_dmesg
	# shellcheck disable=SC2086 # params is a word list
	if out=$(insmod "$KO" $params 2>&1); then
		fail "params: $name is refused" "insmod succeeded"
		rmmod vivi
		return
	fi
	# kmod words EINVAL as "Invalid parameters"
	if ! grep -qE 'Invalid (argument|parameters)' <<<"$out"; then
		fail "params: $name is refused" "not EINVAL: $out"
	elif ! dmesg | grep -q "vivi: $expect"; then
		fail "params: $name is refused" "no dmesg line 'vivi: $expect'"
	elif grep -q '^vivi ' /proc/modules || [ -e /sys/bus/platform/devices/vivi.0 ]; then
		fail "params: $name is refused" "something is left registered"
	else
		pass "params: $name is refused"
	fi
}
bad_param "n_devs=65" "n_devs=65" "n_devs=65 is out of range"
bad_param "video_nr=-2" "video_nr=-2" "video_nr\\[0\\]=-2 is out of range"
bad_param "video_nr=256" "video_nr=3,256" "video_nr\\[1\\]=256 is out of range"
bad_param "n_inputs=5" "n_inputs=5" "n_inputs=5 is out of range"
bad_param "debug=4" "debug=4" "debug=4 is out of range"
bad_param "formats=YUYV,FOO" "formats=YUYV,FOO" "formats: unsupported format 'FOO'"
bad_param "formats=YUYV,YUYV" "formats=YUYV,YUYV" "formats: 'YUYV' is listed twice"
bad_param "card_label too long" "card_label=abcdefghijklmnopqrstuvwxyz0123456" \
	"card_label\\[0\\] is longer than 31"

# n_devs=0 loads with no device, for devices made at run time; the unplug
# knob then has no device to take
name="params: n_devs=0 loads with no device"
if ! out=$(insmod "$KO" n_devs=0 2>&1); then
	fail "$name" "insmod: $out"
elif left=$( (ls -d /sys/bus/platform/devices/vivi.*; grep -l vivi /sys/class/video4linux/*/name) 2>/dev/null) &&
	[ -n "$left" ]; then
	fail "$name" "left: $left"
elif echo 0 >/sys/kernel/debug/vivi/unplug 2>/dev/null; then
	fail "$name" "unplug 0 accepted"
else
	pass "$name"
fi
check "params: n_devs=0 unloads" unload_vivi
# the most devices there may be, numbered 0 to 63
check "params: insmod n_devs=64" load_vivi n_devs=64
n=$(grep -l vivi /sys/class/video4linux/*/name 2>/dev/null | wc -l)
if [ "$n" = 64 ] && last=$(vivi_node 63); then
	pass "params: n_devs=64 gives 64 nodes, the last with bus info platform:vivi-63 ($last)"
else
	fail "params: n_devs=64 gives 64 nodes" "$n nodes, $(ls /sys/bus/platform/devices/ | grep -c vivi) devices"
fi
check "params: n_devs=64 unloads" unload_vivi

check "load: insmod vivi.ko n_devs=2 video_nr=3,5" \
	load_vivi n_devs=2 video_nr=3,5 "formats=$(non_nv_formats)"
if [ -e /dev/video3 ] && [ -e /dev/video5 ]; then
	pass "load: video_nr gives /dev/video3 and /dev/video5"
else
	fail "load: video_nr gives /dev/video3 and /dev/video5" "$(ls /dev/video* 2>&1)"
fi
stage_end

stage_start "querycap"
D0=$(vivi_node 0) || D0=/dev/video3
D1=$(vivi_node 1) || D1=/dev/video5
cap=$(v4l2-ctl -d "$D0" -D 2>&1)
for want in "Driver name *: vivi\$" "Card type *: vivi 0\$" \
	"Bus info *: platform:vivi-0\$" "Video Capture\$" "Streaming\$" \
	"Read/Write\$"; do
	if grep -q "$want" <<<"$cap"; then
		pass "querycap: ${want%\$}"
	else
		fail "querycap: ${want%\$}" "missing in: $(tr '\n' ' ' <<<"$cap")"
	fi
done
if grep -qE 'Video Output|Metadata|Video Capture Multiplanar' <<<"$(sed -n '/Device Caps/,$p' <<<"$cap")"; then
	fail "querycap: capture only" "other device caps: $cap"
else
	pass "querycap: capture only"
fi
stage_end

stage_start "negotiation edge cases"
vivi-edge "$D0"
stage_end

stage_start "compliance"
compliance "compliance: -s" "$D0" -s
compliance "compliance: -s --expbuf-device" "$D0" -s --expbuf-device "$D1"
# the DMABUF import really ran, rather than being skipped
if grep -q 'test DMABUF.*: OK' "$OUT/compliance-s-expbuf-device.log"; then
	pass "compliance: DMABUF streaming was tested"
else
	fail "compliance: DMABUF streaming was tested" \
		"$(grep -i dmabuf "$OUT/compliance-s-expbuf-device.log" | head -n 3 | tr '\n' ' ')"
fi
stage_end

stage_start "streaming"
W=640 H=480
v4l2-ctl -d "$D0" -v width=$W,height=$H,pixelformat=YUYV -p 30
size=$((W * H * 2))
rm -f /tmp/mmap.raw
# 8 buffers: the queue must not run dry while the emulated CPU is busy
v4l2-ctl -d "$D0" --stream-mmap=8 --stream-count=60 --stream-to=/tmp/mmap.raw \
	--verbose >/tmp/mmap.log 2>&1
frames_ok "stream: mmap 60 frames of YUYV 640x480" /tmp/mmap.raw 60 $size
# sequence numbers count up by one while the queue is kept full
seqs=$(sed -n 's/.*seq: *\([0-9]*\).*/\1/p' /tmp/mmap.log)
if [ "$(wc -l <<<"$seqs")" -ge 60 ] &&
	awk 'NR > 1 && $1 != p + 1 { bad = 1 } { p = $1 } END { exit bad }' <<<"$seqs"; then
	pass "stream: mmap sequence numbers are contiguous"
else
	fail "stream: mmap sequence numbers are contiguous" "$(head -c 200 <<<"$seqs" | tr '\n' ' ')"
fi
if grep -q 'ts-monotonic, ts-src-eof' /tmp/mmap.log; then
	pass "stream: timestamps are monotonic, end of frame"
else
	fail "stream: timestamps are monotonic, end of frame" "$(grep -m1 seq: /tmp/mmap.log)"
fi
ffmpeg -v error -y -f rawvideo -pix_fmt yuyv422 -s ${W}x$H -i /tmp/mmap.raw \
	-vf select='eq(n\,59)' -frames:v 1 -pix_fmt rgb24 -f rawvideo /tmp/last.rgb
bars.py "stream: mmap frame 60 shows the bars (ffmpeg decode)" /tmp/last.rgb \
	--raw ${W}x$H --tol 3

rm -f /tmp/user.raw
v4l2-ctl -d "$D0" --stream-user --stream-count=10 --stream-to=/tmp/user.raw >/dev/null 2>&1
frames_ok "stream: userptr 10 frames" /tmp/user.raw 10 $size

# v4l2-ctl 1.22 has no read() mode; dd reads the node like any file
rm -f /tmp/read.raw
dd if="$D0" of=/tmp/read.raw bs=$size count=10 iflag=fullblock 2>/tmp/read.log
frames_ok "stream: read() 10 frames" /tmp/read.raw 10 $size \
	"$(tail -n 2 /tmp/read.log)"
ffmpeg -v error -y -f rawvideo -pix_fmt yuyv422 -s ${W}x$H -i /tmp/read.raw \
	-frames:v 1 -pix_fmt rgb24 -f rawvideo /tmp/read.rgb
bars.py "stream: read() frame shows the bars" /tmp/read.rgb --raw ${W}x$H --tol 3

v4l2-ctl -d "$D0" -v pixelformat=RGB3
v4l2-ctl -d "$D0" --stream-mmap --stream-count=3 --stream-to=/tmp/rgb.raw >/dev/null 2>&1
tail -c $((W * H * 3)) /tmp/rgb.raw >/tmp/rgb1.raw
bars.py "stream: RGB24 bars are exact" /tmp/rgb1.raw --raw ${W}x$H --tol 0
v4l2-ctl -d "$D0" -v pixelformat=YUYV
stage_end

stage_start "ffmpeg"
# stored raw: an encoder slower than real time (as under TCG) would hold
# ffmpeg's buffers and make vivi drop frames
rm -f /tmp/ffmpeg.mkv
ffmpeg -v error -y -f v4l2 -input_format yuyv422 -video_size 640x480 \
	-framerate 30 -i "$D0" -t 2 -c:v rawvideo /tmp/ffmpeg.mkv
probe=$(ffprobe -v error -count_frames -select_streams v:0 \
	-show_entries stream=width,height,nb_read_frames -of csv=p=0 \
	/tmp/ffmpeg.mkv 2>&1)
IFS=, read -r pw ph pn <<<"$probe"
if [ "$pw" = 640 ] && [ "$ph" = 480 ] && [ "${pn:-0}" -ge 57 ] && [ "${pn:-0}" -le 63 ]; then
	pass "ffmpeg: 2 s capture is 640x480 with 60+-3 frames ($pn)"
else
	fail "ffmpeg: 2 s capture is 640x480 with 60+-3 frames" "ffprobe: $probe"
fi
ffmpeg -v error -y -i /tmp/ffmpeg.mkv -frames:v 1 "$OUT/ffmpeg.png"
bars.py "ffmpeg: PNG of a frame shows the 8 bars" "$OUT/ffmpeg.png" --tol 3
stage_end

stage_start "status and unload"
clear_dmesg
v4l2-ctl -d "$D0" --log-status >/dev/null
if dmesg | grep -q 'frames delivered:' && dmesg | grep -q 'format: YUYV 640x480'; then
	pass "log_status: reports format and frame counters"
else
	fail "log_status: reports format and frame counters" "$(dmesg | tail -n 5 | tr '\n' ' ')"
fi
node=${D0##*/}
if grep -q '^frames delivered: [1-9]' "/sys/kernel/debug/vivi/$node/stats" 2>/dev/null; then
	pass "debugfs: stats file counts delivered frames"
else
	fail "debugfs: stats file counts delivered frames" "$(cat "/sys/kernel/debug/vivi/$node/stats" 2>&1 | head -n 3)"
fi
exec 3<"$D0"
if rmmod vivi 2>/dev/null; then
	fail "unload: rmmod is refused while a file is open" "rmmod succeeded"
else
	pass "unload: rmmod is refused while a file is open"
fi
exec 3<&-
check "unload: rmmod works after the last close" rmmod vivi
if pgrep -x 'vivi-[0-9.]*' >/dev/null || [ -e /sys/kernel/debug/vivi ]; then
	fail "unload: no thread or debugfs entry left" "$(pgrep -a vivi)"
else
	pass "unload: no thread or debugfs entry left"
fi
stage_end
