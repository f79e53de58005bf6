#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Pixel checks of vivi's test patterns, controls, text and motion.

The expected pictures are built here from the definitions in the header
comment of vivi_gen.c, independently of the driver's code. Frames are
headerless RGB24 (full range) unless a command says YUYV. Every command
prints PASS:/FAIL: lines and exits 1 if any failed.

  pattern.py patterns NAME DIR W H
      DIR/pN.rgb for N = 0..11 (p11.rgb: two frames of different sequence):
      each pattern equals its definition exactly, noise is random gray with
      a flat histogram, the 12 pictures are distinct.
  pattern.py decoded NAME DECODED.rgb W H N[,N...]
      Frames of the listed patterns, captured in a Y'CbCr format and
      decoded by another program to RGB24, match the definition within 3
      (bar interiors: 4 pixels from a bar edge are left out).
  pattern.py yuyv [--yu12] NAME W H FILE:PATTERN[:BRI,CON,SAT,HUE]...
      Raw YUYV of bars or a solid: every bar has the BT.601 limited-range
      value of its color with the controls applied (within 1), all over.
      With --yu12 the frames are planar YUV 4:2:0 (Y', then Cb and Cr at
      half width and height), checked the same way.
  pattern.py luma-step NAME DIR CSV W H AT PERIOD DELTA
      DIR/SEQ.raw YUYV frames, CSV their timestamps (vivi-timing -c); a
      control changed at AT (us, CSV time base): frames due before AT share
      one mean luma, frames due 2 PERIODs after AT and later have it DELTA
      higher (the frame due next is drawn one period ahead), and once
      changed it stays changed.
  pattern.py flip NAME DIR W H
      DIR/hflip.rgb (75% bars) and DIR/vflip.rgb (vertical ramp) are the
      mirrored definitions.
  pattern.py frame NAME FILE W H PATTERN
      One frame (osd_text=None, still) equals pattern PATTERN's definition
      exactly.
  pattern.py osd NAME DIR W H LINE1 LINE2 FPS
      DIR/all/SEQ.rgb (osd_text=All, 75% bars, consecutive sequences),
      DIR/none.rgb (None), DIR/counters.rgb (Counters Only),
      DIR/hflip.rgb (All, horizontal_flip=1): where the text is, that it
      is white on black, that it changes with the sequence number only,
      that the digits are consistent (glyphs learned from the sequence
      numbers are compared with LINE1, LINE2 and the shown time).
  pattern.py motion NAME W H DIR:PATTERN:SPEED...
      DIR/SEQ.rgb frames: each one equals the definition for its sequence
      number (box position, bar scroll).
