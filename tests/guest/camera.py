#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check frames of vivi's camera controls against the README's formulas.

Every command takes headerless RGB24 frames of W x H and prints one
PASS:/FAIL: line. REF is a frame of the same pattern with every camera
control at its default (and no text).

  camera.py view NAME REF GOT W H ZOOM PAN TILT HFLIP VFLIP
      each pixel of GOT is the REF pixel the view formula names (exact)
  camera.py sensor NAME REF GOT W H EXPOSURE GAIN WB GAMMA BACKLIGHT
      each pixel of GOT is REF's through the sensor curve (within 1);
      EXPOSURE and WB 0 mean auto
  camera.py black NAME GOT W H
      every pixel is black
  camera.py textline NAME REF GOT W H
      GOT differs from REF in the fourth text line's cells only, and there
  camera.py noline NAME REF GOT W H
      GOT equals REF from the fourth text line's top down: no fourth line
  camera.py text NAME REF W H GOT TEXT [GOT TEXT]...
      the first GOT differs from REF only in the fourth line's first
      len(TEXT) cells, which show TEXT: one glyph per character, the
      same in REF's lines 1 and 2 and in the other GOTs' fourth lines.
      REF: RGB24 at 30 fps, all text, saturation 156 (its 5 and 6 are
      the power line's), the other picture controls at their defaults
  camera.py blackstamp NAME GOT W H N
      each of the N frames of GOT is black but for the frame stamp's cells
      (vivi_gen.h), each all black or all white, led by the sync 1010
  camera.py bars NAME GOT W H ZOOM TOL
      the 75% bars as the zoom shows them, sampled inside each visible bar
"""
import sys
import helper

FOV = 216000          # arc seconds across the frame's width
BARS = [(1, 1, 1), (1, 1, 0), (0, 1, 1), (0, 1, 0), (1, 0, 1), (1, 0, 0),
        (0, 0, 1), (0, 0, 0)]


def load(path, w, h):
    data = open(path, "rb").read()
    if len(data) < w * h * 3:
        raise ValueError(f"{path}: {len(data)} bytes, want {w * h * 3}")
    return data[:w * h * 3]


def view_at(i, size, w, off, zoom):
    """floor(size/2 + off*w/FOV + (i + 1/2 - size/2) * 100/zoom) mod size"""
    n = size * zoom * FOV + 2 * off * w * zoom + (2 * i + 1 - size) * 100 * FOV
    return (n // (2 * zoom * FOV)) % size


def result(ok, name, why):
    print(f"PASS: {name}" if ok else f"FAIL: {name}: {why}")
    return 0 if ok else 1


def cmd_view(a):
    name, ref, got = a[0], a[1], a[2]
    w, h, zoom, pan, tilt, hf, vf = (int(v) for v in a[3:10])
    r, g = load(ref, w, h), load(got, w, h)
    xs = [view_at(w - 1 - x if hf else x, w, w, pan, zoom) for x in range(w)]
    for y in range(h):
        ys = view_at(h - 1 - y if vf else y, h, w, -tilt, zoom)
        for x in range(w):
            o, s = 3 * (y * w + x), 3 * (ys * w + xs[x])
            if g[o:o + 3] != r[s:s + 3]:
                return result(False, name, f"({x},{y}) is {tuple(g[o:o + 3])}, "
                              f"scene ({xs[x]},{ys}) is {tuple(r[s:s + 3])}")
    return result(True, name, "")


def sensor(v, ch, e, gain, wb, gamma, bl):
    e = e or 250
    t = wb or 4000
    num, den = v * e * (64 + gain), 250 * 64
    if ch == 0:
        num, den = num * t, den * 4000
    elif ch == 2:
        num, den = num * 4000, den * t
    v1 = min(255, (2 * num + den) // (2 * den))
    v1 += (bl * (255 - v1) + 4) // 8
    return round(255 * (v1 / 255) ** (100 / (gamma or 100)))


def cmd_sensor(a):
    name, ref, got = a[0], a[1], a[2]
    w, h, e, gain, wb, gamma, bl = (int(v) for v in a[3:10])
    r, g = load(ref, w, h), load(got, w, h)
    lut = [[sensor(v, ch, e, gain, wb, gamma, bl) for v in range(256)]
           for ch in range(3)]
    worst = 0
    for i in range(w * h * 3):
        want = lut[i % 3][r[i]]
        worst = max(worst, abs(g[i] - want))
        if abs(g[i] - want) > 1:
            p = i // 3
            return result(False, name, f"pixel ({p % w},{p // w}) channel "
                          f"{i % 3}: {g[i]}, formula {want} (from {r[i]})")
    return result(True, f"{name} (worst error {worst})", "")


def cmd_black(a):
    name, got = a[0], a[1]
    w, h = int(a[2]), int(a[3])
    g = load(got, w, h)
    bad = sum(1 for v in g if v)
    return result(bad == 0, name, f"{bad} nonzero samples")


def cmd_textline(a):
    name, ref, got = a[0], a[1], a[2]
    w, h = int(a[3]), int(a[4])
    inside, outside = line_diff(load(ref, w, h), load(got, w, h), w, h)
    return result(inside > 0 and outside == 0, name,
                  f"{inside} pixels changed in the fourth line, {outside} elsewhere")


TEXT_X, TEXT_Y, LINE_STEP, CELL_W, CELL_H = 16, 16, 18, 8, 16


def glyph(img, w, line, k):
    """Cell k of text line @line as a bit string, None if not black/white."""
    bits = []
    for y in range(TEXT_Y + LINE_STEP * line, TEXT_Y + LINE_STEP * line + CELL_H):
        o = 3 * (y * w + TEXT_X + CELL_W * k)
        for px in range(CELL_W):
            v = img[o + 3 * px:o + 3 * px + 3]
            if v not in (b"\xff\xff\xff", b"\0\0\0"):
                return None
            bits.append("1" if v[0] else "0")
    return "".join(bits)


def cmd_noline(a):
    name, ref, got = a[0], a[1], a[2]
    w, h = int(a[3]), int(a[4])
    r, g = load(ref, w, h), load(got, w, h)
    o = 3 * w * (TEXT_Y + LINE_STEP * 3)
    bad = sum(1 for i in range(o, len(g)) if g[i] != r[i])
    return result(bad == 0, name, f"{bad} samples differ at or below the fourth line")


def line_diff(r, g, w, h, n=None):
    """Pixels of g that differ from r inside the fourth text line (its
    first n cells, or all of it from the text's left edge), and outside."""
    y0 = TEXT_Y + LINE_STEP * 3
    x1 = w if n is None else TEXT_X + CELL_W * n
    inside = outside = 0
    for y in range(h):
        for x in range(w):
            o = 3 * (y * w + x)
            if g[o:o + 3] != r[o:o + 3]:
                if y0 <= y < y0 + CELL_H and TEXT_X <= x < x1:
                    inside += 1
                else:
                    outside += 1
    return inside, outside


def cmd_text(a):
    name, ref = a[0], a[1]
    w, h = int(a[2]), int(a[3])
    r = load(ref, w, h)
    lines = [(r, 1, f"{w}x{h} 30fps RGB3"), (r, 2, "B128 C128 S156 H0")]
    frames = [(load(a[i], w, h), a[i + 1]) for i in range(4, len(a), 2)]
    lines += [(g, 3, t) for g, t in frames]
    _, bad = line_diff(r, frames[0][0], w, h, len(frames[0][1]))
    if bad:
        return result(False, name, f"{bad} pixels changed outside the "
                      f"fourth line's {len(frames[0][1])} cells")
    by_char, by_glyph = {}, {}
    for img, line, text in lines:
        for k, ch in enumerate(text):
            gl = glyph(img, w, line, k)
            if gl is None:
                return result(False, name, f"line {line} cell {k} ({ch!r}) "
                              "is not a white on black glyph")
            if by_char.setdefault(ch, gl) != gl:
                return result(False, name, f"{text!r} cell {k}: {ch!r} "
                              "unlike the same character elsewhere")
            if by_glyph.setdefault(gl, ch) != ch:
                return result(False, name, f"{text!r} cell {k}: {ch!r} "
                              f"drawn as {by_glyph[gl]!r} is elsewhere")
    return result(True, name, "")


def cmd_blackstamp(a):
    name, got = a[0], a[1]
    w, h, n = int(a[2]), int(a[3]), int(a[4])
    data = open(got, "rb").read()
    if len(data) != n * w * h * 3:
        return result(False, name, f"{len(data)} bytes, want {n} frames")
    c = w // 32
    x0, y0 = (w - 32 * c) // 2, h - 3 * c
    for f in range(n):
        g = data[f * w * h * 3:(f + 1) * w * h * 3]
        cells = [set() for _ in range(96)]
        for y in range(h):
            for x in range(w):
                v = g[3 * (y * w + x):3 * (y * w + x) + 3]
                if y >= y0 and x0 <= x < x0 + 32 * c:
                    cells[(y - y0) // c * 32 + (x - x0) // c].update(v)
                elif any(v):
                    return result(False, name, f"frame {f} ({x},{y}) is "
                                  f"{tuple(v)} outside the stamp")
        bits = [min(s) // 255 if s in ({0}, {255}) else None for s in cells]
        if None in bits or bits[:4] != [1, 0, 1, 0]:
            return result(False, name, f"frame {f}: stamp cells {bits[:8]}...")
    return result(True, name, "")


def cmd_bars(a):
    name, got = a[0], a[1]
    w, h, zoom, tol = (int(v) for v in a[2:6])
    g = load(got, w, h)
    errors = []
    for y in (h * 5 // 8, h * 7 // 8):
        x = 0
        while x < w:
            # the run of frame pixels that show one scene bar
            bar = view_at(x, w, w, 0, zoom) * 8 // w
            end = x
            while end < w and view_at(end, w, w, 0, zoom) * 8 // w == bar:
                end += 1
            margin = (end - x) // 4
            for xx in (x + margin, (x + end) // 2, end - 1 - margin):
                o = 3 * (y * w + xx)
                want = tuple(191 * m for m in BARS[bar])
                px = tuple(g[o:o + 3])
                if any(abs(p - q) > tol for p, q in zip(px, want)):
                    errors.append(f"({xx},{y}) {px} != bar {bar} {want}")
            x = end
    return result(not errors, name, "; ".join(errors[:4]))


def main():
    cmds = {"view": cmd_view, "sensor": cmd_sensor, "black": cmd_black,
            "textline": cmd_textline, "noline": cmd_noline,
            "text": cmd_text, "blackstamp": cmd_blackstamp, "bars": cmd_bars}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds:
        print(__doc__)
        return 2
    try:
        return cmds[sys.argv[1]](sys.argv[2:])
    except (OSError, ValueError, IndexError) as e:
        name = sys.argv[2] if len(sys.argv) > 2 else "camera"
        return result(False, name, str(e))


if __name__ == "__main__":
    helper.run(main)
