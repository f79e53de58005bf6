#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Inside the VM (started by tests/bench/bench-vm.sh): measure vivi and vivid
# side by side with tests/bench/vivi-bench.c and leave key=value result
# files in $VIVI_OUT for tests/bench/report.py. Prints progress only; a
# benchmark asserts nothing.
#
# Knobs (VIVI_* variables reach the guest):
#   VIVI_BENCH_CONFIGS  space-separated NAME:FOURCC:WxH:RATE:FRAMES; RATE is
#                       fps for both drivers, or VIVI_FPS,VIVID_FPS
#   VIVI_BENCH_REPEAT   runs of each config and driver (report: median)
#   VIVI_BENCH_IDLE     seconds an idle device stays open (default 5)
#   VIVI_BENCH_SCALE_SECS / VIVI_BENCH_SCALE_MAX   scale test (10 s, 16)
#   VIVI_BENCH_SCALE_TRIES  tries before a stream count counts as failed (2)
#   VIVI_BENCH_PROFILE  perf profiles (cpu-clock, samples of the generator
#                       threads by symbol, as % of all samples):
#                       FOURCC:WxH:FPS:FRAMES ..., or 1
#                       for YUYV at 640x360@30 and 1920x1080@5; default off
#   VIVI_BENCH_ONLY     producer: only vivi's producer node against
#                       v4l2loopback (tests/bench/guest-producer.sh, a few
#                       minutes); vivid: only vivi against vivid; default
#                       both
#   VIVI_BENCH_PRODUCER_*  see tests/bench/guest-producer.sh
set -u
# shellcheck source=tests/guest/lib.sh
. "$(dirname "$0")/../guest/lib.sh"

CONFIGS=${VIVI_BENCH_CONFIGS:-"yuyv-640x360-30:YUYV:640x360:30:300 yuyv-1280x720-12.5:YUYV:1280x720:12.5:60 yuyv-1920x1080-5:YUYV:1920x1080:5:60 yu12-640x360-30:YU12:640x360:30:300"}
REPEAT=${VIVI_BENCH_REPEAT:-3}
IDLE=${VIVI_BENCH_IDLE:-5}
SCALE_SECS=${VIVI_BENCH_SCALE_SECS:-10}
SCALE_MAX=${VIVI_BENCH_SCALE_MAX:-16}
SCALE_TRIES=${VIVI_BENCH_SCALE_TRIES:-2}
PROFILE=${VIVI_BENCH_PROFILE:-0}
ONLY=${VIVI_BENCH_ONLY:-}
case "$ONLY" in
"" | producer | vivid) ;;
*) echo "bench: VIVI_BENCH_ONLY is producer, vivid or empty, not '$ONLY'"; exit 2 ;;
esac
[ "$PROFILE" = 1 ] && PROFILE="YUYV:640x360:30:150 YUYV:1920x1080:5:30"
# load_drivers() adds node_types=1 for every instance
VIVID_ARGS="no_error_inj=1"
R=$OUT
T0=$(date +%s)

log() { echo "bench: [$(($(date +%s) - T0)) s] $*"; }

# thread name pattern of each driver's generator (fnmatch)
declare -A KPAT=([vivi]='vivi-[0-9]*' [vivid]='vivid-*-vid-cap')

# nodes DRV: the /dev/videoN of each instance of DRV, in instance order,
# from the platform device (vivi.N, vivid.N) behind each node
# (no forks but sort: they are slow under TCG)
nodes() {
	local n dev here=$PWD
	for n in /sys/class/video4linux/video*; do
		builtin cd -P "$n/device" 2>/dev/null || continue
		dev=${PWD##*/}
		case "$dev" in
		"$1".[0-9]*) echo "${dev#"$1".} /dev/${n##*/}" ;;
		esac
	done | sort -n | cut -d' ' -f2
	builtin cd "$here" || return 1
}

# webcam_input DEV: index of the input named "Webcam*" (vivid), else 0
webcam_input() {
	v4l2-ctl -d "$1" --list-inputs 2>/dev/null | awk '
		/^[ \t]*Input[ \t]*:/ { i = $3 }
		/^[ \t]*Name[ \t]*:[ \t]*Webcam/ { print i; found = 1; exit }
		END { if (!found) print 0 }'
}

