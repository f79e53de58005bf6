#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Host test of dkms.conf with Debian's dkms: make dkms-add, dkms build and
# install for KVER, status, remove. All DKMS state lives under $BUILD/dkms
# (--dkmstree, --sourcetree, --installtree, a throw-away signing key) and is
# removed afterwards; install runs with --no-depmod, so the machine's
# /lib/modules is never touched. Then docs/install.md's Secure Boot signing
# commands (a MOK made with openssl, the kernel's sign-file) on a copy of
# vivi.ko. Prints PASS:/FAIL: lines.
set -uo pipefail
cd "$(dirname "$0")/.."
: "${KVER:?KVER not set (run through make)}" "${BUILD:?}"
t=$BUILD/dkms
log=$BUILD/dkms.log
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
arch=$(uname -m)
rm -rf "$t" && mkdir -p "$t/tree" "$t/src" "$t/root/lib/modules/$KVER"
: > "$log"
# dkms signs what it builds when sign-file is there: with a key of its own
export mok_signing_key=$t/mok.key mok_certificate=$t/mok.der
dkms=(dkms --dkmstree "$t/tree" --sourcetree "$t/src"
	--installtree "$t/root/lib/modules")

pass() { echo "PASS: dkms: $1"; }
fail() { echo "FAIL: dkms: $1: $2"; }
# run NAME CMD...: PASS if CMD succeeds, else FAIL with the log's tail
run() {
	local name=$1
	shift
	echo "+ $*" >>"$log"
	if "$@" >>"$log" 2>&1; then
		pass "$name"
	else
		fail "$name" "$(tail -n 3 "$log" | tr '\n' ' ')"
		return 1
	fi
}

if ! command -v dkms >/dev/null; then
	fail "dkms installed" "no dkms (apt-get install dkms)"
	exit 1
fi
modver=$(sed -n 's/^MODULE_VERSION("\(.*\)");/\1/p' vivi_main.c)
if [ -n "$ver" ] && [ "$ver" = "$modver" ]; then
	pass "dkms.conf PACKAGE_VERSION $ver = MODULE_VERSION"
else
	fail "dkms.conf PACKAGE_VERSION" "'$ver' but MODULE_VERSION '$modver'"
fi
# the package (make deb) carries the same version
debver=$(dpkg-parsechangelog -l debian/changelog -S Version 2>/dev/null)
if [ "$debver" = "$modver" ]; then
	pass "debian/changelog version $debver = MODULE_VERSION"
else
	fail "debian/changelog version" "'$debver' but MODULE_VERSION '$modver'"
fi

run "make dkms-add" make -s dkms-add DKMS="${dkms[*]}" DKMS_SRC="$t/src" ||
	exit 1
run "build for $KVER" "${dkms[@]}" build -m vivi -v "$ver" -k "$KVER"
ko=$t/tree/vivi/$ver/$KVER/$arch/module/vivi.ko
vm=$(modinfo -F vermagic "$ko" 2>/dev/null)
if [ "${vm%% *}" = "$KVER" ]; then
	pass "built module has vermagic $KVER"
else
	fail "built module has vermagic $KVER" "'$vm' ($ko)"
fi
if [ -s "$t/mok.der" ]; then
	if modinfo -F signer "$ko" 2>/dev/null | grep -q .; then
		pass "built module is signed with the MOK key"
	else
		fail "built module is signed with the MOK key" "no signature"
	fi
fi
run "install (--no-depmod)" "${dkms[@]}" install --no-depmod -m vivi \
	-v "$ver" -k "$KVER"
inst=$t/root/lib/modules/$KVER/updates/dkms/vivi.ko
if cmp -s "$ko" "$inst"; then
	pass "installed to updates/dkms"
else
	fail "installed to updates/dkms" "no $inst"
fi
st=$("${dkms[@]}" status -m vivi 2>&1)
if grep -q "^vivi/$ver, $KVER, $arch: installed" <<<"$st"; then
	pass "status says installed"
else
	fail "status says installed" "$st"
fi
run "remove" "${dkms[@]}" remove -m vivi -v "$ver" --all --no-depmod
if [ -e "$inst" ]; then
	fail "remove uninstalls" "$inst is still there"
else
	pass "remove uninstalls"
fi

# Secure Boot: docs/install.md's commands, on a copy of the module
mkdir -p "$t/sign"
if [ ! -f vivi.ko ]; then
	fail "sign: vivi.ko with a MOK" "no vivi.ko"
elif ! openssl req -new -x509 -newkey rsa:2048 -nodes -days 36500 -sha256 \
	-subj "/CN=vivi module signing key/" -outform DER \
	-keyout "$t/sign/MOK.priv" -out "$t/sign/MOK.der" >>"$log" 2>&1; then
	fail "sign: make a MOK with openssl" "$(tail -n 2 "$log" | tr '\n' ' ')"
else
	cp vivi.ko "$t/sign/vivi.ko"
	run "sign: sign-file sha256 MOK.priv MOK.der vivi.ko" \
		"/lib/modules/$KVER/build/scripts/sign-file" sha256 \
		"$t/sign/MOK.priv" "$t/sign/MOK.der" "$t/sign/vivi.ko"
	signer=$(modinfo -F signer "$t/sign/vivi.ko" 2>&1)
	if [ "$signer" = "vivi module signing key" ] &&
		tail -c 28 "$t/sign/vivi.ko" | grep -q 'Module signature appended'; then
		pass "sign: modinfo names the MOK as signer"
	else
		fail "sign: modinfo names the MOK as signer" "signer '$signer'"
	fi
fi
rm -rf "$t"
