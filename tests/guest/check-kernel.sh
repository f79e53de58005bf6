#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# VM stage for one kernel of the matrix (tests/kernels/run.sh boots it with
# its own Debian suite's root, so v4l2-ctl, v4l2-compliance and Python are
# that suite's). VIVI_KO is the vivi.ko built for this kernel, VIVI_MODROOT
# the tree its make install went to, VIVI_NEWEST=1 on the newest kernel.
#
# Compliance rule: a v4l2-compliance older than the kernel fails some tests
# on vivid itself. Every test that vivi fails must be one that vivid
# (capture only, one webcam input, no error injection) fails too, each named
# with its reason; a failure or warning that vivid does not have is a FAIL.
# On the newest kernel (the newest tool): 0 failures, 0 warnings.
set -u
. "$(dirname "$0")/lib.sh"
K=$(uname -r)
MR=${VIVI_MODROOT:?VIVI_MODROOT: where make install put vivi}

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

# compliance_like_vivi LOG TEST WHO: the compliance run in LOG judged by the
# rule above (newest kernel: 0 failures, 0 warnings; else no failed test that
# vivi's own run, k-vivi.failed, did not fail too); WHO names it in the
# summary line
compliance_like_vivi() {
	local log=$1 test="k $K: $2" total extra
	total=$(grep '^Total for ' "$log" | tail -n 1)
	echo "k: $3: ${total#*: }"
	failed "$log" | cut -f1 | sort >"$log.failed"
	extra=$(cut -f1 "$OUT/k-vivi.failed" | sort | comm -23 "$log.failed" -)
	if [ -z "$total" ]; then
		fail "$test" "no summary line, see $log"
	elif [ "${VIVI_NEWEST:-0}" = 1 ]; then
		if grep -q 'Failed: 0, Warnings: 0$' <<<"$total"; then
			pass "$test, newest tool: 0 failures, 0 warnings"
		else
			fail "$test, newest tool: 0 failures, 0 warnings" \
				"${total#*: }; $(grep -E 'fail:|warn:' "$log" | head -n 3 | tr -s ' \t' ' ')"
		fi
	elif [ -z "$extra" ]; then
		pass "$test fails no test that vivi's run above did not (${total#*: })"
	else
		fail "$test fails no test that vivi's run above did not" \
			"$(tr '\n' ';' <<<"$extra")"
	fi
}

echo "k: kernel $K, v4l-utils $(dpkg-query -W -f='${Version}' v4l-utils), $(python3 --version)"
stage_start "kernel $K: vivid"
check "k $K: V4L2 core modules load" core_modules
clear_dmesg
check "k $K: modprobe vivid (capture only, one webcam input, 2 instances)" \
	modprobe vivid n_devs=2 node_types=1,1 num_inputs=1,1 input_types=0,0 \
	no_error_inj=1
run_compliance "$OUT/k-vivid.log" "$(node vivid 0)" -s \
	--expbuf-device "$(node vivid 1)"
rmmod vivid
vivid_log_ok "k $K: vivid's kernel log is clean but for its schedule_timeout splats" \
	"$OUT/k-vivid-dmesg.txt" "k: vivid's capture thread"
stage_end

stage_start "kernel $K: make install + modprobe"
KOI=$(ls "$MR/lib/modules/$K/updates/"vivi.ko* 2>/dev/null)
check "k $K: modprobe -d loads the installed ${KOI##*/}" modprobe -d "$MR" vivi
if [ -n "$KOI" ] && [ "$(cat /sys/module/vivi/srcversion 2>/dev/null)" = \
	"$(modinfo -F srcversion "$KOI" 2>/dev/null)" ]; then
	pass "k $K: the loaded vivi is the installed ${KOI##*/} (srcversion)"
else
	fail "k $K: the loaded vivi is the installed one" "srcversion differs or no module in $MR"
fi
check "k $K: rmmod the installed vivi" unload_vivi
stage_end

stage_start "kernel $K: vivi against vivid"
check "k $K: insmod vivi.ko built for $K" load_vivi n_devs=2
D=$(node vivi 0) || D=/dev/video0
run_compliance "$OUT/k-vivi.log" "$D" -s --expbuf-device "$(node vivi 1)"
vivid_total=$(grep '^Total for ' "$OUT/k-vivid.log" | tail -n 1)
vivi_total=$(grep '^Total for ' "$OUT/k-vivi.log" | tail -n 1)
echo "k: vivid: ${vivid_total#*: }"
echo "k: vivi:  ${vivi_total#*: }"
if [ -z "$vivid_total" ] || [ -z "$vivi_total" ]; then
	fail "k $K: compliance ran on vivid and vivi" "no summary line, see $OUT/k-*.log"
