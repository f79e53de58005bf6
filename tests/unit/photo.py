#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""A natural photograph as raw RGB24 frames for bench_jpeg.

Usage: photo.py PNG OUTDIR WxH...

For each size writes two headerless RGB24 frames into OUTDIR:
  scaled-WxH.rgb  the photograph's centre, cropped to the frame's shape,
                  resized with Lanczos (softer than a camera's own frame
                  when enlarged)
  tiled-WxH.rgb   the photograph at its own size, repeated and mirrored
                  every other tile (no seams): a camera's own detail per
                  pixel, though each tile repeats the same content
The two bracket what the encoder sees from a real camera at that size.
"""
import os
import sys

from PIL import Image, ImageOps


def scaled(im, w, h):
    return ImageOps.fit(im, (w, h), Image.LANCZOS, centering=(0.5, 0.5))


def tiled(im, w, h):
    out = Image.new("RGB", (w, h))
    tiles = {
        (fx, fy): ImageOps.flip(ImageOps.mirror(im) if fx else im)
        if fy else (ImageOps.mirror(im) if fx else im)
        for fx in (0, 1) for fy in (0, 1)
    }
    for y in range(0, h, im.height):
        for x in range(0, w, im.width):
            out.paste(tiles[(x // im.width) % 2, (y // im.height) % 2],
                      (x, y))
    return out


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    im = Image.open(sys.argv[1]).convert("RGB")
    os.makedirs(sys.argv[2], exist_ok=True)
    for size in sys.argv[3:]:
        w, h = (int(v) for v in size.split("x"))
        for name, make in (("scaled", scaled), ("tiled", tiled)):
            path = os.path.join(sys.argv[2], f"{name}-{size}.rgb")
            with open(path + ".tmp", "wb") as f:
                f.write(make(im, w, h).tobytes())
            os.replace(path + ".tmp", path)


if __name__ == "__main__":
    main()
