#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages a make target needs, only those that are
# missing.
#
#   tests/deps.sh [SET...]
#
# SET: run (make run: build vivi.ko, boot the VM, capture, check the bars),
# deb (make deb: build the vivi-dkms package and lint it), bench (make
# bench: v4l2-tpg's source, libjpeg-turbo and libswscale to compare with,
# a photograph to encode, and v4l2loopback-dkms, fetched, for make bench-vm)
# or check (make check: run's and everything the whole suite adds, and
# bench's; the default). check also installs the second kernel
# (install_kernel2).
set -euo pipefail
# make run: the build (compiler, headers), vm.sh (qemu, busybox-static,
# cpio and the compressors of the initramfs and of the kernel's modules,
# kmod), the guest's capture (v4l2-ctl, ffmpeg) and bars.py (python3-pil)
run_pkgs=(
	build-essential cpio gzip xz-utils zstd kmod
	linux-image-amd64 linux-headers-amd64
	qemu-system-x86 busybox-static
	v4l-utils ffmpeg python3 python3-pil
)
# make deb: dpkg-buildpackage with debhelper and dh_dkms, then lintian
deb_pkgs=(build-essential debhelper dh-dkms lintian)
# make bench: the pure code next to the kernel's v4l2-tpg (linux-source),
# libjpeg-turbo and libswscale (found through pkg-config); the MJPEG table's
# photograph is scikit-image's sample motorcycle_left.png, read by
# python3-pil: python3-skimage (photo_pkgs) is about 400 MB with scipy and
# matplotlib, for one picture, so the check set, which takes bench's
# packages for its build of the benchmarks, leaves it out
bench_pkgs=(build-essential pkg-config linux-source libturbojpeg0-dev
	libswscale-dev python3-pil)
photo_pkgs=(python3-skimage)
# make bench-vm's peer of the producer node: Debian's v4l2loopback-dkms,
# fetched into $BUILD/debs (apt-get download) and not installed:
# installing it builds it with DKMS for every kernel with headers, and its
# postinst fails where it does not build (0.12.7 against 6.12), leaving
# dpkg half-configured. tests/bench/bench-vm.sh builds it for the VM's
# kernel into $BUILD, or says why not and skips it.
fetch_pkgs=(v4l2loopback-dkms)
# make check adds: sparse (strict build), the clients (GStreamer, OpenCV,
# Chromium, Firefox, PipeWire, the camera portal for
# tests/guest/firefox-portrait.sh), DKMS, checkpatch (linux-source), the
# suite roots (debootstrap), the unit tests' libjpeg and node
check_pkgs=(
	"${run_pkgs[@]}" sparse
	gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
	dkms linux-source pahole gnuplot-nox
	python3-opencv chromium firefox-esr strace debootstrap
	pipewire pipewire-bin wireplumber gstreamer1.0-pipewire dbus
	xdg-desktop-portal libglib2.0-bin
	libjpeg62-turbo-dev libjpeg-turbo-progs libturbojpeg0-dev nodejs
	"${bench_pkgs[@]}"
)
# The second kernel the suite builds for and boots: the newest of this series
# in Debian bookworm-backports (see install_kernel2)
K2_SERIES=6.12
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || set -- check
pkgs=() kernel2=0 fetch=0
for set in "$@"; do
	case "$set" in
	run) pkgs+=("${run_pkgs[@]}") ;;
	deb) pkgs+=("${deb_pkgs[@]}") ;;
	bench) pkgs+=("${bench_pkgs[@]}" "${photo_pkgs[@]}") fetch=1 ;;
	check) pkgs+=("${check_pkgs[@]}") kernel2=1 fetch=1 ;;
	*) echo "deps: no package set '$set' (run, deb, bench, check)" >&2; exit 2 ;;
	esac
done
missing=()
for p in "${pkgs[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		grep -q 'install ok installed'; then
		missing+=("$p")
	fi
done
export DEBIAN_FRONTEND=noninteractive