load_drivers() {
	unload_vivi
	if grep -q '^vivid ' /proc/modules; then
		rmmod vivid || return 1
	fi
	insmod "$KO" n_devs="$1" || return 1
	log "vivi loaded"
	# node_types is per instance: a bare node_types=1 sets instance 0
	# only, and the others' output and meta nodes, all under the one
	# platform device vivid.0, would be taken for capture devices (the
	# scale test's failed '?/3': its third node was vivid-003-vid-out)
	local nt
	nt=$(printf '1,%.0s' $(seq "$1"))
	# shellcheck disable=SC2086 # VIVID_ARGS is a list of parameters
	modprobe vivid n_devs="$1" $VIVID_ARGS node_types="${nt%,}" || return 1
	log "vivid loaded"
	udev_settle
}

# no udev in the VM: devtmpfs creates the nodes; wait until they exist
udev_settle() {
	for _ in $(seq 50); do
		[ "$(nodes vivi | wc -l)" -ge 1 ] && [ "$(nodes vivid | wc -l)" -ge 1 ] && return 0
		sleep 0.1
	done
}

declare -A DEV INPUT
setup_single() {
	load_drivers 1 || { echo "bench: cannot load the drivers"; exit 1; }
	DEV[vivi]=$(nodes vivi | head -n 1)
	DEV[vivid]=$(nodes vivid | head -n 1)
	for d in vivi vivid; do
		INPUT[$d]=$(webcam_input "${DEV[$d]}")
		log "$d: ${DEV[$d]}, input ${INPUT[$d]} ($(v4l2-ctl -d "${DEV[$d]}" --list-inputs |
			sed -n "/Input *: ${INPUT[$d]}\$/{n;s/.*: //p}"))"
	done
}

# run DRV CONFIG-NAME ARGS...: one vivi-bench run, results in run-*.txt
run() {
	local drv=$1 name=$2 out
	shift 2
	out="$R/run-$name-$drv"
	if [ "$drv" = vivi ]; then
		# the stats reset at STREAMON and stay after STREAMOFF
		vivi-bench -k "${KPAT[$drv]}" -i "${INPUT[$drv]}" "$@" "${DEV[$drv]}" \
			>"$out.txt" 2>"$out.err"
		cat "/sys/kernel/debug/vivi/${DEV[$drv]##*/}/stats" >"$out.stats" 2>/dev/null
	else
		vivi-bench -k "${KPAT[$drv]}" -i "${INPUT[$drv]}" "$@" "${DEV[$drv]}" \
			>"$out.txt" 2>"$out.err"
	fi || log "$drv $name: vivi-bench failed: $(tail -n 1 "$out.err")"
	log "$drv $name: $(grep -E '^(interval|fps|dropped|cpu_ns_per_frame|dq_err_us_p99)=' \
		"$out.txt" | tr '\n' ' ')"
}

{
	echo "kernel=$(uname -r)"
	echo "cpus=$(nproc)"
	echo "hz=$(getconf CLK_TCK)"
	echo "date=$(date -u +%Y-%m-%dT%H:%MZ)"
	echo "vivid_args=node_types=1 (each instance) $VIVID_ARGS"
	echo "sections=${ONLY:-vivid producer}"
} >"$R/env.txt"

if [ "$ONLY" = producer ]; then
	"$(dirname "$0")/guest-producer.sh"
	log "done"
	exit 0
fi

core_modules
log "single device: vivi n_devs=1, vivid n_devs=1 node_types=1 $VIVID_ARGS"
setup_single

# idle cost: open, 5 s idle, S_FMT, REQBUFS
for drv in vivi vivid; do
	vivi-bench -I "$IDLE" -k "${KPAT[$drv]}" -f YUYV -s 640x360 -b 8 \
		"${DEV[$drv]}" >"$R/idle-$drv.txt" 2>"$R/idle-$drv.err" ||
		log "$drv idle: vivi-bench failed: $(tail -n 1 "$R/idle-$drv.err")"
	log "$drv idle: $(tr '\n' ' ' <"$R/idle-$drv.txt")"
done

