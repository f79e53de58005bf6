#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# VM stage for the second kernel (bookworm-backports' 6.12; tests/check.sh
# boots it with VIVI_KO pointing at the vivi.ko built for it): strict
# compliance judged against vivid on the same kernel and tool, capture with
# v4l2-ctl and ffmpeg checked against the bars, then the check-clients stage.
#
# v4l2-compliance 1.22 is older than 6.12 and fails vivid itself there. So
# every test that vivi fails must be one that vivid (capture only, one
# webcam input, no error injection) fails too; each such failure is named
# with its reason. A failure or warning that vivid does not have is a FAIL.
set -u
. "$(dirname "$0")/lib.sh"

# failed LOG: "test name<TAB>reasons" for each failed test (the progress
# output of -s glues lines with CRs and no newline: split them first)
failed() {
	tr '\r' '\n' <"$1" | awk '
	/(^|\t)fail: / { sub(/.*fail: [^ ]*: /, ""); r = r (r ? "; " : "") $0; next }
	/^[ \t]*test .*: FAIL$/ { t = $0; sub(/^[ \t]*test /, "", t); sub(/: FAIL$/, "", t)
		print t "\t" r; r = "" }
	/^[ \t]*test .*: OK/ { r = "" }'
}
# warnings LOG: the kinds of warning, without source line and numbers
warnings() {
	tr '\r' '\n' <"$1" | sed -n 's/^\(.*\t\)\{0,1\}warn: [^ ]*: //p' |
		sed 's/[0-9][0-9]*/N/g' | sort -u
}
# the kernel log lines that vm.sh would fail a run for
bad_dmesg() {
	dmesg | grep -F -e 'BUG:' -e 'WARNING:' -e 'Oops' -e 'Call Trace' \
		-e 'list_add corruption' -e 'list_del corruption' -e 'hung_task' \
		-e 'blocked for more than' -e 'soft lockup' -e 'general protection' \
		-e 'KASAN' -e 'UBSAN' -e 'kernel BUG' -e 'Poison overwritten' \
		-e 'Redzone' -e 'Object padding' -e 'slab_out_of_bounds'
}

stage_start "kernel2 $(uname -r): vivid"
check "k2: V4L2 core modules load" core_modules
dmesg -C
check "k2: modprobe vivid (capture only, one webcam input)" \
	modprobe vivid n_devs=1 node_types=1 num_inputs=1 input_types=0 \
	no_error_inj=1
