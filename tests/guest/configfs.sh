# SPDX-License-Identifier: GPL-2.0
# Helpers for vivi's devices made at run time through configfs,
# /sys/kernel/config/vivi/NAME (docs/configfs.md). Sourced after lib.sh.
#
# cfs_write FILE VALUE: VALUE and a newline in one write(), as echo does;
#   on failure sets CFS_ERRNO (EINVAL, EBUSY, ...) and CFS_ERR (the text)
# cfs_set NAME ATTR VALUE: cfs_write of NAME's attribute ATTR
# cfs_get NAME ATTR: what ATTR reads, trailing newline cut
# cfs_make NAME [ATTR=VALUE...]: mkdir NAME, then each setting in order;
#   fails at the first one refused (CFS_ERRNO, and a message on stderr)
# cfs_enable NAME, cfs_disable NAME: echo 1 / 0 > NAME/enabled
# cfs_remove NAME: disable if enabled, then rmdir
# cfs_nodes NAME: its /dev/videoN paths, one a line (empty when disabled)
# cfs_clean: remove every item, so that vivi can unload
# cfs_load PARAMS...: cfs_clean, then a fresh vivi (load_vivi) whose
#   configfs directory is there
# cfs_mark, cfs_log: a mark written to the kernel log; the log after the
#   last mark (a mark survives a wrap of the ring that a line count does not)
# cfs_log_first ERE: cfs_log's first line matching ERE, timestamp cut
# cfs_cycles_part NAME N: a test (PASS/FAIL lines named NAME: ...) of N
#   create/stream/remove cycles beside another device's stream (needs
#   mem.sh; check-configfs runs it, check-full with 200)

CFS_ROOT=/sys/kernel/config
CFS=$CFS_ROOT/vivi
CFS_MARK=

# cfs_errno TEXT: the errno name of a strerror() text
cfs_errno() {
	case $1 in
	*'Invalid argument'*) echo EINVAL ;;
	*'Device or resource busy'*) echo EBUSY ;;
	*'No space left on device'*) echo ENOSPC ;;
	*'Permission denied'*) echo EACCES ;;
	*'Operation not permitted'*) echo EPERM ;;
	*'File exists'*) echo EEXIST ;;
	*'No such file or directory'*) echo ENOENT ;;
	*'No such device'*) echo ENODEV ;;
	*'Directory not empty'*) echo ENOTEMPTY ;;
	*'Cannot allocate memory'*) echo ENOMEM ;;
	*) echo "?($1)" ;;
	esac
}

