#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# VM stage: the ioctl fuzzer (tests/fuzz/vivi-fuzz.c), single-threaded and
# with two threads on one file, then a capture, v4l2-compliance and a leak
# check. Part of check-robust.sh; 'make fuzz' runs it alone for longer.
# VIVI_FUZZ_SECS (default 60) is split between the two runs; VIVI_FUZZ_SEED
# replays a run; VIVI_FUZZ_IOCTLS caps each run (default 150000).
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mem.sh"

secs=${VIVI_FUZZ_SECS:-60}
max=${VIVI_FUZZ_IOCTLS:-150000}
seed=${VIVI_FUZZ_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}

stage_start "fuzz"
core_modules
unload_vivi
mem_snap /tmp/f0
clear_dmesg
# every format: the fuzzer takes them from ENUM_FMT
load_vivi n_devs=1
D0=$(vivi_node 0)
total=0
for j in 1 2; do
	out=$(vivi-fuzz -s "$seed" -j $j -n "$max" -t $((secs / 2)) "$D0" 2>&1)
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
