# SPDX-License-Identifier: GPL-2.0
# Helpers for the guest-side test scripts (sourced, runs inside the VM).

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=${VIVI_OUT:?VIVI_OUT: the writable results folder}
TOOLS=${VIVI_BUILD:?VIVI_BUILD: the build folder}/tools
KO=${VIVI_KO:-$SRC/vivi.ko}
GUEST=$SRC/tests/guest
export PATH="$TOOLS:$PATH"

# full_or SHORT LONG: LONG in make check-full (VIVI_FULL=1), else SHORT:
# the rest of a long matrix runs there (tests/README.md says which)
full_or() {
	if [ "${VIVI_FULL:-0}" = 1 ]; then echo "$2"; else echo "$1"; fi
}

# VIVI_PARTS (make check PARTS=...): an extended regular expression, case
# aside. A stage (check-*.sh) then runs only the parts whose name matches,
# a part being its lines from 'stage_start NAME' to 'stage_end'; the lines
# outside parts (loading vivi, shared set-up) still run. parts_script
# rewrites the stage so that each part reads "if parts_want NAME; then
# stage_start NAME ... stage_end; fi", and the stage runs again from that
# copy with the same $0. A stage whose part names (as written) all miss is
# skipped whole. Either way it prints "=== filtered", so that
# tests/manifest.sh does not hold it to its full count.
parts_want() {
	grep -Eiq -- "$VIVI_PARTS" <<<"$1" && return 0
	echo "== $1: skipped (PARTS)"
	return 1
}