VD=
for n in /sys/class/video4linux/video*; do
	if v4l2-ctl -d "/dev/${n##*/}" -D 2>/dev/null |
		grep -q 'Bus info *: platform:vivid-000$'; then
		VD=/dev/${n##*/}
	fi
done
run_compliance "$OUT/k2-vivid.log" "$VD" -s
rmmod vivid
# 6.12's vivid passes a negative timeout to schedule_timeout() when its
# capture thread runs late (as under TCG), which dumps a stack. That is
# vivid's bug: it is reported here and cleared, so that vm.sh's scan of the
# whole log still covers everything vivi does (vivi is not loaded yet).
dmesg >"$OUT/k2-vivid-dmesg.txt"
splats=$(grep -c 'schedule_timeout: wrong timeout value' "$OUT/k2-vivid-dmesg.txt")
traces=$(grep -c 'Call Trace' "$OUT/k2-vivid-dmesg.txt")
other=$(bad_dmesg | grep -v 'Call Trace')
stacks=$(grep -A 4 'Call Trace' "$OUT/k2-vivid-dmesg.txt" | grep -c 'vivid_thread_vid_cap+')
if [ -n "$other" ] || [ "$traces" -ne "$splats" ] || [ "$stacks" -ne "$splats" ]; then
	fail "k2: vivid's kernel log has only its schedule_timeout splats" \
		"$(bad_dmesg | head -n 3 | tr '\n' ' ')"
else
	echo "k2: vivid's capture thread: $splats x 'schedule_timeout: wrong timeout value' (vivid bug)"
	pass "k2: vivid's kernel log has only its schedule_timeout splats ($splats)"
	dmesg -C
fi
stage_end

stage_start "kernel2 $(uname -r): make install"
# tests/check.sh ran make install for this kernel into $MR: the module is
# compressed like the kernel's own (.ko.xz on 6.12)
MR=$VIVI_BUILD/k2/modroot
KO2=$(ls "$MR/lib/modules/$(uname -r)/updates/"vivi.ko* 2>/dev/null)
check "k2: modprobe -d loads the installed ${KO2##*/}" modprobe -d "$MR" vivi
if [ "$(cat /sys/module/vivi/srcversion 2>/dev/null)" = \
	"$(modinfo -F srcversion "$KO2" 2>/dev/null)" ] && [ -n "$KO2" ]; then
	pass "k2: the loaded vivi is the installed ${KO2##*/} (srcversion)"
else
	fail "k2: the loaded vivi is the installed one" "srcversion differs or no module in $MR"
fi
check "k2: rmmod the installed vivi" unload_vivi
stage_end

stage_start "kernel2 $(uname -r): vivi against vivid"
check "k2: insmod vivi.ko built for $(uname -r)" \
	load_vivi "formats=$(non_nv_formats)"
D=$(vivi_node 0) || D=/dev/video0
run_compliance "$OUT/k2-vivi.log" "$D" -s
vivid_total=$(grep '^Total for ' "$OUT/k2-vivid.log" | tail -n 1)
vivi_total=$(grep '^Total for ' "$OUT/k2-vivi.log" | tail -n 1)
echo "k2: vivid: ${vivid_total#*: }"
echo "k2: vivi:  ${vivi_total#*: }"
if [ -z "$vivid_total" ] || [ -z "$vivi_total" ]; then
	fail "k2: compliance ran on vivid and vivi" "no summary line, see $OUT/k2-*.log"
fi
failed "$OUT/k2-vivid.log" >"$OUT/k2-vivid.failed"
failed "$OUT/k2-vivi.log" >"$OUT/k2-vivi.failed"
echo "k2: vivid fails $(wc -l <"$OUT/k2-vivid.failed") tests:"
sed 's/^/    /' "$OUT/k2-vivid.failed"
n=0
while IFS=$'\t' read -r t why; do
	n=$((n + 1))
	if cut -f1 "$OUT/k2-vivid.failed" | grep -qxF "$t"; then
		pass "k2: compliance: '$t' fails on vivid too (tool skew: $why)"
	else
		fail "k2: compliance: '$t' fails on vivi only" "$why"
	fi
done <"$OUT/k2-vivi.failed"
vfailed=$(sed -n 's/.*Failed: \([0-9]*\),.*/\1/p' <<<"$vivi_total")
if [ "${vfailed:-x}" = "$n" ]; then
	pass "k2: compliance: vivi fails only the $n tests named above"
else
	fail "k2: compliance: every vivi failure is a named test" "Failed: ${vfailed:-?}, named $n"
fi
# A sequence-gap warning is a dropped frame: it fails like any other
# warning that vivid does not have (the log carries vivi's own account).
warnings "$OUT/k2-vivi.log" >"$OUT/k2-vivi.warn"
warnings "$OUT/k2-vivid.log" >"$OUT/k2-vivid.warn"
if ! extra=$(comm -23 "$OUT/k2-vivi.warn" "$OUT/k2-vivid.warn" 2>&1); then
	fail "k2: compliance: no warning that vivid does not have" "comm: $extra"
elif [ -z "$extra" ]; then
	pass "k2: compliance: no warning that vivid does not have"
else
	fail "k2: compliance: no warning that vivid does not have" \
		"$(grep -c . <<<"$extra") kinds: $(head -n 3 <<<"$extra" | tr '\n' ' ')"
fi
stage_end

stage_start "kernel2 capture"
W=640 H=480
v4l2-ctl -d "$D" -v width=$W,height=$H,pixelformat=YUYV -p 30 >/dev/null
rm -f /tmp/k2.raw
v4l2-ctl -d "$D" --stream-mmap=8 --stream-count=30 --stream-to=/tmp/k2.raw \
	>/dev/null 2>&1
frames_ok "k2: v4l2-ctl mmap 30 frames of YUYV 640x480" /tmp/k2.raw 30 \
	$((W * H * 2))
ffmpeg -v error -y -f rawvideo -pix_fmt yuyv422 -s ${W}x$H -i /tmp/k2.raw \
	-vf select='eq(n\,29)' -frames:v 1 -pix_fmt rgb24 -f rawvideo /tmp/k2.rgb
bars.py "k2: v4l2-ctl frame 30 shows the bars" /tmp/k2.rgb --raw ${W}x$H --tol 3
# a fixed number of frames: what arrives is checked, not how fast (the
# pacing tests of check-gen run on the main kernel)
rm -f /tmp/k2.mkv
ffmpeg -v error -y -f v4l2 -input_format yuyv422 -video_size ${W}x$H \
	-framerate 30 -i "$D" -frames:v 30 -c:v rawvideo /tmp/k2.mkv
probe=$(ffprobe -v error -count_frames -select_streams v:0 \
	-show_entries stream=width,height,nb_read_frames -of csv=p=0 \
	/tmp/k2.mkv 2>&1)
if [ "$probe" = "$W,$H,30" ]; then
	pass "k2: ffmpeg -f v4l2 captures 30 frames of ${W}x$H"
else
	fail "k2: ffmpeg -f v4l2 captures 30 frames of ${W}x$H" "ffprobe: $probe"
fi
ffmpeg -v error -y -i /tmp/k2.mkv -frames:v 1 "$OUT/k2-ffmpeg.png"
bars.py "k2: ffmpeg frame shows the bars" "$OUT/k2-ffmpeg.png" --tol 3
check "k2: rmmod vivi" rmmod vivi
stage_end

# the real clients (v4l2-ctl, ffmpeg, GStreamer, OpenCV, Chromium) on this
# kernel too
"$(dirname "$0")/check-clients.sh"
