#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make bench-vm: vivi against vivid in one VM boot. Builds vivi.ko and
# tests/bench/vivi-bench.c, runs tests/bench/guest-bench.sh in the VM, then
# tests/bench/report.py writes docs/benchmarks.md (below its marker line)
# and docs/bench-interval.png. Raw results stay in $BUILD/bench/.
# The guest script's VIVI_BENCH_* knobs pass through (see there).
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${KVER:?KVER not set (run through make)}" "${BUILD:?}"
t0=$(date +%s)
out="$BUILD/bench"

make -s modules >"$BUILD/bench-build.log" 2>&1 || {
	cat "$BUILD/bench-build.log"
	echo "bench-vm: vivi.ko did not build" >&2
	exit 1
}
mkdir -p "$BUILD/tools"
for src in tests/bench/vivi-bench.c tests/tools/vivi-timing.c; do
	gcc -O2 -g -Wall -Wextra -Werror -pthread -o \
		"$BUILD/tools/$(basename "$src" .c)" "$src"
done
rm -rf "$out"
mkdir -p "$out"

# Timing, not testing: no slub_debug / page_poison in the guest (they tax
# every allocation and the boot, see tests/vm/README.md).
rc=0
VIVI_OUT="$out" VIVI_BUILD="$BUILD" VIVI_VM_DEBUGOPTS=${VIVI_VM_DEBUGOPTS-} \
	tests/vm/vm.sh -k "$KVER" -m 2G -t "${VIVI_BENCH_TIMEOUT:-1500}" "$out" \
	tests/bench/guest-bench.sh || rc=$?
if [ "$rc" -ne 0 ]; then
	echo "bench-vm: the VM run failed (status $rc); results so far in $out" >&2
	exit "$rc"
fi
echo "$(( $(date +%s) - t0 ))" >"$out/wall-s.txt"
/usr/bin/python3 tests/bench/report.py "$out" docs/benchmarks.md \
	docs/bench-interval.png
echo "bench-vm: took $(( $(date +%s) - t0 )) s; docs/benchmarks.md and docs/bench-interval.png written, raw data in $out"
