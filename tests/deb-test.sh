#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check-deb: the vivi-dkms package as a user installs it, in each
# suite's root (tests/kernels/root.sh, with the suite's newest kernel) and
# VM. The root is used through an overlay under BUILD/deb-test/SUITE, so the
# cached root stays as it was. Per suite:
#   apt install ./vivi-dkms_VERSION_all.deb: DKMS builds and installs vivi
#   for the root's kernel; booting that kernel (vm.sh -r), modprobe vivi
#   finds that build, signed with DKMS's key where the suite's dkms signs,
#   and a node streams 30 frames of bars (tests/guest/deb.sh);
#   a second, newer kernel (backports, or experimental for sid) installed
#   afterwards gets its build by DKMS, and boots and streams the same way;
#   apt remove takes vivi out of both kernels' trees, the purge leaves no
#   file behind (file lists before the install and after the purge).
# Before the suites: make deb, lintian, and make sign with a throw-away key
# whose signed vivi.ko loads in this machine's VM (KVER).
#
#   tests/deb-test.sh [SUITE...]   (default: bookworm)
#
# Prints PASS:/FAIL: lines and each part's wall time; needs root.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
: "${KVER:?KVER not set (run through make)}" "${BUILD:?}"
roots=${VIVI_ROOTS:-/var/cache/vivi/roots}
out=$BUILD/deb-test
ver=$(sed -n 's/^MODULE_VERSION("\(.*\)");/\1/p' vivi_main.c)
deb=vivi-dkms_${ver}_all.deb
[ $# -gt 0 ] || set -- bookworm
mkdir -p "$out"

pass() { echo "PASS: deb: $1"; }
fail() { echo "FAIL: deb: $1: $2"; }
took() { echo "deb: $1 took $(($(date +%s) - $2)) s"; }

# in_root ROOT CMD...: CMD in the chroot ROOT with /proc (DKMS's build
# reads it), in a mount namespace that goes away with CMD
in_root() {
	local r=$1
	shift
	unshare -m --propagation private sh -c \
		'mount -t proc proc "$0/proc" && exec chroot "$0" "$@"' "$r" \
		/usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C \
		DEBIAN_FRONTEND=noninteractive "$@"
}

# files ROOT: every path in ROOT but the pseudo and scratch file systems
# and apt's caches, one a line, sorted
files() {
	(cd "$1" && find . -xdev \( -path ./proc -o -path ./sys -o -path ./dev \
		-o -path ./tmp -o -path ./run -o -path ./var/cache/apt \
		-o -path ./var/lib/apt/lists \) -prune -o -print) |
		sed 's/^\.//' | LC_ALL=C sort
}

# the suite a second, newer kernel of SUITE comes from
kernel2_suite() {
	case "$1" in
	sid) echo experimental ;;
	*) echo "$1-backports" ;;
	esac
}

# the package and lintian: no error; its warnings are printed
build_deb() {
	local t0 tags
	t0=$(date +%s)
	if make -s deb >"$out/deb.log" 2>&1 && [ -s "$BUILD/$deb" ]; then
		pass "make deb gives $deb"
	else
		fail "make deb" "$(tail -n 3 "$out/deb.log" | tr '\n' ' ')"
		return 1
	fi
	tags=$(lintian --pedantic "$BUILD/$deb" 2>/dev/null)
	if grep -q '^E: ' <<<"$tags"; then
		fail "lintian: no error" "$(grep '^E: ' <<<"$tags" | tr '\n' ' ')"
	else
		pass "lintian: no error ($(grep -c '^[WIP]: ' <<<"$tags") other tags)"
	fi
	[ -z "$tags" ] || sed 's/^/    lintian: /' <<<"$tags"
	took "make deb and lintian" "$t0"
}