"""
import argparse
import glob
import math
import os
import sys
from fractions import Fraction

from PIL import Image, ImageChops
import helper

NAMES = ["75% Color Bars", "100% Color Bars", "Color Bars with Moving Box",
         "Checkerboard 16x16", "Horizontal Gray Ramp", "Vertical Gray Ramp",
         "Solid Black", "Solid White", "Solid Red", "Solid Green",
         "Solid Blue", "Noise"]
# white, yellow, cyan, green, magenta, red, blue, black
BAR_MASKS = [(1, 1, 1), (1, 1, 0), (0, 1, 1), (0, 1, 0), (1, 0, 1),
             (1, 0, 0), (0, 0, 1), (0, 0, 0)]
SOLIDS = {6: (0, 0, 0), 7: (255, 255, 255), 8: (255, 0, 0), 9: (0, 255, 0),
          10: (0, 0, 255)}
TEXT_X, TEXT_Y, LINE_STEP, CELL_W, CELL_H = 16, 16, 18, 8, 16

failures = 0


def result(ok, name, why=""):
    global failures
    if ok:
        print(f"PASS: {name}")
    else:
        failures += 1
        print(f"FAIL: {name}: {why}")
    return ok


def load_rgb(path, w, h, index=0):
    data = open(path, "rb").read()
    size = w * h * 3
    if len(data) < (index + 1) * size:
        raise ValueError(f"{path}: {len(data)} bytes, want {(index + 1) * size}")
    return Image.frombytes("RGB", (w, h), data[index * size:(index + 1) * size])


# ---- the definitions -------------------------------------------------

def box_side(w, h):
    s = min(w, h)
    return min(max(s // 8, 2), s)


def bounce(frame, speed, rng):
    """Triangle wave over 0..rng, speed px/frame, starting at rng // 2."""
    if rng == 0:
        return 0
    period = 2 * rng
    t = (frame * speed + rng // 2) % period
    return t if t <= rng else period - t


def bar_row(w, level):
    row = bytearray()
    for x in range(w):
        row += bytes(level * m for m in BAR_MASKS[x * 8 // w])
    return row


def expected(pattern, w, h, seq=0, speed=0, hflip=False, vflip=False):
    """The picture of a pattern as RGB24 (not for noise), without text."""
    rows = []
    if pattern in (0, 1, 2):
        base = bar_row(w, 255 if pattern == 1 else 191)
        shift = (seq * speed) % w if pattern in (0, 1) else 0
        base = base[shift * 3:] + base[:shift * 3]
        rows = [base] * h
        if pattern == 2:
            side = box_side(w, h)
            bx = bounce(seq, speed, w - side)
            by = bounce(seq, speed, h - side)
            boxed = bytearray(base)
            boxed[bx * 3:(bx + side) * 3] = b"\xff" * (side * 3)
            rows = [boxed if by <= y < by + side else base for y in range(h)]
    elif pattern == 3:
        band = [bytearray(), bytearray()]
        for x in range(w):
            for c in (0, 1):
                v = 255 if ((x // 16) + c) % 2 == 0 else 0
                band[c] += bytes((v, v, v))
        rows = [band[(y // 16) % 2] for y in range(h)]
    elif pattern == 4:
        row = bytearray()
        for x in range(w):
            g = x * 255 // (w - 1) if w > 1 else 0
            row += bytes((g, g, g))
        rows = [row] * h
    elif pattern == 5:
        rows = [bytes([y * 255 // (h - 1) if h > 1 else 0] * (3 * w))
                for y in range(h)]
    elif pattern in SOLIDS:
        rows = [bytes(SOLIDS[pattern]) * w] * h
    else:
        raise ValueError(f"no fixed picture for pattern {pattern}")
    img = Image.frombytes("RGB", (w, h), b"".join(bytes(r) for r in rows))
    if hflip:
        img = img.transpose(Image.FLIP_LEFT_RIGHT)
    if vflip:
        img = img.transpose(Image.FLIP_TOP_BOTTOM)
    return img


def first_diff(a, b, tol=0):
    """None if a and b agree within tol, else a description."""
    diff = ImageChops.difference(a, b)
    worst = max(hi for _, hi in diff.getextrema())
    if worst <= tol:
        return None
    w, h = a.size
    da, db = a.tobytes(), b.tobytes()
    n = len(a.getbands())
    bad = 0
    where = None
    for i in range(0, len(da), n):
        if any(abs(da[i + k] - db[i + k]) > tol for k in range(n)):
            bad += 1
            if where is None:
                p = i // n
                where = (p % w, p // w, tuple(da[i:i + n]), tuple(db[i:i + n]))
    x, y, got, want = where
    return (f"{bad} pixels differ by up to {worst} (tol {tol}); first at "
            f"({x},{y}): {got}, want {want}")


# ---- BT.601 ----------------------------------------------------------

def ycc(rgb):
    """BT.601 limited range of full-range R'G'B', exact, rounded half up."""
    r, g, b = (Fraction(v) for v in rgb)
    kr, kg, kb = Fraction("0.299"), Fraction("0.587"), Fraction("0.114")
    ey = kr * r + kg * g + kb * b
    y = 16 + Fraction(219, 255) * ey
    cb = 128 + Fraction(224, 255) * (b - ey) / (2 * (1 - kb))
    cr = 128 + Fraction(224, 255) * (r - ey) / (2 * (1 - kr))
    return tuple(int(v + Fraction(1, 2)) // 1 for v in (y, cb, cr))


def rnd(x):
    """Round half away from zero."""
    return int(x + 0.5) if x >= 0 else -int(-x + 0.5)


def adjust(y, cb, cr, bri, con, sat, hue):
    h = math.radians(hue)
    yy = rnd((y - 16) * con / 128) + 16 + bri - 128
    u, v = cb - 128, cr - 128
    nu = rnd(sat / 128 * (u * math.cos(h) - v * math.sin(h)))
    nv = rnd(sat / 128 * (u * math.sin(h) + v * math.cos(h)))
    clamp = lambda t: max(0, min(255, t))  # noqa: E731
    return clamp(yy), clamp(128 + nu), clamp(128 + nv)


def pattern_colors(pattern):
    if pattern in (0, 1):
        lv = 255 if pattern == 1 else 191
        return [tuple(lv * m for m in mask) for mask in BAR_MASKS]
    if pattern in SOLIDS:
        return [SOLIDS[pattern]] * 8
    raise ValueError(f"pattern {pattern}: bars or a solid")


# ---- commands --------------------------------------------------------

def cmd_patterns(a):
    w, h = a.w, a.h
    frames = {}
    for p in range(12):
        try:
            frames[p] = load_rgb(os.path.join(a.dir, f"p{p}.rgb"), w, h)
        except (OSError, ValueError) as e:
            result(False, f"{a.name}: {p} {NAMES[p]}", f"cannot read: {e}")
    what = {0: "exact 191/0 bars", 1: "exact 255/0 bars",
            2: "bars, 100% white box of side min(w,h)/8 in the middle",
            3: "16x16 squares, white top-left",
            4: "gray x*255/(w-1), rising left to right",
            5: "gray y*255/(h-1), rising top to bottom",
            6: "0,0,0 everywhere", 7: "255,255,255 everywhere",
            8: "255,0,0 everywhere", 9: "0,255,0 everywhere",
            10: "0,0,255 everywhere"}
    for p in range(11):
        if p in frames:
            why = first_diff(frames[p], expected(p, w, h))
            result(why is None, f"{a.name}: {p} {NAMES[p]}: {what[p]}", why)
    if 11 in frames:
        name = f"{a.name}: 11 Noise: random gray, flat histogram, new each frame"
        try:
            f2 = load_rgb(os.path.join(a.dir, "p11.rgb"), w, h, 1)
        except (OSError, ValueError) as e:
            result(False, name, f"second frame: {e}")
        else:
            why = None
            for f in (frames[11], f2):
                r, g, b = f.split()
                if (ImageChops.difference(r, g).getbbox()
                        or ImageChops.difference(r, b).getbbox()):
                    why = "not gray (R, G, B differ)"
                hist = r.histogram()
                mean = sum(i * n for i, n in enumerate(hist)) / (w * h)
                per = w * h / 256
                lo, hi = min(hist), max(hist)
                if lo < per / 2 or hi > per * 2:
                    why = (f"histogram not flat: bins {lo}..{hi}, "
                           f"expect about {per:.0f} each")
                elif abs(mean - 127.5) > 2:
                    why = f"mean {mean:.2f}, expect 127.5"
                # neighbours are independent: not a smooth picture
                same = sum(1 for x, y in zip(r.tobytes(), r.tobytes()[1:])
                           if x == y)
                if same > w * h * 3 / 256:
                    why = f"{same} equal neighbours: not random"
            if why is None and frames[11].tobytes() == f2.tobytes():
                why = "two frames of different sequence are identical"
            result(why is None, name, why)
    dup = []
    keys = sorted(frames)
    for i, p in enumerate(keys):
        for q in keys[i + 1:]:
            if frames[p].tobytes() == frames[q].tobytes():
                dup.append(f"{p}={q}")
    result(len(frames) == 12 and not dup,
           f"{a.name}: the 12 patterns are 12 distinct pictures",
           f"identical: {' '.join(dup)}; got {len(frames)} frames")
    return 0


def cmd_frame(a):
    try:
        got = load_rgb(a.file, a.w, a.h)
    except (OSError, ValueError) as e:
        return result(False, a.name, f"cannot read: {e}")
    why = first_diff(got, expected(a.pattern, a.w, a.h))
    return result(why is None, a.name, why)


def cmd_decoded(a):
    w, h = a.w, a.h
    pats = [int(p) for p in a.patterns.split(",")]
    for i, p in enumerate(pats):
        name = f"{a.name}: {p} {NAMES[p]} decodes to its colors (tol 3)"
        try:
            got = load_rgb(a.file, w, h, i)
        except (OSError, ValueError) as e:
            result(False, name, str(e))
            continue
        want = expected(p, w, h)
        if p in (0, 1, 2):
            # chroma interpolation blurs bar edges: leave 4 px out
            black = Image.new("RGB", (9, h))
            for b in range(1, 8):
                x = -(-b * w // 8)
                got.paste(black, (x - 4, 0))
                want.paste(black, (x - 4, 0))
        why = first_diff(got, want, 3)
        result(why is None, name, why)
    return 0


def read_yuyv(path, w, h):
    data = open(path, "rb").read()
    if len(data) < w * h * 2:
        raise ValueError(f"{path}: {len(data)} bytes, want {w * h * 2}")
    return data


def read_yu12(path, w, h):
    """A YU12 frame as YUYV: each chroma row serves its two luma rows."""
    data = open(path, "rb").read()
    cw, ch = w // 2, h // 2
    if len(data) < w * h + 2 * cw * ch:
        raise ValueError(f"{path}: {len(data)} bytes, want {w * h + 2 * cw * ch}")
    cb, cr = w * h, w * h + cw * ch
    out = bytearray(w * h * 2)
    for y in range(h):
        row = memoryview(out)[y * w * 2:(y + 1) * w * 2]
        row[0::2] = data[y * w:(y + 1) * w]
        c = y // 2 * cw
        row[1::4] = data[cb + c:cb + c + cw]
        row[3::4] = data[cr + c:cr + c + cw]
    return bytes(out)


def cmd_yuyv(a):
    w, h = a.w, a.h
    for spec in a.specs:
        # FILE:PATTERN[:BRI,CON,SAT,HUE]
        parts = spec.split(":")
        path, pattern = parts[0], int(parts[1])
        bri, con, sat, hue = (int(v) for v in (parts[2] if len(parts) > 2
                                              else "128,128,128,0").split(","))
        ctl = []
        for n, v, d in (("brightness", bri, 128), ("contrast", con, 128),
                        ("saturation", sat, 128), ("hue", hue, 0)):
            if v != d:
                ctl.append(f"{n} {v}")
        name = f"{a.name}: {NAMES[pattern]}" + (f", {', '.join(ctl)}" if ctl else "")
        try:
            data = (read_yu12 if a.yu12 else read_yuyv)(path, w, h)
        except (OSError, ValueError) as e:
            result(False, name, str(e))
            continue
        errs = []
        for b, rgb in enumerate(pattern_colors(pattern)):
            want = adjust(*ycc(rgb), bri, con, sat, hue)
            x0 = -(-b * w // 8) + 4
            x1 = -(-(b + 1) * w // 8) - 4
            for y in range(0, h, max(1, h // 16)):
                row = data[y * w * 2:(y + 1) * w * 2]
                for x in range(x0 & ~1, x1 & ~1, 2):
                    got = (row[2 * x], row[2 * x + 1], row[2 * x + 3])
                    if (any(abs(g - e) > 1 for g, e in zip(got, want))
                            or abs(row[2 * x + 2] - want[0]) > 1):
                        errs.append(f"bar {b} ({x},{y}) Y'CbCr {got}, want {want}")
                        break
                if len(errs) > 3:
                    break
        if sat == 0 and not errs:
            chroma = set(data[1:w * h * 2:2])
            if chroma != {128}:
                errs.append(f"saturation 0 but chroma values {sorted(chroma)[:8]}")
        result(not errs, name, "; ".join(errs[:3]))
    return 0


def mean_luma(path, w, h):
    data = read_yuyv(path, w, h)
    return sum(data[0:w * h * 2:2]) / (w * h)


def seq_files(d):
    out = {}
    for p in glob.glob(os.path.join(d, "*.raw")) + glob.glob(os.path.join(d, "*.rgb")):
        out[int(os.path.basename(p).split(".")[0])] = p
    return dict(sorted(out.items()))


def read_csv(path):
    """sequence -> buffer timestamp (us) from a vivi-timing CSV"""
    ts = {}
    with open(path) as f:
        next(f)
        for line in f:
            v = line.split(",")
            ts[int(v[1])] = float(v[2])
    return ts


def cmd_luma_step(a):
    files = seq_files(a.dir)
    ts = read_csv(a.csv)
    means = {s: mean_luma(p, a.w, a.h) for s, p in files.items()}
    # the frame due next is drawn ahead, one period before its deadline
    old = [s for s in means if ts[s] < a.at]
    new = [s for s in means if ts[s] >= a.at + 2 * a.period]
    trace = " ".join(f"{s}:{ts[s] - a.at:+.0f}us:{m:.1f}" for s, m in means.items())
    if len(old) < 2 or len(new) < 3:
        return result(False, a.name, f"too few frames before/after the change: {trace}")
    base = means[old[0]]
    is_new = {s: abs(m - base - a.delta) <= 0.5 for s, m in means.items()}
    first = min((s for s in means if is_new[s]), default=None)
    ok = (all(means[s] == base for s in old) and all(is_new[s] for s in new)
          and all(means[s] == base or is_new[s] for s in means)
          and all(is_new[s] for s in means if first is not None and s >= first))
    due = f"{(ts[first] - a.at) / 1000:.1f} ms" if first is not None else "never"
    return result(ok, f"{a.name} (first new frame due {due} after the change)",
                  f"sequence:time after the change:mean Y': {trace}")


def cmd_flip(a):
    w, h = a.w, a.h
    for f, p, hf, vf, what in (("hflip.rgb", 0, True, False,
                                "horizontal_flip mirrors the bars, black on the left"),
                               ("vflip.rgb", 5, False, True,
                                "vertical_flip mirrors the vertical ramp, white on top")):
        name = f"{a.name}: {what}"
        try:
            got = load_rgb(os.path.join(a.dir, f), w, h)
        except (OSError, ValueError) as e:
            result(False, name, str(e))
            continue
        why = first_diff(got, expected(p, w, h, hflip=hf, vflip=vf))
        if why is None and got.tobytes() == expected(p, w, h).tobytes():
            why = "the picture is not mirrored"
        result(why is None, name, why)
    return 0


def cell_box(line, k):
    x = TEXT_X + CELL_W * k
    y = TEXT_Y + LINE_STEP * line
    return (x, y, x + CELL_W, y + CELL_H)


def line_box(line, n):
    x0, y0, _, _ = cell_box(line, 0)
    return (x0, y0, x0 + CELL_W * n, y0 + CELL_H)


def glyph(img, line, k):
    """The cell's pixels as a bit string, or None if not black/white."""
    cell = img.crop(cell_box(line, k)).tobytes()
    bits = []
    for i in range(0, len(cell), 3):
        px = cell[i:i + 3]
        if px == b"\xff\xff\xff":
            bits.append("1")
        elif px == b"\x00\x00\x00":
            bits.append("0")
        else:
            return None
    return "".join(bits)


def only_in(diff_img, boxes):
    """True if every nonzero pixel of diff_img lies inside one of boxes."""
    d = diff_img.copy()
    for b in boxes:
        d.paste((0, 0, 0), b)
    return d.getbbox() is None


def cmd_osd(a):
    w, h = a.w, a.h
    plain = expected(0, w, h)
    line0_len = len("000000 00:00:00.000")
    lens = [line0_len, len(a.line1), len(a.line2)]
    boxes = [line_box(i, n) for i, n in enumerate(lens)]
    try:
        frames = {s: load_rgb(p, w, h) for s, p in seq_files(os.path.join(a.dir, "all")).items()}
        none = load_rgb(os.path.join(a.dir, "none.rgb"), w, h)
        counters = load_rgb(os.path.join(a.dir, "counters.rgb"), w, h)
        hflip = load_rgb(os.path.join(a.dir, "hflip.rgb"), w, h)
    except (OSError, ValueError) as e:
        return result(False, f"{a.name}: frames", str(e))
    seqs = sorted(frames)
    if len(seqs) < 11:
        return result(False, f"{a.name}: frames", f"only sequences {seqs}")
    first = frames[seqs[0]]

    why = first_diff(none, plain)
    result(why is None, f"{a.name}: None: the frame is the plain pattern", why)

    d = ImageChops.difference(first, plain)
    present = [d.crop(b).getbbox() is not None for b in boxes]
    result(only_in(d, boxes) and all(present),
           f"{a.name}: All: three text lines at x=16, y=16+18*i, nothing else changed",
           f"text lines present {present}, changes outside them: "
           f"{ImageChops.difference(first, plain).getbbox()}")

    bad = [(i, k) for i, n in enumerate(lens) for k in range(n)
           if glyph(first, i, k) is None]
    white = any("1" in (glyph(first, 0, k) or "") for k in range(lens[0]))
    result(not bad and white, f"{a.name}: All: text cells are white glyphs on black",
           f"cells with other colors (line, cell): {bad[:6]}")

    d = ImageChops.difference(counters, plain)
    result(only_in(d, boxes[:1]) and d.crop(boxes[0]).getbbox() is not None,
           f"{a.name}: Counters Only: one text line, nothing else changed",
           f"changed area {d.getbbox()}")

    # consecutive frames differ in the counter line only
    why = None
    for s, t in zip(seqs, seqs[1:]):
        d = ImageChops.difference(frames[s], frames[t])
        if not only_in(d, boxes[:1]):
            why = f"seq {s} -> {t}: changes outside line 0 at {d.getbbox()}"
            break
        if not d.crop(line_box(0, 6)).getbbox():
            why = f"seq {s} -> {t}: the sequence number cells did not change"
            break
    result(why is None, f"{a.name}: the sequence number changes from frame "
           "to frame, the rest of the frame is identical", why)

    # text is not mirrored
    d = ImageChops.difference(hflip, first)
    why = None
    if d.crop(boxes[1]).getbbox() or d.crop(boxes[2]).getbbox():
        why = "text lines 1, 2 differ from the unflipped frame"
    else:
        m = ImageChops.difference(hflip, expected(0, w, h, hflip=True))
        if not only_in(m, boxes):
            why = f"outside the text, not the mirrored bars: {m.getbbox()}"
    result(why is None, f"{a.name}: horizontal_flip leaves the text unmirrored", why)

    # the digits: learn glyphs from the sequence numbers, check the rest
    glyphs = {}
    clash = []

    def learn(ch, g, where):
        if g is None:
            clash.append(f"{where}: not black/white")
        elif ch in glyphs and glyphs[ch] != g:
            clash.append(f"{where}: '{ch}' drawn two ways")
        else:
            glyphs.setdefault(ch, g)

    for s in seqs:
        for k, ch in enumerate(f"{s:06d}"):
            learn(ch, glyph(frames[s], 0, k), f"seq {s} cell {k}")
        for k, ch in ((6, " "), (9, ":"), (12, ":"), (15, ".")):
            learn(ch, glyph(frames[s], 0, k), f"seq {s} cell {k}")
    for i, text in ((1, a.line1), (2, a.line2)):
        for k, ch in enumerate(text):
            learn(ch, glyph(first, i, k), f"line {i} cell {k}")
    inv = {}
    for ch, g in glyphs.items():
        inv.setdefault(g, []).append(ch)
    same = [chars for chars in inv.values() if len(chars) > 1]
    blank = glyphs.get(" ", "0") != "0" * CELL_W * CELL_H
    digits = all(str(d) in glyphs for d in range(10))
    result(not clash and not same and not blank and digits,
           f"{a.name}: text reads '<seq> hh:mm:ss.mmm', '{a.line1}', '{a.line2}' "
           "(glyphs learned from the sequence numbers)",
           f"{'; '.join(clash[:3])} same glyph for {same[:3]} blank space ok "
           f"{not blank} all digits seen {digits}")

    # the time: read it with the learned digits, frame n is due (n+1)/fps
    # after STREAMON
    rev = {g: ch for ch, g in glyphs.items()}
    why = None
    shown = []
    period = 1000.0 / a.fps
    for s in seqs:
        txt = "".join(rev.get(glyph(frames[s], 0, k), "?") for k in range(7, 19))
        shown.append(f"{s}:{txt}")
        try:
            hh, mm, rest = txt.split(":")
            ss, ms = rest.split(".")
            t = ((int(hh) * 60 + int(mm)) * 60 + int(ss)) * 1000 + int(ms)
        except ValueError:
            why = f"seq {s}: time reads '{txt}'"
            break
        due = (s + 1) * period
        if abs(t - due) > period / 2:
            why = f"seq {s}: shows {t} ms, due at {due:.1f} ms"
            break
    result(why is None, f"{a.name}: the time shown is the frame's due time "
           "since STREAMON (within half a frame)",
           f"{why}; read: {' '.join(shown[:6])}")
    return 0


def cmd_motion(a):
    w, h = a.w, a.h
    for spec in a.specs:
        # DIR:PATTERN:SPEED
        d, pattern, speed = spec.split(":")
        pattern, speed = int(pattern), int(speed)
        what = {0: f"bars scroll left {speed} px per frame",
                2: f"box moves {speed} px per frame in x and y"}[pattern]
        if speed == 0:
            what = f"{NAMES[pattern]}, motion_speed 0: still"
        name = f"{a.name}: {what}"
        files = seq_files(d)
        seqs = list(files)
        if len(seqs) < 3:
            result(False, name, f"only sequences {seqs}")
            continue
        why = None
        frames = {}
        for s, p in files.items():
            frames[s] = load_rgb(p, w, h)
            why = first_diff(frames[s], expected(pattern, w, h, seq=s, speed=speed))
            if why:
                why = f"seq {s}: {why}"
                break
        if why is None and speed and len({f.tobytes() for f in frames.values()}) < 2:
            why = "all frames are the same"
        result(why is None, f"{name} (sequences {seqs[0]}..{seqs[-1]})", why)
        if pattern == 2 and speed and why is None:
            # the 100% white square, found in the frames, moves by speed
            pos = {}
            for s, f in frames.items():
                r, g, b = (c.point(lambda v: 255 if v == 255 else 0)
                           for c in f.split())
                pos[s] = ImageChops.multiply(ImageChops.multiply(r, g), b).getbbox()
            steps = {(pos[t][0] - pos[s][0], pos[t][1] - pos[s][1])
                     for s, t in zip(seqs, seqs[1:]) if t == s + 1}
            result(steps == {(speed, speed)},
                   f"{a.name}: the white box found in consecutive frames moves "
                   f"({speed},{speed}) px each time",
                   f"steps {sorted(steps)}, positions {list(pos.items())[:4]}")
    return 0


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)

    def common(p, *extra):
        p.add_argument("name")
        for e in extra:
            p.add_argument(e)
        p.add_argument("w", type=int)
        p.add_argument("h", type=int)
        return p

    common(sub.add_parser("patterns"), "dir")
    p = common(sub.add_parser("frame"), "file")
    p.add_argument("pattern", type=int)
    p = common(sub.add_parser("decoded"), "file")
    p.add_argument("patterns")
    p = sub.add_parser("yuyv")
    p.add_argument("--yu12", action="store_true")
    p = common(p)
    p.add_argument("specs", nargs="+")
    p = common(sub.add_parser("luma-step"), "dir", "csv")
    p.add_argument("at", type=float)
    p.add_argument("period", type=float)
    p.add_argument("delta", type=float)
    common(sub.add_parser("flip"), "dir")
    p = common(sub.add_parser("osd"), "dir")
    p.add_argument("line1")
    p.add_argument("line2")
    p.add_argument("fps", type=float)
    p = common(sub.add_parser("motion"))
    p.add_argument("specs", nargs="+")
    a = ap.parse_args()
    {"patterns": cmd_patterns, "frame": cmd_frame, "decoded": cmd_decoded, "yuyv": cmd_yuyv,
     "luma-step": cmd_luma_step, "flip": cmd_flip, "osd": cmd_osd,
     "motion": cmd_motion}[a.cmd](a)
    return 1 if failures else 0


if __name__ == "__main__":
    helper.run(main)
