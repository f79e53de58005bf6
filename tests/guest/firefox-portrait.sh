#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Firefox opens a vivi camera at the portrait size 1080x1920 (not a stage
# of make check; run it with tests/vm/vm.sh, see portal.sh). Firefox's V4L2
# backend probes 13 fixed landscape sizes with TRY_FMT and keeps exact
# matches, so it never offers 1080x1920 (getUserMedia: OverconstrainedError).
# Its PipeWire backend asks xdg-desktop-portal's Camera portal for a
# PipeWire remote and takes the sizes PipeWire's V4L2 plugin enumerates
# (ENUM_FRAMESIZES). Runs inside the guest; prints PASS:/FAIL:.
#
# VIVI_FFPW_CASES: "SIZE:FORMATS ..." (default 1080x1920:YUYV), one
# configfs camera each, one after the other. For sizes over 640x480
# libwebrtc asks PipeWire for MJPEG first, so a camera that offers MJPG
# streams MJPG. VIVI_FFPW_V4L2=1 first runs the V4L2 backend on the first
# case and expects it to refuse.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/portal.sh"

check "portrait: V4L2 core modules load" core_modules
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
check "portrait: load vivi without cameras" load_vivi n_devs=0
CASES=${VIVI_FFPW_CASES:-1080x1920:YUYV}

if [ "${VIVI_FFPW_V4L2:-0}" = 1 ]; then
	c=${CASES%% *}
	size=${c%%:*}
	camera_add v "$size" "${c#*:}"
	L=$OUT/firefox-v4l2-$size.log
	t0=$(date +%s)
	firefox_start "file://$GUEST/camera.html?w=${size%x*}&h=${size#*x}" "$L"
	line=$(browser_wait "$L" '(RESULT|ERROR)' 600)
	browser_stop
	echo "firefox (V4L2): $size: after $(($(date +%s) - t0)) s: $line"
	if grep -q "^VIVI ERROR OverconstrainedError" <<<"$line"; then
		pass "firefox (V4L2): $size refused: ${line#VIVI ERROR }"
	else
		fail "firefox (V4L2): $size refused" "${line:-no result}"
	fi
	camera_remove v
fi

# not through check: portal_start exports the session's environment
t0=$(date +%s)
if portal_start; then
	pass "portrait: session bus, pipewire, wireplumber, xdg-desktop-portal start"
	i=0
	for c in $CASES; do
		firefox_case "c$i" "${c%%:*}" "${c#*:}"
		i=$((i + 1))
	done
else
	fail "portrait: portal stack" "$(cat "$OUT"/portal-start.log)"
fi
portal_stop
echo "portrait: portal stack up for $(($(date +%s) - t0)) s"
check "portrait: unload vivi" unload_vivi
