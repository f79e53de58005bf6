#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# VM stage: the HDMI input (hdmi_input=1, vivi_dv.c) and a source change.
# Its input and DV timings as v4l2-ctl reports them; v4l2-compliance on it
# and on the camera input beside it; vivi-source: the event, the stream
# going on, EBUSY, then QUERY/S_DV_TIMINGS, G_FMT and a restarted stream
# of the new size with the bars pixel-checked; no signal; bad values to
# the debugfs knob; what GStreamer's v4l2src does when the source changes.
set -u
. "$(dirname "$0")/lib.sh"

T=/tmp/source
rm -rf "$T"
mkdir -p "$T"

stage_start "source change"
check "source: V4L2 core modules load" core_modules
check "source: load vivi hdmi_input=1" load_vivi hdmi_input=1
D=$(vivi_node 0) || D=/dev/video0
KNOB=/sys/kernel/debug/vivi/${D##*/}/source

inputs=$(v4l2-ctl -d "$D" --list-inputs)
grep -q "Name *: HDMI 0" <<<"$inputs" && grep -q "Capabilities: .*DV timings" <<<"$inputs" &&
	pass "source: input 1 is 'HDMI 0' with DV timings" ||
	fail "source: input 1 is 'HDMI 0' with DV timings" "$(tr -s ' \n' ' ' <<<"$inputs")"
[ "$(cat "$KNOB")" = 1280x720p60 ] &&
	pass "source: debugfs source reads 1280x720p60 at load" ||
	fail "source: debugfs source reads 1280x720p60 at load" "$(cat "$KNOB")"

v4l2-ctl -d "$D" -i 1 >/dev/null
n=$(v4l2-ctl -d "$D" --list-dv-timings | grep -c "Active width")
q=$(v4l2-ctl -d "$D" --query-dv-timings | sed -n 's/.*Active width: *//p;s/.*Active height: *//p' | paste -sd x)
fmt=$(v4l2-ctl -d "$D" -V | sed -n 's|.*Width/Height *: *\([0-9]*\)/\([0-9]*\)|\1x\2|p')
[ "$n" = 12 ] && [ "$q" = 1280x720 ] && [ "$fmt" = 1280x720 ] &&
	pass "source: 12 DV timings, QUERY_DV_TIMINGS 1280x720, the format follows (1280x720)" ||
	fail "source: DV timings on input 1" "$n timings, query $q, format $fmt"
out=$(v4l2-ctl -d "$D" --list-framesizes YUYV 2>&1)
grep -q "Size:" <<<"$out" &&
	fail "source: ENUM_FRAMESIZES on the HDMI input" "lists sizes: $out" ||
	pass "source: ENUM_FRAMESIZES on the HDMI input lists nothing (ENOTTY, as vivid)"
# 25 fps: the compliance tool's two buffers keep up with it under TCG
echo 1280x720p25 >"$KNOB"
v4l2-ctl -d "$D" --set-dv-bt-timings query >/dev/null 2>&1
compliance_skew "source: compliance -s on the HDMI input (1280x720p25)" "$D" -s
v4l2-ctl -d "$D" -i 0 >/dev/null
compliance_skew "source: compliance -s on the camera input, hdmi_input=1" "$D" -s

# the application's side: event, EBUSY, follow the source, new frames
echo 1280x720p60 >"$KNOB"
v4l2-ctl -d "$D" -i 1 -c osd_text=2 >/dev/null
vivi-source "$D" "$KNOB" 1920x1080p30 "$T/new.rgb"
bars.py "source: the restarted 1920x1080 stream shows the 75% bars" \
	"$T/new.rgb" --raw 1920x1080

# no signal
echo none >"$KNOB"
q=$(v4l2-ctl -d "$D" --query-dv-timings 2>&1)
st=$(v4l2-ctl -d "$D" --list-inputs | sed -n '/HDMI 0/,$p' | grep -m1 Status)
grep -qi "link has been severed\|ENOLINK\|no link" <<<"$q" && grep -q "no signal" <<<"$st" &&
	pass "source: none: QUERY_DV_TIMINGS gives ENOLINK, the input's status is no signal" ||
	fail "source: none: QUERY_DV_TIMINGS gives ENOLINK" "$(tr '\n' ' ' <<<"$q") / $st"

# bad values to the knob: refused, nothing changes
bad=
for v in abc 1280x720p61 640x480 1280x720p60x 99999999999999999999999999999999999999999 -1; do
	if printf '%s' "$v" >"$KNOB" 2>/dev/null; then
		bad+=" '$v' accepted"
	fi
done
[ "$(cat "$KNOB")" = none ] || bad+=" source now $(cat "$KNOB")"
[ -z "$bad" ] && pass "source: bad values to the knob are refused (EINVAL), the source stays" ||
	fail "source: bad values to the knob are refused" "$bad"
dmesg | grep -q "source: 'abc' is not WxHpR" &&
	pass "source: the kernel log says why a value was refused" ||
	fail "source: the kernel log says why a value was refused" "no message"
echo 640x480p60 >"$KNOB"
v4l2-ctl -d "$D" --set-dv-bt-timings query >/dev/null 2>&1
rm -f "$T/after.raw"
v4l2-ctl -d "$D" -v pixelformat=YUYV --stream-mmap --stream-count=5 --stream-to="$T/after.raw" 2>/dev/null
frames_ok "source: after the bad values, 5 frames of 640x480 stream" "$T/after.raw" 5 $((640 * 480 * 2))

# GStreamer: what v4l2src does when the source changes mid-stream
echo 1280x720p25 >"$KNOB"
v4l2-ctl -d "$D" --set-dv-bt-timings query >/dev/null 2>&1
GST_DEBUG=v4l2src:4,v4l2:3 timeout 90 gst-launch-1.0 -v v4l2src device="$D" num-buffers=200 ! \
	fakesink sync=false >"$T/gst.log" 2>&1 &
gst=$!
for _ in $(seq 60); do
	grep -q "v4l2src0.GstPad:src: caps" "$T/gst.log" && break
	sleep 1
done
sleep 2
echo 1920x1080p30 >"$KNOB"
wait $gst
rc=$?
cp "$T/gst.log" "$OUT/source-gst-midstream.log"
# GStreamer 1.22's v4l2src takes the event: "Resolution change detected",
# QUERY_DV_TIMINGS and S_DV_TIMINGS again, new caps, and streams on
caps=$(grep "v4l2src0.GstPad:src: caps" "$T/gst.log" | sed -n 's/.*framerate=(fraction)\([0-9/]*\), width=(int)\([0-9]*\), height=(int)\([0-9]*\).*/\2x\3@\1/p' | paste -sd' ')
det=$(grep -c "Resolution change detected" "$T/gst.log")
[ $rc = 0 ] && [ "$caps" = "1280x720@25/1 1920x1080@30/1" ] && [ "$det" -ge 1 ] &&
	pass "source: gst-launch v4l2src sees the change mid-stream, renegotiates 1280x720@25 -> 1920x1080@30 and ends normally" ||
	fail "source: gst-launch v4l2src across a source change" "status $rc, caps: $caps, 'Resolution change detected' $det times"
# started afterwards, v4l2src takes the source's timings (QUERY_DV_TIMINGS)
GST_DEBUG=v4l2src:4 timeout 90 gst-launch-1.0 -v v4l2src device="$D" num-buffers=5 ! \
	fakesink sync=false >"$OUT/source-gst-restart.log" 2>&1
grep -q "v4l2src0.GstPad:src: caps = .*framerate=(fraction)30/1, width=(int)1920, height=(int)1080" \
	"$OUT/source-gst-restart.log" &&
	pass "source: a new gst-launch v4l2src takes the new source, 1920x1080 at 30 fps (QUERY_DV_TIMINGS, S_DV_TIMINGS)" ||
	fail "source: a new gst-launch v4l2src takes the new source" \
		"$(grep -m1 "src: caps" "$OUT/source-gst-restart.log" | cut -c1-200)"
stage_end
unload_vivi
