#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check what real V4L2 clients got from vivi: frame count, size, the bars.

  clients.py frames SPEC...
      SPEC is "NAME|FOURCC|WxH|COUNT|FILE[|TOL]": FILE holds COUNT raw
      frames back to back without stride padding (as v4l2-ctl --stream-to
      and GStreamer's filesink write them). Checks the length, decodes the
      first and the last frame (frame.py, one ffmpeg run for all SPECs of a
      size), checks the 75% bars in both with the format's tolerance (TOL,
      if given: for frames a client decoded from MJPEG), and that the two
      differ in the on-screen text (the sequence number advanced).
  clients.py videos SPEC...
      SPEC is "NAME|FILE|WxH|COUNT|CODEC|PIX_FMT|TOL": an encoded file;
      ffprobe must report that codec, pixel format, size and frame count.
      The first and the last frame are decoded to RGB (one ffmpeg run) and
      their bars checked within TOL.
  clients.py opencv NAME INDEX WxH COUNT [--fourcc F] [--want-fourcc F]
                    [--tol N]
      cv2.VideoCapture(INDEX, cv2.CAP_V4L2), optionally forcing the fourcc,
      sets WxH, reads COUNT frames; each must be WxH BGR, and the first and
      last frame show the bars (OpenCV hands out BGR).
  clients.py chromium NAME LOG WxH LABEL TOL [--limited] [--any-track-size]
                     [--hflip] [--tag T]
      The console lines camera.html logged (in Chromium's or Firefox's
      log): the track's size and label, and the bar colors sampled from a
      frame drawn on a canvas. --any-track-size: only the canvas frame must
      be WxH, the track may report another size (Firefox's, for a camera
      whose sizes it did not find: it reports the size it asked for, which
      the driver then snapped). --limited: the
      browser takes MJPEG's full-range JFIF for limited range, as the UVC
      spec suggests (Chromium and Firefox do, crbug.com/1116922): the expected
      colors are the bars' full-range Y'CbCr read as limited range (white
      191 shows as 204, blue 191 as 199). --hflip: the bars mirrored, as a
      producer feeds them (check-clients.sh), which the pattern is not.
      --tag T: the lines of the page opened with &tag=T.
