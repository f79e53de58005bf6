#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make run: build vivi, boot the VM, load vivi and capture from it into out/.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${KDIR:?KDIR not set (run through make)}" "${BUILD:?}"
make -s -C "$KDIR" M="$PWD" modules
mkdir -p out
rm -f out/vivi.png out/vivi.mkv
VIVI_OUT="$PWD/out" VIVI_BUILD="$BUILD" \
	tests/vm/vm.sh -k "$KVER" -m 2G -t 900 "$PWD/out" tests/guest/run.sh
for f in out/vivi.png out/vivi.mkv; do
	[ -s "$f" ] || { echo "run: $f was not written" >&2; exit 1; }
done
echo "run: wrote $(ls -s --block-size=K out/vivi.png out/vivi.mkv | tr '\n' ' ')"
/usr/bin/python3 tests/guest/bars.py "run: out/vivi.png shows the 8 bars" \
	out/vivi.png --tol 3