fi
failed "$OUT/k-vivid.log" >"$OUT/k-vivid.failed"
failed "$OUT/k-vivi.log" >"$OUT/k-vivi.failed"
echo "k: vivid fails $(wc -l <"$OUT/k-vivid.failed") tests:"
sed 's/^/    /' "$OUT/k-vivid.failed"
# excused only where vivid fails the same test for the same reason (the
# same fail lines, numbers aside), not merely a test of the same name
sed 's/[0-9][0-9]*/N/g' "$OUT/k-vivid.failed" >"$OUT/k-vivid.failed.norm"
n=0
while IFS=$'\t' read -r t why; do
	n=$((n + 1))
	if grep -qxF "$(printf '%s\t%s' "$t" "$why" | sed 's/[0-9][0-9]*/N/g')" \
		"$OUT/k-vivid.failed.norm"; then
		pass "k $K: compliance: '$t' fails on vivid too, for the same reason (tool older than the kernel: $why)"
	elif cut -f1 "$OUT/k-vivid.failed" | grep -qxF "$t"; then
		fail "k $K: compliance: '$t' fails on vivid for another reason" "vivi: $why; vivid: $(grep -F "$t" "$OUT/k-vivid.failed" | cut -f2 | head -n 1)"
	else
		fail "k $K: compliance: '$t' fails on vivi only" "$why"
	fi
done <"$OUT/k-vivi.failed"
vfailed=$(sed -n 's/.*Failed: \([0-9]*\),.*/\1/p' <<<"$vivi_total")
if [ "${vfailed:-x}" = "$n" ]; then
	pass "k $K: compliance: vivi fails only the $n tests named above"
else
	fail "k $K: compliance: every vivi failure is a named test" "Failed: ${vfailed:-?}, named $n"
fi
warnings "$OUT/k-vivi.log" >"$OUT/k-vivi.warn"
warnings "$OUT/k-vivid.log" >"$OUT/k-vivid.warn"
extra=$(comm -23 "$OUT/k-vivi.warn" "$OUT/k-vivid.warn")
comm -12 "$OUT/k-vivi.warn" "$OUT/k-vivid.warn" |
	sed 's/^/k: warning that vivid has too (tool older than the kernel): /'
if [ -z "$extra" ]; then
	pass "k $K: compliance: no warning that vivid does not have"
else
	fail "k $K: compliance: no warning that vivid does not have" \
		"$(grep -c . <<<"$extra") kinds: $(head -n 3 <<<"$extra" | tr '\n' ' ')$(driver_drops "$OUT/k-vivi.log")"
fi
if [ "${VIVI_NEWEST:-0}" = 1 ]; then
	if grep -q 'Failed: 0, Warnings: 0$' <<<"$vivi_total"; then
		pass "k $K: compliance, newest tool on the newest kernel: 0 failures, 0 warnings"
	else
		fail "k $K: compliance, newest tool on the newest kernel: 0 failures, 0 warnings" \
			"${vivi_total#*: }"
	fi
fi
check "k $K: rmmod vivi" unload_vivi
stage_end

