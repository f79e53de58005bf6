#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# VM stage: the camera controls (vivi_camera.c). Their ranges and defaults
# as v4l2-ctl lists them, the auto clusters, bad values, and each effect on
# the picture checked pixel by pixel against docs/device.md's formulas
# (camera.py): zoom, pan and tilt in RGB24 exactly, also in YUYV and MJPEG;
# exposure, gain, white balance, gamma and backlight compensation at two
# values each; privacy, with the frame stamp kept; the text line of the
# controls shown as text, read glyph by glyph, and none at the defaults.
set -u
. "$(dirname "$0")/lib.sh"

W=320 H=240
T=/tmp/camera
rm -rf "$T"
mkdir -p "$T"

stage_start "camera controls"
check "camera: V4L2 core modules load" core_modules
check "camera: load vivi" load_vivi
D=$(vivi_node 0) || D=/dev/video0

CAMERA=zoom_absolute=100,pan_absolute=0,tilt_absolute=0,privacy=0
CAMERA=$CAMERA,auto_exposure=3,exposure_time_absolute=250,gain=0,gamma=100
CAMERA=$CAMERA,white_balance_automatic=1,white_balance_temperature=4000
CAMERA=$CAMERA,backlight_compensation=0,focus_automatic_continuous=1
CAMERA=$CAMERA,focus_absolute=0,sharpness=128,power_line_frequency=2
PICTURE=test_pattern=0,brightness=128,contrast=128,saturation=128,hue=0,motion_speed=0
PICTURE=$PICTURE,horizontal_flip=0,vertical_flip=0,osd_text=2,frame_stamp=0

# value NAME: the control's current value
value() { v4l2-ctl -d "$D" -C "$1" 2>/dev/null | sed -n 's/^[^:]*: //p'; }

