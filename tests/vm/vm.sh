#!/usr/bin/env bash
# vm.sh - run a command as root inside a throw-away qemu VM that boots the
# distribution kernel, so that the vivi module can be loaded and exercised
# (this machine's own kernel cannot load modules).
#
#   tests/vm/vm.sh [-m MEM] [-t TIMEOUT_S] [-k KVER] [-r ROOT] OUTDIR CMD [ARGS...]
#
# The guest sees the host's / read-only over 9p and OUTDIR writable at the
# same absolute path (with -r: the directory ROOT as /, e.g. another Debian
# suite's root, which also holds the kernel in ROOT/boot and ROOT/lib/modules,
# and the working directory shared read-only at its host path); CMD runs in the caller's working directory with stdin
# from /dev/null and its output on the serial console, which is streamed to
# our stdout. Afterwards the guest's kernel log (OUTDIR/dmesg.txt) is checked
# for BUGs, WARNINGs, slab corruption and the like, and exactly one result line
# is printed: "PASS: vm: kernel log clean" or "FAIL: vm: ...".
#
# Exit status: CMD's exit status when the guest finished and the log is
# clean; 1 when the kernel log is dirty; 124 when the guest did not finish
# (timeout, panic, boot failure); 2 for usage/setup errors; 130 when vm.sh
# itself was interrupted (the VM is stopped).
#
# Environment: VIVI_KVER (kernel version), VIVI_BUILD (build dir, default
# <repo>/build), VIVI_VM_ACCEL (kvm|tcg: skip the KVM probe); for experiments
# VIVI_VM_APPEND, VIVI_VM_QEMU_ARGS, VIVI_VM_DEBUGOPTS, VIVI_VM_PVH. Every
# VIVI_* variable is also exported to CMD in the guest. See tests/vm/README.md.

set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
SCRIPT="$SCRIPT_DIR/$(basename "${BASH_SOURCE[0]}")"
INIT_TEMPLATE="$SCRIPT_DIR/init"
REPO=$(cd "$SCRIPT_DIR/../.." && pwd -P)
BUILD=${VIVI_BUILD:-$REPO/build}
QEMU=qemu-system-x86_64
BUSYBOX=/bin/busybox

# Modules that make up the 9p-over-virtio-pci chain; their dependencies are
# resolved with modprobe --show-depends, one module per call.
NINEP_MODULES=(9p 9pnet_virtio virtio_pci)

# Kernel log lines that make a run fail (fixed strings, case-sensitive).
DMESG_PATTERNS=(
	'BUG:' 'WARNING:' 'Oops' 'Call Trace' 'list_add corruption'
	'list_del corruption' 'hung_task' 'blocked for more than' 'soft lockup'
	'general protection' 'KASAN' 'UBSAN' 'kernel BUG' 'Poison overwritten'
	'Redzone' 'Object padding' 'slab_out_of_bounds'
)

usage() {
	cat <<EOF
usage: $0 [-m MEM] [-t TIMEOUT_S] [-k KVER] [-r ROOT] OUTDIR CMD [ARGS...]
  -m MEM      guest memory (qemu syntax, default 2G)
  -t TIMEOUT  seconds before the VM is killed (default 1200)
  -k KVER     kernel version (default: \$VIVI_KVER, else the newest
              /boot/vmlinuz-* with a /lib/modules/<ver>/ directory)
  -r ROOT     boot with ROOT as the guest's / (kernel and modules from
              ROOT/boot and ROOT/lib/modules); the working directory is
              shared read-only at its host path
EOF
}

# Setup errors (before the VM runs) are reported as a FAIL result too, so a
# runner that counts result lines notices them.
die() {
	echo "FAIL: vm: $*"
	exit 2
}

