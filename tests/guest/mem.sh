# SPDX-License-Identifier: GPL-2.0
# Leak measurement for the guest stages (sourced after lib.sh).
#
# mem_snap FILE: drop the clean caches, then record /proc/meminfo and the
# bytes in use per slab cache (active objects * object size).
# mem_check NAME BEFORE AFTER CYCLES: print the deltas and fail NAME if
#   - unreclaimable slab grew by more than MEM_SLAB_KB (default 512 kB), or
#   - vmalloc use grew by more than MEM_VMALLOC_KB (default 256 kB), or
#   - one slab cache gained CYCLES/2 objects or more while also growing by
#     MEM_CYCLE_B (default 100) bytes a cycle or more: a leak of 100 bytes
#     a cycle (kmalloc-128, whose objects slub_debug's red zones and
#     tracking make 384 bytes: +100 objects, +37.5 kB at 100 cycles).
#     Caches that gained that many objects are listed either way.
# vmap_area is left out of the per-cache check: vfree() releases the pages
# at once (VmallocUsed drops) but purges the address ranges lazily, in
# batches of tens of MB, so their bookkeeping objects pile up between
# purges without being leaked. With MEM_NET_VMAP=1 the SUnreclaim bound
# leaves vmap_area's growth out too (a bound tighter than a purge batch's
# bookkeeping, as check-configfs's 100 kB).
# The bounds sit above the noise measured in this VM: over 100 cycles no
# cache gained 50 objects and the largest growth was task_struct's
# +16.8 kB in 2 objects; they sit well below one leaked device (about 30 kB
# per device, 4 per insmod cycle) or one leaked set of frame buffers.

mem_snap() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	sleep 0.5
	{
		grep -E '^(MemFree|SUnreclaim|VmallocUsed|Slab):' /proc/meminfo |
			awk '{ print "mem", $1, $2 }'
		awk 'NR > 2 { print "slab", $1, $2, $4 }' /proc/slabinfo
	} >"$1"
}

mem_check() {
	local name=$1 before=$2 after=$3 cycles=$4
	local slab_kb=${MEM_SLAB_KB:-512} vm_kb=${MEM_VMALLOC_KB:-256}
	local cycle_b=${MEM_CYCLE_B:-100} out
	out=$(awk -v cycles="$cycles" -v slab_kb="$slab_kb" -v vm_kb="$vm_kb" \
		-v cycle_b="$cycle_b" -v net_vmap="${MEM_NET_VMAP:-0}" '
		FNR == NR && $1 == "mem" { m0[$2] = $3; next }
		FNR == NR && $1 == "slab" { o0[$2] = $3; s0[$2] = $4; next }
		$1 == "mem" { m1[$2] = $3; next }
		$1 == "slab" { o1[$2] = $3; s1[$2] = $4; next }
		END {
			dfree = m1["MemFree:"] - m0["MemFree:"]
			dsun = m1["SUnreclaim:"] - m0["SUnreclaim:"]
			dvm = m1["VmallocUsed:"] - m0["VmallocUsed:"]
			dva = (o1["vmap_area"] * s1["vmap_area"] - o0["vmap_area"] * s0["vmap_area"]) / 1024
			printf "deltas: MemFree %+d kB, SUnreclaim %+d kB (vmap_area %+.0f kB of it), VmallocUsed %+d kB;", dfree, dsun, dva, dvm
			n = 0
			for (c in o1) {
				if (c == "vmap_area")
					continue
				dobj = o1[c] - o0[c]
				db = (o1[c] * s1[c] - o0[c] * s0[c]) / 1024
				if (2 * dobj >= cycles) {
					many = many sprintf(" %s +%d (%+.1f kB)", c, dobj, db)
					if (db * 1024 >= cycles * cycle_b)
						bad = bad sprintf(" %s +%d objects (+%.1f kB, %.0f bytes a cycle)", c, dobj, db, db * 1024 / cycles)
				}
				if (db > top1) { top3 = top2; t3 = t2; top2 = top1; t2 = t1; top1 = db; t1 = c }
				else if (db > top2) { top3 = top2; t3 = t2; top2 = db; t2 = c }
				else if (db > top3) { top3 = db; t3 = c }
			}
			printf " largest slab growth:"
			if (t1 != "") printf " %s %+.1f kB", t1, top1
			if (t2 != "") printf ", %s %+.1f kB", t2, top2
			if (t3 != "") printf ", %s %+.1f kB", t3, top3
			if (t1 == "") printf " none"
			if (cycles < 1000000)
				printf "; caches with +%d objects or more:%s", (cycles + 1) / 2, many == "" ? " none" : many
			printf "\n"
			if (net_vmap && dsun - dva > slab_kb)
				printf "ERR SUnreclaim grew by %d kB, %d kB without vmap_area (bound %d)\n", dsun, dsun - dva, slab_kb
			else if (!net_vmap && dsun > slab_kb)
				printf "ERR SUnreclaim grew by %d kB (bound %d)\n", dsun, slab_kb
			if (dvm > vm_kb) printf "ERR VmallocUsed grew by %d kB (bound %d)\n", dvm, vm_kb
			if (bad != "") printf "ERR per-cycle growth:%s\n", bad
		}' "$before" "$after")
	echo "mem: $name: $(grep -v '^ERR' <<<"$out")"
	if grep -q '^ERR' <<<"$out"; then
		fail "$name" "$(grep '^ERR' <<<"$out" | sed 's/^ERR //' | tr '\n' ';')"
	else
		pass "$name (within SUnreclaim +${slab_kb} kB$([ "${MEM_NET_VMAP:-0}" = 1 ] &&
			echo ' without vmap_area'), VmallocUsed +${vm_kb} kB)"
	fi
}

# no_vivi_threads: no generator thread (vivi-N, vivi-N.K) is left
no_vivi_threads() {
	local t
	t=$(grep -lxE 'vivi-[0-9]+(\.[0-9]+)?' /proc/[0-9]*/comm 2>/dev/null)
	[ -z "$t" ] || { echo "left: $t"; return 1; }
}