Each check prints one PASS:/FAIL: line.
"""
import argparse
import re
import subprocess
import sys

from PIL import Image, ImageChops

import bars
import frame
import helper


def frame_bytes(fourcc, w, h):
    """Bytes of one frame of FOURCC at w x h with no stride padding."""
    bpp, chroma = frame.PLANES[frame.FORMATS[fourcc][0]]
    n = h * w * bpp
    for div, frac in chroma:
        n += (h + div - 1) // div * int(w * bpp * frac)
    return n


def size_of(text):
    w, h = (int(v) for v in text.split("x"))
    return w, h


def advanced(name, first, last):
    """PASS if the text area at the top differs between first and last."""
    w, h = first.size
    box = (0, 0, w // 2, h // 4)
    if ImageChops.difference(first.crop(box), last.crop(box)).getbbox():
        print(f"PASS: {name}: the last frame is a later frame than the first")
        return 0
    print(f"FAIL: {name}: the first and the last frame show the same text")
    return 1


def check_pictures(name, first, last, tol):
    rc = bars.report(f"{name}: bars in the first frame",
                     bars.bar_errors(first, tol=tol), tol)
    rc |= bars.report(f"{name}: bars in the last frame",
                      bars.bar_errors(last, tol=tol), tol)
    return rc | advanced(name, first, last)


def cmd_frames(specs):
    rc = 0
    groups = {}
    for spec in specs:
        name, fourcc, size, count, path, *tol = spec.split("|")
        w, h = size_of(size)
        count = int(count)
        one = frame_bytes(fourcc, w, h)
        try:
            data = open(path, "rb").read()
        except OSError as e:
            print(f"FAIL: {name}: {count} frames of {size}: {e}")
            rc = 1
            continue
        if len(data) != count * one:
            print(f"FAIL: {name}: {count} frames of {size}: file is "
                  f"{len(data)} bytes, want {count} x {one}")
            rc = 1
            continue
        print(f"PASS: {name}: {count} frames of {size} ({len(data)} bytes)")
        i = len(groups.get((w, h), []))
        parts = []
        for k, off in (("first", 0), ("last", (count - 1) * one)):
            part = f"/tmp/clients-{w}x{h}-{i}-{k}.raw"
            open(part, "wb").write(data[off: off + one])
            parts.append(part)
        tol = int(tol[0]) if tol else frame.tolerance(fourcc)
        groups.setdefault((w, h), []).append((name, fourcc, parts, tol))
    for (w, h), items in groups.items():
        frames = []
        for _, fourcc, parts, _ in items:
            bpl = w * frame.PLANES[frame.FORMATS[fourcc][0]][0]
            frames += [(fourcc, bpl, p) for p in parts]
        try:
            imgs = frame.decode_many(frames, w, h)
        except (OSError, subprocess.CalledProcessError) as e:
            for name, *_ in items:
                print(f"FAIL: {name}: decode: {e}")
            rc = 1
            continue
        for j, (name, _, _, tol) in enumerate(items):
            rc |= check_pictures(name, imgs[2 * j], imgs[2 * j + 1], tol)
    return rc


def probe(path):
    out = subprocess.run(
        ["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
         "-show_entries",
         "stream=codec_name,pix_fmt,width,height,nb_read_frames",
         "-of", "default=noprint_wrappers=1", path],
        capture_output=True, text=True, check=False)
    return dict(line.split("=", 1) for line in out.stdout.split("\n")
                if "=" in line), out.stderr.strip()


def cmd_videos(specs):
    rc = 0
    todo = []
    for spec in specs:
        name, path, size, count, codec, pix_fmt, tol = spec.split("|")
        w, h = size_of(size)
        info, err = probe(path)
        got = (f"{info.get('codec_name')} {info.get('pix_fmt')} "
               f"{info.get('width')}x{info.get('height')}, "
               f"{info.get('nb_read_frames')} frames")
        want = f"{codec} {pix_fmt} {size}, {count} frames"
        if got != want:
            print(f"FAIL: {name}: ffprobe: {got}, want {want} {err}")
            rc = 1
            continue
        print(f"PASS: {name}: ffprobe: {got}")
        todo.append((name, path, w, h, int(count), int(tol)))
    if not todo:
        return rc
    args = ["ffmpeg", "-v", "error", "-y"]
    for _, path, *_ in todo:
        args += ["-i", path]
    outs = []
    for i, (_, _, w, h, count, _) in enumerate(todo):
        for k, n in (("first", 0), ("last", count - 1)):
            outs.append(f"/tmp/clients-video-{i}-{k}.rgb")
            args += ["-map", f"{i}:v", "-vf", f"select=eq(n\\,{n})",
                     "-frames:v", "1"] + frame.SWS + [
                     "-pix_fmt", "rgb24", "-f", "rawvideo", outs[-1]]
    try:
        subprocess.run(args, check=True, capture_output=True)
    except subprocess.CalledProcessError as e:
        for name, *_ in todo:
            print(f"FAIL: {name}: decode: {e.stderr.decode()[-200:]}")
        return 1
    for i, (name, _, w, h, _, tol) in enumerate(todo):
        try:
            imgs = [Image.frombytes("RGB", (w, h), open(o, "rb").read())
                    for o in outs[2 * i: 2 * i + 2]]
        except (OSError, ValueError) as e:
            print(f"FAIL: {name}: decoded frame: {e}")
            rc = 1
            continue
        rc |= check_pictures(name, imgs[0], imgs[1], tol)
    return rc


def cmd_opencv(a):
    import cv2  # only this subcommand needs OpenCV

    w, h = size_of(a.size)
    cap = cv2.VideoCapture(a.index, cv2.CAP_V4L2)
    if not cap.isOpened():
        print(f"FAIL: {a.name}: VideoCapture({a.index}, CAP_V4L2) did not open")
        return 1
    if a.fourcc:
        cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*a.fourcc))
    cap.set(cv2.CAP_PROP_FRAME_WIDTH, w)
    cap.set(cv2.CAP_PROP_FRAME_HEIGHT, h)
    code = int(cap.get(cv2.CAP_PROP_FOURCC))
    fourcc = "".join(chr((code >> (8 * i)) & 0xff) for i in range(4))
    rc = 0
    if fourcc == a.want_fourcc:
        print(f"PASS: {a.name}: OpenCV captures '{fourcc}'")
    else:
        print(f"FAIL: {a.name}: OpenCV captures '{fourcc}', "
              f"want '{a.want_fourcc}'")
        rc = 1
    first = last = None
    n, bad = 0, []
    for i in range(a.count):
        ok, img = cap.read()
        if not ok:
            bad.append(f"read {i + 1} failed")
            break
        if img.shape != (h, w, 3) or img.dtype != "uint8":
            bad.append(f"frame {i + 1} is {img.shape} {img.dtype}")
        n += 1
        if first is None:
            first = img.copy()
        last = img
    cap.release()
    if bad or n != a.count:
        print(f"FAIL: {a.name}: {a.count} frames of {a.size} BGR: "
              f"got {n}; {'; '.join(bad[:3])}")
        return 1
    print(f"PASS: {a.name}: {n} frames of {a.size} BGR")
    # BGR to RGB for PIL
    first = Image.fromarray(first[:, :, ::-1].copy())
    last = Image.fromarray(last[:, :, ::-1].copy())
    return rc | check_pictures(a.name, first, last, a.tol)


def as_limited(rgb):
    """R'G'B' after full-range BT.601 Y'CbCr is read as limited range."""
    r, g, b = rgb
    y = 0.299 * r + 0.587 * g + 0.114 * b
    cb = (b - y) / 1.772 * 255 / 224
    cr = (r - y) / 1.402 * 255 / 224
    y = (y - 16) * 255 / 219
    out = (y + 1.402 * cr, y - 0.344136 * cb - 0.714136 * cr, y + 1.772 * cb)
    return tuple(min(255, max(0, round(v))) for v in out)


def console(name, path, *lines):
    """The page's "VIVI <line>" console lines (regexes), or None after a FAIL"""
    try:
        log = open(path, errors="replace").read()
    except OSError as e:
        print(f"FAIL: {name}: {e}")
        return None
    err = re.search(r'"VIVI ERROR ([^"]*)"', log)
    found = [re.search(rf'"VIVI {line}"', log) for line in lines]
    if err or not all(found):
        why = err.group(1) if err else "no result on the console"
        print(f"FAIL: {name}: {why}")
        return None
    return found