# Quote a string for POSIX sh (single quotes; ' becomes '\'').
shq() {
	local s=${1//\'/\'\\\'\'}
	printf "'%s'" "$s"
}

now_ms() { date +%s%3N; }

# Host mtime of a file in milliseconds.
mtime_ms() {
	local t
	t=$(stat -c %.3Y "$1")
	echo "${t/./}"
}

# Milliseconds as "S.s".
fmt_s() { printf '%d.%d' "$(($1 / 1000))" "$((($1 % 1000) / 100))"; }

# Newest kernel version that has both /boot/vmlinuz-V and /lib/modules/V/.
pick_kernel() {
	local f v
	for f in "$ROOT"/boot/vmlinuz-*; do
		v=${f#"$ROOT"/boot/vmlinuz-}
		if [ -e "$f" ] && [ -d "$ROOT/lib/modules/$v" ]; then
			printf '%s\n' "$v"
		fi
	done | sort -V | tail -n 1
}

# True if ELF64 file $1 has a program interpreter (PT_INTERP), i.e. is
# dynamically linked. Reads the program headers with od: e_phoff at byte 32,
# e_phentsize at 54, e_phnum at 56, p_type first in each header.
elf_has_interp() {
	local phoff phentsize phnum i type
	read -r phoff < <(od -An -t u8 -j 32 -N 8 "$1")
	read -r phentsize phnum < <(od -An -t u2 -j 54 -N 4 "$1")
	for ((i = 0; i < phnum; i++)); do
		read -r type < <(od -An -t u4 -j $((phoff + i * phentsize)) -N 4 "$1")
		[ "$type" = 3 ] && return 0
	done
	return 1
}

# Print the module files (in load order, de-duplicated) of the 9p chain.
module_chain() {
	local m kw path
	local -A seen=()
	for m in "${NINEP_MODULES[@]}"; do
		# One module per call: extra names would be taken as parameters.
		while read -r kw path _; do
			[ "$kw" = insmod ] || continue # "builtin X": nothing to load
			[ -n "${seen[$path]:-}" ] && continue
			seen[$path]=1
			printf '%s\n' "$path"
		done < <(modprobe -d "$ROOT/" -S "$KVER" --show-depends "$m")
	done
}

# Build (or reuse) the initramfs for $KVER; sets INITRD.
build_initramfs() {
	local key stage f name tmp
	# Rebuild when the kernel, the modules, busybox, this script or the init
	# template change: all of them feed the name.
	key=$({
		echo "$KVER"
		stat -L -c '%n %s %Y' "$ROOT/boot/vmlinuz-$KVER" "$ROOT/lib/modules/$KVER/modules.dep" "$BUSYBOX"
		cat "$SCRIPT" "$INIT_TEMPLATE"
	} | sha256sum)
	INITRD="$BUILD/vm/initramfs-$KVER-${key:0:12}.cpio.gz"
	[ -s "$INITRD" ] && return 0

	# busybox must be the static one (package busybox-static).
	if elf_has_interp "$BUSYBOX"; then
		die "$BUSYBOX is dynamically linked; apt-get install busybox-static"
	fi
	stage=$(mktemp -d "$BUILD/vm/stage.XXXXXX")
	STAGE=$stage # removed by the EXIT trap if we die half-way
	mkdir -p "$stage"/{bin,dev,proc,sys,modules,newroot,out,hostroot}
	cp "$BUSYBOX" "$stage/bin/busybox"
	install -m 755 "$INIT_TEMPLATE" "$stage/init"
	# /dev/console lets the kernel give PID 1 a console before devtmpfs is
	# mounted (needs root; the init copes without it).
	mknod -m 600 "$stage/dev/console" c 5 1 2>/dev/null || true

	: > "$stage/modules/list"
	while read -r f; do
		name=$(basename "$f")
		case "$f" in
		*.ko.xz) name=${name%.xz}; xz -dc "$f" > "$stage/modules/$name" ;;
		*.ko.zst) name=${name%.zst}; zstd -qdc "$f" > "$stage/modules/$name" ;;
		*.ko.gz) name=${name%.gz}; gzip -dc "$f" > "$stage/modules/$name" ;;
		*) cp "$f" "$stage/modules/$name" ;;
		esac
		echo "$name" >> "$stage/modules/list"
	done < <(module_chain)
	[ -s "$stage/modules/list" ] || die "modprobe found no 9p modules for $KVER"

	tmp=$(mktemp "$BUILD/vm/initramfs.XXXXXX")
	(cd "$stage" && find . -print0 | LC_ALL=C sort -z |
		cpio --null -o -H newc -R 0:0 --quiet) | gzip -6n > "$tmp"
	# Drop initramfs images of older versions of this script, then publish.
	find "$BUILD/vm" -maxdepth 1 -name "initramfs-$KVER-*.cpio.gz" -delete
	mv -f "$tmp" "$INITRD"
	rm -rf "$stage"
	STAGE=
}

