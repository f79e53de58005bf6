#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Frames for vivi's producer node, and checks of what its consumer shows.

The expected pictures come from ffmpeg (encoding and decoding every layout
but Bayer, which is sampled here) and PIL, none of vivi's code.

  producer.py random OUT W H N SEED
      N distinct YUYV frames of seeded random bytes, each byte within
      16..235 (legal luma and chroma), one after the other in OUT.
  producer.py blocks OUT.rgb W H B SEED
      An RGB24 picture of B x B blocks of seeded random colours.
  producer.py encode IN.rgb W H DIR FOURCC...
      IN in each format, DIR/FOURCC.raw at the minimum stride: ffmpeg's
      rawvideo encoder (VYUY, YV12, NV16 and NV61 reordered from a layout
      ffmpeg writes), Bayer sampled from IN.
  producer.py compare NAME PFOURCC PW PH PFILE CW CH [--crop X0,Y0,X1,Y1]
                      [--place X0,Y0,X1,Y1] --ideal IDEAL.rgb FOURCC:BPL:FILE...
      PFILE, the frame fed to the producer, decoded by ffmpeg, cropped to
      the box (default: all of it) and resized with PIL (an area filter
      when shrinking, bilinear when enlarging) to the place box of a black
      CW x CH frame (default: all of it, letterbox bars otherwise) is the
      reference.
      Every consumer frame, decoded by ffmpeg, must match it on the flat
      areas of IDEAL (the RGB24 picture PFILE was encoded from, cropped and
      resized the same way): pixels whose 9x9 neighbourhood is one colour
      there, at least 4 pixels from any block edge, where neither
      subsampling, demosaicing nor filters reach: per
      channel, within the 8-bit round-trip loss of the producer's format
      plus the consumer's (frame.py's tolerance), plus 3 for the two
      colour conversions done by another implementation. GREY and Y16
      consumers are compared with the reference's luma. One PASS/FAIL line.
  producer.py slate NAME FILE.rgb W H [--lines N]
      FILE is a slate, as the "No Signal" idle picture: black (0,0,0) but
      for text in the top-left quarter, at least 40 of its pixels white
      (every channel 200 or more); with --lines, N text lines tall, 18
      pixels apart (the format slate has 2). One PASS/FAIL line.
  producer.py pacing NAME MODE PROD.log CONS.log N
      PROD.log: vivi-produce -P's lines for N distinct frames queued once
      each; CONS.log: vivi-produce -c -M's lines for the same frames.
      MODE producer (the "Frame Pacing" control at Producer Clock): each
      fed frame reaches the consumer once, in order, at least N - 2 of
      them, each with its producer's timestamp to the microsecond. MODE
      camera: the consumer samples at its own rate, so a fed frame shows
      in 2 consumer frames or more on average (a producer at a third of
      the consumer's rate). Both: no gap in the consumer's sequence.
      Prints the latency from QBUF to the consumer's DQBUF (p50, p99,
      max) of each fed frame's first showing. One PASS/FAIL line.
  producer.py hashes SIZE < STREAM
      The MD5 of each SIZE-byte frame of STREAM, one a line.
  producer.py fed NAME REF.txt CAP.txt MIN
      CAP.txt's frames (hashes) after the first one found in REF.txt are
      all found there, and at least MIN are: the consumer showed exactly
      the fed frames, not the test pattern.
