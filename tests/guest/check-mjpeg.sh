#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# VM stage: MJPEG, the format webcams send. Negotiation, the quality control
# and bad input (vivi-mjpeg); every frame a JPEG that libjpeg decodes
# without a warning, matching the raw picture (mjpeg.py); real time at
# 1280x720; compliance; ffmpeg, GStreamer, OpenCV and Chromium taking it.
# Runs inside the guest; prints PASS:/FAIL: lines.
set -u
. "$(dirname "$0")/lib.sh"

# grab DEV FOURCC WxH COUNT OUT: COUNT frames at 30 fps, as --stream-to
# writes them (for MJPEG: bytesused bytes each)
grab() {
	local w=${3%x*} h=${3#*x}
	rm -f "$5"
	v4l2-ctl -d "$1" -v "width=$w,height=$h,pixelformat=$(pad4 "$2")" -p 30 \
		>/dev/null &&
		v4l2-ctl -d "$1" --stream-mmap --stream-count="$4" \
			--stream-to="$5" >/dev/null 2>&1
}

sizeimage() { v4l2-ctl -d "$1" -V | sed -n 's/.*Size Image *: *//p'; }

# stats DEV: vivi's own account of the node (debugfs)
stats() { cat "/sys/kernel/debug/vivi/${1#/dev/}/stats"; }

expect_eq() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "got: $2"; fi
}

check "mjpeg: V4L2 core modules load" core_modules
check "mjpeg: load vivi" load_vivi n_devs=1
D=$(vivi_node 0)

stage_start "negotiation, quality and bad input"
vivi-mjpeg "$D"
got=$(v4l2-ctl -d "$D" --list-framesizes=MJPG |
	sed -n 's/.*Discrete \([0-9]*x[0-9]*\).*/\1/p' | tr '\n' ' ')
expect_eq "mjpeg: the webcam sizes" "$got" "$EXPECTED_SIZES "
bad=
for size in $EXPECTED_SIZES; do
	got=$(v4l2-ctl -d "$D" --list-frameintervals="width=${size%x*},height=${size#*x},pixelformat=MJPG" |
		sed -n 's/.*Interval: Discrete [0-9.]*s (\([0-9.]*\) fps).*/\1/p' |
		sed 's/\.000$//' | tr '\n' ' ')
	[ "$got" = "$(expected_rates "$size") " ] || bad="$bad $size: $got;"
done
expect_eq "mjpeg: every size offers the raw formats' rates" "$bad" ""
stage_end

stage_start "frames decode and match the raw picture"
v4l2-ctl -d "$D" -c osd_text=2
# bounds near what the encoder delivers (measured on 6.1, 2026-12-06): bar
# interiors worst error 3 at 160x120 (every chroma block holds a bar edge),
# 1 at 1280x720 and 1920x1080, at quality 95 and 100; PSNR against YUYV
# 38.7, 46.9 and 48.3 dB at both qualities (the chroma subsampling of the
# reference dominates it). A quality-30 frame, or +3 on every sample, fails
# them; the quantization tables tell quality 95 from 100 exactly.
for spec in 160x120:4:38.2 1280x720:2:46.0 1920x1080:2:47.5; do
	IFS=: read -r size tol db <<<"$spec"
	grab "$D" YUYV "$size" 1 /tmp/ref.yuyv
	grab "$D" MJPG "$size" 3 /tmp/m.mjpg
	mjpeg.py check "mjpeg: $size quality 95" "$size" /tmp/m.mjpg \
		/tmp/ref.yuyv --count 3 --max "$(sizeimage "$D")" --tol "$tol" \
		--psnr "$db" --quality 95
	v4l2-ctl -d "$D" -c compression_quality=100
	grab "$D" MJPG "$size" 1 /tmp/m.mjpg
	mjpeg.py check "mjpeg: $size quality 100" "$size" /tmp/m.mjpg \
		/tmp/ref.yuyv --count 1 --max "$(sizeimage "$D")" --tol 2 \
		--psnr "$db" --quality 100
	v4l2-ctl -d "$D" -c compression_quality=95
done
# the picture controls and flips act on MJPEG as on the raw formats
v4l2-ctl -d "$D" -c horizontal_flip=1,vertical_flip=1,brightness=160,hue=30
grab "$D" YUYV 640x480 1 /tmp/ref.yuyv
grab "$D" MJPG 640x480 1 /tmp/m.mjpg
# (measured 44.1 dB)
mjpeg.py check "mjpeg: flips, brightness 160, hue 30" 640x480 /tmp/m.mjpg \
	/tmp/ref.yuyv --count 1 --psnr 43 --no-bars