def cmd_chromium(a):
    w, h = size_of(a.size)
    tag = f"{a.tag} " if a.tag else ""
    found = console(f"{a.name}: getUserMedia", a.log,
                    tag + r'TRACK (\d+)x(\d+) (\S+) ([^"]*)',
                    tag + r'RESULT (\d+)x(\d+) ([0-9, ]*)')
    if not found:
        return 1
    track, res = found
    rc = 0
    tw, th, fps, label = track.groups()
    if ((int(tw), int(th)) == (w, h) or a.any_track_size) and label == a.label:
        print(f"PASS: {a.name}: getUserMedia gives a {tw}x{th} track "
              f"at {fps} fps from '{label}'")
    else:
        print(f"FAIL: {a.name}: track {tw}x{th} from '{label}', "
              f"want {a.size} from '{a.label}'")
        rc = 1
    if (int(res.group(1)), int(res.group(2))) == (w, h):
        print(f"PASS: {a.name}: canvas frame is {a.size}")
    else:
        print(f"FAIL: {a.name}: canvas frame is {res.group(1)}x"
              f"{res.group(2)}, want {a.size}")
        rc = 1
    samples = [tuple(int(v) for v in s.split(","))
               for s in res.group(3).split()]
    errors = []
    if len(samples) != 24:
        errors.append(f"{len(samples)} samples, want 24")
    for i, got in enumerate(samples):
        color = bars.ORDER[7 - i % 8 if a.hflip else i % 8]
        want = tuple(bars.LEVEL["bars75"] * m for m in bars.MASK[color])
        if a.limited:
            want = as_limited(want)
        if any(abs(g - e) > a.tol for g, e in zip(got, want)):
            errors.append(f"{color} row {i // 8} {got} != {want}")
    return rc | bars.report(f"{a.name}: canvas shows the 8 bars", errors,
                            a.tol)


