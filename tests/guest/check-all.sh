#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Inside the VM: every guest test stage, in order; with VIVI_FULL=1 also the
# long ones of 'make check-full'. VIVI_STAGES="check-x check-y" runs only
# those (make check STAGES=... sets it, see tests/README.md).
# Each stage runs under a watchdog (VIVI_STAGE_TIMEOUT s, default 1200; a
# quiet stage takes at most 6 minutes) that kills its whole process group:
# a stage that hangs fails by name, and the stages after it still run.
# check-full (over an hour) is left to the VM's timeout. A stage that exits
# non-zero (an unbound variable, a crash) fails by name too. Each stage's
# lines sit between "=== stage NAME" and "=== stage NAME rc=N", which
# tests/manifest.sh counts against tests/manifest.txt.
set -u
dir=$(dirname "$0")
stages="check-install check-base check-formats check-transit check-mjpeg check-apps check-gen check-camera check-faults check-source check-clients check-robust check-configfs check-producer"
[ "${VIVI_FULL:-0}" = 1 ] && stages="$stages check-full"
stages=${VIVI_STAGES:-$stages}
limit=${VIVI_STAGE_TIMEOUT:-1200}
for stage in $stages; do
	echo "=== stage $stage"
	t0=$(date +%s)
	if [ "$stage" = check-full ]; then
		"$dir/$stage.sh"
		rc=$?
	else
		timeout -k 10 "$limit" "$dir/$stage.sh"
		rc=$?
	fi
	if [ $rc = 124 ] || [ $rc = 137 ]; then
		echo "FAIL: $stage: did not finish within $limit s (killed)"
		lsmod | grep -q '^vivi ' && rmmod vivi
	elif [ $rc != 0 ]; then
		echo "FAIL: $stage: exited with status $rc"
		lsmod | grep -q '^vivi ' && rmmod vivi
	fi
	echo "=== stage $stage rc=$rc ($(($(date +%s) - t0)) s)"
done
