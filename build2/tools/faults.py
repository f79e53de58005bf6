#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check a vivi-timing CSV (index,sequence,timestamp_us,dequeue_us,bytesused,
flags) against the fault that vivi was asked to inject (debugfs faults/).

  faults.py [--starved K] drop CSV N
                                 every sequence s with s % N == N - 1 lost,
                                 no other
  faults.py percent CSV PCT SEED exactly the sequences the driver's hash
                                 picks are lost
  faults.py corrupt CSV N        exactly s % N == N - 1 carry the ERROR flag,
                                 with the full payload
  faults.py stall CSV MS FPS     one gap of MS worth of frames, no other
  faults.py wrap CSV START       START, START + 1, ... modulo 2^32

--starved K allows K more lost frames, anywhere: those the driver itself
counted as dropped for want of a queued buffer (dropped - injected - stalled
in its stats), which a starved emulated host causes now and then.
Prints what it found; exits 1 if it does not match, with the reason.
The last line is "lost=N", the injected losses inside the capture.
"""
import csv
import sys
import helper

FLAG_ERROR = 0x40
M64 = (1 << 64) - 1


def rows(path):
    with open(path) as f:
        return [(int(r["sequence"]), float(r["timestamp_us"]),
                 int(r["bytesused"]), int(r["flags"], 16))
                for r in csv.DictReader(f)]


def unwrap(seqs):
    """Sequence numbers as a monotonic count across a 32-bit wrap."""
    out, base, prev = [], 0, None
    for s in seqs:
        if prev is not None and s < prev:
            base += 1 << 32
        out.append(base + s)
        prev = s
    return out


def inject_hash(x):
    """vivi_inject_hash(): splitmix64's finalizer."""
    x ^= x >> 30
    x = (x * 0xbf58476d1ce4e5b9) & M64
    x ^= x >> 27
    x = (x * 0x94d049bb133111eb) & M64
    return x ^ (x >> 31)


STARVED = 0


def expect_lost(r, lost_if):
    seqs = [s for s, *_ in r]
    have = set(seqs)
    span = range(seqs[0], seqs[-1] + 1)
    want = {s for s in span if lost_if(s)}
    lost = {s for s in span if s not in have}
    print("frames %d, sequences %d..%d, lost %d, expected lost %d" %
          (len(r), seqs[0], seqs[-1], len(lost), len(want)))
    if not want <= lost or len(lost - want) > STARVED:
        print("unexpected: lost %s; kept %s (the driver counts %d starved)"
              % (sorted(lost - want)[:10], sorted(want - lost)[:10], STARVED))
        return None
    return len(want)


def main(argv):
    global STARVED
    if argv[1] == "--starved":
        STARVED = int(argv[2])
        argv = argv[:1] + argv[3:]
    cmd, r = argv[1], rows(argv[2])
    if len(r) < 2:
        print("too few frames: %d" % len(r))
        return 1
    if cmd == "drop":
        n = int(argv[3])
        lost = expect_lost(r, lambda s: s % n == n - 1)
    elif cmd == "percent":
        pct, seed = int(argv[3]), int(argv[4])
        lost = expect_lost(r, lambda s: inject_hash(seed << 32 | s) % 100 <
                           pct)
        # the rule picks the share asked for: over 20000 sequences within
        # 1.5 points (5 sigma at 20%), so matching it frame by frame means
        # the driver drops that share too
        n = 20000
        share = sum(inject_hash(seed << 32 | s) % 100 < pct
                    for s in range(n)) / n
        print("the seeded rule drops %.2f%% of %d sequences, %d%% asked"
              % (100 * share, n, pct))
        if abs(share - pct / 100) > 0.015:
            lost = None
    elif cmd == "corrupt":
        n = int(argv[3])
        lost = expect_lost(r, lambda s: False)
        bad = [s for s, _, _, fl in r if bool(fl & FLAG_ERROR) !=
               (s % n == n - 1)]
        sizes = {b for _, _, b, _ in r}
        nerr = sum(1 for *_, fl in r if fl & FLAG_ERROR)
        print("error buffers %d, payload sizes %s" % (nerr, sorted(sizes)))
        if bad or len(sizes) != 1 or not nerr:
            print("ERROR flag wrong on sequences %s" % bad[:10])
            lost = None
    elif cmd == "stall":
        ms, fps = float(argv[3]), float(argv[4])
        seqs = [s for s, *_ in r]
        gaps = [(seqs[i + 1] - seqs[i] - 1, r[i + 1][1] - r[i][1])
                for i in range(len(r) - 1) if seqs[i + 1] != seqs[i] + 1]
        want = ms * fps / 1000
        print("gaps (frames, us): %s, expected one of about %.0f frames"
              % (gaps, want))
        lost = sum(g for g, _ in gaps)
        if len(gaps) != 1 or abs(gaps[0][0] - want) > 3 or \
                abs(gaps[0][1] / 1e3 - ms) > 4 * 1000 / fps + 50:
            lost = None
    elif cmd == "wrap":
        start = int(argv[3])
        u = unwrap([s for s, *_ in r])
        ok = r[0][0] == start and u == list(range(u[0], u[0] + len(u)))
        print("sequences %d..%d (%d frames)" % (r[0][0], r[-1][0], len(r)))
        lost = 0 if ok else None
    else:
        print("unknown check %s" % cmd)
        return 2
    if lost is None:
        return 1
    print("lost=%d" % lost)
    return 0


if __name__ == "__main__":
    helper.run(main, sys.argv)
