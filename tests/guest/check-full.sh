#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# VM stage of 'make check-full': v4l2-compliance -s -f, which streams one
# second of every size, interval and stride of each format offered. It runs
# once per unit of VIVI_FULL_FORMATS (a formats= value each), so that each
# unit's result and wall time stand alone: every format alone, except that
# the NV* ones follow RGGB, as in the full list. v4l2-compliance 1.22 stops
# enumerating formats at the first NV* description mismatch (the tool skew,
# counted apart); were an NV* format the current one, it would then also
# fail it as "not reported by ENUM_FMT".
# Progress goes to $OUT/full-progress.txt every 30 s, so an interrupted run
# still shows how far it got. Then 200 configfs create/stream/remove cycles
# beside another device's stream (check-configfs runs 40).
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mem.sh"
. "$(dirname "$0")/configfs.sh"

# the driver's formats as units: each alone, the NV* ones behind the last
# other one ("... GRBG RGGB,NV12,NV21,NV16,NV61")
all_units() {
	local nv
	nv=$(driver_formats | grep '^NV' | paste -sd,)
	driver_formats | grep -v '^NV' | paste -sd' ' | sed "s/\$/${nv:+,$nv}/"
}
check "full: V4L2 core modules load" core_modules
units=${VIVI_FULL_FORMATS:-$(all_units)}
progress=$OUT/full-progress.txt

# streams tried and failed so far in a compliance log
combos() { grep -caE 'Field [A-Za-z]+: (OK|FAIL)' "$1"; }

# the name of unit $1's compliance run, and its log
full_name() { echo "full: compliance -s -f, formats=$1"; }
full_log() { compliance_log "$(full_name "$1")"; }

# one line every 30 s: elapsed seconds, unit, streams done, last stream
watch_progress() {
	local unit=$1 t0=$2 tmp
	while sleep 30; do
		tmp=$(compliance_tmp "$(full_log "$unit")")
		[ -f "$tmp" ] || continue
		echo "$(($(date +%s) - t0)) s $unit $(combos "$tmp") streams;" \
			"$(grep -aE 'test MMAP for|test read/write for' "$tmp" |
			tail -n 1 | tr -s ' \t' ' ')" >>"$progress"
	done
}

: >"$progress"
stage_start "compliance -s -f, each format"
t_all=$(date +%s)
for unit in $units; do
	t0=$(date +%s)
	if ! load_vivi n_devs=1 "formats=$unit"; then
		fail "full: load vivi formats=$unit" "insmod failed"
		continue
	fi
	watch_progress "$unit" "$t_all" &
	watcher=$!
	compliance_skew "$(full_name "$unit")" "$(vivi_node 0)" -s -f
	kill "$watcher" 2>/dev/null
	wait "$watcher" 2>/dev/null
	n=$(combos "$(full_log "$unit")")
	echo "full: $unit: $n streams in $(($(date +%s) - t0)) s" |
		tee -a "$progress"
done
echo "full: all: $(($(date +%s) - t_all)) s for: $units" |
	tee -a "$progress"
stage_end

# check-configfs runs 40 of these cycles; the 200 issue 26 asks for, here
stage_start "configfs: create/stream/remove cycles"
cfs_cycles_part "full: configfs cycles" "${VIVI_CFS_CYCLES:-200}"
stage_end
unload_vivi
