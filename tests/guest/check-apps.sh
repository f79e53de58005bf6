#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# VM stage: real applications negotiate what they asked for, and streaming
# every format at the smallest and largest size and every rate at one size.
# make check streams the largest size in MJPEG and one packed and one
# planar YUV format (check-formats checks one format of each layout there,
# pixel by pixel), and five of the nine rates; check-full all of them.
# Runs inside the guest; prints PASS:/FAIL: lines.
set -u
. "$(dirname "$0")/lib.sh"

check "apps: V4L2 core modules load" core_modules
check "apps: load vivi" load_vivi n_devs=1
D=$(vivi_node 0)

stage_start "compliance with every format"
compliance_skew "compliance: -s, all formats" "$D" -s
stage_end

stage_start "ffmpeg negotiates format, size and rate"
for pf in yuyv422 nv12 yuv420p rgb24; do
	name="ffmpeg: -input_format $pf -video_size 1280x720 -framerate 60"
	rm -f /tmp/a.nut
	if ! err=$(ffmpeg -v error -y -f v4l2 -input_format $pf \
		-video_size 1280x720 -framerate 60 -i "$D" -frames:v 30 \
		-c:v rawvideo /tmp/a.nut 2>&1); then
		fail "$name" "$err"
		continue
	fi
	probe=$(ffprobe -v error -count_frames -show_entries \
		stream=width,height,pix_fmt,r_frame_rate,nb_read_frames \
		-of csv=p=0 /tmp/a.nut)
	fps=$(v4l2-ctl -d "$D" -P | sed -n 's/.*Frames per second: \([0-9.]*\).*/\1/p')
	if [ "$probe" = "1280,720,$pf,60/1,30" ] && [ "$fps" = "60.000" ]; then
		pass "$name"
	else
		fail "$name" "ffprobe: $probe, device at $fps fps"
	fi
done
stage_end

stage_start "GStreamer negotiates caps"
for caps in "format=I420,width=640,height=480,framerate=30/1:460800" \
	"format=YUY2,width=320,height=240,framerate=15/1:153600" \
	"format=NV12,width=1280,height=720,framerate=10/1:1382400"; do
	c=${caps%:*} size=${caps##*:}
	rm -f /tmp/g.raw
	if ! err=$(gst-launch-1.0 -q v4l2src device="$D" num-buffers=60 ! \
		"video/x-raw,$c" ! filesink location=/tmp/g.raw 2>&1); then
		fail "gstreamer: v4l2src $c" "$err"
		continue
	fi
	got=$(stat -c %s /tmp/g.raw)
	if [ "$got" -eq $((60 * size)) ]; then
		pass "gstreamer: v4l2src $c, 60 buffers"
	else
		fail "gstreamer: v4l2src $c, 60 buffers" "$got bytes, want $((60 * size))"
	fi
done
stage_end

stage_start "every format streams at the smallest and largest size"
for fcc in $(list_formats "$D"); do
	fcc=$(pad4 "$fcc")
	sizes=160x120
	case "$fcc" in
	MJPG | YUYV | NV12) sizes+=" 3840x2160" ;;
	*) sizes+=$(full_or "" " 3840x2160") ;;
	esac
	for size in $sizes; do
		w=${size%x*} h=${size#*x}
		v4l2-ctl -d "$D" -v "width=$w,height=$h,pixelformat=$fcc" -p 5 >/dev/null
		# the byte count means something only if S_FMT took effect
		fmt=$(v4l2-ctl -d "$D" -V)
		got=$(sed -n 's/.*Width\/Height *: *\([0-9]*\)\/\([0-9]*\).*/\1x\2/p' <<<"$fmt")
		got+=$(sed -n "s/.*Pixel Format *: *'\([^']*\)'.*/ \1/p" <<<"$fmt")
		if [ "$got" != "$size $fcc" ]; then
			fail "stream: '$fcc' $size" "G_FMT gives '$got' after S_FMT"
			continue
		fi
		want=$(sed -n 's/.*Size Image *: *//p' <<<"$fmt")
		rm -f /tmp/s.raw
		v4l2-ctl -d "$D" --stream-mmap --stream-count=3 --stream-to=/tmp/s.raw >/dev/null 2>&1
		if [ "$fcc" = MJPG ]; then
			# each frame as long as its JPEG: count whole JPEGs
			got=$(mjpeg.py count /tmp/s.raw)
			if [ "$got" = 3 ]; then
				pass "stream: '$fcc' $size"
			else
				fail "stream: '$fcc' $size" "$got JPEGs, want 3"
			fi
			continue
		fi
		frames_ok "stream: '$fcc' $size" /tmp/s.raw 3 "$want"
	done
done
stage_end

stage_start "every rate at 640x480"
v4l2-ctl -d "$D" -v width=640,height=480,pixelformat=YUYV
for fps in $(full_or "5 12.5 30 60 120" "5 10 12.5 15 25 30 50 60 120"); do
	v4l2-ctl -d "$D" -p $fps >/dev/null
	# 6 s of frames: 0.1% of the 3 s between the frames of a pair is
	# 3 ms, above the guest's usual wake-up jitter under TCG (pairs 1 s
	# apart failed 5 fps at -0.12% once)
	n=$(awk -v f="$fps" 'BEGIN { print 6 * f }')
	seqts=$(v4l2-ctl -d "$D" --stream-mmap=8 --stream-count=$((n + 1)) --verbose 2>&1 |
		sed -n 's/.* seq: *\([0-9]*\) .* ts: *\([0-9.]*\).*/\1 \2/p')
	# the median slope between frames 3 s apart: a stall moves only the
	# few pairs that straddle it (it did move a least-squares slope)
	if m=$(median_interval "$(awk -v f="$fps" 'BEGIN { print 1 / f }')" \
		0.001 <<<"$seqts") && [ "$(wc -l <<<"$seqts")" = $((n + 1)) ]; then
		pass "rate: $fps fps streams at $fps fps (mean interval $m s)"
	else
		fail "rate: $fps fps streams at $fps fps" "mean interval $m s, want $((n + 1)) frames"
	fi
done
stage_end
