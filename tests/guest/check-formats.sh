#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# VM stage: every format at three sizes decoded by ffmpeg and checked pixel
# by pixel, stride padding, frame sizes and intervals, inputs.
# Runs inside the guest; prints PASS:/FAIL: lines.
set -u
. "$(dirname "$0")/lib.sh"

check_core() { core_modules; }
check "formats: V4L2 core modules load" check_core
check "formats: load vivi with all formats" load_vivi n_devs=1
D=$(vivi_node 0)
# no text (osd_text 2, "None"): every pixel of every format is the 75%
# bars (frame.py)
v4l2-ctl -d "$D" -c osd_text=2 -p 30 >/dev/null
# every raw format the driver offers (check-clients holds them to the
# list); MJPEG has check-mjpeg
ALL_FORMATS=$(raw_formats "$D")

# one format of each layout at 3840x2160: packed 4:2:2, semi-planar and
# planar 4:2:0, planar 4:2:2, 32/16-bit RGB, luma, Bayer
UHD_FORMATS="YUYV NV12 YU12 422P XR24 RGBP GREY BA81"
stage_start "every format is pixel-exact, whole frames, at 160x120, 640x480, 1920x1080; 8 at 3840x2160"
for size in 160x120 640x480 1920x1080 3840x2160; do
	w=${size%x*} h=${size#*x}
	ref="/tmp/ref-$size.rgb"
	formats=$ALL_FORMATS
	[ "$size" = 3840x2160 ] && formats=$UHD_FORMATS
	t0=$(date +%s)
	capture_frame "$D" RGB3 "$w" "$h" "$ref" >/dev/null 2>&1
	set --
	for fcc in $formats; do
		if bpl=$(capture_frame "$D" "$fcc" "$w" "$h" "/tmp/f-$fcc.raw" 2>/tmp/cap.err); then
			set -- "$@" "$fcc:$bpl:/tmp/f-$fcc.raw"
		else
			fail "format $fcc $size: capture" "$(tail -n 2 /tmp/cap.err | tr '\n' ' ')"
		fi
	done
	# one ffmpeg run decodes them all: each start costs seconds under TCG
	t=$(date +%s)
	frame.py check-set "$size" "$ref" "$@"
	echo "formats: $size: $# frames captured and checked in $(($(date +%s) - t0)) s (checks $(($(date +%s) - t)) s)"
	rm -f /tmp/f-*.raw /tmp/frame-*
done
stage_end

stage_start "stride padding"
# vb2 hands out zeroed vmalloc memory, so padding must still be zero after
# the generator ran; the pictures must be right with the larger stride
for spec in YUYV:1344 YU12:704 RGB3:2048 NV12:768 GREY:1024; do
	fcc=${spec%:*} want=${spec#*:}
	name="padding $fcc bytesperline $want"
	if ! bpl=$(capture_frame "$D" "$fcc" 640 480 /tmp/p.raw "$want" 2>/tmp/cap.err); then
		fail "$name" "capture: $(tail -n 2 /tmp/cap.err | tr '\n' ' ')"
		continue
	fi
	if [ "$bpl" != "$want" ]; then
		fail "$name" "driver chose bytesperline $bpl"
		continue
	fi
	if ! out=$(padding.py "$fcc" /tmp/p.raw "$bpl" 2>&1); then
		fail "$name" "$out"
		continue
	fi
	pass "$name: padding untouched"
	frame.py check "$name" "$fcc" 640 480 "$bpl" /tmp/p.raw /tmp/ref-640x480.rgb
done
stage_end

stage_start "frame sizes and intervals"
for fcc in YUYV NV12 "Y16 " BA81; do
	got=$(v4l2-ctl -d "$D" --list-framesizes="$fcc" |
		sed -n 's/.*Discrete \([0-9]*x[0-9]*\).*/\1/p' | tr '\n' ' ')
	if [ "$got" = "$EXPECTED_SIZES " ]; then
		pass "sizes: $fcc offers the 10 webcam sizes"
	else
		fail "sizes: $fcc offers the 10 webcam sizes" "got: $got"
	fi
done
for size in $EXPECTED_SIZES; do
	w=${size%x*} h=${size#*x}
	want=$(expected_rates "$size")
	got=$(v4l2-ctl -d "$D" --list-frameintervals="width=$w,height=$h,pixelformat=YUYV" |
		sed -n 's/.*Interval: Discrete [0-9.]*s (\([0-9.]*\) fps).*/\1/p' |
		sed 's/\.000$//' | tr '\n' ' ')
	if [ "$got" = "$want " ]; then
		pass "intervals: $size offers $want fps"
	else
		fail "intervals: $size offers $want fps" "got: $got"
	fi
done
# an S_FMT to a size that lacks the current rate snaps the rate too
v4l2-ctl -d "$D" -v width=640,height=480,pixelformat=YUYV -p 120 >/dev/null
v4l2-ctl -d "$D" -v width=3840,height=2160,pixelformat=YUYV
got=$(v4l2-ctl -d "$D" -P | sed -n 's/.*Frames per second: \([0-9.]*\).*/\1/p')
if [ "$got" = "30.000" ]; then
	pass "intervals: S_FMT to 3840x2160 at 120 fps snaps to 30 fps"
else
	fail "intervals: S_FMT to 3840x2160 at 120 fps snaps to 30 fps" "got $got"
fi
stage_end

stage_start "inputs"
check "inputs: load vivi with n_inputs=4" load_vivi n_inputs=4 "formats=$(non_nv_formats)"
D=$(vivi_node 0)
got=$(v4l2-ctl -d "$D" --list-inputs | sed -n 's/.*Name *: //p' | tr '\n' ',')
if [ "$got" = "Camera 0,Camera 1,Camera 2,Camera 3," ]; then
	pass "inputs: Camera 0..Camera 3"
else
	fail "inputs: Camera 0..Camera 3" "got $got"
fi
# the S_INPUT check of vivi-edge runs only where a second input exists
edge=$(vivi-edge "$D")
grep -v S_INPUT <<<"$edge" | grep '^FAIL'
grep S_INPUT <<<"$edge" ||
	fail "inputs: S_INPUT with buffers allocated is EBUSY" "not run"
check "inputs: S_INPUT 3" v4l2-ctl -d "$D" -i 3
got=$(v4l2-ctl -d "$D" -I)
if grep -q 'Video input : 3 (Camera 3' <<<"$got"; then
	pass "inputs: G_INPUT reads back 3"
else
	fail "inputs: G_INPUT reads back 3" "$got"
fi
# each input starts on its own pattern, which the control then reports
names=("75% Color Bars" "100% Color Bars" "Checkerboard" "Moving Box")
want=(0 1 3 2)
v4l2-ctl -d "$D" -v width=320,height=240,pixelformat=RGB3 -c osd_text=2
for i in 0 1 2 3; do
	v4l2-ctl -d "$D" -i $(((i + 1) % 4)) >/dev/null
	v4l2-ctl -d "$D" -i $i >/dev/null
	got=$(v4l2-ctl -d "$D" -C test_pattern | sed -n 's/^test_pattern: \([0-9]*\).*/\1/p')
	rm -f /tmp/input.rgb
	v4l2-ctl -d "$D" --stream-mmap=8 --stream-count=1 \
		--stream-to=/tmp/input.rgb 2>/dev/null
	if [ "$got" = "${want[i]}" ]; then
		pattern.py frame "inputs: Camera $i starts on ${names[i]}" \
			/tmp/input.rgb 320 240 "${want[i]}"
	else
		fail "inputs: Camera $i starts on ${names[i]}" \
			"test_pattern is '$got', expected ${want[i]}"
	fi
done
v4l2-ctl -d "$D" -i 0 -c osd_text=0 >/dev/null
compliance "compliance: strict -s, n_inputs=4, no NV*" "$D" -s
stage_end
