#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tests/manifest.sh LOG [all]: every host step and VM stage in LOG (between
# "=== stage NAME" or "=== step NAME" and its closing "... rc=N" line)
# printed at least the PASS lines tests/manifest.txt expects of it. Fewer
# means checks that never ran: a FAIL naming the stage. With "all", every
# stage in the manifest but those marked full-only must also be in LOG (a
# plain make check). A step or stage that printed an "=== filtered" line
# (make unit T=..., make check PARTS=...) ran only some of its checks on
# purpose: its count is not checked, and the line says so.
set -u
log=$1
want=$(dirname "$0")/manifest.txt
awk -v all="${2:-}" '
	FNR == NR {
		if ($0 !~ /^#/ && NF >= 2) {
			min[$1] = $2
			if ($3 != "full-only")
				order[++n] = $1
		}
		next
	}
	/^=== (stage|step) [^ ]+$/ { cur = $3; seen[cur] = 1; got[cur] += 0; next }
	/^=== (stage|step) [^ ]+ rc=/ { cur = ""; next }
	cur != "" && /^=== filtered/ { filtered[cur] = 1; next }
	cur != "" && /^PASS: / { got[cur]++ }
	END {
		bad = 0
		for (s in seen) {
			if (!(s in min)) {
				printf "FAIL: manifest: %s: not in tests/manifest.txt\n", s
				bad++
			} else if (s in filtered) {
				printf "manifest: %s: filtered, %d PASS lines: the count check (%d) is skipped\n", s, got[s], min[s]
				nfilt++
			} else if (got[s] < min[s]) {
				printf "FAIL: manifest: %s: %d PASS lines, expected at least %d\n", s, got[s], min[s]
				bad++
			} else if (got[s] > min[s]) {
				printf "manifest: %s: %d PASS lines, the manifest says %d: raise it\n", s, got[s], min[s]
			}
		}
		for (i = 1; all == "all" && i <= n; i++)
			if (!(order[i] in seen)) {
				printf "FAIL: manifest: %s: did not run\n", order[i]
				bad++
			}
		if (!bad && nfilt)
			printf "PASS: manifest: every step and stage that ran printed its PASS lines (%d of them; %d filtered, not counted)\n", length(seen), nfilt
		else if (!bad)
			printf "PASS: manifest: every step and stage that ran printed its PASS lines (%d of them)\n", length(seen)
	}' "$want" "$log"
