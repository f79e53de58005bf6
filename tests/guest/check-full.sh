#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# VM stage of 'make check-full': v4l2-compliance -s -f, which streams one
# second of every size, interval and stride of a format, run once per
# format (vivi loaded with formats=FOURCC) so that each format's result and
# wall time stand alone. VIVI_FULL_FORMATS="YUYV NV12" runs only those.
# Progress goes to $OUT/full-progress.txt every 30 s, so an interrupted run
# still shows how far it got.
set -u
. "$(dirname "$0")/lib.sh"

ALL="YUYV UYVY YVYU VYUY YU12 YV12 422P RGB3 BGR3 BX24 XR24 RGBP RGBR XR15"
ALL="$ALL GREY Y16 BA81 GBRG GRBG RGGB NV12 NV21 NV16 NV61"
formats=${VIVI_FULL_FORMATS:-$ALL}
progress=$OUT/full-progress.txt

# streams tried and failed so far in a compliance log
combos() { grep -caE 'Field [A-Za-z]+: (OK|FAIL)' "$1"; }

# compliance_skew's log name for format $1
full_log() { echo "$OUT/full-compliance-s-f-formats-$1.log"; }

# one line every 30 s: elapsed seconds, format, streams done, last stream
watch_progress() {
	local fcc=$1 t0=$2 tmp
	while sleep 30; do
		tmp=$(compliance_tmp "$(full_log "$fcc")")
		[ -f "$tmp" ] || continue
		echo "$(($(date +%s) - t0)) s $fcc $(combos "$tmp") streams;" \
			"$(grep -aE 'test MMAP for|test read/write for' "$tmp" |
			tail -n 1 | tr -s ' \t' ' ')" >>"$progress"
	done
}

check "full: V4L2 core modules load" core_modules
: >"$progress"
stage_start "compliance -s -f, each format"
t_all=$(date +%s)
for fcc in $formats; do
	t0=$(date +%s)
	if ! load_vivi n_devs=1 "formats=$fcc"; then
		fail "full: load vivi formats=$fcc" "insmod failed"
		continue
	fi
	watch_progress "$fcc" "$t_all" &
	watcher=$!
	compliance_skew "full: compliance -s -f, formats=$fcc" \
		"$(vivi_node 0)" -s -f
	kill "$watcher" 2>/dev/null
	wait "$watcher" 2>/dev/null
	n=$(combos "$(full_log "$fcc")")
	echo "full: $fcc: $n streams in $(($(date +%s) - t0)) s" |
		tee -a "$progress"
done
echo "full: all: $(($(date +%s) - t_all)) s for: $formats" |
	tee -a "$progress"
stage_end
unload_vivi
