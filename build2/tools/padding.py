#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""padding.py FOURCC FILE BYTESPERLINE

For a 640x480 frame of FOURCC (YUYV, YU12, RGB3, NV12 or GREY) stored with
the stride BYTESPERLINE, exits 1 with a message unless every byte past the
picture in each row of each plane is still zero (vb2 hands out zeroed
memory: the generator must not write the padding) and the planes add up to
the file's size (check-formats' stride padding check).
"""
import sys
import helper

W, H = 640, 480
# bytes of picture in a row of the first plane
USED = {"YUYV": W * 2, "YU12": W, "RGB3": W * 3, "NV12": W, "GREY": W}


def planes(fcc, bpl):
    """(rows, stride, bytes used) of each plane"""
    used = USED[fcc]
    if fcc == "YU12":
        return [(H, bpl, used), (H // 2, bpl // 2, used // 2),
                (H // 2, bpl // 2, used // 2)]
    if fcc == "NV12":
        return [(H, bpl, used), (H // 2, bpl, used)]
    return [(H, bpl, used)]


def main():
    fcc, path, bpl = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(path, "rb") as f:
        data = f.read()
    off = 0
    for n, stride, used in planes(fcc, bpl):
        for y in range(n):
            if any(data[off + y * stride + used: off + (y + 1) * stride]):
                return f"row {y} of a plane: padding written"
        off += n * stride
    if off != len(data):
        return f"frame is {len(data)} bytes, layout says {off}"
    return 0


if __name__ == "__main__":
    helper.run(main)
