#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Inside the VM (from tests/bench/guest-bench.sh): producer QBUF to consumer
# DQBUF latency and CPU per frame of vivi's producer node (Producer Clock
# and Camera Clock) and of v4l2loopback, in this one boot. Leaves the raw
# logs in $VIVI_OUT/producer/ for tests/bench/report.py; prints progress
# only (a benchmark asserts nothing).
#
# Each run: vivi-produce feeds YUYV 1280x720 at 30 fps from a file of
# distinct frames until stopped (-P: each frame's QBUF time); a consumer
# (vivi-produce -c -M, YUYV 1280x720) dequeues VIVI_BENCH_PRODUCER_FRAMES
# frames, naming the fed frame each one is (-U: its CPU window, and the
# whole guest's /proc/stat ticks, from its first DQBUF to its last).
#
# Knobs: VIVI_BENCH_PRODUCER_FRAMES (300), VIVI_BENCH_PRODUCER_REPEAT (3:
# rounds of the three runs, pooled by the report). From bench-vm.sh:
# VIVI_LOOPBACK_KO (the v4l2loopback.ko it built for this kernel; empty:
# skipped, VIVI_LOOPBACK_SKIP saying why), VIVI_LOOPBACK_VERSION.
set -u
# shellcheck source=tests/guest/lib.sh
. "$(dirname "$0")/../guest/lib.sh"

FRAMES=${VIVI_BENCH_PRODUCER_FRAMES:-300}
REPEAT=${VIVI_BENCH_PRODUCER_REPEAT:-3}
LOOP_KO=${VIVI_LOOPBACK_KO:-}
SIZE=1280x720
FPS=30
# distinct frames in the fed file (vivi-produce takes 64 at most): a frame
# is told from its next showing 2 s later
NDIST=60
P=$OUT/producer
T=/tmp/bench-producer
T0=$(date +%s)
rm -rf "$P" "$T"
mkdir -p "$P" "$T"

log() { echo "bench: [$(($(date +%s) - T0)) s] producer: $*"; }

# run NAME PROD CAP: one producer and one consumer, logs in $P/NAME-*.log
run() {
	local name=$1 prod=$2 cap=$3 ppid cpid sleeper who
	vivi-produce -P -U -f YUYV -s "$SIZE" -r "$FPS" "$prod" "$T/frames.yuyv" \
		>"$P/$name-producer.log" 2>&1 &
	ppid=$!
	# with exclusive_caps=1 v4l2loopback offers capture only once its
	# producer streams; every peer gets the same order
	for _ in $(seq 200); do
		[[ $(<"$P/$name-producer.log") == *streaming* ]] && break
		kill -0 "$ppid" 2>/dev/null || break
		sleep 0.1
	done
	vivi-produce -U -c -f YUYV -s "$SIZE" -r "$FPS" -n "$FRAMES" \
		-M "$T/frames.yuyv" "$cap" >"$P/$name-consumer.log" 2>&1 &
	cpid=$!
	# no polling while it runs: the whole guest's CPU is measured
	sleep $((FRAMES / FPS + 30)) &
	sleeper=$!
	wait -n -p who "$cpid" "$sleeper"
	if [ "$who" = "$cpid" ]; then
		kill "$sleeper" 2>/dev/null
	else
		log "$name: the consumer did not get $FRAMES frames in time"
		kill -USR1 "$cpid" 2>/dev/null
	fi
	wait "$cpid" "$sleeper" 2>/dev/null
	kill -TERM "$ppid" 2>/dev/null
	wait "$ppid"
	# vivi's own figures of the run: the stats reset at STREAMON
	[ "$cap" = "$CAP" ] && cat "/sys/kernel/debug/vivi/${CAP##*/}/stats" \
		>"$P/$name.stats" 2>/dev/null
	log "$name: $(grep -h -E '^(cpu|frames=|stopped|error)' "$P/$name-consumer.log" \
		"$P/$name-producer.log" | tr '\n' ' ')"
}

core_modules
load_vivi n_devs=1 producer=1 || { log "cannot load vivi producer=1"; exit 1; }
if ! CAP=$(node_named "vivi 0") || ! PROD=$(node_named "vivi 0 (producer)"); then
	log "no 'vivi 0' and 'vivi 0 (producer)' nodes"
	exit 1
fi
log "vivi producer=1: producer $PROD, consumer $CAP"
LOOP=
if [ -n "$LOOP_KO" ]; then
	if insmod "$LOOP_KO" devices=1 exclusive_caps=1 max_buffers=4 \
		card_label=v4l2loopback-bench; then
		for _ in $(seq 50); do
			LOOP=$(node_named v4l2loopback-bench) && break
			sleep 0.1
		done
		[ -n "$LOOP" ] || VIVI_LOOPBACK_SKIP="v4l2loopback loaded, but no node appeared"
	else
		VIVI_LOOPBACK_SKIP="insmod v4l2loopback failed: $(dmesg | tail -n 1)"
	fi
fi
log "v4l2loopback: ${LOOP:-skipped: ${VIVI_LOOPBACK_SKIP:-no module}}"
{
	echo "kernel=$(uname -r)"
	echo "cpus=$(nproc)"
	echo "date=$(date -u +%Y-%m-%dT%H:%MZ)"
	echo "cmdline=$(cat /proc/cmdline)"
	echo "frames=$FRAMES"
	echo "repeat=$REPEAT"
	echo "size=$SIZE"
	echo "fps=$FPS"
	echo "distinct=$NDIST"
	echo "loopback=${LOOP:+1}"
	echo "loopback_args=devices=1 exclusive_caps=1 max_buffers=4"
	echo "loopback_version=${VIVI_LOOPBACK_VERSION:-}"
	echo "loopback_skip=${VIVI_LOOPBACK_SKIP:-}"
} >"$P/env.txt"

log "making $NDIST random frames"
"$GUEST/producer.py" random "$T/frames.yuyv" "${SIZE%x*}" "${SIZE#*x}" "$NDIST" 25

for k in $(seq "$REPEAT"); do
	# the platform's floor: a plain process sleeping to the same deadlines
	vivi-timing -B -r "$FPS" -n "$FRAMES" >"$P/floor.$k.txt" 2>&1
	log "floor: $(grep -E '^sleep_late_us_(p50|p99|max)=' "$P/floor.$k.txt" | tr '\n' ' ')"
	for mode in 1 0; do
		v4l2-ctl -d "$CAP" -c "frame_pacing=$mode"
		run "vivi-pacing$mode.$k" "$PROD" "$CAP"
	done
	[ -n "$LOOP" ] && run "loopback.$k" "$LOOP" "$LOOP"
done
v4l2-ctl -d "$CAP" -c frame_pacing=0
[ -n "$LOOP" ] && rmmod v4l2loopback
unload_vivi
rm -rf "$T"
log "done"