# grab FOURCC OUT CTRLS [COUNT]: frames at W x H with the camera and
# picture controls at their defaults but CTRLS (-S, as v4l2-ctl names them)
grab() {
	local c sets=()
	rm -f "$2"
	v4l2-ctl -d "$D" -c "$CAMERA" -c "$PICTURE"
	for c in ${3//,/ }; do
		sets+=(-S "$c")
	done
	if ! vivi-timing "${sets[@]}" -f "$1" -s ${W}x$H -b 3 -n "${4:-1}" \
		-O "$2" "$D" >"$2.txt" 2>"$2.err"; then
		fail "camera: capture $1 with $3" "$(tail -n 2 "$2.err" | tr '\n' ' ')"
		return 1
	fi
}

# 1. the controls a UVC webcam offers, with its ranges and defaults
L=$(v4l2-ctl -d "$D" --list-ctrls-menus)
missing=
for re in \
	"gamma .*(int) *: min=72 max=500 step=1 default=100" \
	"gain .*(int) *: min=0 max=255 step=1 default=0" \
	"sharpness .*(int) *: min=0 max=255 step=1 default=128" \
	"backlight_compensation .*(int) *: min=0 max=2 step=1 default=0" \
	"power_line_frequency .*(menu) *: min=0 max=2 default=2" \
	"white_balance_automatic .*(bool) *: default=1" \
	"white_balance_temperature .*(int) *: min=2000 max=6500 step=1 default=4000 .*flags=inactive" \
	"auto_exposure .*(menu) *: min=0 max=3 default=3" \
	"exposure_time_absolute .*(int) *: min=3 max=2047 step=1 default=250 .*flags=inactive" \
	"focus_automatic_continuous .*(bool) *: default=1" \
	"focus_absolute .*(int) *: min=0 max=250 step=5 default=0 .*flags=inactive" \
	"zoom_absolute .*(int) *: min=100 max=500 step=1 default=100" \
	"pan_absolute .*(int) *: min=-36000 max=36000 step=3600 default=0" \
	"tilt_absolute .*(int) *: min=-36000 max=36000 step=3600 default=0" \
	"privacy .*(bool) *: default=0"; do
	grep -q -- "$re" <<<"$L" || missing+="${re%% *} "
done
[ -z "$missing" ] && pass "camera: 15 UVC controls with a webcam's ranges and defaults, manual partners inactive" ||
	fail "camera: 15 UVC controls with a webcam's ranges and defaults" "not as expected: $missing"
# the exposure menu offers manual and aperture priority only
menu=$(sed -n '/auto_exposure/,/exposure_time/p' <<<"$L" | grep -c '^\s*[0-9]*: ')
grep -q "1: Manual Mode" <<<"$L" && grep -q "3: Aperture Priority Mode" <<<"$L" &&
	[ "$menu" = 2 ] && pass "camera: auto_exposure offers Manual and Aperture Priority" ||
	fail "camera: auto_exposure offers Manual and Aperture Priority" "$menu entries"

# 2. auto clusters: the manual control is active only with auto off
for pair in auto_exposure=1:exposure_time_absolute \
	white_balance_automatic=0:white_balance_temperature \
	focus_automatic_continuous=0:focus_absolute; do
	set_to=${pair%%:*} manual=${pair#*:}
	v4l2-ctl -d "$D" -c "$set_to"
	if v4l2-ctl -d "$D" --list-ctrls | grep "^ *$manual " | grep -q inactive; then
		fail "camera: $set_to makes $manual active" "still inactive"
	else
		pass "camera: $set_to makes $manual active"
	fi
done
v4l2-ctl -d "$D" -c "$CAMERA"
v4l2-ctl -d "$D" --list-ctrls | grep -q "^ *exposure_time_absolute .*inactive" &&
	pass "camera: auto_exposure=3 makes exposure_time_absolute inactive again" ||
	fail "camera: auto_exposure=3 makes exposure_time_absolute inactive again" "active"

# 3. bad values: what the control framework answers, nothing else changes
if v4l2-ctl -d "$D" -c auto_exposure=0 2>/dev/null; then
	fail "camera: auto_exposure=0 (a skipped menu entry) is refused" "accepted"
else
	[ "$(value auto_exposure | cut -d' ' -f1)" = 3 ] &&
		pass "camera: auto_exposure=0 (a skipped menu entry) is refused, the value stays 3" ||
		fail "camera: auto_exposure=0 is refused" "value now $(value auto_exposure)"
fi
v4l2-ctl -d "$D" -c zoom_absolute=9999,pan_absolute=1000,tilt_absolute=-99999
got="$(value zoom_absolute) $(value pan_absolute) $(value tilt_absolute)"
[ "$got" = "500 0 -36000" ] &&
	pass "camera: out-of-range zoom, pan and tilt are clamped and rounded to the step (500 0 -36000)" ||
	fail "camera: out-of-range zoom, pan and tilt are clamped" "got $got"
v4l2-ctl -d "$D" -c "$CAMERA"
stage_end

stage_start "camera: the picture"
# 4. the view: every pixel where the formula puts it
grab RGB3 "$T/checker.rgb" test_pattern=3
grab RGB3 "$T/bars.rgb" test_pattern=0
for v in "0 200 0 0 0 0" "3 100 3600 0 0 0" "3 100 0 -7200 0 0" \
	"3 137 3600 -7200 0 0" "3 500 -36000 36000 0 0" "3 250 10800 3600 1 1"; do
	set -- $v
	ref=$T/checker.rgb
	[ "$1" = 0 ] && ref=$T/bars.rgb
	c=test_pattern=$1,zoom_absolute=$2,pan_absolute=$3,tilt_absolute=$4
	c=$c,horizontal_flip=$5,vertical_flip=$6
	grab RGB3 "$T/v.rgb" "$c" &&
		camera.py view "camera: RGB3 pattern $1 zoom $2 pan $3 tilt $4 flips $5$6: every pixel as the view formula says" \
			"$ref" "$T/v.rgb" $W $H $2 $3 $4 $5 $6
done
grab RGB3 "$T/z.rgb" zoom_absolute=200 &&
	camera.py bars "camera: zoom 200 shows bars 2..5, twice as wide, about the center (RGB3)" \
		"$T/z.rgb" $W $H 200 0
grab YUYV "$T/z.yuyv" zoom_absolute=200 &&
	ffmpeg -v error -y -f rawvideo -pix_fmt yuyv422 -s ${W}x$H -i "$T/z.yuyv" \
		-f rawvideo -pix_fmt rgb24 "$T/zy.rgb" &&
	camera.py bars "camera: zoom 200 in YUYV (ffmpeg's RGB, within 3)" \
		"$T/zy.rgb" $W $H 200 3
grab MJPG "$T/z.jpg" zoom_absolute=200 &&
	djpeg -ppm "$T/z.jpg" | tail -c $((W * H * 3)) >"$T/zj.rgb" &&
	camera.py bars "camera: zoom 200 in MJPEG (djpeg, within 6)" \
		"$T/zj.rgb" $W $H 200 6

# 5. the sensor: two values of each control, on the bars and a gray ramp
grab RGB3 "$T/ramp.rgb" test_pattern=4
for v in "auto_exposure=1,exposure_time_absolute=500:500 0 0 0 0" \
	"auto_exposure=1,exposure_time_absolute=100:100 0 0 0 0" \
	"gain=64:0 64 0 0 0" "gain=200:0 200 0 0 0" \
	"white_balance_automatic=0,white_balance_temperature=6500:0 0 6500 0 0" \
	"white_balance_automatic=0,white_balance_temperature=2500:0 0 2500 0 0" \
	"gamma=200:0 0 0 200 0" "gamma=72:0 0 0 72 0" \
	"backlight_compensation=1:0 0 0 0 1" "backlight_compensation=2:0 0 0 0 2"; do
	c=${v%%:*} args=${v#*:}
	for p in 0:bars 4:ramp; do
		grab RGB3 "$T/s.rgb" "test_pattern=${p%%:*},$c" &&
			camera.py sensor "camera: $c on the ${p#*:}: each sample as the sensor formula says" \
				"$T/${p#*:}.rgb" "$T/s.rgb" $W $H $args
	done
done
# with auto on, the manual value changes nothing
grab RGB3 "$T/a.rgb" exposure_time_absolute=1000,white_balance_temperature=2000 &&
	cmp -s "$T/a.rgb" "$T/bars.rgb" &&
	pass "camera: manual exposure and temperature change nothing while auto is on" ||
	fail "camera: manual exposure and temperature change nothing while auto is on" "the picture changed"

# 6. privacy: black frames, the sequence goes on
if grab RGB3 "$T/p.rgb" privacy=1,osd_text=0 10; then
	camera.py black "camera: privacy=1 gives black frames, no text (RGB3)" \
		"$T/p.rgb" $W $H
	seq="$(sed -n 's/^seq_first=//p' "$T/p.rgb.txt")..$(sed -n 's/^seq_last=//p' "$T/p.rgb.txt") gaps $(sed -n 's/^seq_gaps=//p' "$T/p.rgb.txt")"
	[ "$seq" = "0..9 gaps 0" ] &&
		pass "camera: privacy: 10 frames, sequence 0..9 without a gap" ||
		fail "camera: privacy: the sequence goes on" "$seq"
fi
if grab YUYV "$T/p.yuyv" privacy=1,osd_text=0; then
	got=$(python3 -c 'import sys; d = open(sys.argv[1], "rb").read(); print(sorted(set(d[0::2])), sorted(set(d[1::2])))' "$T/p.yuyv")
	[ "$got" = "[16] [128]" ] &&
		pass "camera: privacy=1 in YUYV: Y' 16, Cb and Cr 128 everywhere" ||
		fail "camera: privacy=1 in YUYV" "Y' and chroma values: $got"
fi

# the frame stamp stays: it decodes to each buffer's sequence number, and
# all else is black
v4l2-ctl -d "$D" -c "$CAMERA" -c "$PICTURE" -c privacy=1,osd_text=0
if out=$(vivi-stamp -f RGB3 -s ${W}x$H -n 10 "$D" 2>&1) &&
	grep -q '^decoded=10$' <<<"$out" && grep -q '^mismatched=0$' <<<"$out" &&
	grep -q '^stamp_lost=0$' <<<"$out"; then
	pass "camera: privacy=1 with the frame stamp: 10 stamps decode to their buffers' sequence numbers"
else
	fail "camera: privacy=1 keeps the frame stamp" "$(tr '\n' ' ' <<<"$out")"
fi
grab RGB3 "$T/ps.rgb" privacy=1,osd_text=0,frame_stamp=1 3 &&
	camera.py blackstamp "camera: privacy=1 with the frame stamp: black but for the stamp's cells (RGB3, 3 frames)" \
		"$T/ps.rgb" $W $H 3

# 7. focus, sharpness, power line: a fourth text line, only when set
# (saturation 156: the third line then shows the 5 and 6 of 50 and 60 Hz)
grab RGB3 "$T/n0.rgb" saturation=156
grab RGB3 "$T/t0.rgb" osd_text=0,saturation=156 &&
	camera.py noline "camera: every control at its default: no fourth text line" \
		"$T/n0.rgb" "$T/t0.rgb" $W $H
grab RGB3 "$T/t1.rgb" osd_text=0,saturation=156,focus_automatic_continuous=0,focus_absolute=120 &&
	camera.py textline "camera: manual focus shows as a fourth text line, the picture stays" \
		"$T/t0.rgb" "$T/t1.rgb" $W $H
grab RGB3 "$T/t2.rgb" osd_text=0,saturation=156,sharpness=200
grab RGB3 "$T/t3.rgb" osd_text=0,saturation=156,power_line_frequency=1
grab RGB3 "$T/t4.rgb" osd_text=0,saturation=156,power_line_frequency=0
# each alone: the line reads as docs/device.md says, its glyphs checked against
# those of the other text lines
LINES=("$T/t1.rgb" "F120 Sh128 PL60Hz" "$T/t2.rgb" "AF Sh200 PL60Hz"
	"$T/t3.rgb" "AF Sh128 PL50Hz" "$T/t4.rgb" "AF Sh128 PLoff")
SET=(focus_absolute=120 sharpness=200 power_line_frequency=1 power_line_frequency=0)
for i in 1 2 3; do
	frames=("${LINES[@]:2*i:2}" "${LINES[@]:0:2*i}" "${LINES[@]:2*i+2}")
	camera.py text "camera: ${SET[i]} alone: a fourth text line '${frames[1]}', nothing else changes" \
		"$T/t0.rgb" $W $H "${frames[@]}"
done
stage_end
unload_vivi