for k in $(seq "$REPEAT"); do
	# the platform's floor: a plain process sleeping to absolute deadlines
	vivi-timing -B -r 30 -n 300 >"$R/floor.$k.txt" 2>&1
	log "floor: $(grep -E '^sleep_(err|late)_us_p99=' "$R/floor.$k.txt" | tr '\n' ' ')"
	for cfg in $CONFIGS; do
		IFS=: read -r name fcc size rate frames <<<"$cfg"
		for drv in vivi vivid; do
			r=${rate%%,*}
			[ "$drv" = vivid ] && r=${rate##*,}
			sfx=$name
			[ "$REPEAT" -gt 1 ] && sfx=$name.$k
			csv=()
			[ "$k" = 1 ] && csv=(-c "$R/frames-$name-$drv.csv")
			run "$drv" "$sfx" -f "$fcc" -s "$size" -r "$r" -n "$frames" \
				"${csv[@]}"
		done
	done
done
echo "configs=$CONFIGS" >>"$R/env.txt"
echo "repeat=$REPEAT" >>"$R/env.txt"

if [ "$PROFILE" != 0 ] && command -v perf >/dev/null; then
	for p in $PROFILE; do
		IFS=: read -r fcc size rate frames <<<"$p"
		for drv in vivi vivid; do
			f="$R/profile-$fcc-$size-$drv.txt"
			perf record -q -e cpu-clock -a -o "/tmp/perf.data" -- \
				vivi-bench -k "${KPAT[$drv]}" -i "${INPUT[$drv]}" \
				-f "$fcc" -s "$size" -r "$rate" -n "$frames" \
				"${DEV[$drv]}" >"$f.run" 2>&1
			# perf may name a kthread after its parent (kthreadd)
			perf report -q --stdio --sort sym -i /tmp/perf.data \
				--tid "$(sed -n 's/^thread_pids=//p' "$f.run")" \
				2>/dev/null | grep -v '^$' | head -n 30 >"$f"
			log "$drv profile $p: $(head -n 4 "$f" | tr -s ' ' | tr '\n' ';')"
		done
	done
fi

# scale: the most concurrent 640x360@30 YUYV streams with no drops
log "scale: vivi n_devs=$SCALE_MAX, vivid n_devs=$SCALE_MAX node_types=1,... $VIVID_ARGS"
load_drivers "$SCALE_MAX" || { echo "bench: cannot load $SCALE_MAX devices"; exit 1; }
for _ in $(seq 50); do
	[ "$(nodes vivi | wc -l)" -ge "$SCALE_MAX" ] &&
		[ "$(nodes vivid | wc -l)" -ge "$SCALE_MAX" ] && break
	sleep 0.1
done

# scale_try DRV K: K streams at once for SCALE_SECS; true if all kept up
# in one of SCALE_TRIES tries (a busy host can stall one); the deciding try
# is copied to scale-DRV-K.txt
scale_try() {
	local drv=$1 k=$2 t out devs rc=1
	# shellcheck disable=SC2207 # node paths have no spaces
	devs=($(nodes "$drv" | head -n "$k"))
	for t in $(seq "$SCALE_TRIES"); do
		out="$R/scale-$drv-$k.try$t.txt"
		vivi-bench -k "${KPAT[$drv]}" -i "${INPUT[$drv]}" -f YUYV \
			-s 640x360 -r 30 -d "$SCALE_SECS" "${devs[@]}" \
			>"$out" 2>"$out.err" ||
			log "$drv scale $k: vivi-bench failed: $(tail -n 1 "$out.err")"
		log "$drv scale $k, try $t: $(grep -E '^(streams|streams_ok|frames_total|cpu_ns_per_frame)=' \
			"$out" | tr '\n' ' ')"
		if [ "$(sed -n 's/^streams_ok=//p' "$out")" = "$k" ]; then
			rc=0
			break
		fi
	done
	{
		cat "$out"
		echo "tries_used=$t"
		grep -q '^streams_ok=' "$out" ||
			echo "error=vivi-bench: $(tail -n 1 "$out.err")"
	} >"$R/scale-$drv-$k.txt"
	return $rc
}

for drv in vivi vivid; do
	INPUT[$drv]=$(webcam_input "$(nodes "$drv" | head -n 1)")
	good=0 bad=$((SCALE_MAX + 1)) k=1
	# double until one fails, then bisect
	while [ "$k" -le "$SCALE_MAX" ]; do
		if scale_try "$drv" "$k"; then
			good=$k
			[ "$k" = "$SCALE_MAX" ] && break
			k=$((k * 2))
			[ "$k" -gt "$SCALE_MAX" ] && k=$SCALE_MAX
		else
			bad=$k
			break
		fi
	done
	while [ $((bad - good)) -gt 1 ] && [ "$bad" -le "$SCALE_MAX" ]; do
		k=$(((good + bad) / 2))
		if scale_try "$drv" "$k"; then good=$k; else bad=$k; fi
	done
	{
		echo "scale_max=$SCALE_MAX"
		echo "scale_secs=$SCALE_SECS"
		echo "scale_tries=$SCALE_TRIES"
		echo "sustained=$good"
	} >"$R/scale-$drv.txt"
	log "$drv scale: $good concurrent streams sustained"
done
rmmod vivid
unload_vivi
[ "$ONLY" = vivid ] || "$(dirname "$0")/guest-producer.sh"
log "done"