# make sign with a throw-away key and certificate: modinfo names the
# signer, and the signed vivi.ko loads and streams in this machine's VM
sign_test() {
	local t0 d=$out/sign cn="vivi deb-test throw-away key"
	t0=$(date +%s)
	rm -rf "$d" && mkdir -p "$d"
	if ! openssl req -new -x509 -newkey rsa:2048 -nodes -days 1 -sha256 \
		-subj "/CN=$cn/" -outform DER -keyout "$d/key.priv" \
		-out "$d/cert.der" >"$d/sign.log" 2>&1; then
		fail "sign: a key with openssl" "$(tail -n 1 "$d/sign.log")"
		return
	fi
	# a fresh build, so that a signature of an earlier run is not counted
	rm -f vivi.ko
	if make -s sign SIGN_KEY="$d/key.priv" SIGN_CERT="$d/cert.der" \
		>>"$d/sign.log" 2>&1; then
		pass "sign: make sign SIGN_KEY SIGN_CERT"
	else
		fail "sign: make sign" "$(tail -n 2 "$d/sign.log" | tr '\n' ' ')"
		return
	fi
	VIVI_OUT="$d/vm" VIVI_KO="$PWD/vivi.ko" VIVI_SIGNER="$cn" VIVI_BUILD="$BUILD" \
		tests/vm/vm.sh -k "$KVER" -m 1G -t 900 "$d/vm" tests/guest/deb.sh
	took "make sign and its VM" "$t0"
}

# kernel2 ROOT SUITE BASE: install SUITE's kernel and headers into ROOT as
# a user does (apt, the metapackages, with /proc: the kernel's and the
# headers' hooks run dkms autoinstall); prints the new kernel's release.
# Where the mirror no longer carries SUITE (bullseye-backports went to the
# archive), BASE's realtime flavour is the kernel installed later: another
# release, with V4L2 and 9p, that DKMS must build for all the same (the
# cloud flavour has neither). Says on stderr "from: ...".
kernel2() {
	local r=$1 ks=$2 base=$3 mirror before pkgs
	mirror=$(tests/apt-mirror.sh) || return 1
	echo "deb $mirror $ks main" >"$r/etc/apt/sources.list.d/$ks.list"
	before=$(ls "$r"/boot/vmlinuz-* 2>/dev/null)
	pkgs=(-t "$ks" linux-image-amd64 linux-headers-amd64)
	if in_root "$r" apt-get -q update >&2; then
		echo "from: $ks" >&2
	else
		rm "$r/etc/apt/sources.list.d/$ks.list"
		in_root "$r" apt-get -q update >&2 || return 1
		pkgs=(linux-image-rt-amd64 linux-headers-rt-amd64)
		echo "from: $base's realtime flavour ($ks is not on the mirror)" >&2
	fi
	in_root "$r" apt-get install -y -q "${pkgs[@]}" >&2 || return 1
	ls "$r"/boot/vmlinuz-* | grep -v -x -F "$before" |
		sed "s#^$r/boot/vmlinuz-##" | sort -V | tail -n 1
}

# boot ROOT KVER NAME SIGNER: tests/guest/deb.sh in ROOT's VM with KVER
boot() {
	VIVI_OUT="$3" VIVI_SIGNER="$4" VIVI_BUILD="$BUILD" \
		tests/vm/vm.sh -r "$1" -k "$2" -m 1G -t 900 "$3" \
		"$PWD/tests/guest/deb.sh"
}

# install_deb ROOT: apt install ./the package (copied to ROOT's /tmp), with
# its recommends, as apt installs by default (the root's apt is told not
# to): openssl, without which dkms cannot make its key
install_deb() {
	in_root "$1" sh -c "cd /tmp && apt-get install -y -q \
		-o APT::Install-Recommends=true ./$deb"
}

# dkms_has ROOT KVER: DKMS says vivi is installed for KVER
dkms_has() {
	in_root "$1" dkms status -m vivi -v "$ver" -k "$2" 2>/dev/null |
		grep -q ': installed'
}