# The distribution's bzImage makes the guest spend ~5 s under TCG in the
# BIOS-style boot path and in decompressing itself. The kernel also supports
# PVH entry (CONFIG_PVH), which qemu uses for an uncompressed ELF vmlinux: so
# extract vmlinux from the bzImage once (cached per kernel) and boot that.
# Sets KERNEL_IMG; falls back to the bzImage if extraction does not work.
prepare_kernel() {
	local vmlinuz="$ROOT/boot/vmlinuz-$KVER" key out tmp off magic
	KERNEL_IMG=$vmlinuz
	[ "${VIVI_VM_PVH:-1}" = 1 ] || return 0
	key=$(stat -L -c '%s %Y' "$vmlinuz" | sha256sum)
	out="$BUILD/vm/vmlinux-$KVER-${key:0:12}"
	if [ ! -s "$out" ] && [ ! -e "$out.nopvh" ]; then
		tmp=$(mktemp "$BUILD/vm/vmlinux.XXXXXX")
		# First compressed stream in the image: xz, zstd or gzip. Trailing
		# data after the stream makes some decompressors complain: ignore
		# their status, check the result instead.
		for magic in '\xfd7zXZ\x00' '\x28\xb5\x2f\xfd' '\x1f\x8b\x08'; do
			off=$(LC_ALL=C grep -obUaP -m 1 "$magic" "$vmlinuz" | head -n 1 | cut -d: -f1) || true
			[ -n "$off" ] || continue
			case "$magic" in
			*7zXZ*) tail -c +$((off + 1)) "$vmlinuz" | xz -dc --single-stream > "$tmp" 2>/dev/null || true ;;
			*b5*) tail -c +$((off + 1)) "$vmlinuz" | zstd -qdc > "$tmp" 2>/dev/null || true ;;
			*) tail -c +$((off + 1)) "$vmlinuz" | gzip -dc > "$tmp" 2>/dev/null || true ;;
			esac
			has_pvh_note "$tmp" && break
			: > "$tmp"
		done
		if [ -s "$tmp" ]; then
			find "$BUILD/vm" -maxdepth 1 -name "vmlinux-$KVER-*" -delete
			mv -f "$tmp" "$out"
		else
			rm -f "$tmp"
			: > "$out.nopvh" # remember the failure, keep using the bzImage
		fi
	fi
	[ -s "$out" ] && KERNEL_IMG=$out
	return 0
}

# True if $1 is an ELF file with the PVH entry note (Xen ELF note type 18,
# XEN_ELFNOTE_PHYS32_ENTRY: namesz 4, descsz 4 or 8, type 18, "Xen\0").
has_pvh_note() {
	[ -s "$1" ] || return 1
	[ "$(head -c 4 "$1" | od -An -c | tr -d ' ')" = '177ELF' ] || return 1
	LC_ALL=C grep -qUaP '\x04\x00\x00\x00[\x04\x08]\x00\x00\x00\x12\x00\x00\x00Xen\x00' "$1"
}

