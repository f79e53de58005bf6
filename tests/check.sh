#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check: strict build, unit tests, then the VM tests. Every test prints
# a PASS:/FAIL: line; the last line is the tally. "tests/check.sh full"
# (make check-full) adds the long VM stages.
set -uo pipefail
cd "$(dirname "$0")/.."
: "${KVER:?KVER not set (run through make)}" "${BUILD:?}"
mkdir -p "$BUILD"
# the 6.1 VM takes about 21 minutes on a quiet 2-core host; with one core
# kept busy it went past 30
full=0 timeout=2700
if [ "${1:-}" = full ]; then
	full=1 timeout=14400
fi
log="$BUILD/check.log"
t0=$(date +%s)

build_tools() {
	local src
	mkdir -p "$BUILD/tools"
	for src in tests/tools/*.c tests/fuzz/*.c tests/bench/*.c; do
		gcc -O2 -g -Wall -Wextra -Werror -pthread -o \
			"$BUILD/tools/$(basename "$src" .c)" "$src" || return 1
	done
	cp tests/guest/*.py "$BUILD/tools/"
}

# install_tree KVER SRC MODROOT: make install of the module in SRC (built
# for KVER) into MODROOT, with the kernel's own modules symlinked in, so that
# modprobe -d in the VM (check-install) finds vivi and its dependencies as
# it would in /lib/modules. Kernels that compress modules (6.12: xz) get
# vivi.ko compressed the same way.
install_tree() {
	local kver=$1 src=$2 mr=$3 d log=$BUILD/install-$1.log ko vm
	d=$mr/lib/modules/$kver
	rm -rf "$mr" && mkdir -p "$d" || return 1
	ln -s "/lib/modules/$kver/kernel" "$d/kernel"
	cp /lib/modules/"$kver"/modules.{order,builtin,builtin.modinfo} "$d/"
	if ! make -s -C "$src" install KVER="$kver" KDIR="/lib/modules/$kver/build" \
		INSTALL_MOD_PATH="$mr" >"$log" 2>&1; then
		echo "FAIL: install: $kver: make install INSTALL_MOD_PATH: $(tail -n 2 "$log" | tr '\n' ' ')"
		return
	fi
	ko=$(grep -oE '^updates/vivi\.ko(\.[a-z]+)?: .*kernel/drivers/media/v4l2-core/videodev\.ko' \
		"$d/modules.dep" | cut -d: -f1)
	vm=$(modinfo -F vermagic "$d/$ko" 2>/dev/null)
	if [ -z "$ko" ]; then
		echo "FAIL: install: $kver: depmod: modules.dep has no updates/vivi.ko with videodev"
	elif [ "${vm%% *}" != "$kver" ]; then
		echo "FAIL: install: $kver: $ko has vermagic '$vm'"
	else
		echo "PASS: install: $kver: make install INSTALL_MOD_PATH gives $ko, depmod resolves videodev"
	fi
}

# The newest Debian kernel (experimental's, else sid's) in its own suite's
# root, in the quick form of make check-kernels (tests/kernels/run.sh)
kernel2() {
	tests/kernels/run.sh --quick
}

run_all() {
	local vmout="$BUILD/vm-check"

	tests/build-strict.sh
	if [ -d tests/unit ]; then
		make -s -C tests/unit
	fi
	VIVI_LINT_SPARSE=0 tests/lint.sh # the strict build ran sparse
	tests/dkms.sh
	install_tree "$KVER" "$PWD" "$BUILD/modroot"
	if build_tools; then
		echo "PASS: build: test tools"
	else
		echo "FAIL: build: test tools: gcc failed"
	fi
	if [ ! -f vivi.ko ]; then
		echo "FAIL: vm: not run, vivi.ko did not build"
		return
	fi
	rm -rf "$vmout"
	mkdir -p "$vmout"
	VIVI_OUT="$vmout" VIVI_BUILD="$BUILD" VIVI_FULL=$full \
		tests/vm/vm.sh -k "$KVER" -m 3G -t "$timeout" "$vmout" tests/guest/check-all.sh
	kernel2
}

run_all 2>&1 | tee "$log"
passed=$(grep -c '^PASS: ' "$log")
failed=$(grep -c '^FAIL: ' "$log")
echo "check: took $(( $(date +%s) - t0 )) s; log in $log"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