# cfs_failed TEXT: set CFS_ERR and CFS_ERRNO from a tool's error message
# (its last ": " field is strerror's text); returns 1
cfs_failed() {
	CFS_ERR=${1##*: }
	CFS_ERRNO=$(cfs_errno "$CFS_ERR")
	return 1
}

# The helpers below use builtins and no subshell where they can: under TCG
# a fork and an exec cost tens of milliseconds, and check-configfs makes
# hundreds of writes and reads.
CFS_ERRF=/tmp/cfs-write.err

cfs_write() {
	local lines
	CFS_ERR='' CFS_ERRNO=''
	# one printf: one write() of VALUE\n (up to bash's 4 KiB buffer)
	{ printf '%s\n' "$2" >"$1"; } 2>"$CFS_ERRF" && return 0
	mapfile -t lines <"$CFS_ERRF"
	cfs_failed "${lines[-1]:-no message}"
}

cfs_set() { cfs_write "$CFS/$1/$2" "$3"; }

cfs_get() {
	local lines
	mapfile -t lines 2>/dev/null <"$CFS/$1/$2" || return 1
	[ ${#lines[@]} = 0 ] || printf '%s\n' "${lines[@]}"
}

cfs_mkdir() {
	local out
	CFS_ERR='' CFS_ERRNO=''
	out=$(mkdir "$CFS/$1" 2>&1) || cfs_failed "$out"
}

cfs_rmdir() {
	local out
	CFS_ERR='' CFS_ERRNO=''
	out=$(rmdir "$CFS/$1" 2>&1) || cfs_failed "$out"
}

cfs_make() {
	local name=$1 kv
	shift
	cfs_mkdir "$name" || {
		echo "mkdir $name: $CFS_ERR" >&2
		return 1
	}
	for kv in "$@"; do
		cfs_set "$name" "${kv%%=*}" "${kv#*=}" || {
			echo "$name: ${kv%%=*}=${kv#*=}: $CFS_ERR" >&2
			return 1
		}
	done
}

cfs_enable() { cfs_set "$1" enabled 1; }
cfs_disable() { cfs_set "$1" enabled 0; }

cfs_remove() {
	[ -d "$CFS/$1" ] || return 0
	if [ "$(cfs_get "$1" enabled)" != 0 ]; then
		cfs_disable "$1" || return 1
	fi
	cfs_rmdir "$1"
}

cfs_nodes() { cfs_get "$1" nodes; }

# cfs_items: the names of the items there are, one a line
cfs_items() {
	local d
	for d in "$CFS"/*/; do
		[ -d "$d" ] || continue
		d=${d%/}
		echo "${d##*/}"
	done
}

cfs_clean() {
	local n left=
	[ -d "$CFS" ] || return 0
	while read -r n; do
		[ -n "$n" ] || continue
		cfs_remove "$n" || left+=" $n($CFS_ERRNO)"
	done <<<"$(cfs_items)"
	[ -z "$left" ] || { echo "left:$left"; return 1; }
}

cfs_load() {
	cfs_clean || return 1
	load_vivi "$@" || return 1
	[ -d "$CFS" ] || { echo "no $CFS after the load"; return 1; }
}

cfs_mark() {
	CFS_MARK="cfs-test mark $$.$RANDOM.${EPOCHREALTIME/./}"
	echo "$CFS_MARK" >/dev/kmsg
}

cfs_log() {
	dmesg | awk -v m="$CFS_MARK" 'found { print } index($0, m) { found = 1 }'
}

# cfs_log_first ERE: the first line of cfs_log matching ERE, without its
# timestamp
cfs_log_first() {
	dmesg | awk -v m="$CFS_MARK" -v re="$1" '
		found && $0 ~ re { sub(/^\[[ 0-9.]*\] /, ""); print; exit }
		index($0, m) { found = 1 }'
}

# cfs_video_nodes: the /dev/video* nodes there are, one a line
cfs_video_nodes() {
	local n
	for n in /dev/video*; do
		[ -e "$n" ] && echo "$n"
	done
}

# cfs_cycles N DIR: N cycles of an item "cyc" made (160x120 at 120 fps),
# enabled, streamed (vivi-cycle's stream cycle: REQBUFS, a frame, then
# STREAMOFF or, every third, the close; MMAP and USERPTR in turn), disabled
# and removed, all in one vivi-cycle process; prints the failure (nothing
# if none); the tool's errors go to DIR/cycles.err
cfs_cycles() {
	local out
	out=$(deadline $(($1 * 2 + 60)) vivi-cycle "$CFS/cyc" configfs "$1" \
		2>>"$2/cycles.err") && return 0
	echo "${out#FAIL: cycle: }"
	cfs_remove cyc
}

cfs_cycles_part() {
	local name=$1 n=$2 dir=/tmp/cfs-cycles p client out t0 secs rc
	rm -rf "$dir"
	mkdir -p "$dir"
	: >"$dir/cycles.err"
	check "$name: load vivi n_devs=1" cfs_load n_devs=1
	p=$(vivi_node 0)
	# the client on the parameters' device: 160x120 at 30 fps, 32
	# buffers, until SIGUSR1 (vivi-timing then sums up what it has)
	vivi-timing -s 160x120 -r 30 -b 32 -n 200000 "$p" >"$dir/client.txt" \
		2>"$dir/client.err" &
	client=$!
	for _ in $(seq 300); do
		grep -q '^streaming: yes' "/sys/kernel/debug/vivi/${p#/dev/}/stats" \
			2>/dev/null && break
		sleep 0.1
	done
	# a warm-up, so that caches the first devices fill are in the baseline
	out=$(cfs_cycles 10 "$dir")
	[ -z "$out" ] || fail "$name: 10 warm-up cycles" "$out"
	mem_snap "$dir/m0"
	t0=$(date +%s)
	out=$(cfs_cycles "$n" "$dir")
	secs=$(($(date +%s) - t0))
	if [ -z "$out" ]; then
		pass "$name: $n create/enable/stream/disable/remove cycles ($secs s, $((secs * 1000 / n)) ms a cycle)"
	else
		fail "$name: $n create/stream/remove cycles" "$out; $(tail -n 2 "$dir/cycles.err" | tr '\n' ' ')"
	fi
	mem_snap "$dir/m1"
	MEM_SLAB_KB=100 MEM_VMALLOC_KB=100 MEM_NET_VMAP=1 mem_check \
		"$name: memory back within 100 kB after $n cycles" "$dir/m0" "$dir/m1" "$n"
	kill -USR1 "$client" 2>/dev/null
	for _ in $(seq 300); do
		kill -0 "$client" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$client" 2>/dev/null; then
		echo "$name: the client did not end within 30 s of SIGUSR1"
		hang_report
		kill -KILL "$client"
	fi
	wait "$client"
	rc=$?
	val() { sed -n "s/^$1=//p" "$dir/client.txt"; }
	if [ "$rc" != 0 ]; then
		fail "$name: the client streamed throughout" "exit $rc: $(tail -n 2 "$dir/client.err" | tr '\n' ' ')"
	elif [ "$(val seq_gaps)" = 0 ] && [ "$(val seq_backwards)" = 0 ] &&
		[ "$(val error_buffers)" = 0 ] && [ "$(val frames)" -ge $((secs * 15)) ]; then
		pass "$name: the client on $p saw no sequence gap: $(val frames) frames, $(val seq_first)..$(val seq_last)"
	else
		fail "$name: the client saw no sequence gap" "$(grep -E '^(frames|seq_|error)' "$dir/client.txt" | tr '\n' ' ')"
	fi
	check "$name: nothing is left" cfs_clean
}
