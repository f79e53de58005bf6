#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# VM stage: the ioctl fuzzer (tests/fuzz/vivi-fuzz.c), single-threaded and
# with two threads on one file, then a capture, v4l2-compliance and a leak
# check; then the same on a producer's output node while a consumer
# streams from its capture node and that node's controls change under it.
# Part of check-robust.sh; 'make fuzz' runs it alone for longer.
# VIVI_FUZZ_SECS (default 60): a third to each capture run, a sixth to each
# output run; VIVI_FUZZ_SEED replays a run; VIVI_FUZZ_IOCTLS caps each
# capture run (default 150000), four times that each output run (its
# ioctls are quicker: two threads did 150000 in 3.3 s).
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mem.sh"

secs=${VIVI_FUZZ_SECS:-60}
max=${VIVI_FUZZ_IOCTLS:-150000}
seed=${VIVI_FUZZ_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}

# outside the parts, so that PARTS= can pick either
core_modules

stage_start "fuzz"
unload_vivi
mem_snap /tmp/f0
clear_dmesg
# every format: the fuzzer takes them from ENUM_FMT
load_vivi n_devs=1
D0=$(vivi_node 0)
total=0
for j in 1 2; do
	out=$(vivi-fuzz -s "$seed" -j $j -n "$max" -t $((secs / 3)) "$D0" 2>&1)
	rc=$?
	echo "$out"
	n=$(sed -n 's/^fuzz: \([0-9]*\) ioctls.*/\1/p' <<<"$out")
	total=$((total + ${n:-0}))
	if [ $rc -gt 1 ] || ! grep -q '^\(PASS\|FAIL\): fuzz:' <<<"$out"; then
		fail "fuzz: $j thread(s), seed $seed" "vivi-fuzz exited with status $rc"
	fi
done
echo "fuzz: $total ioctls in total, seed $seed"
bad=$(dmesg | grep -E 'BUG:|WARNING:|Oops|Call Trace|corruption|soft lockup|blocked for more than' | head -n 3)
[ -z "$bad" ] && pass "fuzz: kernel log clean after $total ioctls" ||
	fail "fuzz: kernel log clean after $total ioctls" "$bad"

# the device still works as before
v4l2-ctl -d "$D0" -v width=640,height=480,pixelformat=YUYV -p 30
v4l2-ctl -d "$D0" -c test_pattern=0,brightness=128,contrast=128,saturation=128,hue=0,horizontal_flip=0,vertical_flip=0 2>/dev/null
v4l2-ctl -d "$D0" -i 0 >/dev/null
rm -f /tmp/fz.raw
v4l2-ctl -d "$D0" --stream-mmap=8 --stream-count=30 --stream-to=/tmp/fz.raw --verbose >/tmp/fz.log 2>&1
seqs=$(sed -n 's/.*seq: *\([0-9]*\).*/\1/p' /tmp/fz.log)
if awk 'NR > 1 && $1 <= p { bad = 1 } { p = $1 } END { exit bad }' <<<"$seqs"; then
	frames_ok "fuzz: the device captures 30 frames afterwards" /tmp/fz.raw 30 \
		$((640 * 480 * 2))
else
	fail "fuzz: the device captures 30 frames afterwards" \
		"sequence numbers do not go up: $(head -c 200 <<<"$seqs" | tr '\n' ' ')"
fi
# without -s: its streaming test counts every dropped frame as a warning,
# and a busy host drops some; the capture above checked streaming. The NV*
# formats' description failures are the tool skew, counted apart.
compliance_skew "fuzz: compliance afterwards" "$D0"
check "fuzz: rmmod afterwards (no file reference leaked)" rmmod vivi
mem_snap /tmp/f1
# a fuzzer run has no fixed cycle count; only the totals are bounded
mem_check "leak: fuzzing, load to unload" /tmp/f0 /tmp/f1 1000000000
stage_end

# The producer: vivi-fuzz on the output node (output buffer type, any size
# and stride, any payload, write()) while a consumer streams from the
# capture node all along and the capture node's controls that read the
# producer's frames (aspect, idle_picture, frame_pacing, where the driver
# has them) change now and then. The fuzzer never opens the capture node,
# so nothing it does may end the consumer's stream: a producer that stops,
# changes format or sends garbage only changes what the frames show.
T=/tmp/fz
stage_start "fuzz producer"
rm -rf "$T"
mkdir -p "$T"
unload_vivi
mem_snap /tmp/fp0
clear_dmesg
if ! load_vivi n_devs=1 producer=1 || ! CAP=$(node_named "vivi 0") ||
	! PROD=$(node_named "vivi 0 (producer)"); then
	fail "fuzz producer: load vivi producer=1" "$(dmesg | tail -n 2 | tr '\n' ' ')"
fi
ctls=$(v4l2-ctl -d "$CAP" -l 2>/dev/null | awk '{ print $1 }' |
	grep -xE 'aspect|idle_picture|frame_pacing' | sort | paste -sd' ')
echo "fuzz producer: switching the capture node's $ctls (of aspect frame_pacing idle_picture)"
vivi-produce -c "$CAP" >"$T/cons.log" 2>&1 &
cons=$!

