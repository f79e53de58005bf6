#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# VM stage: stream transitions. vivi-transit streams a seeded sequence of
# formats (MJPEG too), sizes, test patterns and JPEG qualities on one file,
# two frames each, every pixel checked against the unit tests' reference
# decoder; the first steps are the transitions a review found broken (the
# generator cache left half valid: no frame, STREAMOFF hung). Then the
# kernel log and the unload. VIVI_TRANSIT_SEED replays a run,
# VIVI_TRANSIT_STEPS (default 60) sets its length.
set -u
. "$(dirname "$0")/lib.sh"

steps=${VIVI_TRANSIT_STEPS:-60}
seed=${VIVI_TRANSIT_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
T=/tmp/transit
rm -rf "$T"
mkdir -p "$T"

# transit_run DEV: vivi-transit to $T/out, then its status. A hung
# STREAMOFF sleeps uninterruptibly and its process never ends: so wait for
# its last line ("transit: end", the watchdog's too), not for the process.
transit_run() {
	local pid limit=$((steps * 15 + 60)) t=0
	vivi-transit -s "$seed" -n "$steps" "$1" >"$T/out" 2>&1 &
	pid=$!
	while kill -0 $pid 2>/dev/null && ! grep -q '^transit: end' "$T/out"; do
		[ $t -lt $limit ] || break
		sleep 1
		t=$((t + 1))
	done
	cat "$T/out"
	sleep 1
	if kill -0 $pid 2>/dev/null; then
		echo "transit: vivi-transit (pid $pid) still runs after $t s, in $(cat /proc/$pid/wchan 2>/dev/null)"
		# it printed its results if it got to its end
		grep -q '^transit: end' "$T/out" && return 1
		return 124
	fi
	wait $pid
}

stage_start "transitions"
check "transit: V4L2 core modules load" core_modules
clear_dmesg
check "transit: load vivi" load_vivi
D=$(vivi_node 0) || D=/dev/video0
echo "transit: seed $seed (VIVI_TRANSIT_SEED=$seed replays the run)"
transit_run "$D"
rc=$?
[ $rc -le 1 ] && grep -q '^transit: end' "$T/out" ||
	fail "transit: vivi-transit ran to its end" "status $rc: $(grep -v '^transit: step' "$T/out" | tail -n 2 | tr '\n' ' ')"
bad=$(bad_dmesg | head -n 3)
[ -z "$bad" ] && pass "transit: kernel log clean" ||
	fail "transit: kernel log clean" "$(tr '\n' ' ' <<<"$bad")"
check "transit: vivi unloads" unload_vivi
stage_end
