#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make bench-vm: vivi against vivid, and vivi's producer node against
# v4l2loopback, in one VM boot. Builds vivi.ko, the tools, and Debian's
# v4l2loopback-dkms source (fetched by tests/deps.sh) for the VM's kernel;
# runs tests/bench/guest-bench.sh in the VM, then tests/bench/report.py
# writes docs/benchmarks.md (below its marker line; the producer table
# between its own markers) and docs/bench-interval.png. Raw results stay
# in $BUILD/bench/. The guest script's VIVI_BENCH_* knobs pass through
# (see there): VIVI_BENCH_ONLY=producer runs only the producer table.
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
for src in tests/bench/vivi-bench.c tests/tools/vivi-timing.c \
	tests/tools/vivi-produce.c; do
	gcc -O2 -g -Wall -Wextra -Werror -pthread -o \
		"$BUILD/tools/$(basename "$src" .c)" "$src"
done
rm -rf "$out"
mkdir -p "$out"

# loopback_build: v4l2loopback from the newest v4l2loopback-dkms .deb in
# $BUILD/debs (else an installed /usr/src/v4l2loopback-*), built against
# KVER's headers into $BUILD/v4l2loopback/KVER; sets VIVI_LOOPBACK_KO, or
# VIVI_LOOPBACK_SKIP to why not (the bench then skips that peer)
loopback_build() {
	local deb src dir=$BUILD/v4l2loopback/$KVER
	VIVI_LOOPBACK_KO='' VIVI_LOOPBACK_SKIP='' VIVI_LOOPBACK_VERSION=''
	rm -rf "$dir"
	mkdir -p "$dir/deb"
	# (compgen fails when nothing matches: || true, for set -e)
	deb=$(compgen -G "$BUILD/debs/v4l2loopback-dkms_*.deb" | sort -V | tail -n 1) || true
	if [ -n "$deb" ] && dpkg-deb -x "$deb" "$dir/deb"; then
		src=$(compgen -G "$dir/deb/usr/src/v4l2loopback-*" | sort -V | tail -n 1) || true
		VIVI_LOOPBACK_VERSION="Debian's v4l2loopback-dkms $(dpkg-deb -f "$deb" Version)"
	else
		src=$(compgen -G "/usr/src/v4l2loopback-*" | sort -V | tail -n 1) || true
		VIVI_LOOPBACK_VERSION="${src:+${src##*/} (installed source)}"
	fi
	if [ -z "$src" ]; then
		VIVI_LOOPBACK_SKIP="no v4l2loopback-dkms source (tests/deps.sh bench fetches it)"
		return
	fi
	cp "$src"/*.c "$src"/*.h "$src/Makefile" "$dir/"
	if ! make -C "$KDIR" M="$dir" modules >"$dir/build.log" 2>&1; then
		# its first error, else the log's last line
		VIVI_LOOPBACK_SKIP="${src##*/} does not build against $KVER: $({ grep -m 1 error \
			"$dir/build.log" || tail -n 1 "$dir/build.log"; } | sed "s|$dir/||")"
		return
	fi
	VIVI_LOOPBACK_KO=$dir/v4l2loopback.ko
}
if [ "${VIVI_BENCH_ONLY:-}" != vivid ]; then
	loopback_build
	echo "bench-vm: v4l2loopback: ${VIVI_LOOPBACK_KO:-skipped: $VIVI_LOOPBACK_SKIP}"
fi
export VIVI_LOOPBACK_KO VIVI_LOOPBACK_SKIP VIVI_LOOPBACK_VERSION

# host_state WHEN: the host's load, the other VMs running (TCG vCPUs
# compete with them for the host's cores), the host's busy and all ticks
# (/proc/stat) and the CPU seconds of this script's children so far (the
# VM's qemu among them), for the report
host_state() {
	local u s
	echo "host_load_$1=$(cut -d' ' -f1-3 /proc/loadavg)"
	echo "host_vms_$1=$(pgrep -c qemu-system || true)"
	awk '$1 == "cpu" { t = 0; for (i = 2; i <= 9; i++) t += $i
		print "host_busy_ticks_'"$1"'=" t - $5 - $6; print "host_ticks_'"$1"'=" t }' /proc/stat
	# times, in this shell (a subshell's children are its own)
	times >"$out/times.txt"
	{ read -r _ && read -r u s; } <"$out/times.txt"
	echo "children_cpu_s_$1=$(awk -v u="$u" -v s="$s" 'function sec(x, m) {
		split(x, m, "m"); return m[1] * 60 + m[2] } BEGIN { print sec(u) + sec(s) }')"
	echo "host_hz=$(getconf CLK_TCK)"
}
host_state start >"$out/host.txt"

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
host_state end >>"$out/host.txt"
echo "$(( $(date +%s) - t0 ))" >"$out/wall-s.txt"
/usr/bin/python3 tests/bench/report.py "$out" docs/benchmarks.md \
	docs/bench-interval.png
echo "bench-vm: took $(( $(date +%s) - t0 )) s; docs/benchmarks.md and docs/bench-interval.png written, raw data in $out"
