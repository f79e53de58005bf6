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

cfs_write() {
	local out
	CFS_ERR='' CFS_ERRNO=''
	# one printf: one write() of VALUE\n (up to bash's 4 KiB buffer)
	out=$( { printf '%s\n' "$2" >"$1"; } 2>&1) || cfs_failed "$out"
}

cfs_set() { cfs_write "$CFS/$1/$2" "$3"; }

cfs_get() { cat "$CFS/$1/$2" 2>/dev/null; }

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
	CFS_MARK="cfs-test mark $$.$RANDOM.$(date +%s%N)"
	echo "$CFS_MARK" >/dev/kmsg
}

cfs_log() {
	dmesg | awk -v m="$CFS_MARK" 'found { print } index($0, m) { found = 1 }'
}

# cfs_video_nodes: the /dev/video* nodes there are, one a line
cfs_video_nodes() {
	local n
	for n in /dev/video*; do
		[ -e "$n" ] && echo "$n"
	done
}