# Decide between KVM and TCG; sets ACCEL_ARGS and ACCEL. Probing KVM means a
# short boot that must print the init's probe marker within a few seconds; the
# answer is cached in the build dir per host kernel / qemu / guest kernel.
choose_accel() {
	local choice=${VIVI_VM_ACCEL:-} cache key out
	if [ -z "$choice" ]; then
		key=$({
			uname -r
			"$QEMU" --version | head -n 1
			echo "$KVER"
		} | sha256sum)
		cache="$BUILD/vm/accel-${key:0:12}"
		if [ -s "$cache" ]; then
			choice=$(cat "$cache")
		else
			choice=tcg
			if [ -c /dev/kvm ] && [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
				# A working KVM reaches the init in 1-2 s; 6 s is plenty.
				out=$(timeout -k 2 6 "$QEMU" -accel kvm -cpu host -smp 1 -m 256M \
					-nographic -no-reboot -nic none \
					-M q35 -kernel "$KERNEL_IMG" -initrd "$INITRD" \
					-append "console=ttyS0 loglevel=3 panic=-1 vivi.probe" \
					</dev/null 2>&1) || true
				case "$out" in *VIVI-VM-PROBE-OK*) choice=kvm ;; esac
			fi
			echo "$choice" > "$cache"
		fi
	fi
	# shellcheck disable=SC2054 # commas belong to qemu's option syntax
	case "$choice" in
	kvm) ACCEL_ARGS=(-accel kvm -cpu host) ;;
	tcg) ACCEL_ARGS=(-accel tcg,thread=multi -cpu max) ;;
	*) die "VIVI_VM_ACCEL must be kvm or tcg, not '$choice'" ;;
	esac
	ACCEL=$choice
}

# Print the kernel log lines of file $1 that match DMESG_PATTERNS.
dirty_lines() {
	local args=() p
	for p in "${DMESG_PATTERNS[@]}"; do args+=(-e "$p"); done
	grep -F "${args[@]}" -- "$1" || true
}

# ---------------------------------------------------------------- arguments
MEM=2G
TIMEOUT=1200
KVER=${VIVI_KVER:-}
ROOT=
while getopts ':m:t:k:r:h' opt; do
	case "$opt" in
	m) MEM=$OPTARG ;;
	t) TIMEOUT=$OPTARG ;;
	k) KVER=$OPTARG ;;
	r) ROOT=$(cd "$OPTARG" && pwd -P) || die "no root directory '$OPTARG'" ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -lt 2 ]; then
	usage >&2
	exit 2
fi
[[ $TIMEOUT =~ ^[0-9]+$ ]] || die "bad timeout '$TIMEOUT'"
OUTDIR=$1
shift

[ -n "$KVER" ] || KVER=$(pick_kernel)
[ -n "$KVER" ] || die "no /boot/vmlinuz-* with a matching /lib/modules/ directory"
[ -e "$ROOT/boot/vmlinuz-$KVER" ] || die "no $ROOT/boot/vmlinuz-$KVER"
[ -r "$ROOT/boot/vmlinuz-$KVER" ] || die "cannot read $ROOT/boot/vmlinuz-$KVER (run as root?)"
[ -d "$ROOT/lib/modules/$KVER" ] || die "no $ROOT/lib/modules/$KVER"
command -v "$QEMU" >/dev/null || die "$QEMU missing; apt-get install qemu-system-x86"
[ -x "$BUSYBOX" ] || die "$BUSYBOX missing; apt-get install busybox-static"

STAGE=
trap '[ -n "$STAGE" ] && rm -rf "$STAGE"' EXIT

mkdir -p "$OUTDIR" "$BUILD/vm"
OUTDIR=$(cd "$OUTDIR" && pwd -P)
[ "$OUTDIR" != / ] || die "OUTDIR must not be /"
CWD=$(pwd -P)
# Another root gets mount points for the working directory (shared below)
# and OUTDIR, since the guest cannot create them on its read-only root.
CWD_SHARE=()
if [ -n "$ROOT" ]; then
	mkdir -p "$ROOT$CWD" "$ROOT$OUTDIR" || die "cannot create mount points in $ROOT"
	CWD_SHARE=(-virtfs "local,path=${CWD//,/,,},mount_tag=cwd,security_model=none,readonly=on,multidevs=remap")
fi

# One run per OUTDIR at a time (different OUTDIRs may run concurrently).
exec {outlock}>"$OUTDIR/.vm-lock"
flock -n "$outlock" || die "OUTDIR $OUTDIR is in use by another vm.sh"

