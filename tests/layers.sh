#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The driver's files form layers: no file uses a symbol of a file that uses
# one of its own, directly or through others. Reads the symbols each object
# defines and needs (nm) and sorts the "user provider" pairs with tsort,
# which reports any loop. Prints one PASS:/FAIL: line and the layer order.
#
#   tests/layers.sh DIR   DIR holds the built vivi_*.o (default: the tree)
set -uo pipefail
cd "$(dirname "$0")/.."
dir=${1:-.}
objs=$(sed -n 's/^vivi-y *:= *//p' Kbuild)
pairs=
for o in $objs; do
	if [ ! -f "$dir/$o" ]; then
		echo "FAIL: lint: layers: $dir/$o not built"
		exit 1
	fi
done
for o in $objs; do
	need=$(nm -u "$dir/$o" | awk '{ print $2 }')
	for d in $objs; do
		[ "$d" = "$o" ] && continue
		def=$(nm --defined-only "$dir/$d" | awk '$2 ~ /^[TDRB]$/ { print $3 }')
		if [ -n "$(comm -12 <(sort -u <<<"$need") <(sort -u <<<"$def"))" ]; then
			pairs+="${o%.o} ${d%.o}"$'\n'
		fi
	done
	# every object is a node of the graph, even one that uses no other
	pairs+="${o%.o} ${o%.o}"$'\n'
done
if ! order=$(tsort <<<"$pairs" 2>&1) || grep -q 'loop' <<<"$order"; then
	echo "FAIL: lint: layers: the driver's files use each other in a loop"
	grep -v '^vivi_' <<<"$order" | sed 's/^/    /'
	sed 's/^/    uses: /' <<<"$pairs" | awk '$2 != $3'
	exit 1
fi
echo "PASS: lint: layers: no dependency loop between driver files ($(tr '\n' ' ' <<<"$order"| sed 's/ $//; s/ / -> /g'))"
