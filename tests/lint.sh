#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make lint: checkpatch.pl --strict, kernel-doc and sparse over the driver
# sources, and the layering of the driver's files (tests/layers.sh).
# checkpatch comes from Debian's linux-source (tests/deps.sh
# installs it), extracted once into $BUILD/checkpatch. Prints one PASS:/FAIL:
# line per tool. VIVI_LINT_SPARSE=0 leaves sparse out (make check: the strict
# build already ran it).
set -uo pipefail
cd "$(dirname "$0")/.."
: "${KVER:?KVER not set (run through make)}" "${KDIR:?}" "${BUILD:?}"
# the driver sources (not kbuild's generated vivi.mod.c)
srcs=()
for f in vivi*.c vivi*.h; do
	[ "${f%.mod.c}" = "$f" ] && srcs+=("$f")
done
rc=0

# checkpatch.pl and the data files it reads from its own directory
tarball=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n 1)
cp_dir=$BUILD/checkpatch
checkpatch=$cp_dir/scripts/checkpatch.pl
if [ -n "$tarball" ] && [ ! "$checkpatch" -nt "$tarball" ]; then
	rm -rf "$cp_dir" && mkdir -p "$cp_dir"
	top=$(basename "$tarball" .tar.xz)
	tar -xJf "$tarball" -C "$cp_dir" --strip-components=1 \
		"$top/scripts/checkpatch.pl" "$top/scripts/spelling.txt" \
		"$top/scripts/const_structs.checkpatch" && touch "$checkpatch"
fi
if [ ! -x "$checkpatch" ]; then
	echo "FAIL: lint: checkpatch: no checkpatch.pl (apt-get install linux-source)"
	rc=1
else
	# one run per file, with that file's exceptions from tests/lint-ignore,
	# as many at a time as there are CPUs, each into a file of its own
	tmp=$(mktemp -d) || exit 1
	out= i=0 cpus=$(nproc)
	for f in "${srcs[@]}"; do
		while [ "$(jobs -rp | wc -l)" -ge "$cpus" ]; do
			wait -n
		done
		ign=$(sed -n "s/^$f \([A-Z_,]*\) *#.*/\1/p" tests/lint-ignore)
		"$checkpatch" --strict --no-tree --terse --show-types \
			${ign:+--ignore "$ign"} -f "$f" >"$tmp/$i" 2>&1 &
		i=$((i + 1))
	done
	wait
	for ((i = 0; i < ${#srcs[@]}; i++)); do
		out+=$(cat "$tmp/$i")$'\n'
	done
	rm -rf "$tmp"
	n=$(grep -cE ': (ERROR|WARNING|CHECK):' <<<"$out")
	if [ "$n" -eq 0 ]; then
		echo "PASS: lint: checkpatch --strict (${#srcs[@]} files)"
	else
		echo "FAIL: lint: checkpatch --strict: $n problems"
		grep -E ': (ERROR|WARNING|CHECK):' <<<"$out" | head -n 30 |
			sed 's/^/    /'
		rc=1
	fi
fi

# kernel-doc: every documented function and struct matches its comment
out=$("$KDIR/scripts/kernel-doc" -none -v "${srcs[@]}" 2>&1)
if grep -qE 'warning|error' <<<"$out"; then
	echo "FAIL: lint: kernel-doc: $(grep -cE 'warning|error' <<<"$out") problems"
	grep -E 'warning|error' <<<"$out" | head -n 20 | sed 's/^/    /'
	rc=1
else
	echo "PASS: lint: kernel-doc -none -v ($(grep -c 'Scanning doc for' <<<"$out") documented items)"
fi

# the layers read the objects of a build: the strict one of make check
# (in the tree), else this script's own
if [ "${VIVI_LINT_SPARSE:-1}" != 0 ]; then
	tests/build-strict.sh "$BUILD/lint-src" || rc=1
	tests/layers.sh "$BUILD/lint-src" || rc=1
else
	tests/layers.sh . || rc=1
fi
exit "$rc"
