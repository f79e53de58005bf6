#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check: strict build, unit tests, then the VM tests. Every test prints
# a PASS:/FAIL: line; the last line is the tally. "tests/check.sh full"
# (make check-full) adds the long VM stages. tests/README.md lists them all.
#
# STAGES="check-x check-y" (VIVI_STAGES is the same) runs only those guest
# stages, after a plain build of vivi.ko and of the test tools: no strict
# build, unit tests, lint, DKMS or make install (but for check-install,
# which needs the installed tree) unless HOST_STEPS=1, and no boot of the
# newest kernel (tests/kernels/run.sh --quick, whose guest stage is
# check-kernel.sh) unless NEWEST=1 or check-kernel is one of the stages.
# PARTS="regex" (VIVI_PARTS is the same) runs only the parts of the 6.1
# VM's stages whose "== part" name matches it (tests/guest/lib.sh);
# tests/manifest.sh then skips those stages' count check.
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
stages=${STAGES:-${VIVI_STAGES:-}}
parts=${PARTS:-${VIVI_PARTS:-}}
host=1 run_newest=1 guest_stages=
if [ -n "$stages" ]; then
	host=${HOST_STEPS:-0} run_newest=${NEWEST:-0}
	for s in $stages; do
		if [ "$s" = check-kernel ]; then
			run_newest=1
		elif [ -e "tests/guest/$s.sh" ]; then
			guest_stages+=" $s"
		else
			echo "check: no guest stage '$s' (tests/guest/check-*.sh)" >&2
			exit 2
		fi
	done
	guest_stages=${guest_stages# }
fi
log="$BUILD/check.log"
t0=$(date +%s)

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
newest_kernel() {
	tests/kernels/run.sh --quick
}

# build NAME LOG CMD...: PASS if CMD succeeds, else FAIL with its first
# errors; its output goes to $BUILD/LOG
build() {
	local name=$1 log=$BUILD/$2
	shift 2
	if "$@" >"$log" 2>&1; then
		echo "PASS: build: $name"
	else
		echo "FAIL: build: $name: $(grep -m 3 -E 'error|Error' "$log" | tr '\n' ' ')"
	fi
}

# step NAME CMD...: CMD's lines between "=== step NAME" and its rc line
# (with the seconds it took), which tests/manifest.sh counts; a non-zero
# exit is a FAIL naming it
step() {
	local name=$1 rc t=$SECONDS
	shift
	echo "=== step $name"
	"$@"
	rc=$?
	[ $rc = 0 ] || echo "FAIL: $name: exited with status $rc"
	echo "=== step $name rc=$rc ($((SECONDS - t)) s)"
}

# the strict build, unit tests, lint, DKMS and make install
host_steps() {
	step strict tests/build-strict.sh
	step unit make -s -j"$(nproc)" -C tests/unit
	# the strict build ran sparse
	step lint env VIVI_LINT_SPARSE=0 tests/lint.sh
	step dkms tests/dkms.sh
	step install install_tree "$KVER" "$PWD" "$BUILD/modroot"
}

# The newest kernel's root (tests/kernels/root.sh: debootstrap, which
# tests/deps.sh starts on a machine without it, then apt) is mostly
# downloading and unpacking: brought up to date in the background, it
# overlaps the host steps. root.sh holds a lock, so this call waits for
# deps.sh's, and the newest-kernel step's own call for this one.
prefetch_root() {
	tests/kernels/root.sh sid experimental >>"$BUILD/root-prefetch.log" 2>&1 &
}

run_all() {
	local vmout="$BUILD/vm-check"

	[ "$run_newest" = 0 ] || [ "$host" = 0 ] || prefetch_root
	if [ "$host" = 1 ]; then
		host_steps
	else
		build "vivi.ko ($KVER)" build.log make -s modules
		# check-install loads the installed module
		[[ " $guest_stages " != *" check-install "* ]] ||
			install_tree "$KVER" "$PWD" "$BUILD/modroot"
	fi
	# the C test tools and the guest's Python helpers
	step tools build "test tools" tools.log make -s tools
	if [ ! -f vivi.ko ]; then
		echo "FAIL: vm: not run, vivi.ko did not build"
		return
	fi
	if [ -z "$stages" ] || [ -n "$guest_stages" ]; then
		rm -rf "$vmout"
		mkdir -p "$vmout"
		VIVI_OUT="$vmout" VIVI_BUILD="$BUILD" VIVI_FULL=$full \
			VIVI_STAGES="$guest_stages" VIVI_PARTS="$parts" \
			tests/vm/vm.sh -k "$KVER" -m 3G -t "$timeout" "$vmout" \
			tests/guest/check-all.sh
	fi
	[ "$run_newest" = 0 ] || step newest-kernel newest_kernel
}

run_all 2>&1 | tee "$log"
# every step and stage that ran printed the PASS lines it should
tests/manifest.sh "$log" "$([ -n "$stages" ] || echo all)" | tee -a "$log"
passed=$(grep -c '^PASS: ' "$log")
failed=$(grep -c '^FAIL: ' "$log")
echo "check: took $(( $(date +%s) - t0 )) s; log in $log"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