# make check boots the newest kernel in a root of its own suite, made by
# tests/kernels/root.sh with debootstrap: minutes of downloading and
# unpacking on a machine that has none yet. Started here, in the
# background, it overlaps the install below and the host steps; root.sh's
# lock makes the check's own call wait for it. Only for the check set, as
# root, and only while there is no root.
root_wanted() {
	[ "$kernel2" = 1 ] && [ "$(id -u)" -eq 0 ] &&
		[ ! -x "${VIVI_ROOTS:-/var/cache/vivi/roots}/sid/usr/bin/gcc" ]
}
prefetch_root() {
	local log=${BUILD:-$PWD/build}/root-prefetch.log
	mkdir -p "${log%/*}" || return 0
	echo "deps: making the newest kernel's root in the background (log $log)"
	setsid tests/kernels/root.sh sid experimental >"$log" 2>&1 </dev/null &
}
prefetched=0
if root_wanted && command -v debootstrap >/dev/null; then
	prefetch_root
	prefetched=1
fi

if [ ${#missing[@]} -gt 0 ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "deps: missing packages: ${missing[*]}" >&2
		echo "deps: run as root, or: sudo apt-get install ${missing[*]}" >&2
		exit 1
	fi
	echo "deps: installing ${missing[*]}"
	apt-get update -q >/dev/null
	if [ "$prefetched" = 0 ] && root_wanted &&
		apt-get install -y -q --no-install-recommends debootstrap >/dev/null; then
		prefetch_root
	fi
	apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi

# The backports kernel (image, headers, kbuild) through a private apt source
# list, state and cache under build/, so the machine's own sources stay as
# they are; then dpkg -i. Its dependencies (kmod, linux-base, initramfs-tools,
# gcc-12, pahole) come from bookworm.
install_kernel2() {
	local dir=${BUILD:-$PWD/build}/backports apt abi kbuild mirror
	tests/kver.sh "$K2_SERIES" >/dev/null && return 0
	if [ "$(id -u)" -ne 0 ]; then
		echo "deps: no $K2_SERIES kernel; run as root to install it" >&2
		exit 1
	fi
	mkdir -p "$dir/lists/partial" "$dir/parts" "$dir/cache" "$dir/debs"
	# the machine's own mirror (tests/apt-mirror.sh), never one written here
	mirror=$(tests/apt-mirror.sh) || exit 1
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]" \
		"$mirror bookworm-backports main" > "$dir/sources.list"
	apt=(-o "Dir::Etc::sourcelist=$dir/sources.list"
		-o "Dir::Etc::sourceparts=$dir/parts"
		-o "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir/cache"
		-o APT::Sandbox::User=root)
	apt-get "${apt[@]}" -q update >/dev/null
	# the newest ABI, e.g. 6.12.95+deb12-amd64
	abi=$(apt-cache "${apt[@]}" pkgnames "linux-headers-$K2_SERIES." |
		sed -n "s/^linux-headers-\(${K2_SERIES//./\\.}\.[0-9]*+[^-]*-amd64\)$/\1/p" |
		sort -V | tail -n 1)
	[ -n "$abi" ] || { echo "deps: no $K2_SERIES kernel in backports" >&2; exit 1; }
	kbuild=$(apt-cache "${apt[@]}" show "linux-headers-$abi" |
		grep -o 'linux-kbuild-[^ ,]*' | head -n 1)
	echo "deps: installing Linux $abi from bookworm-backports"
	rm -f "$dir"/debs/*.deb
	(cd "$dir/debs" && apt-get "${apt[@]}" -q download "linux-image-$abi" \
		"linux-headers-$abi" "linux-headers-${abi%-amd64}-common" \
		"$kbuild" >/dev/null) || exit 1
	# the image pre-depends on linux-base >= 4.12 (bookworm's point releases)
	apt-get install -y -q --no-install-recommends linux-base \
		initramfs-tools >/dev/null
	dpkg -i "$dir"/debs/*.deb >/dev/null || exit 1
	tests/kver.sh "$K2_SERIES" >/dev/null
}
[ "$kernel2" = 0 ] || install_kernel2

# fetch_missing PKG...: each PKG's .deb into $BUILD/debs unless one is
# there; a failure only warns (the bench skips what it lacks)
fetch_missing() {
	local dir=${BUILD:-$PWD/build}/debs p
	mkdir -p "$dir"
	for p in "$@"; do
		compgen -G "$dir/${p}_*.deb" >/dev/null && continue
		echo "deps: fetching $p into $dir"
		(cd "$dir" && apt-get -q -o APT::Sandbox::User=root download "$p" \
			>/dev/null 2>&1) || echo "deps: could not fetch $p" >&2
	done
}
[ "$fetch" = 0 ] || fetch_missing "${fetch_pkgs[@]}"
