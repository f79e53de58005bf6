#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""median-interval.py NOMINAL TOL < "sequence time" lines

Prints the mean frame interval as the median slope between frames half the
run apart, "<interval> (median over N frame pairs, M frames)", and exits 1
unless it is within TOL (a fraction) of NOMINAL, in the unit of the times.
Each pair spans half the run, so one late wake-up weighs little in it and
moves only the pairs that contain it (lib.sh's median_interval).
"""
import statistics
import sys
import helper


def main():
    want, tol = float(sys.argv[1]), float(sys.argv[2])
    p = [tuple(map(float, ln.split())) for ln in sys.stdin if ln.strip()]
    h = len(p) // 2
    m = statistics.median((p[i + h][1] - p[i][1]) / (p[i + h][0] - p[i][0])
                          for i in range(h)) if h else 0
    print("%.6g (median over %d frame pairs, %d frames)" % (m, h, len(p)))
    return not (h and abs(m / want - 1) < tol)


if __name__ == "__main__":
    helper.run(main)