stage_start "kernel $K: capture, pixel-checked"
W=320 H=240 N=60
check "k $K: insmod vivi.ko" load_vivi
D=$(node vivi 0) || D=/dev/video0
formats_ext_ok "k $K" "$D"
v4l2-ctl -d "$D" -c osd_text=2,test_pattern=0
# grab FOURCC BYTES: N frames of BYTES each, one file per frame in /tmp/k/
grab() {
	rm -rf /tmp/k && mkdir -p /tmp/k
	v4l2-ctl -d "$D" -v width=$W,height=$H,pixelformat="$1" &&
		v4l2-ctl -d "$D" --stream-mmap=4 --stream-count=$N \
			--stream-to=/tmp/k/all >/dev/null 2>&1
	local got
	got=$(stat -c %s /tmp/k/all 2>/dev/null || echo 0)
	if [ "$got" -ne $((N * $2)) ]; then
		fail "k $K: v4l2-ctl mmap $N frames of $1 ${W}x$H" "$got bytes"
		return 1
	fi
	pass "k $K: v4l2-ctl mmap $N frames of $1 ${W}x$H"
	(cd /tmp/k && split -a 2 -d -b "$2" all f && rm all)
	SPECS=()
	for f in /tmp/k/f*; do
		SPECS+=("$f:0")
	done
}
# bars FOURCC [--yu12]: pattern.py checks every frame; one line for them all
bars() {
	local name="k $K: $N $1 frames show the 75% bars" res
	cp /tmp/k/f00 "$OUT/k-$1-frame0.raw"
	res=$("$GUEST"/pattern.py yuyv ${2:+"$2"} "$name" $W $H "${SPECS[@]}" 2>&1)
	if [ $? -eq 0 ] && [ "$(grep -c '^PASS: ' <<<"$res")" -eq $N ]; then
		pass "$name"
	else
		fail "$name" "$(grep -v '^PASS: ' <<<"$res" | head -n 3 | tr '\n' ' ')"
	fi
}
grab YUYV $((W * H * 2)) && bars YUYV
grab YU12 $((W * H * 3 / 2)) && bars YU12 --yu12
check "k $K: rmmod vivi" unload_vivi
stage_end

stage_start "kernel $K: load, stream, unload x10"
# insmod reads the module from a copy in the guest's memory: the 9p share
# once failed an insmod here with ENOENT and nothing in the kernel log
KO10=/tmp/vivi-x10.ko
cp "$KO" "$KO10" || KO10=$KO
bad=
for i in 1 2 3 4 5 6 7 8 9 10; do
	if ! err=$(KO=$KO10 load_vivi 2>&1); then
		bad="insmod $i failed: $err; $(dmesg | tail -n 3 | tr '\n' ' ')"
		break
	fi
	D=$(node vivi 0) || D=/dev/video0
	if ! v4l2-ctl -d "$D" --stream-mmap=3 --stream-count=5 >/dev/null 2>&1; then
		bad="stream $i failed"
		break
	fi
	if ! rmmod vivi; then
		bad="rmmod $i failed"
		break
	fi
done
if [ -z "$bad" ]; then
	pass "k $K: load, stream 5 frames, unload, 10 times"
else
	fail "k $K: load, stream 5 frames, unload, 10 times" "$bad"
fi
stage_end

stage_start "kernel $K: configfs"
# a camera made at run time, with sizes and rates of its own: what it
# lists, its compliance (on the newest kernel 0 failures and 0 warnings;
# elsewhere nothing vivi's own run above did not fail), frames at each
# size, removal while it streams, and create/stream/remove cycles
. "$GUEST/configfs.sh"
check "k $K: insmod vivi.ko n_devs=1, /sys/kernel/config/vivi there" \
	cfs_load n_devs=1
check "k $K: configfs: a camera of 1080x1920, 2560x1080, 1366x768 at 30000/1001 and 7.5 fps" \
	cfs_make kcam sizes=1080x1920,2560x1080,1366x768 rates=30000/1001,7.5 \
	formats=YUYV,NV12,MJPG
check "k $K: configfs: enabled" cfs_enable kcam
C=$(cfs_nodes kcam)
C=${C:-/dev/null}
want=$'1366x768 29.970 7.500\n1080x1920 29.970 7.500\n2560x1080 29.970 7.500'
bad=
for f in YUYV NV12 MJPG; do
	got=$(v4l2-ctl -d "$C" --list-framesizes "$f" 2>/dev/null |
		sed -n 's/.*Discrete \([0-9]*x[0-9]*\).*/\1/p' |
		while read -r s; do
			printf '%s' "$s"
			v4l2-ctl -d "$C" --list-frameintervals \
				"width=${s%x*},height=${s#*x},pixelformat=$f" |
				sed -n 's/.*(\([0-9.]*\) fps).*/ \1/p' | tr -d '\n'
			echo
		done)
	[ "$got" = "$want" ] || bad+="$f: $(tr '\n' ';' <<<"$got") "
done
if [ -z "$bad" ]; then
	pass "k $K: configfs: each format lists exactly those sizes, each at 29.970 and 7.5 fps"
else
	fail "k $K: configfs: each format lists exactly those sizes and rates" "$bad"