v4l2-ctl -d "$D" -c horizontal_flip=0,vertical_flip=0,brightness=128,hue=0
# 60 frames with the text on: every one decodes without a warning
v4l2-ctl -d "$D" -c osd_text=0
grab "$D" MJPG 640x480 60 /tmp/m.mjpg
v4l2-ctl -d "$D" -c osd_text=2
mjpeg.py check "mjpeg: 60 frames of 640x480 with text" 640x480 /tmp/m.mjpg \
	/tmp/ref.yuyv --count 60 --max "$(sizeimage "$D")" --tol 2 --psnr 0 \
	--decode-all
stage_end

stage_start "real time"
# stats: frames dropped counts deadlines without a buffer, at any size
for size in 1280x720 1920x1080; do
	grab "$D" MJPG "$size" 150 /tmp/m.mjpg
	st=$(stats "$D")
	dropped=$(sed -n 's/^frames dropped: //p' <<<"$st")
	gen=$(sed -n 's/^generator ns: //p' <<<"$st")
	echo "mjpeg: $size at 30 fps: 150 frames, $dropped dropped, generator ns $gen"
	if [ "$size" = 1280x720 ]; then
		expect_eq "mjpeg: 1280x720 at 30 fps streams 150 frames, none dropped" \
			"$dropped" 0
	fi
done
stage_end

stage_start "compliance"
v4l2-ctl -d "$D" -v width=640,height=480,pixelformat=MJPG -c osd_text=0
compliance_skew "compliance: -s with MJPEG the current format" "$D" -s
stage_end

stage_start "clients"
v4l2-ctl -d "$D" -v width=640,height=480,pixelformat=YUYV
rm -f /tmp/m.mkv
if err=$(ffmpeg -v error -y -f v4l2 -input_format mjpeg -video_size 1280x720 \
	-framerate 30 -i "$D" -frames:v 30 -c:v copy /tmp/m.mkv 2>&1); then
	clients.py videos "ffmpeg: -input_format mjpeg 1280x720|/tmp/m.mkv|1280x720|30|mjpeg|yuvj422p|4"
else
	fail "ffmpeg: -input_format mjpeg 1280x720" "$err"
fi
rm -f /tmp/g.rgb
if err=$(gst-launch-1.0 -q v4l2src device="$D" num-buffers=30 ! \
	image/jpeg,width=1280,height=720,framerate=30/1 ! jpegdec ! \
	videoconvert ! video/x-raw,format=RGB ! filesink location=/tmp/g.rgb 2>&1); then
	clients.py frames "gstreamer: v4l2src ! image/jpeg ! jpegdec|RGB3|1280x720|30|/tmp/g.rgb|4"
else
	fail "gstreamer: v4l2src ! image/jpeg ! jpegdec" "$err"
fi
clients.py opencv "opencv: CAP_V4L2 MJPG 1280x720" "${D#/dev/video}" 1280x720 30 \
	--fourcc MJPG --want-fourcc MJPG --tol 4

v4l2-ctl -d "$D" -v width=640,height=480,pixelformat=YUYV
t0=$(date +%s)
chromium_start "file://$GUEST/camera.html?w=1280&h=720" "$OUT/chromium-mjpeg.log"
browser_wait "$OUT/chromium-mjpeg.log" '(RESULT|ERROR)' 600 >/dev/null
echo "chromium: result after $(($(date +%s) - t0)) s"
# what vivi streams, from its own state
fmt=$(stats "$D" | grep -E '^(streaming|format):' | tr '\n' ' ')
browser_stop
# Chromium reads MJPEG as limited range (docs/device.md): the bars as clients.py
# --limited computes them, white 191 as 204
clients.py chromium "chromium: getUserMedia 1280x720" "$OUT/chromium-mjpeg.log" 1280x720 "vivi 0" 4 --limited
if grep -q 'streaming: yes format: MJPG 1280x720' <<<"$fmt"; then
	pass "chromium: vivi streamed MJPG 1280x720 ($fmt)"
else
	fail "chromium: vivi streamed MJPG 1280x720" "log_status: $fmt"
fi
stage_end

check "mjpeg: unload vivi" unload_vivi
