#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build (or reuse) the Debian root of a suite that a kernel of the matrix is
# built in and booted with, and install that suite's newest kernel into it.
#
#   tests/kernels/root.sh SUITE [KSUITE]
#
# SUITE is bullseye, trixie or sid; KSUITE (default SUITE) the suite the
# kernel comes from (experimental: sid's root plus experimental's kernel).
# The root is $VIVI_ROOTS/SUITE (default /var/cache/vivi/roots), kept
# between runs: debootstrap --variant=minbase, then the suite's compiler,
# sparse, kbuild, kmod, v4l-utils and Python. Each run refreshes the package
# lists and installs the kernel the suite's linux-headers-amd64 points to.
#
# Prints the kernel release (e.g. 7.2.13+deb14-amd64) on stdout; any failure
# is one "FAIL: kernels: ..." line on stdout and status 1. Needs root.
set -uo pipefail
suite=${1:?usage: root.sh SUITE [KSUITE]}
ksuite=${2:-$suite}
roots=${VIVI_ROOTS:-/var/cache/vivi/roots}
# the machine's own Debian mirror, never one written in the repository
mirror=$("$(dirname "$0")/../apt-mirror.sh") || {
	echo "FAIL: kernels: ${2:-$1}: no Debian mirror in this machine's apt sources"
	exit 1
}
root=$roots/$suite
log=$roots/$suite.log
# the root's packages: what the strict build, the guest stage
# (tests/guest/check-kernel.sh) and pattern.py need; xz and zstd compress
# vivi.ko on make install as the kernel's own modules are
pkgs=(gcc make kmod sparse libc6-dev bc xz-utils zstd v4l-utils python3
	python3-pil)

fail() {
	echo "FAIL: kernels: $ksuite: $*"
	exit 1
}

# in_root CMD...: run CMD in the root, apt non-interactive, output to the log
in_root() {
	chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		DEBIAN_FRONTEND=noninteractive LANG=C "$@" >>"$log" 2>&1
}

# A new root goes to SUITE.new and is renamed when complete, so that a root
# that failed half-way is built again next time.
bootstrap() {
	local new=$root.new
	rm -rf "$new"
	echo "kernels: $suite: debootstrap --variant=minbase (log $log)" >&2
	if ! debootstrap --variant=minbase --include="$(IFS=,; echo "${pkgs[*]}")" \
		"$suite" "$new" "$mirror" >>"$log" 2>&1; then
		rm -rf "$new"
		fail "debootstrap of $suite failed: $(tail -n 1 "$log")"
	fi
	# no daemons started by package scripts in the root
	printf '#!/bin/sh\nexit 101\n' >"$new/usr/sbin/policy-rc.d"
	chmod 755 "$new/usr/sbin/policy-rc.d"
	mv "$new" "$root"
}

# the kernel release linux-headers-amd64 of KSUITE depends on
newest_abi() {
	local ver
	ver=$(chroot "$root" apt-cache madison linux-headers-amd64 2>>"$log" |
		awk -F' *[|] *' -v s=" $ksuite/main " '$3 ~ s { print $2 }' |
		sort -V | tail -n 1)
	[ -n "$ver" ] || return 1
	chroot "$root" apt-cache show "linux-headers-amd64=$ver" 2>>"$log" |
		sed -n 's/^Depends: .*linux-headers-\([^ ,]*-amd64\).*/\1/p' | head -n 1
}

mkdir -p "$roots" || fail "cannot create $roots"
exec {lock}>"$roots/.$suite.lock"
flock "$lock"
: >"$log"
[ -x "$root/usr/bin/gcc" ] || bootstrap
# no recommends; and a suite's Release file may be past its Valid-Until
# (sid's is renewed daily) where the archive is a snapshot
printf '%s\n' 'APT::Install-Recommends "false";' 'Acquire::Check-Valid-Until "false";' \
	>"$root/etc/apt/apt.conf.d/90vivi"
if [ "$ksuite" != "$suite" ]; then
	echo "deb $mirror $ksuite main" >"$root/etc/apt/sources.list.d/$ksuite.list"
fi
in_root apt-get -q update || fail "apt-get update in the $suite root failed: $(tail -n 1 "$log")"
# a root of an older version of this script may lack some
in_root apt-get -q -y install "${pkgs[@]}" ||
	fail "apt-get install in the $suite root failed: $(tail -n 1 "$log")"
abi=$(newest_abi) || abi=
[ -n "$abi" ] || fail "no linux-headers-amd64 in $ksuite"
# (the build link is absolute: look at it from inside the root)
if [ ! -e "$root/boot/vmlinuz-$abi" ] || ! in_root test -d "/lib/modules/$abi/build"; then
	echo "kernels: $ksuite: installing Linux $abi into the $suite root" >&2
	# the image only as files (no initramfs: the VM brings its own), with
	# the packages of the same release it depends on where it is split up
	# (linux-binary-, linux-modules-); the headers through apt, which also
	# brings the compiler they were made with
	debs=("linux-image-$abi" $(chroot "$root" apt-cache depends "linux-image-$abi" 2>>"$log" |
		sed -n "s/^ *Depends: \(linux-[a-z]*-$abi\)\$/\1/p"))
	rm -f "$root"/tmp/*.deb
	in_root sh -c "cd /tmp && apt-get -q download ${debs[*]}" ||
		fail "cannot download ${debs[*]} from $ksuite"
	for deb in "$root"/tmp/*.deb; do
		# keeping the root's /lib -> usr/lib symlink (merged /usr)
		dpkg-deb --fsys-tarfile "$deb" |
			tar -x --keep-directory-symlink -C "$root" ||
			fail "cannot unpack ${deb##*/}"
	done
	rm -f "$root"/tmp/*.deb
	in_root apt-get -q -y install ${ksuite:+-t "$ksuite"} "linux-headers-$abi" ||
		fail "apt-get install linux-headers-$abi failed: $(tail -n 1 "$log")"
	in_root depmod "$abi" || fail "depmod $abi in the $suite root failed"
	in_root apt-get -q clean
	# newer kernels keep the image in the modules directory only; /boot
	# comes last, so that a kernel whose install was cut short is redone
	if [ ! -e "$root/boot/vmlinuz-$abi" ] && [ -e "$root/usr/lib/modules/$abi/vmlinuz" ]; then
		ln -s "../usr/lib/modules/$abi/vmlinuz" "$root/boot/vmlinuz-$abi"
	fi
fi
in_root test -d "/lib/modules/$abi/build" || fail "Linux $abi has no headers in the $suite root"
[ -e "$root/boot/vmlinuz-$abi" ] || fail "Linux $abi has no image in the $suite root"
echo "$abi"