fi
run_compliance "$OUT/k-cfs.log" "$C" -s
compliance_like_vivi "$OUT/k-cfs.log" "configfs: compliance -s" "configfs camera"
# frames at each size: the 75% bars, YUYV, checked by pattern.py
bad=
for s in 1366x768 1080x1920 2560x1080; do
	w=${s%x*} h=${s#*x}
	rm -f /tmp/kc.raw
	v4l2-ctl -d "$C" -c osd_text=2,test_pattern=0 \
		-v "width=$w,height=$h,pixelformat=YUYV" --stream-mmap=3 \
		--stream-count=3 --stream-skip=1 --stream-to=/tmp/kc.raw \
		>/dev/null 2>&1
	if [ "$(stat -c %s /tmp/kc.raw 2>/dev/null || echo 0)" -ne $((3 * w * h * 2)) ]; then
		bad+="$s: $(stat -c %s /tmp/kc.raw 2>/dev/null || echo no) bytes; "
		continue
	fi
	rm -f /tmp/kcf?
	(cd /tmp && split -a 1 -d -b $((w * h * 2)) kc.raw kcf)
	# FILE:0: each frame is pattern 0, the 75% bars
	res=$("$GUEST"/pattern.py yuyv "k $s" "$w" "$h" /tmp/kcf0:0 \
		/tmp/kcf1:0 /tmp/kcf2:0 2>&1)
	[ "$(grep -c '^PASS: ' <<<"$res")" = 3 ] ||
		bad+="$s: $(grep -v '^PASS: ' <<<"$res" | head -n 2 | tr '\n' ' ')"
done
if [ -z "$bad" ]; then
	pass "k $K: configfs: 3 YUYV frames at each of its sizes show the 75% bars"
else
	fail "k $K: configfs: YUYV frames at each of its sizes show the 75% bars" "$bad"
fi
# removal while a client streams: it ends, the node goes, rmdir works
v4l2-ctl -d "$C" -v width=1366,height=768,pixelformat=YUYV \
	--stream-mmap=3 --stream-count=100000 >/dev/null 2>&1 &
client=$!
sleep 2
cfs_disable kcam
gone=0
for _ in $(seq 50); do
	kill -0 "$client" 2>/dev/null || { gone=1; break; }
	sleep 0.2
done
kill "$client" 2>/dev/null
wait "$client" 2>/dev/null
if [ "$gone" = 1 ] && [ ! -e "$C" ] && cfs_rmdir kcam; then
	pass "k $K: configfs: enabled=0 while v4l2-ctl streams: the client ends, $C goes, rmdir works"
else
	fail "k $K: configfs: enabled=0 while a client streams" \
		"client ended: $gone, node left: $([ -e "$C" ] && echo yes || echo no), rmdir: ${CFS_ERRNO:-ok}"
fi
# create, stream, remove: no device left behind, the number comes back
bad=
for i in $(seq 20); do
	cfs_make "kc$i" sizes=320x240 rates=30 && cfs_enable "kc$i" ||
		{ bad="cycle $i: made: $CFS_ERRNO"; break; }
	n=$(cfs_nodes "kc$i")
	v4l2-ctl -d "$n" --stream-mmap=3 --stream-count=3 >/dev/null 2>&1 ||
		{ bad="cycle $i: stream from $n failed"; break; }
	cfs_remove "kc$i" || { bad="cycle $i: removed: $CFS_ERRNO"; break; }
	[ ! -e "$n" ] || { bad="cycle $i: $n is still there"; break; }
	[ "$i" = 1 ] && first=$n
	[ "$n" = "$first" ] || { bad="cycle $i: $n, not $first"; break; }
done
if [ -z "$bad" ]; then
	pass "k $K: configfs: make, enable, stream 3 frames, remove, 20 times, always as $first"
else
	fail "k $K: configfs: make, enable, stream, remove, 20 times" "$bad"
fi
check "k $K: rmmod vivi once its configfs items are gone" unload_vivi
stage_end

stage_start "kernel $K: producer"
# the producer node (docs/producer.md): its compliance with every I/O mode
# (DMABUF from the capture node's buffers), fed frames shown byte for byte,
# the input's signal status, a second capture node's compliance while fed,
# and an unplug under the three streams
check "k $K: insmod vivi.ko producer=1 consumers=2" load_vivi producer=1 consumers=2
C=$(vivi_node 0)
O=$(grep -l ' (producer)$' /sys/class/video4linux/video*/name 2>/dev/null |
	sed -n 's|.*/\(video[0-9]*\)/name$|/dev/\1|p' | head -n 1)
C2=$(grep -l ' (consumer 2)$' /sys/class/video4linux/video*/name 2>/dev/null |
	sed -n 's|.*/\(video[0-9]*\)/name$|/dev/\1|p' | head -n 1)
C=${C:-/dev/null} O=${O:-/dev/null} C2=${C2:-/dev/null}
caps=$(v4l2-ctl -d "$O" -D 2>/dev/null | sed -n '/Device Caps/,$p' | tail -n +2 |
	sed 's/^[ \t]*//' | paste -sd,)
if [ "$caps" = "Video Output,Read/Write,Streaming,Extended Pix Format" ]; then
	pass "k $K: producer: $O is an output node only, beside $C"
else
	fail "k $K: producer: $O is an output node only" "caps '$caps'"
fi
run_compliance "$OUT/k-prod.log" "$O" -s -e "$C"
compliance_like_vivi "$OUT/k-prod.log" \
	"producer: compliance -s on the output node" "producer node"
st=$(v4l2-ctl -d "$C" --get-input 2>/dev/null)
python3 -c "import os, sys; sys.stdout.buffer.write(os.urandom(320 * 240 * 2 * 3))" >/tmp/kp.in
v4l2-ctl -d "$O" -x width=320,height=240,pixelformat=YUYV --stream-out-mmap \
	--stream-from=/tmp/kp.in --stream-loop >/dev/null 2>&1 &
prod=$!
sleep 1
st2=$(v4l2-ctl -d "$C" --get-input 2>/dev/null)
rm -f /tmp/kp.out
v4l2-ctl -d "$C" -v width=320,height=240,pixelformat=YUYV --stream-mmap \
	--stream-count=5 --stream-to=/tmp/kp.out >/dev/null 2>&1
same=$(python3 - /tmp/kp.in /tmp/kp.out <<'PY'
import sys
fs = 320 * 240 * 2
a = open(sys.argv[1], 'rb').read()
b = open(sys.argv[2], 'rb').read()
fed = {a[i:i + fs] for i in range(0, len(a), fs)}
got = [b[i:i + fs] for i in range(0, len(b) - fs + 1, fs)]
print(sum(g in fed for g in got), len(got))
PY
)
if [ "$same" = "5 5" ]; then
	pass "k $K: producer: 5 captured YUYV 320x240 frames are fed frames, byte for byte"
else
	fail "k $K: producer: captured frames are fed frames, byte for byte" "$same (identical, captured)"
fi
if grep -q 'no signal' <<<"$st" && ! grep -q 'no signal' <<<"$st2"; then
	pass "k $K: producer: the camera input says no signal until the producer streams"
else
	fail "k $K: producer: the camera input's signal status" "before '$st', while fed '$st2'"
fi
# the second capture node while fed, with the producer device's own
# controls (Aspect, Idle Picture, Frame Pacing)
run_compliance "$OUT/k-prodcap.log" "$C2" -s
compliance_like_vivi "$OUT/k-prodcap.log" \
	"producer: compliance -s on consumer 2 ($C2), a producer streaming" \
	"capture node, fed"
v4l2-ctl -d "$C" --stream-mmap --stream-count=100000 --stream-to=/dev/null >/dev/null 2>&1 &
cons=$!
v4l2-ctl -d "$C2" --stream-mmap --stream-count=100000 --stream-to=/dev/null >/dev/null 2>&1 &
cons2=$!
sleep 1
echo 0 >/sys/kernel/debug/vivi/unplug
if pid_gone "$prod" 20 && pid_gone "$cons" 20 && pid_gone "$cons2" 20 &&
	[ ! -e "$C" ] && [ ! -e "$C2" ] && [ ! -e "$O" ]; then
	pass "k $K: producer: an unplug under the producer's and two consumers' streams ends the three, the nodes go"
else
	fail "k $K: producer: an unplug under the three streams" "a client did not end, or a node is left"
	kill -9 "$prod" "$cons" "$cons2" 2>/dev/null
fi
wait "$prod" "$cons" "$cons2" 2>/dev/null
check "k $K: rmmod vivi after the unplug" unload_vivi
stage_end
