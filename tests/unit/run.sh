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
set -u
cd "$(dirname "$0")"
limit=${UNIT_TIMEOUT:-600}
filter=${UNIT_FILTER:-}
bad=0

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

# run NAME CMD...: CMD's own PASS/FAIL lines, then a FAIL if it died; not
# run if the filter leaves NAME out (test_stamp_js reads test_stamp's frames)
run() {
	local name=$1 rc
	shift
	wanted "$name" || { [ "$name" = test_stamp ] && wanted test_stamp_js; } ||
		return 0
	timeout -k 5 "$limit" "$@"
	rc=$?
	if [ $rc = 124 ] || [ $rc = 137 ]; then
		echo "FAIL: unit: $name: did not finish within $limit s (killed)"
		bad=1
	elif [ $rc != 0 ]; then
		echo "FAIL: unit: $name: exited with status $rc"
		bad=1
	fi
}

run test_gen ./test_gen --golden golden.txt
run test_band ./test_band
run test_camera ./test_camera
run test_jpeg ./test_jpeg
run test_pack ./test_pack
run test_scale ./test_scale
run test_scratch ./test_scratch "${SCRATCH_SEED:-20261206}"
run test_config ./test_config "${CONFIG_SEED:-20261206}"
run test_config_text ./test_config_text "${CONFIG_SEED:-20261207}"
rm -rf stamp-frames && mkdir stamp-frames
run test_stamp ./test_stamp stamp-frames
run test_stamp_js node test_stamp_js.js stamp-frames
exit $bad