def cmd_ptz(a):
    """Chromium's view of the pan/tilt/zoom controls (ptz.html)"""
    found = console(a.name, a.log, r'CAPS ([^"]*)', r'SETTINGS ([^"]*)',
                    r'RESULT (\d+) ([0-9, ]*)')
    if not found:
        return 1
    caps, sets, res = found
    rc = 0
    want = "pan=-36000:36000:3600 tilt=-36000:36000:3600 zoom=100:500:1"
    if caps.group(1) == want:
        print(f"PASS: {a.name}: getCapabilities() reports vivi's ranges ({want})")
    else:
        print(f"FAIL: {a.name}: getCapabilities(): {caps.group(1)}, want {want}")
        rc = 1
    if sets.group(1) == "zoom=200 pan=0 tilt=0":
        print(f"PASS: {a.name}: applyConstraints zoom 200, getSettings() reads it back")
    else:
        print(f"FAIL: {a.name}: getSettings() after zoom 200: {sets.group(1)}")
        rc = 1
    samples = [tuple(int(v) for v in s.split(","))
               for s in res.group(2).split()]
    errors = []
    if len(samples) != 12:
        errors.append(f"{len(samples)} samples, want 12")
    for i, got in enumerate(samples):
        color = bars.ORDER[2 + i % 4]       # 2x shows bars 2..5
        want = tuple(bars.LEVEL["bars75"] * m for m in bars.MASK[color])
        if any(abs(g - e) > a.tol for g, e in zip(got, want)):
            errors.append(f"{color} row {i // 4} {got} != {want}")
    return rc | bars.report(f"{a.name}: the canvas shows bars 2..5 twice as "
                            f"wide (after {res.group(1)} frames)", errors, a.tol)


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("frames")
    f.add_argument("specs", nargs="+")
    v = sub.add_parser("videos")
    v.add_argument("specs", nargs="+")
    o = sub.add_parser("opencv")
    o.add_argument("name")
    o.add_argument("index", type=int)
    o.add_argument("size")
    o.add_argument("count", type=int)
    o.add_argument("--fourcc")
    o.add_argument("--want-fourcc", required=True)
    o.add_argument("--tol", type=int, default=0)
    c = sub.add_parser("chromium")
    c.add_argument("name")
    c.add_argument("log")
    c.add_argument("size")
    c.add_argument("label")
    c.add_argument("tol", type=int)
    c.add_argument("--limited", action="store_true")
    c.add_argument("--any-track-size", action="store_true")
    c.add_argument("--hflip", action="store_true")
    c.add_argument("--tag", default="")
    z = sub.add_parser("ptz")
    z.add_argument("name")
    z.add_argument("log")
    z.add_argument("tol", type=int)
    a = ap.parse_args()
    if a.cmd == "frames":
        return cmd_frames(a.specs)
    if a.cmd == "videos":
        return cmd_videos(a.specs)
    if a.cmd == "opencv":
        return cmd_opencv(a)
    if a.cmd == "ptz":
        return cmd_ptz(a)
    return cmd_chromium(a)


if __name__ == "__main__":
    helper.run(main)
