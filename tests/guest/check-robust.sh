#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# VM stage: robustness. A probe failing half-way (fail_dev=), two files on
# one node, hot unbind under blocked callers, 100-cycle leak checks, a
# concurrent mix of 8 processes on 4 devices, and the ioctl fuzzer
# (check-fuzz.sh). Runs inside the guest; prints PASS:/FAIL: lines.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mem.sh"
T0=$(date +%s)
CYCLES=${VIVI_CYCLES:-100}

# the kernel log since the last dmesg -C has none of the bad patterns
log_clean() {
	local bad
	bad=$(dmesg | grep -E 'BUG:|WARNING:|Oops|Call Trace|corruption|hung_task|blocked for more than|soft lockup' | head -n 3)
	[ -z "$bad" ] || { echo "$bad"; return 1; }
}

# nothing of vivi is registered
vivi_gone() {
	local left
	left=$( (grep '^vivi ' /proc/modules; ls -d /sys/bus/platform/devices/vivi.* \
		/sys/kernel/debug/vivi; grep -l vivi /sys/class/video4linux/*/name) 2>/dev/null)
	[ -z "$left" ] || { echo "left: $left"; return 1; }
	no_vivi_threads
}

# streams NAME DEV COUNT: NAME passes if DEV delivers COUNT full frames
# over mmap
streams() {
	local size
	size=$(v4l2-ctl -d "$2" -V 2>/dev/null | sed -n 's/.*Size Image *: *//p')
	rm -f /tmp/frames.raw
	v4l2-ctl -d "$2" --stream-mmap --stream-count="$3" --stream-to=/tmp/frames.raw >/dev/null 2>&1
	frames_ok "$1" /tmp/frames.raw "$3" "$size"
}

# what every part needs, outside the parts so that PARTS= can pick any
core_modules
cp "$KO" /tmp/vivi.ko

stage_start "fault injection"
unload_vivi
clear_dmesg
if out=$(insmod /tmp/vivi.ko n_devs=4 fail_dev=4 2>&1); then
	fail "fail_dev: fail_dev=4 with n_devs=4 is refused" "insmod succeeded"
	rmmod vivi
elif grep -q 'Invalid' <<<"$out" && dmesg | grep -q 'vivi: fail_dev=4 is out of range'; then
	pass "fail_dev: fail_dev=4 with n_devs=4 is refused"
else
	fail "fail_dev: fail_dev=4 with n_devs=4 is refused" "$out; $(dmesg | tail -n 1)"
fi
for spec in "4 2" "4 3" "1 0"; do
	read -r n f <<<"$spec"
	name="fail_dev: device $((f + 1)) of $n fails to register"
	clear_dmesg
	if out=$(insmod /tmp/vivi.ko n_devs="$n" fail_dev="$f" 2>&1); then
		fail "$name" "insmod succeeded"
		rmmod vivi
		continue
	fi
	if ! dmesg | grep -q "vivi vivi.$f: fail_dev=$f: failing the probe"; then
		fail "$name" "no injection line in dmesg: $(dmesg | tail -n 2 | tr '\n' ' ')"
	elif dmesg | grep -q 'registered as video'; then
		# nodes go live only once every device has probed
		fail "$name" "a node was registered before the failure: $(dmesg | grep -m1 'registered as video')"
	elif ! left=$(vivi_gone); then
		fail "$name" "$left"
	else
		pass "$name: insmod fails (${out##*: }), nothing is left"
	fi
done
check "fail_dev: kernel log clean after the failed loads" log_clean


# A process (udev, a camera application) may open device 0's node while
# device 7 still probes; when device 7 fails, the module is freed, and a
# file that outlives it runs freed code when it closes. So no node may
# open before every device probed: vivi-opener spins on /dev/video* all
# through the failing insmod.
name="fail_dev: no node opens during an insmod whose last device fails"
clear_dmesg
rm -f /tmp/opener.stop
vivi-opener 120 /tmp/opener.stop >/tmp/opener.out 2>&1 &
op=$!
for _ in $(seq 50); do
	grep -q '^opener: ready' /tmp/opener.out && break
	sleep 0.1
done
out=$(insmod /tmp/vivi.ko n_devs=8 fail_dev=7 2>&1)
rc=$?
touch /tmp/opener.stop
# a close that runs freed module code may leave vivi-opener stuck
pid_gone "$op" 30 || echo "opener: still running after 30 s"
cat /tmp/opener.out
opens=$(grep -c '^opener: opened' /tmp/opener.out)
if [ $rc = 0 ]; then
	fail "$name" "insmod succeeded"
	rmmod vivi
elif [ "$opens" -ne 0 ]; then
	fail "$name" "$opens node(s) opened: $(grep -m1 '^opener: opened' /tmp/opener.out)"
elif ! grep -q '^opener: 0 opens succeeded' /tmp/opener.out; then
	fail "$name" "vivi-opener did not finish: $(tail -n 1 /tmp/opener.out)"
elif ! log=$(log_clean); then
	fail "$name" "$(tr '\n' ' ' <<<"$log")"
else
	pass "$name (insmod: ${out##*: }; $(sed -n 's/^opener: 0 opens succeeded .* in \([0-9]* rounds\)/\1/p' /tmp/opener.out))"
fi
check "fail_dev: a correct insmod right after works" insmod /tmp/vivi.ko n_devs=4
if [ "$(ls /sys/bus/platform/drivers/vivi/ | grep -c '^vivi\.')" -eq 4 ] &&
	D3=$(vivi_node 3); then
	pass "fail_dev: all 4 devices are bound after the reload"
	streams "fail_dev: device 4 streams after the reload" "$D3" 5
else
	fail "fail_dev: all 4 devices are bound after the reload" "$(ls /sys/bus/platform/drivers/vivi/)"
fi
check "fail_dev: rmmod" rmmod vivi
stage_end

stage_start "two files on one node"
load_vivi n_devs=1 "formats=$(non_nv_formats)"
D0=$(vivi_node 0)
vivi-prio "$D0"
stage_end

stage_start "hot unbind"
clear_dmesg
load_vivi n_devs=2 "formats=$(non_nv_formats)"
echo 1 >/sys/module/vivi/parameters/debug
D0=$(vivi_node 0)
D1=$(vivi_node 1)
v4l2-ctl -d "$D1" -v width=320,height=240,pixelformat=YUYV -p 30
vivi-unbind "$D1" vivi.1 dqbuf
if [ ! -e /sys/bus/platform/devices/vivi.1/driver ] && [ ! -e "$D1" ] &&
	[ ! -e "/sys/kernel/debug/vivi/${D1##*/}" ]; then
	pass "unbind: vivi.1 is unbound, its node and debugfs entry are gone"
else
	fail "unbind: vivi.1 is unbound, its node and debugfs entry are gone" \
		"$(ls -l /sys/bus/platform/devices/vivi.1/driver "$D1" 2>&1 | tr '\n' ' ')"
fi
streams "unbind: the other device still streams" "$D0" 5
check "unbind: bind brings vivi.1 back" sh -c 'echo vivi.1 >/sys/bus/platform/drivers/vivi/bind'
if D1=$(vivi_node 1); then
	streams "unbind: the re-bound device streams" "$D1" 10
	[ -e "/sys/kernel/debug/vivi/${D1##*/}/stats" ] &&
		pass "unbind: the re-bound device has its debugfs stats" ||
		fail "unbind: the re-bound device has its debugfs stats" "no /sys/kernel/debug/vivi/${D1##*/}"
	# read(): the lowest rate, so the reader is waiting most of the time
	v4l2-ctl -d "$D1" -v width=320,height=240,pixelformat=YUYV -p 5
	vivi-unbind "$D1" vivi.1 read
	check "unbind: bind again after the read() unbind" sh -c 'echo vivi.1 >/sys/bus/platform/drivers/vivi/bind'
	if D1=$(vivi_node 1); then
		size=$(v4l2-ctl -d "$D1" -V | sed -n 's/.*Size Image *: *//p')
		got=$(dd if="$D1" bs="$size" count=3 iflag=fullblock 2>/dev/null | wc -c)
		[ "$got" -eq $((3 * size)) ] && pass "unbind: read() works after the second bind" ||
			fail "unbind: read() works after the second bind" "$got bytes"
	else
		fail "unbind: bind again after the read() unbind" "no node for vivi-1"
	fi
else
	fail "unbind: the re-bound device streams" "no node for vivi-1"
fi
echo 0 >/sys/module/vivi/parameters/debug
check "unbind: rmmod after unbind and bind" rmmod vivi
check "unbind: nothing left after rmmod" vivi_gone
check "unbind: kernel log clean" log_clean
stage_end

stage_start "leak cycles"
# insmod/rmmod, four devices each time
for _ in 1 2 3; do insmod /tmp/vivi.ko n_devs=4 && rmmod vivi; done
mem_snap /tmp/m0
t=$(date +%s)
ok=0
for ((i = 0; i < CYCLES; i++)); do
	insmod /tmp/vivi.ko n_devs=4 || break
	rmmod vivi || break
	ok=$((ok + 1))
done
mem_snap /tmp/m1
[ "$ok" -eq "$CYCLES" ] && pass "cycle: $CYCLES insmod/rmmod cycles of 4 devices ($(($(date +%s) - t)) s)" ||
	fail "cycle: $CYCLES insmod/rmmod cycles of 4 devices" "cycle $ok failed"
mem_check "leak: $CYCLES insmod/rmmod cycles" /tmp/m0 /tmp/m1 "$CYCLES"
check "leak: no generator thread left after insmod/rmmod" no_vivi_threads

load_vivi n_devs=1
D0=$(vivi_node 0)
v4l2-ctl -d "$D0" -v width=160,height=120,pixelformat=YUYV -p 120
vivi-cycle "$D0" open 10 >/dev/null
mem_snap /tmp/m0
vivi-cycle "$D0" open "$CYCLES"
mem_snap /tmp/m1
mem_check "leak: $CYCLES open/close cycles" /tmp/m0 /tmp/m1 "$CYCLES"

vivi-cycle "$D0" stream 6 >/dev/null
mem_snap /tmp/m0
t=$(date +%s)
vivi-cycle "$D0" stream "$CYCLES"
echo "cycle: $CYCLES stream cycles took $(($(date +%s) - t)) s"
mem_snap /tmp/m1
mem_check "leak: $CYCLES STREAMON/STREAMOFF cycles" /tmp/m0 /tmp/m1 "$CYCLES"
check "leak: no generator thread left after the stream cycles" no_vivi_threads
refcnt=$(cat /sys/module/vivi/refcnt)
[ "$refcnt" -eq 0 ] && pass "leak: module reference count is back to 0" ||
	fail "leak: module reference count is back to 0" "refcnt $refcnt"
stage_end

stage_start "concurrent mix"
clear_dmesg
load_vivi n_devs=4 n_inputs=2
hung=/proc/sys/kernel/hung_task_timeout_secs
old_hung=$(cat $hung 2>/dev/null)
# a task stuck for 10 s in the kernel gets reported (vm.sh fails on it)
[ -n "$old_hung" ] && echo 10 >$hung
vivi-stress "${VIVI_STRESS_SECS:-60}" "$(vivi_node 0)" "$(vivi_node 1)" \
	"$(vivi_node 2)" "$(vivi_node 3)"
# give the detector one more period to speak
sleep 11
[ -n "$old_hung" ] && echo "$old_hung" >$hung
check "stress: kernel log clean (no WARN, no hung task)" log_clean
check "stress: no generator thread left" no_vivi_threads
check "stress: rmmod after the mix" rmmod vivi
stage_end

"$(dirname "$0")/check-fuzz.sh" || fail "check-fuzz" "exited with status $?"

echo "robust: stage wall time $(($(date +%s) - T0)) s"