# The initramfs and the accelerator cache are shared: build them under a lock.
exec {buildlock}>"$BUILD/vm/.lock"
flock "$buildlock"
build_initramfs
prepare_kernel
choose_accel
flock -u "$buildlock"
exec {buildlock}>&-

# ------------------------------------------------------- files for the guest
rm -f "$OUTDIR"/{.vm-rc,.vm-started,.vm-kmsg,.vm-conf,.vm-cmd.sh,.vm-qemu-rc,.vm-timeout-pid} \
	"$OUTDIR"/{dmesg.txt,console.log}
{
	echo "VM_OUTDIR=$(shq "$OUTDIR")"
	echo "VM_CWD=$(shq "$CWD")"
	echo "VM_CWD_SHARE=${#CWD_SHARE[@]}"
} > "$OUTDIR/.vm-conf"
{
	echo "# generated by tests/vm/vm.sh; run by the guest's /init in the chroot"
	while read -r name; do
		[[ $name =~ ^VIVI_[A-Za-z0-9_]*$ ]] || continue
		echo "export $name=$(shq "${!name}")"
	done < <(compgen -e)
	echo "cd $(shq "$CWD") || exit 125"
	printf 'exec'
	for a in "$@"; do printf ' %s' "$(shq "$a")"; done
	printf '\n'
} > "$OUTDIR/.vm-cmd.sh"

# Printed by the init right before the command starts (see tests/vm/init).
START_MARKER=VIVI-VM-RUN

APPEND="console=ttyS0 loglevel=3 panic=-1 softlockup_panic=0"
APPEND+=" ${VIVI_VM_DEBUGOPTS-slub_debug=FZPU page_poison=1} log_buf_len=8M panic_print=0x20"
APPEND+=${VIVI_VM_APPEND:+ $VIVI_VM_APPEND}
# Extra qemu arguments for experiments (split on whitespace).
read -r -a EXTRA_QEMU_ARGS <<<"${VIVI_VM_QEMU_ARGS:-}"

# shellcheck disable=SC2054 # commas belong to qemu's option syntax
QEMU_ARGS=(
	"${ACCEL_ARGS[@]}" -smp 2 -m "$MEM"
	-M q35 -nographic -no-reboot -nic none
	-kernel "$KERNEL_IMG" -initrd "$INITRD" -append "$APPEND"
	-virtfs "local,path=${ROOT:-/},mount_tag=root,security_model=none,readonly=on,multidevs=remap"
	"${CWD_SHARE[@]}"
	-virtfs "local,path=${OUTDIR//,/,,},mount_tag=out,security_model=none,multidevs=remap"
	"${EXTRA_QEMU_ARGS[@]}"
)

