#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check vivi's MJPEG frames with libjpeg's djpeg, independently of vivi.

  mjpeg.py count FILE
      Print how many whole JPEGs (SOI to EOI, found by walking the markers)
      FILE holds back to back, as v4l2-ctl --stream-to writes them; exit 1
      if anything else is in it.
  mjpeg.py check NAME WxH FILE REF [--count N] [--max BYTES] [--tol N]
                 [--psnr DB] [--decode-all] [--no-bars]
      FILE holds N JPEGs of at most BYTES each; djpeg decodes the first
      (every one with --decode-all) with exit status 0 and no warning, to
      WxH. Every pixel of the first frame's eight 75% bar interiors (the
      middle half of each bar, below the top quarter) is within TOL of the
      expected R'G'B', and its PSNR against REF, a raw YUYV frame of the
      same settings decoded by frame.py, is at least DB (0: not compared,
      for frames with the changing on-screen text). Run it with the
      on-screen text off, so that both frames show the same picture.
      --no-bars: the picture is not the plain 75% bars; PSNR only.
      --quality Q: the first frame's quantization tables are libjpeg's
      standard tables scaled for quality Q, exactly.
Each check prints one PASS:/FAIL: line.
"""
import argparse
import io
import math
import subprocess
import sys

from PIL import Image, ImageChops, ImageStat

import bars
import frame
import helper


def split(data):
    """The JPEGs in data, each from SOI to EOI; raises ValueError."""
    out, pos = [], 0
    while pos < len(data):
        start = pos
        if data[pos:pos + 2] != b"\xff\xd8":
            raise ValueError(f"no SOI at byte {pos}")
        pos += 2
        while True:
            if data[pos] != 0xff:
                raise ValueError(f"no marker at byte {pos}")
            marker = data[pos + 1]
            seglen = int.from_bytes(data[pos + 2:pos + 4], "big")
            pos += 2 + seglen
            if marker == 0xda:  # SOS: entropy-coded data up to a marker
                while not (data[pos] == 0xff and
                           data[pos + 1] not in (0x00, *range(0xd0, 0xd8))):
                    pos += 1
                if data[pos + 1] != 0xd9:
                    raise ValueError(f"marker {data[pos + 1]:#x} after scan")
                pos += 2
                break
        out.append(data[start:pos])
    return out


# JPEG Annex K tables in natural (row-major) order, as libjpeg's jcparam.c
STD_QUANT = (
    (16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55,
     14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62,
     18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
     49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99),
    (17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99,
     24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99,
     99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
     99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99),
)


def zigzag():
    """Natural-order index of each zigzag position."""
    order = sorted(((x + y, (y if (x + y) % 2 else x), y * 8 + x)
                    for y in range(8) for x in range(8)))
    return [i for _, _, i in order]


def quant_tables(jpeg):
    """{table id: 64 values in natural order} from the DQT segments."""
    tables, pos, zz = {}, 2, zigzag()
    while pos + 4 <= len(jpeg) and jpeg[pos] == 0xff:
        marker = jpeg[pos + 1]
        seglen = int.from_bytes(jpeg[pos + 2:pos + 4], "big")
        seg = jpeg[pos + 4:pos + 2 + seglen]
        if marker == 0xdb:
            while len(seg) >= 65:
                tid, prec = seg[0] & 15, seg[0] >> 4
                n = 128 if prec else 64
                vals = [int.from_bytes(seg[1 + k * (prec + 1):
                                           2 + k * (prec + 1) + prec], "big")
                        for k in range(64)]
                nat = [0] * 64
                for k, v in enumerate(vals):
                    nat[zz[k]] = v
                tables[tid] = nat
                seg = seg[1 + n:]
        if marker == 0xda:
            break
        pos += 2 + seglen
    return tables


def expected_quant(quality):
    """libjpeg's jpeg_quality_scaling() and jpeg_add_quant_table()."""
    scale = 5000 // quality if quality < 50 else 200 - quality * 2
    return [[min(max((b * scale + 50) // 100, 1), 255) for b in t]
            for t in STD_QUANT]


def djpeg(jpeg):
    """(PIL image or None, problem text) from libjpeg's djpeg."""
    res = subprocess.run(["djpeg", "-ppm"], input=jpeg, capture_output=True,
                         check=False)
    err = res.stderr.decode(errors="replace").strip()
    if res.returncode or err:
        return None, f"djpeg exit {res.returncode}: {err[:200]}"
    return Image.open(io.BytesIO(res.stdout)).convert("RGB"), ""


def interior_errors(img, tol):
    """Bars whose interior has a pixel more than tol off, with the worst."""
    w, h = img.size
    errors, worst = [], 0
    for i, name in enumerate(bars.ORDER):
        x0, x1 = -(-i * w // 8), -(-(i + 1) * w // 8)
        box = (x0 + (x1 - x0) // 4, h // 4, x1 - (x1 - x0) // 4, h)
        want = [bars.LEVEL["bars75"] * m for m in bars.MASK[name]]
        ext = img.crop(box).getextrema()
        off = max(max(abs(lo - e), abs(hi - e))
                  for (lo, hi), e in zip(ext, want))
        worst = max(worst, off)
        if off > tol:
            errors.append(f"{name} interior {ext} off by {off}")
    return errors, worst


def psnr(a, b):
    diff = ImageStat.Stat(ImageChops.difference(a, b))
    mse = sum(diff.sum2) / (3 * a.size[0] * a.size[1])
    return math.inf if mse == 0 else 10 * math.log10(255 * 255 / mse)


def cmd_count(a):
    try:
        print(len(split(open(a.file, "rb").read())))
    except (OSError, ValueError, IndexError) as e:
        print(f"0 ({e})")
        return 1
    return 0


def cmd_check(a):
    w, h = (int(v) for v in a.size.split("x"))
    try:
        frames = split(open(a.file, "rb").read())
    except (OSError, ValueError, IndexError) as e:
        print(f"FAIL: {a.name}: not a run of JPEGs: {e}")
        return 1
    big = [len(f) for f in frames if a.max and len(f) > a.max]
    if (a.count and len(frames) != a.count) or big:
        print(f"FAIL: {a.name}: {len(frames)} JPEGs, want {a.count}; "
              f"over {a.max} bytes: {big[:3]}")
        return 1
    sizes = sorted(len(f) for f in frames)
    print(f"PASS: {a.name}: {len(frames)} whole JPEGs of "
          f"{sizes[0]}..{sizes[-1]} bytes")
    bad, first = [], None
    for i, f in enumerate(frames if a.decode_all else frames[:1]):
        img, why = djpeg(f)
        if img is None or img.size != (w, h):
            bad.append(f"frame {i}: {why or img.size}")
        elif first is None:
            first = img
    if bad or first is None:
        print(f"FAIL: {a.name}: djpeg: {'; '.join(bad[:3])}")
        return 1
    n = len(frames) if a.decode_all else 1
    print(f"PASS: {a.name}: djpeg decodes {n} frame(s) to {a.size}, "
          f"no warning")
    rc = 0
    if a.quality:
        got = quant_tables(frames[0])
        want = expected_quant(a.quality)
        if got.get(0) == want[0] and got.get(1) == want[1]:
            print(f"PASS: {a.name}: quantization tables are libjpeg's at "
                  f"quality {a.quality}")
        else:
            print(f"FAIL: {a.name}: quantization tables are not libjpeg's "
                  f"at quality {a.quality}: luma starts "
                  f"{got.get(0, [])[:4]}, want {want[0][:4]}")
            rc = 1
    if not a.no_bars:
        errors, worst = interior_errors(first, a.tol)
        rc = bars.report(f"{a.name}: bar interiors (worst error {worst})",
                         errors, a.tol)
    if a.psnr <= 0:
        return rc
    try:
        ref = frame.decode("YUYV", w, h, 2 * w, a.ref)
    except Exception as e:  # a missing reference is a failure, not a skip
        print(f"FAIL: {a.name}: no YUYV reference to compare with: {e}")
        return 1
    db = psnr(first, ref)
    if db >= a.psnr:
        print(f"PASS: {a.name}: PSNR {db:.1f} dB against YUYV "
              f"(at least {a.psnr})")
    else:
        print(f"FAIL: {a.name}: PSNR {db:.1f} dB against YUYV, want "
              f"at least {a.psnr}")
        rc = 1
    return rc


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("count")
    c.add_argument("file")
    k = sub.add_parser("check")
    k.add_argument("name")
    k.add_argument("size")
    k.add_argument("file")
    k.add_argument("ref")
    k.add_argument("--count", type=int, default=0)
    k.add_argument("--max", type=int, default=0)
    k.add_argument("--tol", type=int, default=4)
    k.add_argument("--psnr", type=float, default=38.0)
    k.add_argument("--decode-all", action="store_true")
    k.add_argument("--no-bars", action="store_true")
    k.add_argument("--quality", type=int, default=0)
    a = ap.parse_args()
    return cmd_count(a) if a.cmd == "count" else cmd_check(a)


if __name__ == "__main__":
    helper.run(main)