# parts_script FILE: FILE with each part wrapped in "if parts_want"; fails
# if its stage_start and stage_end lines do not pair
parts_script() {
	awk '
	function fail(why) {
		printf "%s:%d: %s\n", FILENAME, FNR, why > "/dev/stderr"
		bad = 1
		exit 1
	}
	/^[ \t]*stage_start[ \t]/ {
		if (open) fail("stage_start inside a part")
		match($0, /^[ \t]*stage_start/)
		args = substr($0, RLENGTH + 1)
		if (args !~ /^[ \t]+("[^"]*"|[^ \t;#&|"'"'"']+)[ \t]*$/)
			fail("stage_start takes one word or one \"quoted name\" alone")
		match($0, /^[ \t]*/)
		print substr($0, 1, RLENGTH) "if parts_want" args "; then stage_start" args
		open = 1
		next
	}
	/^[ \t]*stage_end[ \t]*$/ {
		if (!open) fail("stage_end outside a part")
		print $0 "; fi"
		open = 0
		next
	}
	{ print }
	END { if (!bad && open) fail("a part without stage_end") }' "$1"
}

# parts_names FILE: the names of FILE's parts, as written, quotes removed,
# and those of the stages it runs as a line of its own (check-robust runs
# check-fuzz), which filter their parts themselves
parts_names() {
	local sub
	sed -n 's/^[ \t]*stage_start[ \t]*//p' "$1" | tr -d '"'"'"
	for sub in $(sed -n 's|^"$(dirname "$0")/\(check-[a-z-]*\.sh\)".*|\1|p' "$1"); do
		parts_names "$(dirname "$1")/$sub"
	done
}

if [ -n "${VIVI_PARTS:-}" ] && [[ ${0##*/} == check-*.sh ]] &&
	[ "${VIVI_PARTS_OF:-}" != "$0" ]; then
	if ! grep -Eiq -- "$VIVI_PARTS" <<<"$(parts_names "$0")"; then
		echo "=== filtered: no part of ${0##*/} matches PARTS='$VIVI_PARTS': stage skipped"
		exit 0
	fi
	echo "=== filtered: only the parts of ${0##*/} matching PARTS='$VIVI_PARTS'"
	VIVI_PARTS_FILE=$(mktemp /tmp/parts.XXXXXX) || exit 1
	parts_script "$0" >"$VIVI_PARTS_FILE" || exit 1
	VIVI_PARTS_OF=$0 exec bash -c 'f=$1; shift; . "$f"' "$0" \
		"$VIVI_PARTS_FILE" "$@"
fi

# What vivi must offer: the one independent expectation of its formats,
# sizes and rates. check-clients asserts ENUM_FMT, ENUM_FRAMESIZES and
# ENUM_FRAMEINTERVALS against it (on both kernels), check-formats the sizes
# and rates per size; every other test takes the formats from the driver
# (list_formats, driver_formats), so that a format added to the driver is
# tested everywhere once it is added here.
EXPECTED_FORMATS="MJPG YUYV UYVY YVYU VYUY YU12 YV12 422P RGB3 BGR3 BX24 XR24 RGBP RGBR XR15 GREY Y16 BA81 GBRG GRBG RGGB NV12 NV21 NV16 NV61"
EXPECTED_SIZES="160x120 176x144 320x240 352x288 640x360 640x480 800x600 960x720 1024x768 1280x720 1920x1080 2560x1440 3840x2160"
# expected_rates WxH: the rates offered at that size, fastest first, in
# fps as v4l2-ctl prints them
expected_rates() {
	case $1 in
	2560x1440 | 3840x2160) echo "30 25 15 12.500 10 5" ;;
	1920x1080) echo "60 50 30 25 15 12.500 10 5" ;;
	*) echo "120 60 50 30 25 15 12.500 10 5" ;;
	esac
}

# formats_ext_ok PREFIX DEV: v4l2-ctl --list-formats-ext of DEV against the
# expectation above: the formats in order, and every format with every
# size and, at each size, exactly the rates expected_rates gives
formats_ext_ok() {
	local ext sig got want= s bad
	ext=$(v4l2-ctl -d "$2" --list-formats-ext 2>&1)
	sig=$(awk '
		function size() { if (sz != "") s = s " " sz ":" r; sz = "" }
		function format() { size(); if (f != "") print f s; s = "" }
		/\[[0-9]+\]: / { format(); f = $2; next }
		/Size: Discrete/ { size(); sz = $3; r = ""; next }
		/Interval: Discrete/ {
			v = $NF == "fps)" ? $(NF - 1) : $NF
			sub(/^\(/, "", v); sub(/\.000$/, "", v)
			r = r (r == "" ? "" : ",") v
		}
		END { format() }' <<<"$ext")
	got=$(cut -d' ' -f1 <<<"$sig" | tr -d "'" | tr '\n' ' ')
	if [ "$got" = "$EXPECTED_FORMATS " ]; then
		pass "$1: --list-formats-ext: the $(wc -w <<<"$got") formats in order"
	else
		fail "$1: --list-formats-ext: the formats in order" "got: $got"
	fi
	for s in $EXPECTED_SIZES; do
		want+=" $s:$(expected_rates "$s" | tr ' ' ',')"
	done
	bad=$(awk -v want="$want" '{ f = $1; $1 = ""; if ($0 != want) print f $0 }' <<<"$sig")
	if [ -z "$bad" ]; then
		pass "$1: --list-formats-ext: every format offers every size at exactly its expected rates"
	else
		fail "$1: --list-formats-ext: every format's sizes and rates" \
			"want$want; got $(head -n 1 <<<"$bad" | cut -c 1-300)"
	fi
}

pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1: $2"; }

# frames_ok NAME FILE COUNT SIZE [DETAIL]: PASS if FILE holds COUNT frames of
# SIZE bytes; a FAIL says how many bytes it holds, and DETAIL
frames_ok() {
	local got
	got=$(stat -c %s "$2" 2>/dev/null || echo 0)
	if [ -n "$4" ] && [ "$got" -eq $(($3 * $4)) ]; then
		pass "$1"
	else
		fail "$1" "$got bytes, want $3 x ${4:-?}${5:+: $5}"
	fi
}

# check NAME CMD...: PASS if CMD succeeds, else FAIL with its last lines
check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		pass "$name"
	else
		fail "$name" "$(tail -n 3 <<<"$out" | tr '\n' ' ')"
	fi
}

# hang_report: what every vivi node and every process in a V4L2 call is
# doing, for a client that did not finish in its time
hang_report() {
	local f p
	for f in /sys/kernel/debug/vivi/*/stats; do
		[ -r "$f" ] && echo "$f: $(tr '\n' ';' <"$f")"
	done
	for p in /proc/[0-9]*; do
		case $(cat "$p/comm" 2>/dev/null) in
		vivi-*|ffmpeg|gst-launch*|v4l2-ctl|python3)
			echo "$p $(cat "$p/comm") $(cat "$p/wchan" 2>/dev/null):" \
				"$(tr '\n' ' ' <"$p/stack" 2>/dev/null)" ;;
		esac
	done
	dmesg | tail -n 20
}

# deadline SECONDS CMD...: run CMD (stdin from /dev/null), killed after
# SECONDS; then it says so, with a hang_report taken while CMD still ran,
# and returns 124. A hang becomes its caller's FAIL line, not a stalled run.
deadline() {
	local secs=$1 cmd sleeper who rc
	shift
	"$@" </dev/null &
	cmd=$!
	sleep "$secs" &
	sleeper=$!
	wait -n -p who "$cmd" "$sleeper"
	rc=$?
	if [ "$who" = "$cmd" ]; then
		kill "$sleeper" 2>/dev/null
		wait "$sleeper" 2>/dev/null
		return $rc
	fi
	echo "did not finish in $secs s"
	hang_report
	kill -KILL "$cmd" 2>/dev/null
	wait "$cmd" 2>/dev/null
	return 124
}

# pid_gone PID SECS: true once process PID has ended (any process, not only
# a child of this shell), false if it still runs after SECS seconds
pid_gone() {
	local i
	for i in $(seq $(($2 * 2))); do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.5
	done
	return 1
}

stage_start() { STAGE=$1; STAGE_T0=$(date +%s.%N); echo "== $STAGE"; }
stage_end() {
	awk -v s="$STAGE" -v a="$STAGE_T0" -v b="$(date +%s.%N)" \
		'BEGIN { printf "== %s took %.1f s\n", s, b - a }'
}

# the kernel log lines that vm.sh would fail a run for
bad_dmesg() {
	dmesg | grep -F -e 'BUG:' -e 'WARNING:' -e 'Oops' -e 'Call Trace' \
		-e 'list_add corruption' -e 'list_del corruption' -e 'hung_task' \
		-e 'blocked for more than' -e 'soft lockup' -e 'general protection' \
		-e 'KASAN' -e 'UBSAN' -e 'kernel BUG' -e 'Poison overwritten' \
		-e 'Redzone' -e 'Object padding' -e 'slab_out_of_bounds'
}

# dmesg_clean: no line bad_dmesg names in the kernel log (the first three
# on stdout if any), for check NAME dmesg_clean
dmesg_clean() {
	local bad
	bad=$(bad_dmesg | head -n 3)
	[ -z "$bad" ] || { echo "$bad"; return 1; }
}

# clear_dmesg: dmesg -C, but a line of the log that vm.sh would fail the run
# for is a FAIL first, so that a test clearing the log never hides an oops
clear_dmesg() {
	local bad
	bad=$(bad_dmesg | head -n 3)
	[ -z "$bad" ] ||
		fail "kernel log clean before ${STAGE:-a} clear" "$(tr '\n' ' ' <<<"$bad")"
	dmesg -C
}

# vivid_log_ok NAME FILE PREFIX: after vivid ran, save the kernel log to
# FILE and PASS NAME if nothing in it would fail the run but the stack
# dumps of vivid's capture thread on some kernels (6.12), which passes a
# negative timeout to schedule_timeout() when it runs late, as under TCG:
# vivid's bug, reported (PREFIX: count) and cleared, so that vm.sh's scan
# of the log still covers everything vivi does after it
vivid_log_ok() {
	local splats traces stacks other
	dmesg >"$2"
	splats=$(grep -c 'schedule_timeout: wrong timeout value' "$2")
	traces=$(grep -c 'Call Trace' "$2")
	other=$(bad_dmesg | grep -v 'Call Trace')
	stacks=$(grep -A 4 'Call Trace' "$2" | grep -c 'vivid_thread_vid_cap+')
	if [ -n "$other" ] || [ "$traces" -ne "$splats" ] || [ "$stacks" -ne "$splats" ]; then
		fail "$1" "$(bad_dmesg | head -n 3 | tr '\n' ' ')"
		return 1
	fi
	if [ "$splats" -gt 0 ]; then
		echo "$3: $splats x 'schedule_timeout: wrong timeout value' (vivid bug)"
		dmesg -C # FILE keeps the whole log
	fi
	pass "$1 ($splats)"
}

# median_interval NOMINAL TOL: reads "sequence time" lines and prints the
# mean frame interval as the median slope between frames half the run
# apart, "<interval> (median over N frame pairs, M frames)". Each pair
# spans half the run, so one late wake-up weighs little in it and moves
# only the pairs that contain it; an end point that is late shifts a plain
# (last - first) / count by its whole lateness. Fails unless the interval
# is within TOL (a fraction) of NOMINAL, in the unit of the times.
median_interval() { median-interval.py "$@"; }

# core_modules: the modules vivi.ko needs, which insmod does not load: the
# V4L2 core, and configfs for the devices made at run time (a module on
# Debian's kernels, built in on others); configfs mounted where vivi's
# directory appears, /sys/kernel/config
core_modules() {
	modprobe -a videodev videobuf2-common videobuf2-v4l2 \
		videobuf2-vmalloc videobuf2-memops || return 1
	modprobe configfs 2>/dev/null || grep -qw configfs /proc/filesystems ||
		{ echo "no configfs in this kernel"; return 1; }
	mountpoint -q /sys/kernel/config ||
		mount -t configfs configfs /sys/kernel/config
}

unload_vivi() {
	if grep -q '^vivi ' /proc/modules; then
		rmmod vivi
	fi
}

# load_vivi PARAMS...: a fresh vivi with these parameters
load_vivi() {
	unload_vivi || return 1
	insmod "$KO" "$@"
}

# list_formats DEV [OPTION]: the fourccs DEV offers (ENUM_FMT), one a line,
# without the trailing spaces ('Y16 ' is Y16, as formats= spells it);
# OPTION --list-formats-out for an output node
list_formats() {
	v4l2-ctl -d "$1" "${2:---list-formats}" |
		sed -n "s/.*\[[0-9]*\]: '\([^ ']*\) *'.*/\1/p"
}

# capture_frame DEV FOURCC W H OUT [BPL]: one frame of that format and size
# (and stride, if BPL) into OUT; echoes the bytesperline
capture_frame() {
	local dev=$1 fcc=$2 w=$3 h=$4 out=$5 bpl=${6:-0} fmt wh pf
	# v4l2-ctl wants the fourcc's trailing spaces ('Y16 ')
	while [ ${#fcc} -lt 4 ]; do fcc="$fcc "; done
	rm -f "$out"
	fmt=$(v4l2-ctl -d "$dev" \
		-v "width=$w,height=$h,pixelformat=$fcc,bytesperline=$bpl" -V \
		--stream-mmap --stream-count=1 --stream-to="$out" 2>&1) || {
		echo "$fmt" >&2
		return 1
	}
	# bash's own matching: an exec costs tens of milliseconds under TCG,
	# and the stages capture hundreds of frames
	wh="Width/Height *: $w/$h"$'(\n|$)'
	pf="Pixel Format *: '$fcc'"
	[[ $fmt =~ $wh ]] || { echo "$fmt" >&2; return 1; }
	[[ $fmt =~ $pf ]] || { echo "$fmt" >&2; return 1; }
	[ -s "$out" ] || { echo "no frame written" >&2; return 1; }
	if [[ $fmt =~ Bytes\ per\ Line\ *:\ *([0-9]+) ]]; then
		echo "${BASH_REMATCH[1]}"
	fi
}

# raw_formats DEV: list_formats without MJPEG, whose frames check-mjpeg
# checks (a JPEG is not a picture to compare pixel for pixel)
raw_formats() { list_formats "$@" | grep -vx MJPG; }

# pad4 FOURCC: with the trailing spaces v4l2-ctl -v pixelformat= wants
pad4() { printf '%-4s' "$1"; }

# driver_formats: the fourccs vivi offers by default, one a line, from
# ENUM_FMT of a fresh vivi (so it unloads vivi); kept for the boot
driver_formats() {
	local cache=/tmp/vivi-formats
	if [ ! -s "$cache" ]; then
		load_vivi n_devs=1 >&2 &&
			list_formats "$(vivi_node 0)" >"$cache.tmp" &&
			mv "$cache.tmp" "$cache"
		unload_vivi >&2
	fi
	cat "$cache"
}

# non_nv_formats: driver_formats without the NV* ones, which trip
# v4l2-compliance 1.22's description check (tool skew, see tests/README.md),
# as a formats= value
non_nv_formats() { driver_formats | grep -v '^NV' | paste -sd,; }

# node DRIVER N: the /dev/videoN of instance N of vivi or vivid
node() {
	local n
	for n in /sys/class/video4linux/video*; do
		[ -e "$n" ] || continue
		if v4l2-ctl -d "/dev/${n##*/}" -D 2>/dev/null |
			grep -q "Bus info *: platform:$1-0*$2\$"; then
			echo "/dev/${n##*/}"
			return 0
		fi
	done
	return 1
}

# the /dev/videoN of vivi instance $1
vivi_node() { node vivi "$1"; }

# node_named NAME: the /dev/videoN whose name (sysfs, the card name) is NAME
node_named() {
	local n
	for n in /sys/class/video4linux/video*; do
		[ -e "$n/name" ] || continue
		if [ "$(cat "$n/name")" = "$1" ]; then
			echo "/dev/${n##*/}"
			return 0
		fi
	done
	return 1
}

# fed_run NAME LOG MIN: a capture log (vivi-produce -c -M) shows, from the
# first fed frame on, only fed frames, at least MIN, in no fewer than 2
# distinct frames, without a sequence gap
fed_run() {
	local r
	r=$(awk -v min="$3" '
		/^seq=/ {
			split($3, m, "="); n++
			if (m[2] >= 0 && !first) first = n
			if (first && m[2] < 0 && !bad) bad = n
			if (first && m[2] >= 0) { fed++; d[m[2]] = 1 }
		}
		/^frames=/ { summary = $0; split($2, g, "=") }
		END {
			for (k in d) distinct++
			if (!summary) { print "no summary line"; exit }
			if (!first) { print "no fed frame in " n " frames"; exit }
			if (bad) { print "frame " bad " is not a fed frame, after fed frame " first; exit }
			if (fed < min) { print fed " fed frames, want " min; exit }
			if (distinct < 2) { print "one fed frame only, over and over"; exit }
			if (g[2] != 0) { print "sequence: " summary; exit }
			print "ok " fed " of " n " frames are fed frames byte for byte (from frame " first "), " distinct " distinct; " summary
		}' "$2")
	if [ "${r%% *}" = ok ]; then
		pass "$1 (${r#ok })"
	else
		fail "$1" "$r; $(grep -v '^seq=' "$2" | tail -n 2 | tr '\n' ' ')"
	fi
}

# compliance_log NAME: the log file of the compliance run called NAME
compliance_log() {
	echo "$OUT/$(tr -cs 'A-Za-z0-9' '-' <<<"$1" | sed 's/-*$//').log"
}

# compliance_tmp LOG: where LOG is kept while v4l2-compliance writes it
compliance_tmp() { echo "/tmp/${1##*/}.tmp"; }

# run_compliance LOG DEV [ARGS...]: v4l2-compliance with vivi's debug level
# 1 on, so that a sequence gap comes with the driver's own account of the
# dropped frame (queue empty, and how late the thread woke); those dmesg
# lines are appended to LOG. The tool prints a line per frame and flushes
# it: that goes to tmpfs, since a write to the 9p results folder can stall
# the tool for longer than the queue lasts on a busy host.
run_compliance() {
	local log=$1 dev=$2 param=/sys/module/vivi/parameters/debug lines tmp
	tmp=$(compliance_tmp "$log")
	shift 2
	lines=$(dmesg | wc -l)
	[ ! -w "$param" ] || echo 1 >"$param"
	v4l2-compliance -d "$dev" "$@" >"$tmp" 2>&1
	[ ! -w "$param" ] || echo 0 >"$param"
	dmesg | tail -n +$((lines + 1)) | grep 'vivi.*dropped' >>"$tmp"
	cp "$tmp" "$log"
	rm -f "$tmp"
}

# the driver's dropped-frame lines in a compliance log, for a FAIL reason
driver_drops() {
	local d
	d=$(grep -m 2 'frame(s) dropped' "$1" | sed 's/^\[[ 0-9.]*\] //')
	[ -z "$d" ] || echo "; driver: $d" | tr '\n' ' '
}

# compliance NAME DEV [ARGS...]: v4l2-compliance must report 0 failures and
# 0 warnings; the full log goes to $OUT/NAME.log
compliance() {
	local name=$1 dev=$2 log total
	shift 2
	log=$(compliance_log "$name")
	run_compliance "$log" "$dev" "$@"
	total=$(grep '^Total for ' "$log" | tail -n 1)
	if [ -z "$total" ]; then
		fail "$name" "no summary line, see $log"
	elif grep -q 'Failed: 0, Warnings: 0$' <<<"$total"; then
		pass "$name (${total#*: })"
	else
		fail "$name" "${total#*: }; $(grep -E 'fail:|warn:' "$log" |
			head -n 3 | tr -s ' \t' ' ')$(driver_drops "$log")"
	fi
}

# The one failure v4l2-compliance 1.22 reports on the 6.1 kernel's own
# description of the semi-planar formats (tool skew, not a driver bug)
NV_SKEW="fmtdesc.description mismatch: was 'Y/(UV|VU) 4:2:[02]', expected 'Y/(CbCr|CrCb) 4:2:[02]'"

# compliance_skew NAME DEV [ARGS...]: as compliance, but the exact NV*
# description failures are counted apart; any other failure or warning fails
compliance_skew() {
	local name=$1 dev=$2 log total failed warns other skew
	shift 2
	log=$(compliance_log "$name")
	run_compliance "$log" "$dev" "$@"
	total=$(grep '^Total for ' "$log" | tail -n 1)
	failed=$(sed -n 's/.*Failed: \([0-9]*\),.*/\1/p' <<<"$total")
	warns=$(sed -n 's/.*Warnings: \([0-9]*\)$/\1/p' <<<"$total")
	skew=$(grep -cE "fail: .*$NV_SKEW" "$log")
	other=$(grep -E 'fail:|warn:' "$log" | grep -vE "$NV_SKEW")
	echo "compliance: $name: $skew NV* description failures (tool skew, counted apart)"
	if [ -z "$total" ]; then
		fail "$name" "no summary line, see $log"
	elif [ -n "$other" ] || [ "${warns:-1}" -ne 0 ] ||
		[ "${failed:-1}" -gt "$skew" ]; then
		fail "$name" "${total#*: }; $(head -n 3 <<<"$other" | tr -s ' \t' ' ')$(driver_drops "$log")"
	else
		[ "$skew" -eq 0 ] || total="$total, all failures are the NV* tool skew"
		pass "$name (${total#*: })"
	fi
}

# chromium_start URL LOG: headless Chromium on URL, its page console in LOG
# (lines '"VIVI ...'); sets BROWSER_PID for browser_wait and browser_stop.
# --single-process: under TCG on a busy host, child processes give up after
# 15 s without their IPC connection and take the page with them.
chromium_start() {
	mountpoint -q /dev/shm || { mkdir -p /dev/shm && mount -t tmpfs tmpfs /dev/shm; }
	rm -rf /tmp/chromium
	# pan/tilt/zoom need their own permission, which the fake UI does
	# not grant: allowed in the fresh profile
	mkdir -p /tmp/chromium/Default
	echo '{"profile":{"default_content_setting_values":{"camera_pan_tilt_zoom":1}}}' \
		>/tmp/chromium/Default/Preferences
	: >"$2"
	setsid /usr/lib/chromium/chromium --headless=new --no-sandbox --single-process \
		--use-fake-ui-for-media-stream --disable-gpu \
		--disable-background-networking --disable-component-update \
		--disable-sync --disable-default-apps --disable-breakpad \
		--disable-domain-reliability --no-first-run --no-default-browser-check \
		--no-pings --mute-audio --user-data-dir=/tmp/chromium \
		--enable-logging=stderr --log-level=0 \
		"$1" >/dev/null 2>"$2" &
	BROWSER_PID=$!
}

# firefox_start URL LOG [PIPEWIRE]: headless Firefox ESR on URL with a fresh
# profile that lets pages use the camera without asking, through V4L2
# itself (PIPEWIRE true: through the PipeWire camera portal instead, see
# portal.sh), and prints their console to LOG; sets BROWSER_PID
firefox_start() {
	rm -rf /tmp/firefox
	mkdir -p /tmp/firefox
	cat >/tmp/firefox/user.js <<-EOF
	user_pref("media.navigator.permission.disabled", true);
	user_pref("media.navigator.streams.fake", false);
	user_pref("media.webrtc.camera.allow-pipewire", ${3:-false});
	user_pref("devtools.console.stdout.content", true);
	user_pref("browser.shell.checkDefaultBrowser", false);
	user_pref("browser.startup.homepage_override.mstone", "ignore");
	user_pref("datareporting.policy.dataSubmissionEnabled", false);
	user_pref("toolkit.telemetry.reportingpolicy.firstRun", false);
	user_pref("app.update.enabled", false);
	user_pref("app.normandy.enabled", false);
	user_pref("extensions.update.enabled", false);
	user_pref("network.captive-portal-service.enabled", false);
	user_pref("network.connectivity-service.enabled", false);
	EOF
	: >"$2"
	setsid firefox-esr --headless --no-remote --profile /tmp/firefox \
		"$1" >"$2" 2>&1 &
	BROWSER_PID=$!
}

# browser_wait LOG REGEX SECS: wait until the page logs REGEX (or the
# browser dies, or SECS pass); prints the matching line, fails if none
browser_wait() {
	local t0=$(date +%s) line
	while [ $(($(date +%s) - t0)) -lt "$3" ]; do
		line=$(grep -oE "\"VIVI $2[^\"]*" "$1" | tail -n 1)
		[ -n "$line" ] && { echo "${line#\"}"; return 0; }
		kill -0 "$BROWSER_PID" 2>/dev/null || return 1
		sleep 1
	done
	return 1
}

# browser_stop: end the browser and its children
browser_stop() {
	kill -TERM -- -"$BROWSER_PID" 2>/dev/null
	for _ in $(seq 20); do
		kill -0 -- -"$BROWSER_PID" 2>/dev/null || break
		sleep 0.5
	done
	kill -KILL -- -"$BROWSER_PID" 2>/dev/null
	wait "$BROWSER_PID" 2>/dev/null
	# and any helper process that left the group: none may keep a
	# device open, or watch for new ones, into the next stages
	pkill -KILL -f '^/usr/lib/(chromium|firefox-esr)/' 2>/dev/null
	return 0
}
