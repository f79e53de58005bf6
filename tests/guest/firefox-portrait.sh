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

CFS=/sys/kernel/config/vivi

# pw_sources: the Video/Source nodes, "ID PATH ROLE | DESCRIPTION"
pw_sources() {
	pw-dump 2>/dev/null | python3 -c '
import json, sys
objs, _ = json.JSONDecoder().raw_decode(sys.stdin.read().lstrip())
for o in objs:
    p = (o.get("info") or {}).get("props") or {}
    if p.get("media.class") == "Video/Source":
        print(o["id"], p.get("api.v4l2.path"), p.get("media.role"), "|",
              p.get("node.description"))
'
}

# camera_add NAME SIZE FORMATS: a configfs camera with one size; sets D
camera_add() {
	mkdir "$CFS/$1" &&
		echo "$2" >"$CFS/$1/sizes" &&
		echo "$3" >"$CFS/$1/formats" &&
		echo 1 >"$CFS/$1/enabled" &&
		D=$(head -n 1 "$CFS/$1/nodes")
}

camera_remove() {
	echo 0 >"$CFS/$1/enabled"
	rmdir "$CFS/$1"
}

# firefox_case NAME SIZE FORMATS: Firefox's PipeWire backend asks for
# exactly SIZE from configfs camera NAME
firefox_case() {
	local name=$1 size=$2 fmts=$3 t0 nodes id= label= line stats L n
	n="firefox (PipeWire portal): $size $fmts"
	camera_add "$name" "$size" "$fmts" || {
		fail "$n: configfs camera" "not created"
		return
	}
	echo "== $name: $D $size $fmts"
	t0=$(date +%s)
	while [ $(($(date +%s) - t0)) -lt 60 ]; do
		nodes=$(pw_sources)
		id=$(sed -n "s%^\([0-9]*\) $D Camera | .*%\1%p" <<<"$nodes")
		label=$(sed -n "s%^[0-9]* $D Camera | %%p" <<<"$nodes")
		[ -n "$id" ] && break
		sleep 1
	done
	if [ -n "$id" ]; then
		pass "$n: $D is PipeWire node $id '$label' after $(($(date +%s) - t0)) s"
	else
		fail "$n: $D as a PipeWire Video/Source Camera node" "${nodes:-none}"
	fi
	if line=$(portal_camera_wait 60); then
		pass "$n: Camera portal: IsCameraPresent $line"
	else
		fail "$n: Camera portal: IsCameraPresent" "$line"
	fi
	L=$OUT/firefox-pipewire-$size-$fmts.log
	t0=$(date +%s)
	firefox_pipewire_start "file://$GUEST/camera.html?w=${size%x*}&h=${size#*x}" "$L"
	line=$(browser_wait "$L" '(RESULT|ERROR)' 600)
	stats=$(cat /sys/kernel/debug/vivi/"${D#/dev/}"/stats 2>/dev/null)
	browser_stop
	echo "firefox: $size $fmts: result after $(($(date +%s) - t0)) s: ${line:0:60}"
	grep -E "Chosen capability|Configured capture format" "$L"
	echo "firefox: frames libwebrtc failed to convert: $(grep -c 'Failed to convert' "$L")"
	if grep -q "Creating new PipeWire stream for node $id\$" "$L" &&
		grep -q "Camera: sending response 0" "$OUT/portal-xdp.log"; then
		pass "$n: the portal granted the camera, Firefox streamed node $id"
	else
		fail "$n: through the portal and PipeWire node ${id:-?}" \
			"$(grep -m 1 -E 'PipeWire stream|portal' "$L")"
	fi
	# vivi itself streamed that size: no scaling on the way
	if grep -qx "format: $fmts $size .*" <<<"$stats"; then
		pass "$n: vivi streamed $(grep -m 1 '^format:' <<<"$stats")"
	else
		fail "$n: vivi streamed $fmts $size" "$(grep -m 1 '^format:' <<<"$stats")"
	fi
	clients.py chromium "$n: getUserMedia" "$L" "$size" "$label" 4 \
		$([ "$fmts" = MJPG ] && echo --limited)
	camera_remove "$name"
}

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
