#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Inside the VM for 'make run': load vivi, show it, capture a PNG and a clip.
set -eu
. "$(dirname "$0")/lib.sh"
core_modules
load_vivi n_devs=2
dev=$(vivi_node 0)
echo "== v4l2-ctl -d $dev --all"
v4l2-ctl -d "$dev" --all
echo "== capture"
v4l2-ctl -d "$dev" -v width=640,height=480,pixelformat=YUYV -p 30 >/dev/null
ffmpeg -v error -y -f v4l2 -input_format yuyv422 -video_size 640x480 \
	-framerate 30 -i "$dev" -frames:v 1 "$OUT/vivi.png"
ffmpeg -v error -y -f v4l2 -input_format yuyv422 -video_size 640x480 \
	-framerate 30 -i "$dev" -t 4 -c:v libx264 -preset ultrafast \
	-pix_fmt yuv420p "$OUT/vivi.mkv"
ffprobe -v error -count_frames -show_entries \
	stream=codec_name,width,height,nb_read_frames -of default=nw=1 \
	"$OUT/vivi.mkv"
echo "== v4l2-compliance -s (NV* formats left out: tool skew, see tests/README.md)"
unload_vivi
load_vivi n_devs=2 "formats=$(non_nv_formats)"
dev=$(vivi_node 0)
v4l2-compliance -d "$dev" -s --expbuf-device "$(vivi_node 1)" \
	>"$OUT/compliance.log" 2>&1 || true
grep -E '^(Total|Grand Total)' "$OUT/compliance.log"
unload_vivi