# --------------------------------------------------------------------- run
# qemu runs under timeout in a background pipeline that cleans up the console
# and copies it to console.log and our stdout. We wait for it
# with `wait` so that a signal to vm.sh can stop the VM (bash runs traps only
# between foreground commands).
# shellcheck disable=SC2317 # invoked by the trap
on_signal() {
	local pid
	pid=$(cat "$OUTDIR/.vm-timeout-pid" 2>/dev/null) || true
	[ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null
	wait || true
	echo "FAIL: vm: interrupted"
	exit 130
}
trap on_signal INT TERM HUP

# Console filters: turn CR-LF into LF and lone CRs (progress output such as
# v4l2-compliance's) into LF, so that no two lines glue together; drop
# terminal escapes (SeaBIOS clears the screen); keep the whole transcript in
# console.log; and on our stdout show only what comes after the init's start
# marker, minus the kernel's final "reboot: Power down" and minus the replay
# of the whole kernel log that panic_print=0x20 makes after a panic (it starts
# with the "Linux version" line, which loglevel=3 keeps off the console
# otherwise).
t0=$(now_ms)
{
	rc=0
	timeout -k 10 "$TIMEOUT" "$QEMU" "${QEMU_ARGS[@]}" </dev/null 2>&1 &
	echo $! > "$OUTDIR/.vm-timeout-pid"
	wait $! || rc=$?
	echo "$rc" > "$OUTDIR/.vm-qemu-rc"
} | sed -u -e 's/\r*$//' -e 's/\r/\n/g' -e 's/\x1b\[[0-9;?]*[A-Za-z]//g' -e 's/\x1b[A-Za-z]//g' |
	tee "$OUTDIR/console.log" |
	sed -u -e "0,/$START_MARKER\$/d" -e '/^\[ *[0-9.]*\] reboot: Power down$/d' \
		-e '/^\[ *0\.000000\] Linux version /,$d' &
wait $! || true
t1=$(now_ms)
trap - INT TERM HUP

qrc=$(cat "$OUTDIR/.vm-qemu-rc" 2>/dev/null) || qrc=unknown
rm -f "$OUTDIR"/{.vm-qemu-rc,.vm-timeout-pid}

# ------------------------------------------------------------------ timings
timing="vm: kernel $KVER, accel $ACCEL"
if [ -e "$OUTDIR/.vm-started" ]; then
	ts=$(mtime_ms "$OUTDIR/.vm-started")
	timing+=", boot $(fmt_s $((ts - t0))) s (qemu start to command start)"
	if [ -e "$OUTDIR/.vm-rc" ]; then
		timing+=", command $(fmt_s $(($(mtime_ms "$OUTDIR/.vm-rc") - ts))) s"
	fi
fi
timing+=", total $(fmt_s $((t1 - t0))) s"
echo "$timing"

# ------------------------------------------------------------------ verdict
if [ ! -s "$OUTDIR/.vm-rc" ]; then
	if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
		reason="timeout after $TIMEOUT s"
	elif line=$(grep -m 1 -e 'Kernel panic' -e 'vm-init: ERROR' "$OUTDIR/console.log"); then
		reason=${line#\[*\] } # without the timestamp
	else
		reason="qemu exited with status $qrc"
	fi
	echo "FAIL: vm: guest did not finish ($reason)"
	echo "  last console lines:"
	tail -n 40 "$OUTDIR/console.log" | sed 's/^/    /'
	# Recover the kernel log as dmesg.txt: after a panic, from the replay of
	# the log on the console (complete up to the panic); otherwise from the
	# live copy the guest streamed into .vm-kmsg (records are
	# "prio,seq,usec,flags;text"). Then show what looks bad.
	if [ ! -s "$OUTDIR/dmesg.txt" ]; then
		if grep -q '^\[ *0\.000000\] Linux version ' "$OUTDIR/console.log"; then
			sed -n '/^\[ *0\.000000\] Linux version /,$p' "$OUTDIR/console.log" > "$OUTDIR/dmesg.txt"
		elif [ -s "$OUTDIR/.vm-kmsg" ]; then
			awk '/^[0-9]+,[0-9]+,[0-9]+,[^;]*;/ {
				i = index($0, ";"); split(substr($0, 1, i - 1), f, ",")
				printf "[%5d.%06d] %s\n", f[3] / 1000000, f[3] % 1000000, substr($0, i + 1)
			}' "$OUTDIR/.vm-kmsg" > "$OUTDIR/dmesg.txt"
		fi
	fi
	if [ -s "$OUTDIR/dmesg.txt" ]; then
		bad=$(dirty_lines "$OUTDIR/dmesg.txt")
		if [ -n "$bad" ]; then
			echo "  kernel log problems (see $OUTDIR/dmesg.txt):"
			head -n 40 <<<"$bad" | sed 's/^/    /'
		fi
	fi
	exit 124
fi

rc=$(cat "$OUTDIR/.vm-rc")
rm -f "$OUTDIR/.vm-kmsg" # the live copy; dmesg.txt has the whole log
if [ ! -s "$OUTDIR/dmesg.txt" ]; then
	echo "FAIL: vm: guest wrote no kernel log ($OUTDIR/dmesg.txt)"
	exit 1
fi
bad=$(dirty_lines "$OUTDIR/dmesg.txt")
if [ -n "$bad" ]; then
	echo "FAIL: vm: kernel log: $(head -n 1 <<<"$bad")"
	head -n 40 <<<"$bad" | sed 's/^/  /'
	exit 1
fi
echo "PASS: vm: kernel log clean"
exit "$rc"