"""
import argparse
import hashlib
import random
import subprocess
import sys

from PIL import Image, ImageChops, ImageDraw, ImageFilter

import frame

# the layouts ffmpeg writes directly, or from which a reordering makes them
ENCODE = {
    "VYUY": "uyvy422", "YV12": "yuv420p", "NV16": "yuv422p",
    "NV61": "yuv422p",
}
BAYER = {"BA81": "BGGR", "GBRG": "GBRG", "GRBG": "GRBG", "RGGB": "RGGB"}


def cmd_random(a):
    rng = random.Random(a.seed)
    table = bytes(16 + v * 220 // 256 for v in range(256))
    with open(a.out, "wb") as f:
        for _ in range(a.n):
            f.write(rng.randbytes(a.w * a.h * 2).translate(table))


def cmd_blocks(a):
    rng = random.Random(a.seed)
    img = Image.new("RGB", (a.w, a.h))
    draw = ImageDraw.Draw(img)
    for y in range(0, a.h, a.b):
        for x in range(0, a.w, a.b):
            col = tuple(rng.randrange(256) for _ in range(3))
            draw.rectangle((x, y, x + a.b - 1, y + a.b - 1), fill=col)
    open(a.out, "wb").write(img.tobytes())


def bayer(rgb, w, h, order):
    """Each pixel keeps the one channel its CFA site samples."""
    chan = {"R": 0, "G": 1, "B": 2}
    out = bytearray(w * h)
    for y in range(h):
        row = rgb[y * w * 3:(y + 1) * w * 3]
        pair = order[2 * (y % 2):2 * (y % 2) + 2]
        out[y * w:(y + 1) * w:2] = row[chan[pair[0]]::6]
        out[y * w + 1:(y + 1) * w:2] = row[3 + chan[pair[1]]::6]
    return bytes(out)


def reorder(fourcc, data, w, h):
    """From the ffmpeg layout of ENCODE to FOURCC's own."""
    if fourcc == "VYUY":
        p = bytearray(data)
        p[0::4], p[2::4] = p[2::4], p[0::4]
        return bytes(p)
    y, c = w * h, (w // 2) * (h // 2 if fourcc == "YV12" else h)
    u, v = data[y:y + c], data[y + c:y + 2 * c]
    if fourcc == "YV12":
        return data[:y] + v + u
    inter = bytearray(2 * c)
    inter[0::2], inter[1::2] = (u, v) if fourcc == "NV16" else (v, u)
    return data[:y] + bytes(inter)


def cmd_encode(a):
    rgb = open(a.input, "rb").read()
    args = ["ffmpeg", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt",
            "rgb24", "-s", f"{a.w}x{a.h}", "-i", a.input]
    for fourcc in a.fourcc:
        if fourcc in BAYER:
            open(f"{a.dir}/{fourcc}.raw", "wb").write(
                bayer(rgb, a.w, a.h, BAYER[fourcc]))
            continue
        pix = ENCODE.get(fourcc) or frame.FORMATS[fourcc][0]
        # no dithering (565, 555), chroma subsampled without a filter
        # that reaches across block edges
        args += ["-map", "0:v", "-frames:v", "1", "-vf",
                 "scale=flags=neighbor+accurate_rnd+bitexact:"
                 f"sws_dither=none,format={pix}",
                 "-f", "rawvideo", f"{a.dir}/{fourcc}.raw"]
    if "-map" in args:
        subprocess.run(args, check=True)
    for fourcc in a.fourcc:
        if fourcc in ENCODE:
            path = f"{a.dir}/{fourcc}.raw"
            data = open(path, "rb").read()
            open(path, "wb").write(reorder(fourcc, data, a.w, a.h))


def luma_rgb(img):
    return img.convert("L").convert("RGB")


def worst(a, b, mask):
    """The largest channel difference of a and b where mask is 255, and
    where it is."""
    r, g, bl = ImageChops.difference(a, b).split()
    err = ImageChops.multiply(ImageChops.lighter(ImageChops.lighter(r, g), bl),
                              mask)
    hi = err.getextrema()[1]
    where = ""
    if hi:
        x0, y0, x1, y1 = err.point(lambda v, t=hi: 255 if v >= t else 0).getbbox()
        x, y = x0, y0
        for y in range(y0, y1):
            row = [err.getpixel((x, y)) for x in range(x0, x1)]
            if hi in row:
                x = x0 + row.index(hi)
                break
        where = f" at ({x},{y}): got {b.getpixel((x, y))}, want {a.getpixel((x, y))}"
    return hi, where


def flat_mask(ref, k=7):
    """255 where the k x k neighbourhood of ref is one colour."""
    span = ImageChops.subtract(ref.filter(ImageFilter.MaxFilter(k)),
                               ref.filter(ImageFilter.MinFilter(k)))
    r, g, b = span.split()
    hi = ImageChops.lighter(ImageChops.lighter(r, g), b)
    return hi.point(lambda v: 255 if v == 0 else 0)


def cmd_compare(a):
    pfourcc = a.pfourcc
    bpl = a.pw * frame.PLANES[frame.FORMATS[pfourcc][0]][0]
    specs = []
    for spec in a.frames:
        fourcc, cbpl, path = spec.split(":", 2)
        specs.append((fourcc, int(cbpl), path))
    try:
        ref = frame.decode_many([(pfourcc, bpl, a.pfile)], a.pw, a.ph)[0]
        imgs = frame.decode_many(specs, a.cw, a.ch)
    except (OSError, ValueError, subprocess.CalledProcessError) as e:
        print(f"FAIL: {a.name}: decode: {e}")
        return 1
    box = tuple(int(v) for v in a.crop.split(",")) if a.crop else (
        0, 0, a.pw, a.ph)
    place = tuple(int(v) for v in a.place.split(",")) if a.place else (
        0, 0, a.cw, a.ch)
    pw, ph = place[2] - place[0], place[3] - place[1]
    ideal = frame.open_rgb(a.ideal, (a.pw, a.ph))

    def fit(img):
        img = img.crop(box)
        if img.size != (pw, ph):
            shrink = img.size[0] > pw
            img = img.resize((pw, ph), Image.BOX if shrink else Image.BILINEAR)
        out = Image.new("RGB", (a.cw, a.ch))
        out.paste(img, place[:2])
        return out
    ref = fit(ref)
    # where the picture fed is flat: decoders blur chroma and Bayer
    # across edges by a few pixels, so 4 pixels from any edge
    # (in source pixels: 4 output pixels a source pixel when enlarging)
    grow = max(1, -(-pw // (box[2] - box[0])))
    mask = flat_mask(fit(ideal), 8 * grow + 1)
    # and 8 pixels from the picture's border, where scalers differ
    ImageDraw.Draw(mask).rectangle((0, 0, a.cw - 1, a.ch - 1), outline=0,
                                   width=8)
    share = mask.histogram()[255] / (a.cw * a.ch)
    if share < 0.2:
        print(f"FAIL: {a.name}: only {share:.0%} of the reference is flat")
        return 1
    bad, report = [], []
    for (fourcc, _, _), img in zip(specs, imgs):
        want = luma_rgb(ref) if fourcc in ("GREY", "Y16") else ref
        tol = frame.tolerance(pfourcc) + frame.tolerance(fourcc) + 3
        hi, where = worst(want, img, mask)
        report.append(f"{fourcc.strip()}:{hi}/{tol}")
        if hi > tol:
            bad.append(f"{fourcc} off by {hi} (tol {tol}){where}")
    print(f"{a.name}: worst/tolerance per consumer format, on the "
          f"{share:.0%} of flat pixels: {' '.join(report)}")
    if bad:
        print(f"FAIL: {a.name}: {'; '.join(bad[:4])}"
              f"{f' and {len(bad) - 4} more' if len(bad) > 4 else ''}")
        return 1
    print(f"PASS: {a.name}")
    return 0


def cmd_slate(a):
    img = frame.open_rgb(a.file, (a.w, a.h))
    mask = img.convert("L").point(lambda v: 255 if v else 0)
    box = mask.getbbox()
    white = sum(1 for px in img.getdata() if min(px) >= 200)
    why = []
    if not box:
        why.append("all black, no text")
    elif box[2] > a.w // 2 or box[3] > a.h // 4:
        why.append(f"non-black pixels reach {box}, beyond the top-left quarter")
    if white < 40:
        why.append(f"{white} white text pixels")
    if box and a.lines and not (a.lines - 1) * 18 < box[3] - box[1] <= a.lines * 18:
        why.append(f"text {box[3] - box[1]} pixels tall, not {a.lines} lines of 18")
    # every channel exactly 0 outside the text's box
    if box:
        outside = img.copy()
        outside.paste((0, 0, 0), box)
        if outside.getbbox():
            why.append(f"colour outside the text at {outside.getbbox()}")
    if why:
        print(f"FAIL: {a.name}: {'; '.join(why)} (pixel 0,0 is {img.getpixel((0, 0))})")
        return 1
    print(f"PASS: {a.name} (text in {box}, {white} white pixels)")
    return 0


def fields(line):
    return dict(f.split("=", 1) for f in line.split() if "=" in f)


def cmd_pacing(a):
    qts = {}
    for line in open(a.prod):
        if line.startswith("frame="):
            f = fields(line)
            qts[int(f["frame"])] = float(f["ts"])
    shown, summary = [], {}
    for line in open(a.cons):
        if line.startswith("seq="):
            f = fields(line)
            if int(f["match"]) >= 0:
                shown.append((int(f["match"]), float(f["ts"]), float(f["dq"])))
        elif line.startswith("frames="):
            summary = fields(line)
    why = []
    if len(qts) != a.n:
        why.append(f"the producer queued {len(qts)} frames, not {a.n}")
    if summary.get("gaps") != "0":
        why.append(f"consumer: {summary or 'no summary line'}")
    first = {}
    for k, ts, dq in shown:
        first.setdefault(k, (ts, dq))
    lat = sorted((dq - qts[k]) * 1000 for k, (ts, dq) in first.items()
                 if k in qts)
    order = [k for k, _, _ in shown]
    if a.mode == "producer":
        if order != sorted(set(order)):
            why.append(f"fed frames repeated or out of order: {order[:12]}...")
        if len(first) < a.n - 2:
            why.append(f"{len(first)} of {a.n} fed frames shown")
        wrong = [(k, ts, qts.get(k)) for k, ts, _ in shown
                 if qts.get(k) is None or abs(ts - qts[k]) > 1e-6]
        if wrong:
            why.append(f"{len(wrong)} without the producer's timestamp, "
                       f"first frame {wrong[0][0]}: {wrong[0][1]:.6f}, "
                       f"queued at {wrong[0][2]}")
    elif not first or len(shown) < 2 * len(first):
        why.append(f"{len(shown)} consumer frames show {len(first)} fed "
                   f"frames: the camera did not keep its own rate")
    stats = "no fed frame"
    if lat:
        stats = (f"latency QBUF to DQBUF p50 {lat[len(lat) // 2]:.1f} ms, "
                 f"p99 {lat[min(len(lat) - 1, len(lat) * 99 // 100)]:.1f} "
                 f"ms, max {lat[-1]:.1f} ms")
    if why:
        print(f"FAIL: {a.name}: {'; '.join(why)} ({stats})")
        return 1
    print(f"PASS: {a.name} ({len(shown)} consumer frames show {len(first)} "
          f"of {a.n} fed frames; {stats})")
    return 0


def cmd_hashes(a):
    src = sys.stdin.buffer
    while True:
        buf = src.read(a.size)
        if len(buf) < a.size:
            break
        print(hashlib.md5(buf).hexdigest())


def cmd_fed(a):
    ref = set(open(a.ref).read().split())
    cap = open(a.cap).read().split()
    hits = [h in ref for h in cap]
    first = hits.index(True) if True in hits else len(hits)
    after = hits[first:]
    if not after:
        print(f"FAIL: {a.name}: none of the {len(cap)} captured frames is a "
              f"fed frame")
        return 1
    if not all(after) or len(after) < a.min:
        miss = after.index(False) + first if not all(after) else -1
        print(f"FAIL: {a.name}: {sum(after)} of the {len(after)} frames from "
              f"the first fed one (frame {first}) are fed frames "
              f"(want all, at least {a.min}); frame {miss} is not")
        return 1
    print(f"PASS: {a.name} ({len(after)} fed frames, {first} before)")
    return 0


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("random")
    for n in ("out",):
        s.add_argument(n)
    for n in ("w", "h", "n", "seed"):
        s.add_argument(n, type=int)
    s = sub.add_parser("blocks")
    s.add_argument("out")
    for n in ("w", "h", "b", "seed"):
        s.add_argument(n, type=int)
    s = sub.add_parser("encode")
    s.add_argument("input")
    s.add_argument("w", type=int)
    s.add_argument("h", type=int)
    s.add_argument("dir")
    s.add_argument("fourcc", nargs="+")
    s = sub.add_parser("compare")
    s.add_argument("name")
    s.add_argument("pfourcc")
    s.add_argument("pw", type=int)
    s.add_argument("ph", type=int)
    s.add_argument("pfile")
    s.add_argument("cw", type=int)
    s.add_argument("ch", type=int)
    s.add_argument("--crop")
    s.add_argument("--place")
    s.add_argument("--ideal", required=True)
    s.add_argument("frames", nargs="+")
    s = sub.add_parser("slate")
    s.add_argument("name")
    s.add_argument("file")
    s.add_argument("w", type=int)
    s.add_argument("h", type=int)
    s.add_argument("--lines", type=int, default=0)
    s = sub.add_parser("pacing")
    for n in ("name", "mode", "prod", "cons"):
        s.add_argument(n)
    s.add_argument("n", type=int)
    s = sub.add_parser("hashes")
    s.add_argument("size", type=int)
    s = sub.add_parser("fed")
    s.add_argument("name")
    s.add_argument("ref")
    s.add_argument("cap")
    s.add_argument("min", type=int)
    a = p.parse_args()
    return {"random": cmd_random, "blocks": cmd_blocks, "encode": cmd_encode,
            "compare": cmd_compare, "slate": cmd_slate,
            "pacing": cmd_pacing, "hashes": cmd_hashes,
            "fed": cmd_fed}[a.cmd](a) or 0


if __name__ == "__main__":
    sys.exit(main())
