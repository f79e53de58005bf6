#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build vivi.ko with W=1, -Werror and sparse (C=2); any compiler or sparse
# diagnostic fails. Prints one result line.
#
#   tests/build-strict.sh [DIR]   DIR: build a copy of the sources there
#                                 instead of in the tree (another KVER/KDIR)
set -uo pipefail
cd "$(dirname "$0")/.."
: "${KVER:?KVER not set (run through make)}" "${KDIR:?}" "${BUILD:?}"
mkdir -p "$BUILD"
log="$BUILD/build-strict-$KVER.log"
if [ ! -d "$KDIR" ]; then
	echo "FAIL: build: strict ($KVER): no kernel headers at $KDIR"
	exit 1
fi
src=$PWD
if [ $# -gt 0 ]; then
	rm -rf "$1" && mkdir -p "$1" && cp Kbuild ./vivi_*.c ./vivi*.h "$1"/ || exit 1
	src=$(cd "$1" && pwd)
fi
make -C "$KDIR" M="$src" clean >/dev/null 2>&1
# C=2 runs sparse on every file, W=1 adds the extra compiler warnings
make -C "$KDIR" M="$src" W=1 C=2 KCFLAGS=-Werror modules >"$log" 2>&1
rc=$?
# kbuild's own notes are not diagnostics
diag=$(grep -E 'warning|error|note:' "$log" | grep -v 'Skipping BTF generation')
if [ "$rc" -ne 0 ] || [ -n "$diag" ]; then
	echo "FAIL: build: strict W=1 -Werror C=2 ($KVER): rc=$rc"
	sed 's/^/    /' <<<"${diag:-$(tail -n 20 "$log")}" | head -n 40
	exit 1
fi
echo "PASS: build: strict W=1 -Werror C=2 ($KVER)"
