#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check the eight 75% color bars in a captured frame.

Usage: bars.py NAME FILE [--raw WxH [--frames N]] [--tol N]
                         [--pattern bars75|bars100] [--hflip] [--gray]

FILE is a PNG, or with --raw a headerless RGB24 frame (with --frames, a
file of exactly N such frames, every one checked). The bars are sampled
at the center of each of the 8 columns, on several rows of the lower half
(the on-screen text lives at the top). Prints one PASS:/FAIL: line.
"""
import argparse
import sys

from PIL import Image
import helper

ORDER = ["white", "yellow", "cyan", "green", "magenta", "red", "blue", "black"]
MASK = {"white": (1, 1, 1), "yellow": (1, 1, 0), "cyan": (0, 1, 1),
        "green": (0, 1, 0), "magenta": (1, 0, 1), "red": (1, 0, 0),
        "blue": (0, 0, 1), "black": (0, 0, 0)}
LEVEL = {"bars75": 191, "bars100": 255}


def load(path, raw):
    if raw:
        w, h = (int(v) for v in raw.split("x"))
        data = open(path, "rb").read()
        if len(data) < w * h * 3:
            raise ValueError(f"{path}: {len(data)} bytes, want {w * h * 3}")
        return Image.frombytes("RGB", (w, h), data[: w * h * 3])
    return Image.open(path).convert("RGB")


def bar_errors(img, pattern="bars75", tol=0, hflip=False, gray=False):
    """Samples of the eight bars that are off by more than tol."""
    w, h = img.size
    order = ORDER[::-1] if hflip else ORDER
    errors = []
    for row in (h * 5 // 8, h * 3 // 4, h * 7 // 8):
        for i, name in enumerate(order):
            x = (2 * i + 1) * w // 16
            got = img.getpixel((x, row))
            want = tuple(LEVEL[pattern] * m for m in MASK[name])
            if gray:
                y = round(0.299 * want[0] + 0.587 * want[1] + 0.114 * want[2])
                want = (y, y, y)
            if any(abs(g - e) > tol for g, e in zip(got, want)):
                errors.append(f"{name}@({x},{row}) {got} != {want}")
    return errors


def report(name, errors, tol):
    if errors:
        print(f"FAIL: {name}: {len(errors)} samples off (tol {tol}): "
              + "; ".join(errors[:4]))
        return 1
    print(f"PASS: {name}")
    return 0


def check_frames(a):
    """Every frame of a file of a.frames raw RGB24 frames."""
    w, h = (int(v) for v in a.raw.split("x"))
    size = w * h * 3
    data = open(a.file, "rb").read()
    if len(data) != a.frames * size:
        print(f"FAIL: {a.name}: {len(data)} bytes, want {a.frames} frames "
              f"of {size}")
        return 1
    errors = []
    for i in range(a.frames):
        img = Image.frombytes("RGB", (w, h), data[i * size:(i + 1) * size])
        errors += [f"frame {i}: {e}" for e in
                   bar_errors(img, a.pattern, a.tol, a.hflip, a.gray)]
    return report(a.name, errors, a.tol)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("name")
    ap.add_argument("file")
    ap.add_argument("--raw")
    ap.add_argument("--frames", type=int, default=0,
                    help="FILE holds exactly this many raw frames")
    ap.add_argument("--tol", type=int, default=0)
    ap.add_argument("--pattern", default="bars75", choices=LEVEL)
    ap.add_argument("--hflip", action="store_true")
    ap.add_argument("--gray", action="store_true",
                    help="the frame carries BT.601 luma only")
    a = ap.parse_args()
    if a.raw and a.frames:
        return check_frames(a)
    try:
        img = load(a.file, a.raw)
    except Exception as e:  # noqa: BLE001 - any failure to read is a FAIL
        print(f"FAIL: {a.name}: cannot read frame: {e}")
        return 1
    return report(a.name, bar_errors(img, a.pattern, a.tol, a.hflip, a.gray),
                  a.tol)


if __name__ == "__main__":
    helper.run(main)
