#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check: strict build, unit tests, then the VM tests. Every test prints
# a PASS:/FAIL: line; the last line is the tally. "tests/check.sh full"
# (make check-full) adds the long VM stages.
set -uo pipefail
cd "$(dirname "$0")/.."
: "${KVER:?KVER not set (run through make)}" "${BUILD:?}"
mkdir -p "$BUILD"
full=0 timeout=1800
if [ "${1:-}" = full ]; then
	full=1 timeout=14400
fi
log="$BUILD/check.log"
t0=$(date +%s)

build_tools() {
	local src
	mkdir -p "$BUILD/tools"
	for src in tests/tools/*.c; do
		gcc -O2 -g -Wall -Wextra -Werror -pthread -o \
			"$BUILD/tools/$(basename "$src" .c)" "$src" || return 1
	done
	cp tests/guest/*.py "$BUILD/tools/"
}

run_all() {
	local vmout="$BUILD/vm-check"

	tests/build-strict.sh
	if [ -d tests/unit ]; then
		make -s -C tests/unit
	fi
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
		tests/vm/vm.sh -m 3G -t "$timeout" "$vmout" tests/guest/check-all.sh
}

run_all 2>&1 | tee "$log"
passed=$(grep -c '^PASS: ' "$log")
failed=$(grep -c '^FAIL: ' "$log")
echo "check: took $(( $(date +%s) - t0 )) s; log in $log"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
