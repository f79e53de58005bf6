#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make unit: run every unit test binary, each under a time limit, whatever
# the ones before it did. A binary that exits non-zero (a failed check, a
# sanitizer report, a crash) or runs past the limit prints a FAIL line
# naming itself, besides its own lines; the exit status says if any did.
#
# UNIT_FILTER="word ..." (make unit T=...) runs only the binaries whose
# name contains one of the words, and says so: tests/manifest.sh then does
# not hold the step to its full count.
#
# The binaries run UNIT_JOBS at a time (default: the CPUs online), each
# into a file of its own; the files are printed in the order below, so the
# log reads the same whatever the CPU count.
set -u
cd "$(dirname "$0")"
limit=${UNIT_TIMEOUT:-600}
filter=${UNIT_FILTER:-}
jobs=${UNIT_JOBS:-$(nproc)}
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
names=()

# wanted NAME: NAME passes the filter
wanted() {
	local w
	[ -z "$filter" ] && return 0
	for w in $filter; do
		[[ $1 == *"$w"* ]] && return 0
	done
	return 1
}

[ -z "$filter" ] ||
	echo "=== filtered: unit tests whose name contains '$filter' (make unit T=...)"

# one NAME CMD...: CMD's own PASS/FAIL lines, then a FAIL if it died, into
# $out/NAME
one() {
	local name=$1 rc
	shift
	timeout -k 5 "$limit" "$@" >"$out/$name" 2>&1
	rc=$?
	if [ $rc = 124 ] || [ $rc = 137 ]; then
		echo "FAIL: unit: $name: did not finish within $limit s (killed)"
	elif [ $rc != 0 ]; then
		echo "FAIL: unit: $name: exited with status $rc"
	fi >>"$out/$name"
}

# slot: wait until fewer than $jobs runs are going
slot() {
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
		wait -n
	done
}

# run NAME CMD...: one NAME CMD in the background, in a free slot; not run
# if the filter leaves NAME out
run() {
	local name=$1
	shift
	wanted "$name" || return 0
	slot
	names+=("$name")
	one "$name" "$@" &
}

# the longest first (about 60 s and 40 s with the sanitizers), so that
# the short ones fill the gaps
run test_jpeg ./test_jpeg
run test_gen ./test_gen --golden golden.txt
run test_scratch ./test_scratch "${SCRATCH_SEED:-20261206}"
run test_scale ./test_scale
run test_band ./test_band
run test_camera ./test_camera
run test_pack ./test_pack
run test_config ./test_config "${CONFIG_SEED:-20261206}"
run test_config_text ./test_config_text "${CONFIG_SEED:-20261207}"
# test_stamp_js reads the frames test_stamp writes: the two in turn, in one
# slot
if wanted test_stamp || wanted test_stamp_js; then
	rm -rf stamp-frames && mkdir stamp-frames
	slot
	names+=(test_stamp test_stamp_js)
	{
		one test_stamp ./test_stamp stamp-frames
		one test_stamp_js node test_stamp_js.js stamp-frames
	} &
fi
wait
bad=0
for n in "${names[@]}"; do
	cat "$out/$n"
	grep -q "^FAIL: unit: $n: " "$out/$n" && bad=1
done
exit $bad