# ctl_loop: each 0.1 to 1 s one of $ctls to a random value, until
# $T/ctl.stop; the sets made and refused in $T/ctl.n; seeded by the fuzz seed
ctl_loop() {
	local c v ok=0 bad=0 prio=0
	local -a names
	read -ra names <<<"$ctls"
	RANDOM=$seed
	while [ ! -e "$T/ctl.stop" ] && [ ${#names[@]} -gt 0 ]; do
		c=${names[RANDOM % ${#names[@]}]}
		case $c in
		frame_pacing) v=$((RANDOM % 2)) ;;
		*) v=$((RANDOM % 3)) ;;
		esac
		if v4l2-ctl -d "$CAP" -c "$c=$v" 2>"$T/ctl.1"; then
			ok=$((ok + 1))
		elif grep -q 'Device or resource busy' "$T/ctl.1"; then
			prio=$((prio + 1))
		else
			bad=$((bad + 1))
			cat "$T/ctl.1" >>"$T/ctl.err"
		fi
		sleep "0.$((1 + RANDOM % 9))"
	done
	echo "$ok $bad $prio" >"$T/ctl.n"
}
ctl_loop &
ctl=$!
ptotal=0
for j in 1 2; do
	out=$(vivi-fuzz -s "$seed" -j $j -n $((max * 4)) -t $((secs / 6)) "$PROD" 2>&1)
	rc=$?
	echo "$out"
	n=$(sed -n 's/^fuzz: \([0-9]*\) ioctls.*/\1/p' <<<"$out")
	ptotal=$((ptotal + ${n:-0}))
	if [ $rc -gt 1 ] || ! grep -q '^\(PASS\|FAIL\): fuzz:' <<<"$out"; then
		fail "fuzz producer: $j thread(s), seed $seed" "vivi-fuzz exited with status $rc"
	elif ! grep -q '^fuzz: output node' <<<"$out"; then
		fail "fuzz producer: $j thread(s), seed $seed" "vivi-fuzz did not take $PROD for an output node"
	fi
done
echo "fuzz producer: $ptotal ioctls on the output node in total, seed $seed"
touch "$T/ctl.stop"
wait "$ctl"
read -r ok bad prio <"$T/ctl.n"
# the controls can be set at any time, streaming or not; but both nodes
# share the device's priority (as V4L2 has it), so while the fuzzer holds
# V4L2_PRIORITY_RECORD on the output node another file's sets get EBUSY
if [ "${ok:-0}" -gt 0 ] && [ "${bad:-1}" = 0 ]; then
	pass "fuzz producer: the capture node's controls ($ctls) switched $ok times under it ($prio EBUSY: the fuzzer's priority)"
else
	fail "fuzz producer: the capture node's controls ($ctls) switched under it" \
		"${ok:-0} set, ${bad:-?} refused: $(head -n 2 "$T/ctl.err" | tr '\n' ' ')"
fi

# the consumer is still streaming: it ends only when told
f0=$(grep -c '^seq=' "$T/cons.log")
sleep 2
f1=$(grep -c '^seq=' "$T/cons.log")
if kill -0 "$cons" 2>/dev/null && [ "$f1" -gt "$f0" ]; then
	pass "fuzz producer: the consumer streamed all through ($f0 frames, $((f1 - f0)) in the 2 s after)"
else
	fail "fuzz producer: the consumer streamed all through" \
		"$f0 then $f1 frames; $(grep -v '^seq=' "$T/cons.log" | tail -n 3 | tr '\n' ' ')"
fi
kill -TERM "$cons" 2>/dev/null
if pid_gone "$cons" 10; then
	wait "$cons"
	rc=$?
else
	kill -KILL "$cons"
	wait "$cons"
	rc="hung, killed"
fi
sum=$(grep '^frames=' "$T/cons.log")
if [ "$rc" = 0 ] && grep -q 'backwards=0$' <<<"$sum"; then
	pass "fuzz producer: the consumer stops cleanly ($sum)"
else
	fail "fuzz producer: the consumer stops cleanly" "status $rc: $(tail -n 2 "$T/cons.log" | tr '\n' ' ')"
fi
bad=$(dmesg | grep -E 'BUG:|WARNING:|Oops|Call Trace|corruption|soft lockup|hung_task|blocked for more than' | head -n 3)
[ -z "$bad" ] && pass "fuzz producer: kernel log clean after $ptotal ioctls" ||
	fail "fuzz producer: kernel log clean after $ptotal ioctls" "$bad"

# a producer still feeds the consumer, byte for byte (the format the
# fuzzer left is reset, as for the capture node above)
v4l2-ctl -d "$CAP" -c aspect=0,idle_picture=0 2>/dev/null
v4l2-ctl -d "$CAP" -c frame_pacing=0 2>/dev/null
v4l2-ctl -d "$PROD" -x width=640,height=480,pixelformat=YUYV,bytesperline=0
producer.py random "$T/rand.yuyv" 640 480 8 25
vivi-produce "$PROD" "$T/rand.yuyv" >"$T/prod.log" 2>&1 &
prod=$!
for _ in $(seq 150); do
	grep -q '^streaming' "$T/prod.log" 2>/dev/null && break
	kill -0 "$prod" 2>/dev/null || break
	sleep 0.2
done
deadline 60 vivi-produce -c -f YUYV -s 640x480 -n 60 -M "$T/rand.yuyv" \
	"$CAP" >"$T/fed.log" 2>&1
kill -TERM "$prod" 2>/dev/null
pid_gone "$prod" 10 || kill -KILL "$prod"
wait "$prod"
rc=$?
fed_run "fuzz producer: a producer's frames come out unchanged afterwards" "$T/fed.log" 40
if [ $rc = 0 ] && grep -q '^stopped frames=' "$T/prod.log"; then
	pass "fuzz producer: the producer stops cleanly ($(grep '^stopped' "$T/prod.log"))"
else
	fail "fuzz producer: the producer stops cleanly" "status $rc: $(tail -n 3 "$T/prod.log" | tr '\n' ' ')"
fi
compliance_skew "fuzz producer: output node compliance -s afterwards" "$PROD" -s
check "fuzz producer: rmmod afterwards (no file reference leaked)" rmmod vivi
mem_snap /tmp/fp1
mem_check "leak: producer fuzzing, load to unload" /tmp/fp0 /tmp/fp1 1000000000
stage_end
