#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check-mutants: proof that make check can fail. Each mutant plants one
# known defect in a copy of the tree (the committed files, under
# $BUILD/mutants/N), runs the part of make check that should catch it, and
# counts it caught if that run prints a FAIL line. Prints a table, and
# "N passed, N failed" where a pass is a mutant caught.
#
#   tests/mutants.sh [N...]    only the mutants numbered N (1-based)
set -uo pipefail
cd "$(dirname "$0")/.."
: "${KVER:?KVER not set (run through make)}" "${BUILD:?}"
root=$BUILD/mutants

# NAME|FILE|PERL SUBSTITUTION (perl -0pi -e)|WHERE: "unit" or VM STAGES
mutants=(
	"a plane offset one byte off|vivi_pack.c|s/(\t\toffset\[p\] = size);/\$1 + !!p;/|check-formats"
	"4:2:0 chroma from the wrong row|vivi_gen.c|s/(vivi_fill_plane\(.*?ya = sub \? )2 \* r : r;/\${1}2 * r + 1 : r;/s|unit"
	"one sequence number skipped in 64|vivi_stream.c|s/(\tbuf->vb.sequence = c->sequence\+\+;)/\tc->sequence += !(c->sequence & 63);\n\$1/|check-gen"
	"a 1 kB leak per stream|vivi_stream.c|s/(\tvivi_inject_stream_start\(cap\);)/\$1\n\tif (!kmalloc(1024, GFP_KERNEL))\n\t\treturn -ENOMEM;/|check-robust"
	"a crash in one unit test|tests/unit/test_band.c|s/(int main\([^)]*\)\n\{[^\n]*\n)/\$1\tabort();\n/|unit"
	"MJPEG quality ignored|vivi_jpeg.c|s/vivi_comp_init\(&j->comp\[(\d)\], (\d), quality\);/vivi_comp_init(&j->comp[\$1], \$2, 95);/g|check-mjpeg"
	"timestamps one period late|vivi_stream.c|s/vb->timestamp = end_ns \?: ktime_get_ns\(\);/vb->timestamp = (end_ns ?: ktime_get_ns()) + 33333333;/|check-gen"
	"templates kept across a key change|vivi_gen.c|s/\t\tmemset\(c->slot_used, 0, sizeof\(c->slot_used\)\);\n\t\tmemset\(c->slot_reps, 0, sizeof\(c->slot_reps\)\);\n//|unit"
	"the last line of every plane left unwritten|vivi_gen.c|s/(\tvivi_band_rows\(&g->b, pd, &r, &r1\);)/\$1\n\tif (r1 == (pd->vsub == 2 ? DIV_ROUND_UP(g->b.h, 2) : g->b.h))\n\t\tr1--;/|check-transit"
	"MJPEG sizeimage recomputed at REQBUFS|vivi_stream.c|s/(\tsizes\[0\] = cap->node.fmt.sizeimage;\n\treturn 0;)/\tvivi_fmt_try_pix(&cap->node.vivi->cfg.formats, &cap->node.vivi->cfg.modes, &cap->jpeg, &cap->node.fmt);\n\$1/|check-mjpeg"
	"a stage that dies of an unbound variable|tests/guest/check-transit.sh|s/(stage_start \"transitions\"\n)/\$1echo \"\\\$no_such_variable\"\n/|check-transit"
	"a stall that outlives its file|vivi_ioctl.c|s/\tvivi_inject_release\(vivi_file_cap\(file\), file->private_data\);\n//|check-faults"
	"timestamps one period early|vivi_stream.c|s/vb->timestamp = end_ns \?: ktime_get_ns\(\);/vb->timestamp = (end_ns ?: ktime_get_ns()) - 33333333;/|check-gen"
	"a 100-byte leak per stream|vivi_stream.c|s/(\tvivi_inject_stream_start\(cap\);)/\$1\n\tif (!kmalloc(100, GFP_KERNEL))\n\t\treturn -ENOMEM;/|check-robust"
	"the top row of 4:2:0 chroma zeroed (a check of the lower rows misses it)|vivi_gen.c|s/(\t\tline = vivi_copy_run\(g, pl, i, line, stride, lb, n\);\n)/\$1\t\tif (sub \&\& !r)\n\t\t\tmemset(line - n * stride, 0, lb);\n/|check-formats"
)

# run_one N: plant mutant N in a fresh copy and run what should catch it
run_one() {
	local n=$1 name file expr where dir log first
	IFS='|' read -r name file expr where <<<"${mutants[n - 1]}"
	dir=$root/$n
	log=$root/$n.log
	rm -rf "$dir" && mkdir -p "$dir"
	git ls-files -z | tar --null -cT - | tar -x -C "$dir"
	cp "$dir/$file" "$dir/$file.orig"
	perl -0pi -e "$expr" "$dir/$file"
	if cmp -s "$dir/$file" "$dir/$file.orig"; then
		ROW="| $n | $name | $where | NOT PLANTED (the substitution matched nothing) | |"
		echo "FAIL: mutants: $n $name: the substitution matched nothing"
		return
	fi
	if [ "$where" = unit ]; then
		make -s -C "$dir/tests/unit" >"$log" 2>&1
	else
		make -s -C "$dir" check STAGES="$where" BUILD="$dir/build" \
			>"$log" 2>&1
	fi
	first=$(grep -m 1 '^FAIL: ' "$log" | cut -c 1-200)
	if [ -n "$first" ]; then
		ROW="| $n | $name | $where | caught | \`${first//|/\\|}\` |"
		echo "PASS: mutants: $n $name: caught by $where"
	else
		ROW="| $n | $name | $where | MISSED | $(grep -cE '^PASS: ' "$log") PASS lines, no FAIL |"
		echo "FAIL: mutants: $n $name: $where printed no FAIL line"
	fi
	rm -rf "$dir"
}

mkdir -p "$root"
sel=("$@")
[ ${#sel[@]} -gt 0 ] || sel=($(seq ${#mutants[@]}))
rows=()
for n in "${sel[@]}"; do
	echo "== mutant $n"
	t0=$(date +%s)
	run_one "$n"
	rows+=("${ROW% |} ($(($(date +%s) - t0)) s) |")
done
{
	echo "| # | planted defect | run | result | first FAIL line |"
	echo "| --- | --- | --- | --- | --- |"
	printf '%s\n' "${rows[@]}"
} | tee "$root/table.md"
passed=$(grep -c '| caught |' "$root/table.md")
echo "$passed passed, $((${#sel[@]} - passed)) failed"
[ "$passed" = ${#sel[@]} ]
