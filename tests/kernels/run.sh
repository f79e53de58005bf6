#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The tested kernel matrix (make check-kernels): for each Debian suite, its
# newest kernel, built strict with that suite's compiler in that suite's root
# (tests/kernels/root.sh), then booted with that root over 9p to run
# tests/guest/check-kernel.sh with the suite's own tools. Prints PASS:/FAIL:
# lines and one summary table (kernel, compiler, tool, result), also kept in
# $BUILD/kernels/summary.md.
#
#   tests/kernels/run.sh [--quick] [SUITE...]
#
# SUITE: bullseye bookworm trixie sid experimental (the default: all of them;
# bookworm is this machine's own root and kernel, KVER). --quick: the newest
# kernel only (experimental's, else sid's), as make check runs it. The
# newest kernel's compliance must have 0 failures and 0 warnings.
set -uo pipefail
cd "$(dirname "$0")/../.."
: "${KVER:?KVER not set (run through make)}" "${BUILD:?}"
roots=${VIVI_ROOTS:-/var/cache/vivi/roots}
out=$BUILD/kernels
suites=(bullseye bookworm trixie sid experimental)
quick=0
if [ "${1:-}" = --quick ]; then
	quick=1
	shift
fi
[ $# -eq 0 ] || suites=("$@")
mkdir -p "$out"
rows=()

# the root a suite's kernel runs in (experimental's: sid's; bookworm: /)
root_of() {
	case "$1" in
	bookworm) echo "" ;;
	experimental) echo "$roots/sid" ;;
	*) echo "$roots/$1" ;;
	esac
}

# in_root ROOT CMD...: CMD in ROOT (chroot, with /proc: objtool reads it),
# or here if ROOT is empty. The proc mount lives in a mount namespace of
# its own, which goes away with CMD.
in_root() {
	local r=$1
	shift
	if [ -n "$r" ]; then
		unshare -m --propagation private sh -c \
			'mount -t proc proc "$0/proc" && exec chroot "$0" "$@"' "$r" \
			/usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C "$@"
	else
		"$@"
	fi
}

# kernel SUITE: build, install and boot the suite's newest kernel; sets ROW
kernel() {
	local s=$1 r k g cc tool log vmout t0
	r=$(root_of "$s")
	t0=$(date +%s)
	ROW="| $s | - | - | - |"
	if [ -z "$r" ]; then
		k=$KVER
	elif ! k=$(tests/kernels/root.sh "${r##*/}" "$s"); then
		# root.sh's FAIL line
		echo "$k"
		ROW="| $s | - | - | - | FAIL: ${k#FAIL: kernels: "$s": } |"
		ROW=${ROW//$'\n'/ }
		return
	fi
	# (the build link is absolute: look at it from inside the root)
	if ! in_root "$r" test -d "/lib/modules/$k/build"; then
		echo "FAIL: kernels: $s: Linux $k has no headers (no $r/lib/modules/$k/build)"
		ROW="| $s | $k | - | - | FAIL: no headers |"
		return
	fi
	# the compiler the kernel was built with (its module build uses it too)
	cc=$(in_root "$r" sed -n 's/^CONFIG_CC_VERSION_TEXT="\(.*\)"/\1/p' \
		"/lib/modules/$k/build/.config")
	tool=$(in_root "$r" dpkg-query -W -f='${Version}' v4l-utils 2>/dev/null)
	tool=${tool%-*}
	# the tree for this kernel, at the same path in the root and the guest
	if [ -n "$r" ]; then g=/vivi/$k; else g=$out/$k; fi
	rm -rf "$r$g" && mkdir -p "$r$g/tree/tests" || return
	cp Kbuild Makefile vivi_*.c vivi*.h "$r$g/tree/" &&
		cp tests/build-strict.sh "$r$g/tree/tests/" || return
	log=$out/$s.log
	{
		in_root "$r" env KVER="$k" KDIR="/lib/modules/$k/build" BUILD="$g" \
			"$g/tree/tests/build-strict.sh" "$g/src"
		cp "$r$g/build-strict-$k.log" "$out/build-strict-$s.log" 2>/dev/null
		if [ -f "$r$g/src/vivi.ko" ]; then
			install_root "$r" "$k" "$g" "$s"
			vmout=$out/vm-$s
			rm -rf "$vmout" && mkdir -p "$vmout"
			VIVI_OUT="$vmout" VIVI_BUILD="$BUILD" VIVI_KO="$g/src/vivi.ko" \
				VIVI_MODROOT="$g/modroot" VIVI_NEWEST="$NEWEST" \
				tests/vm/vm.sh ${r:+-r "$r"} -k "$k" -m 2G -t 2400 "$vmout" \
				tests/guest/check-kernel.sh
		else
			echo "FAIL: kernels: $s: not booted, vivi.ko did not build"
		fi
	} 2>&1 | tee "$log"
	ROW="| $s | $k | $cc | ${tool:-?} | $(verdict "$log") ($(( $(date +%s) - t0 )) s) |"
}

# install_root ROOT KVER DIR SUITE: make install into DIR/modroot (in the
# root), with the kernel's own modules linked in so that modprobe -d in the
# guest finds vivi's dependencies
install_root() {
	local r=$1 k=$2 g=$3 s=$4 d=$3/modroot/lib/modules/$2
	mkdir -p "$r$d" && ln -s "/lib/modules/$k/kernel" "$r$d/kernel" &&
		cp "$r/lib/modules/$k"/modules.{order,builtin,builtin.modinfo} "$r$d/" &&
		cp "$r$g/tree/Makefile" "$r$g/src/"
	if in_root "$r" make -s -C "$g/src" install KVER="$k" \
		KDIR="/lib/modules/$k/build" INSTALL_MOD_PATH="$g/modroot" \
		>"$out/install-$s.log" 2>&1; then
		echo "PASS: kernels: $s: make install INSTALL_MOD_PATH ($k)"
	else
		echo "FAIL: kernels: $s: make install INSTALL_MOD_PATH ($k): $(tail -n 2 "$out/install-$s.log" | tr '\n' ' ')"
	fi
}

# verdict LOG: PASS (N checks) or FAIL (N of M) with the first failure
verdict() {
	local p f
	p=$(grep -c '^PASS: ' "$1")
	f=$(grep -c '^FAIL: ' "$1")
	if [ "$f" -eq 0 ] && [ "$p" -gt 0 ]; then
		echo "PASS ($p checks)"
	else
		echo "FAIL ($f of $((p + f)): $(grep -m 1 '^FAIL: ' "$1" | cut -c 7-80 | tr '|' '/'))"
	fi
}

if [ "$quick" = 1 ]; then
	NEWEST=1
	if why=$(tests/kernels/root.sh sid experimental); then
		kernel experimental
	else
		echo "kernels: ${why#FAIL: kernels: }; the newest kernel is sid's"
		kernel sid
	fi
	rows+=("$ROW")
else
	for s in "${suites[@]}"; do
		NEWEST=0
		[ "$s" = experimental ] && NEWEST=1
		kernel "$s"
		rows+=("$ROW")
	done
fi
{
	echo "Tested kernels, $(date -u '+%Y-%m-%d %H:%M UTC'):"
	echo
	echo "| suite | kernel | compiler | v4l-utils | result |"
	echo "| --- | --- | --- | --- | --- |"
	printf '%s\n' "${rows[@]}"
} | tee "$out/summary.md"
! grep -q '| FAIL' "$out/summary.md"
