#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Decode captured vivi frames independently of vivi, and compare pictures.

  frame.py decode FOURCC W H BPL IN OUT.png
      Decode one raw frame with ffmpeg's rawvideo decoder. The few layouts
      ffmpeg lacks (VYUY, YVU420, NV16, NV61) are first reordered into one it
      has by swapping bytes or planes; stride padding is stripped.
  frame.py check NAME FOURCC W H BPL IN REF.rgb
      Decode IN, then check the 75% bars (bars.py) and that the whole frame
      shows the same picture as REF, a raw RGB24 frame of the same size,
      within the format's tolerance: every row, every column but those
      next to a bar edge where chroma subsampling or demosaicing blurs.
  frame.py check-set WxH REF.rgb FOURCC:BPL:IN...
      The same for many frames, decoded by one ffmpeg run; REF itself must
      be the 75% bars exactly, on every pixel (text off).
"""
import argparse
import subprocess
import sys

from PIL import Image, ImageChops

import bars
import helper

# fourcc as v4l2-ctl prints it: (ffmpeg pix_fmt, reordering ffmpeg needs)
FORMATS = {
    "YUYV": ("yuyv422", None),
    "UYVY": ("uyvy422", None),
    "YVYU": ("yvyu422", None),
    "VYUY": ("uyvy422", "swap02"),
    "YU12": ("yuv420p", None),
    "YV12": ("yuv420p", "swapuv420"),
    "422P": ("yuv422p", None),
    "RGB3": ("rgb24", None),
    "BGR3": ("bgr24", None),
    "BX24": ("0rgb", None),
    "XR24": ("bgr0", None),
    "RGBP": ("rgb565le", None),
    "RGBR": ("rgb565be", None),
    "XR15": ("rgb555le", None),
    "GREY": ("gray", None),
    "Y16": ("gray16le", None),
    "BA81": ("bayer_bggr8", None),
    "GBRG": ("bayer_gbrg8", None),
    "GRBG": ("bayer_grbg8", None),
    "RGGB": ("bayer_rggb8", None),
    "NV12": ("nv12", None),
    "NV21": ("nv21", None),
    "NV16": ("nv16", "nv16to422p"),
    "NV61": ("nv16", "nv61to422p"),
}

# bytes per pixel of the first plane, and the chroma planes' share of it:
# (lines divisor, bytes per line as a fraction of the luma line)
PLANES = {
    "yuv420p": (1, [(2, 0.5), (2, 0.5)]),
    "yuv422p": (1, [(1, 0.5), (1, 0.5)]),
    "nv12": (1, [(2, 1.0)]), "nv21": (1, [(2, 1.0)]),
    "nv16": (1, [(1, 1.0)]),
    "yuyv422": (2, []), "uyvy422": (2, []), "yvyu422": (2, []),
    "rgb24": (3, []), "bgr24": (3, []), "0rgb": (4, []), "bgr0": (4, []),
    "rgb565le": (2, []), "rgb565be": (2, []), "rgb555le": (2, []),
    "gray": (1, []), "gray16le": (2, []),
    "bayer_bggr8": (1, []), "bayer_gbrg8": (1, []),
    "bayer_grbg8": (1, []), "bayer_rggb8": (1, []),
}


def split_planes(data, pix_fmt, w, h, bpl):
    """The planes of a frame with stride padding removed, in memory order."""
    bpp, chroma = PLANES[pix_fmt]
    planes, off = [], 0
    lines = [(h, bpl, w * bpp)]
    for div, frac in chroma:
        lines.append(((h + div - 1) // div, int(bpl * frac), int(w * bpp * frac)))
    for n, stride, used in lines:
        plane = bytearray()
        for y in range(n):
            plane += data[off + y * stride: off + y * stride + used]
        planes.append(plane)
        off += n * stride
    return planes


def prepare(fourcc, w, h, bpl, src):
    """A raw frame in a layout ffmpeg reads, and the name of that layout."""
    pix_fmt, reorder = FORMATS[fourcc]
    data = open(src, "rb").read()
    planes = split_planes(data, pix_fmt, w, h, bpl)
    if reorder == "swap02":
        p = planes[0]
        p[0::4], p[2::4] = p[2::4], p[0::4]
    elif reorder == "swapuv420":
        planes[1], planes[2] = planes[2], planes[1]
    elif reorder in ("nv16to422p", "nv61to422p"):
        # ffmpeg's scaler cannot read NV16; split the chroma plane instead
        cb, cr = planes[1][0::2], planes[1][1::2]
        if reorder == "nv61to422p":
            cb, cr = cr, cb
        planes[1:] = [cb, cr]
        pix_fmt = "yuv422p"
    return b"".join(planes), pix_fmt


SWS = ["-sws_flags", "accurate_rnd+full_chroma_int+bitexact"]


def decode_many(frames, w, h):
    """Decode [(fourcc, bpl, path)] with one ffmpeg run; PIL RGB images."""
    args, tmp = ["ffmpeg", "-v", "error", "-y"], []
    for i, (fourcc, bpl, src) in enumerate(frames):
        raw, pix_fmt = prepare(fourcc, w, h, bpl, src)
        tmp.append(f"/tmp/frame-{i}.in")
        open(tmp[-1], "wb").write(raw)
        args += ["-f", "rawvideo", "-pix_fmt", pix_fmt, "-s", f"{w}x{h}",
                 "-i", tmp[-1]]
    for i in range(len(frames)):
        args += ["-map", f"{i}:v", "-frames:v", "1"] + SWS + [
            "-f", "rawvideo", "-pix_fmt", "rgb24", f"/tmp/frame-{i}.rgb"]
    subprocess.run(args, check=True)
    return [Image.frombytes("RGB", (w, h), open(f"/tmp/frame-{i}.rgb",
                                                 "rb").read())
            for i in range(len(frames))]


def decode(fourcc, w, h, bpl, src, dst=None):
    """Decode to dst (any image file), or return a PIL image if dst is None."""
    raw, pix_fmt = prepare(fourcc, w, h, bpl, src)
    out = ["-f", "rawvideo", "-"] if dst is None else [dst]
    res = subprocess.run(
        ["ffmpeg", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", pix_fmt,
         "-s", f"{w}x{h}", "-i", "-", "-frames:v", "1"] + SWS + [
         "-pix_fmt", "rgb24"] + out,
        input=raw, check=True, stdout=subprocess.PIPE)
    if dst is None:
        return Image.frombytes("RGB", (w, h), res.stdout)
    return None


def open_rgb(path, size=None):
    if path.endswith(".rgb"):
        return Image.frombytes("RGB", size, open(path, "rb").read())
    return Image.open(path).convert("RGB")


def bar_edges(w):
    """The first column of each bar but the first: column x is in bar
    x * 8 // w (bars.py), so bar i starts at i * w / 8 rounded up (1366
    wide: 171, 342, 513, 683, 854, 1025, 1196)"""
    return [(i * w + 7) // 8 for i in range(1, 8)]


def ideal_ok(ref):
    """Errors of REF against the 75% bars on every pixel: the bar of each
    column, or either neighbour's within one pixel of an edge."""
    w, h = ref.size
    want = [tuple(bars.LEVEL["bars75"] * m for m in bars.MASK[n])
            for n in bars.ORDER]
    errors = []
    for x in range(w):
        ok = {want[min(7, x * 8 // w)]}
        for e in bar_edges(w):
            if abs(x - e) <= 1:
                ok |= {want[e * 8 // w - 1], want[e * 8 // w]}
        # getcolors: the distinct colours of the column, at C speed
        got = {c for _, c in ref.crop((x, 0, x + 1, h)).getcolors(h)}
        if not got <= ok:
            bad = sorted(got - ok)[0]
            y = next(y for y in range(h) if ref.getpixel((x, y)) == bad)
            errors.append(f"({x},{y}) {bad} not {' or '.join(map(str, ok))}")
    return errors


def whole(name, ref, test, tol, gray, margin):
    """PASS if every pixel of TEST (every row; columns within margin of a
    bar edge left out) is within tol of REF."""
    if ref.size != test.size:
        print(f"FAIL: {name}: size {test.size} != {ref.size}")
        return 1
    if gray:
        ref = ref.convert("L").convert("RGB")
    w, h = ref.size
    cuts = [0] + bar_edges(w) + [w]
    worst, where = 0, ""
    for x0, x1 in zip(cuts, cuts[1:]):
        box = (x0 + (margin if x0 else 0), 0, x1 - (margin if x1 < w else 0), h)
        diff = ImageChops.difference(ref.crop(box), test.crop(box))
        hi = max(e[1] for e in diff.getextrema())
        if hi > worst:
            worst = hi
            # the rectangle of the pixels off by more than tol
            r, g, b = diff.split()
            bb = ImageChops.lighter(ImageChops.lighter(r, g), b).point(
                lambda v, t=tol: 255 if v > t else 0).getbbox()
            if bb:
                y = bb[1]
                x = next(box[0] + x for x in range(bb[0], bb[2]) if max(
                    abs(a - b) for a, b in zip(
                        ref.getpixel((box[0] + x, y)),
                        test.getpixel((box[0] + x, y)))) > tol)
                where = (f" within ({box[0] + bb[0]},{bb[1]})"
                         f"..({box[0] + bb[2] - 1},{bb[3] - 1}), first"
                         f" ({x},{y}): {test.getpixel((x, y))} want"
                         f" {ref.getpixel((x, y))}")
    if worst > tol:
        print(f"FAIL: {name}: differs by up to {worst} (tol {tol}){where}")
        return 1
    print(f"PASS: {name}")
    return 0


# Columns left out on each side of a bar edge: ffmpeg's scaler upsamples
# 4:2:2 and 4:2:0 chroma with a bicubic filter, which overshoots up to 3
# pixels from a sharp edge (measured: magenta next to green at 160x120
# decodes as (197, 0, 198) 2 pixels in, exact from 4 on); its bilinear
# demosaicing blurs one pixel (Bayer exact from 2 on).
def edge_margin(fourcc):
    if fourcc in ("RGB3", "BGR3", "BX24", "XR24", "RGBP", "RGBR", "XR15",
                  "GREY", "Y16"):
        return 0
    if fourcc in ("BA81", "GBRG", "GRBG", "RGGB"):
        return 2
    return 4


# Tolerance of the decoded bars against the exact 75% values: YUV loses a
# little in the 8-bit round trip, 565/555 quantize to 5 or 6 bits.
def tolerance(fourcc):
    if fourcc in ("RGB3", "BGR3", "BX24", "XR24"):
        return 0
    if fourcc in ("RGBP", "RGBR", "XR15"):
        return 5
    if fourcc in ("GREY", "Y16", "BA81", "GBRG", "GRBG", "RGGB"):
        return 1
    return 3


def check_set(size, ref_path, specs, label=None):
    """Check the bars and the same-picture property of many captures."""
    w, h = (int(v) for v in size.split("x"))
    frames = []
    for spec in specs:
        fourcc, bpl, path = spec.split(":", 2)
        frames.append((fourcc, int(bpl), path))
    try:
        imgs = decode_many(frames, w, h)
        ref = open_rgb(ref_path, (w, h))
    except (OSError, ValueError, subprocess.CalledProcessError) as e:
        for fourcc, _, _ in frames:
            print(f"FAIL: {label or f'format {fourcc} {size}'}: decode: {e}")
        return 1
    rc = 0
    if label is None:
        rc |= bars.report(f"format RGB3 {size}: every pixel is the 75% bars",
                          ideal_ok(ref), 0)
    for (fourcc, _, _), img in zip(frames, imgs):
        name, tol = label or f"format {fourcc} {size}", tolerance(fourcc)
        gray = fourcc in ("GREY", "Y16")
        rc |= bars.report(f"{name}: bars", bars.bar_errors(
            img, tol=tol, gray=gray), tol)
        rc |= whole(f"{name}: whole frame is the RGB3 picture", ref, img,
                    tol, gray, edge_margin(fourcc))
    return rc


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)

    def frame_args(p):
        """the frame a command reads: FOURCC W H BPL SRC"""
        p.add_argument("fourcc", choices=FORMATS)
        p.add_argument("w", type=int)
        p.add_argument("h", type=int)
        p.add_argument("bpl", type=int)
        p.add_argument("src")

    d = sub.add_parser("decode")
    frame_args(d)
    d.add_argument("dst")
    c = sub.add_parser("check")
    c.add_argument("name")
    frame_args(c)
    c.add_argument("ref")
    m = sub.add_parser("check-set")
    m.add_argument("size")
    m.add_argument("ref")
    m.add_argument("frames", nargs="+", help="FOURCC:BPL:FILE")
    a = ap.parse_args()
    if a.cmd == "decode":
        decode(a.fourcc, a.w, a.h, a.bpl, a.src, a.dst)
        return 0
    if a.cmd == "check-set":
        return check_set(a.size, a.ref, a.frames)
    return check_set(f"{a.w}x{a.h}", a.ref,
                     [f"{a.fourcc}:{a.bpl}:{a.src}"], a.name)


if __name__ == "__main__":
    helper.run(main)