# leftovers D: the paths new since the install (files-0) that are still
# there after the purge (files-2) and that nothing explains: a package
# that is still installed (dkms and its dependencies, the second kernel's
# headers), the second kernel's unpacked image and modules (files-k2),
# apt's and dpkg's state and logs, DKMS's own signing key (kept for every
# module it builds), or what the maintainer scripts of packages that stay
# installed made: links (update-alternatives, update-rc.d, systemd's
# enablement), deb-systemd-helper's state (fakeroot, sudo, gnupg: dkms's
# recommends and theirs), update-ca-certificates' bundle and config, and
# the byte code py3compile writes for them (lsb-release's, on bullseye).
# Anything named vivi is never explained (vivid,
# the kernel's own driver, is not vivi).
leftovers() {
	local d=$1 r=$1/root
	cat "$r"/var/lib/dpkg/info/*.list |
		sed -E 's#^/(bin|sbin|lib|lib32|lib64|libx32)(/|$)#/usr/\1\2#' |
		LC_ALL=C sort -u >"$d/owned"
	LC_ALL=C comm -13 "$d/files-0" "$d/files-2" |
		LC_ALL=C comm -23 - "$d/owned" |
		LC_ALL=C comm -23 - "$d/files-k2" |
		grep -v -E '^/var/(lib/dpkg|lib/apt|log|cache)(/|$)|^/var/lib/dkms/mok\.(key|pub)$' |
		grep -v -E '^/var/lib/dkms$|^/var/lib/systemd/' |
		grep -v -E '^/etc/ssl/certs(/|$)|^/etc/ca-certificates\.conf$|^/usr/local/share/ca-certificates$' |
		grep -v -E '^/usr/lib/python3[^/]*/dist-packages/__pycache__(/|$)' |
		while read -r f; do
			[ -L "$r$f" ] && continue
			[ -d "$r$f" ] && [[ $f = /etc/systemd/* ]] && continue
			echo "$f"
		done >"$d/left"
	grep -E 'vivi([^d]|$)' "$d/files-2" | LC_ALL=C comm -23 - "$d/files-0" >>"$d/left"
	LC_ALL=C sort -u -o "$d/left" "$d/left"
}

# suite SUITE: the package's life in SUITE's root
suite() {
	local s=$1 t0 t1 d=$out/$1 r k1 k2 ks2 signer f n
	t0=$(date +%s)
	if ! k1=$(tests/kernels/root.sh "$s"); then
		echo "$k1"
		return
	fi
	# the overlay: the cached root below, this run's changes in upper/
	umount "$d/root" 2>/dev/null
	rm -rf "$d" && mkdir -p "$d/upper" "$d/work" "$d/root" || return
	r=$d/root
	if ! mount -t overlay overlay \
		-o "lowerdir=$roots/$s,upperdir=$d/upper,workdir=$d/work" "$r"; then
		fail "$s: overlay over $roots/$s" "mount failed"
		return
	fi
	# the VM's mount points (vm.sh -r), made now so that no list has them
	mkdir -p "$r$PWD" "$r$d/vm-k1" "$r$d/vm-k2"
	files "$r" >"$d/files-0"

	# install
	t1=$(date +%s)
	cp "$BUILD/$deb" "$r/tmp/"
	if install_deb "$r" >"$d/install.log" 2>&1; then
		pass "$s: apt install ./$deb"
	else
		fail "$s: apt install ./$deb" "$(tail -n 3 "$d/install.log" | tr '\n' ' ')"
	fi
	took "$s: apt install" "$t1"
	in_root "$r" dpkg -L vivi-dkms >"$d/pkg-files" 2>&1
	if dkms_has "$r" "$k1"; then
		pass "$s: dkms status: installed for $k1"
	else
		fail "$s: dkms status: installed for $k1" \
			"$(in_root "$r" dkms status 2>&1 | tr '\n' ' ')"
	fi
	if [ -e "$r/usr/share/doc/vivi-dkms/vivi.conf.example" ] &&
		! ls "$r"/etc/modprobe.d/ 2>/dev/null | grep -q vivi; then
		pass "$s: vivi.conf.example as documentation, no modprobe.d file"
	else
		fail "$s: vivi.conf.example as documentation" "$(ls "$r"/etc/modprobe.d)"
	fi
	# a dkms that signs (3.x: prepare_signing) made its key at the first
	# build and signed with it
	signer=
	if grep -q '^prepare_signing()' "$r/usr/sbin/dkms"; then
		signer="DKMS module signing key"
		if [ -s "$r/var/lib/dkms/mok.pub" ]; then
			pass "$s: dkms made its signing key /var/lib/dkms/mok.pub"
		else
			fail "$s: dkms made its signing key" "no /var/lib/dkms/mok.pub"
		fi
	fi
	t1=$(date +%s)
	boot "$r" "$k1" "$d/vm-k1" "$signer"
	took "$s: VM of $k1" "$t1"

	# a second kernel, installed after the package. The cached root may
	# hold kernels that check-kernels unpacked without their package; the
	# /boot link it made for one would fail the package's boot hook when
	# apt installs that kernel for real, so it goes (in the overlay only)
	for f in "$r"/boot/vmlinuz-*; do
		[ -L "$f" ] && [ "${f##*/vmlinuz-}" != "$k1" ] &&
			! in_root "$r" dpkg -s "linux-image-${f##*/vmlinuz-}" >/dev/null 2>&1 &&
			rm -f "$f"
	done
	ks2=$(kernel2_suite "$s")
	t1=$(date +%s)
	files "$r" >"$d/files-k2a"
	k2=$(kernel2 "$r" "$ks2" "$s" 2>"$d/kernel2.log")
	if [ -z "$k2" ]; then
		fail "$s: a second kernel from $ks2" "$(tail -n 2 "$d/kernel2.log" | tr '\n' ' ')"
	else
		pass "$s: apt install of a second kernel, $(sed -n 's/^from: //p' "$d/kernel2.log") ($k2)"
	fi
	files "$r" >"$d/files-k2b"
	# the second kernel's files, but none of vivi's
	LC_ALL=C comm -13 "$d/files-k2a" "$d/files-k2b" |
		grep -v -E -e 'vivi([^d]|$)' -e '^/var/lib/dkms' >"$d/files-k2"
	took "$s: second kernel ($ks2)" "$t1"
	if [ -n "$k2" ]; then
		if dkms_has "$r" "$k2"; then
			pass "$s: DKMS built vivi for the kernel installed later ($k2)"
		else
			fail "$s: DKMS built vivi for the kernel installed later ($k2)" \
				"$(in_root "$r" dkms status 2>&1 | tr '\n' ' ')"
		fi
		t1=$(date +%s)
		boot "$r" "$k2" "$d/vm-k2" "$signer"
		took "$s: VM of $k2" "$t1"
	fi

	# remove, then purge: dpkg's, since apt knows no vivi-dkms to purge
	# once a package installed from a file is removed; then once more
	# installed and purged by apt in one step
	if in_root "$r" apt-get remove -y -q vivi-dkms >"$d/remove.log" 2>&1; then
		pass "$s: apt remove vivi-dkms"
	else
		fail "$s: apt remove vivi-dkms" "$(tail -n 3 "$d/remove.log" | tr '\n' ' ')"
	fi
	f=$(find "$r/usr/lib/modules" -name 'vivi.ko*' 2>/dev/null | sed "s#^$r##")
	if [ -z "$f" ]; then
		pass "$s: apt remove takes vivi out of every kernel's tree"
	else
		fail "$s: apt remove takes vivi out of every kernel's tree" "$f"
	fi
	if in_root "$r" dpkg --purge vivi-dkms >"$d/purge.log" 2>&1; then
		pass "$s: dpkg --purge vivi-dkms"
	else
		fail "$s: dpkg --purge vivi-dkms" "$(tail -n 3 "$d/purge.log" | tr '\n' ' ')"
	fi
	no_leftovers "$s: purge leaves no file behind" "$d"
	# docs/install.md's way: apt purge straight from installed
	if install_deb "$r" >"$d/install2.log" 2>&1 &&
		dkms_has "$r" "$k1" &&
		in_root "$r" apt-get purge -y -q vivi-dkms >"$d/purge2.log" 2>&1; then
		pass "$s: apt install again (DKMS builds for $k1), then apt purge vivi-dkms"
	else
		fail "$s: apt install again, then apt purge vivi-dkms" \
			"$(tail -n 3 "$d/install2.log" "$d/purge2.log" 2>&1 | tr '\n' ' ')"
	fi
	no_leftovers "$s: apt purge leaves no file behind" "$d"
	umount "$r"
	took "$s: the package's life" "$t0"
}

# no_leftovers NAME D: PASS if the root has no file the purge should have
# taken (leftovers)
no_leftovers() {
	local n
	files "$2/root" >"$2/files-2"
	leftovers "$2"
	n=$(grep -c . "$2/left")
	if [ "$n" -eq 0 ]; then
		pass "$1 ($(grep -c . "$2/pkg-files") paths of dpkg -L, DKMS's builds)"
	else
		fail "$1" "$n left ($2/left): $(head -n 5 "$2/left" | tr '\n' ' ')"
	fi
}

build_deb || exit 1
sign_test
for s in "$@"; do
	suite "$s"
done
