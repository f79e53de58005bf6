#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check-fresh: the README's two commands on a fresh machine. A new
# debootstrap --variant=minbase bookworm root (from this machine's own
# mirror, tests/apt-mirror.sh) gets git and make, a clean git clone of
# this tree's HEAD, and runs, chrooted with /proc, /sys and /dev bound:
#   make run                          everything it installs by itself
#   make check STAGES="$FRESH_STAGES" the test command, a short stage list
# so a package that an install step forgets fails here, not on a user's
# machine. The root is thrown away afterwards (FRESH_KEEP=1 keeps it).
# Prints PASS:/FAIL: lines and the wall time of each command; needs root.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
: "${BUILD:?BUILD not set (run through make)}"
stages=${FRESH_STAGES:-check-base}
d=$BUILD/fresh
r=$d/root
log=$d/fresh.log

pass() { echo "PASS: fresh: $1"; }
fail() { echo "FAIL: fresh: $1: $2"; }

# in_root CMD...: CMD in the fresh root as root's login would run it, with
# /proc, /sys and /dev bound, in a mount namespace that goes away with CMD
in_root() {
	unshare -m --propagation private sh -c '
		mount -t proc proc "$0/proc" &&
		mount --rbind /sys "$0/sys" && mount --rbind /dev "$0/dev" &&
		exec chroot "$0" "$@"' "$r" \
		/usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
		HOME=/root TERM=dumb "$@"
}

# timed NAME CMD...: CMD in the root, its output in LOG, its wall time
timed() {
	local name=$1 t0 rc
	shift
	t0=$(date +%s)
	echo "+ $*" >>"$log"
	in_root "$@" >>"$log" 2>&1
	rc=$?
	if [ $rc = 0 ]; then
		pass "$name ($(($(date +%s) - t0)) s)"
	else
		fail "$name" "status $rc after $(($(date +%s) - t0)) s; $(tail -n 3 "$log" | tr '\n' ' ')"
	fi
	return $rc
}

mirror=$(tests/apt-mirror.sh) || { fail "mirror" "none in this machine's apt sources"; exit 1; }
rm -rf "$d" && mkdir -p "$d" || exit 1
: >"$log"
t0=$(date +%s)
if ! debootstrap --variant=minbase --include=git,make,ca-certificates \
	bookworm "$r" "$mirror" >>"$log" 2>&1; then
	fail "debootstrap bookworm" "$(tail -n 1 "$log")"
	exit 1
fi
cp /etc/resolv.conf "$r/etc/resolv.conf"
# no daemons started by package scripts in the root
printf '#!/bin/sh\nexit 101\n' >"$r/usr/sbin/policy-rc.d"
chmod 755 "$r/usr/sbin/policy-rc.d"
pass "debootstrap --variant=minbase bookworm ($(($(date +%s) - t0)) s)"
# a clean clone of HEAD: what a user gets, nothing of this tree's build
git clone -q --no-local "$PWD" "$r/root/vivi" >>"$log" 2>&1 ||
	{ fail "git clone" "$(tail -n 1 "$log")"; exit 1; }
timed "make run" sh -c 'cd /root/vivi && make run' &&
	timed "make check STAGES=\"$stages\"" \
		sh -c "cd /root/vivi && make check STAGES='$stages'"
# the check's tally, for the log reader
grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1
cp "$r/root/vivi/build/check.log" "$d/check.log" 2>/dev/null
[ "${FRESH_KEEP:-0}" = 1 ] || rm -rf "$r"
