# SPDX-License-Identifier: GPL-2.0
# Helpers for the camera portal path (sourced after lib.sh, runs inside the
# VM): a session bus, udev, pipewire, wireplumber and xdg-desktop-portal's
# Camera portal, and Firefox using its PipeWire camera backend through it.
#
# The Camera portal of xdg-desktop-portal 1.16 is exported only when some
# backend offers org.freedesktop.impl.portal.Access (the backend that would
# show "Turn On Camera?"). There is no desktop here, so portal_start names
# a backend that does not exist (a .portal file in XDG_DESKTOP_PORTAL_DIR)
# and stores the answer "yes" for the camera of host apps (app id "") in
# the permission store beforehand, which is what the dialog would store:
# the portal then never asks. Wireplumber's access-portal script gives a
# host app's portal connection every node.

# portal_start: the whole stack; sets PORTAL_PIDS, logs in $OUT/portal-*.log
portal_start() {
	local bus
	PORTAL_PIDS=
	if [ ! -x /usr/libexec/xdg-desktop-portal ]; then
		echo "no /usr/libexec/xdg-desktop-portal (tests/deps.sh)" \
			>"$OUT/portal-start.log"
		return 1
	fi
	export SYSTEMD_IGNORE_CHROOT=1 XDG_RUNTIME_DIR=/tmp/xdg
	export XDG_CONFIG_HOME=/tmp/pwconf XDG_DATA_HOME=/tmp/xdgdata
	export XDG_DESKTOP_PORTAL_DIR=/tmp/portals XDG_CURRENT_DESKTOP=vivi
	mkdir -p -m 0700 "$XDG_RUNTIME_DIR"
	mkdir -p "$XDG_CONFIG_HOME/wireplumber/bluetooth.lua.d" "$XDG_DATA_HOME" \
		"$XDG_DESKTOP_PORTAL_DIR"
	echo 'bluez_monitor.enabled = false' \
		>"$XDG_CONFIG_HOME/wireplumber/bluetooth.lua.d/51-vivi.lua"
	cat >"$XDG_DESKTOP_PORTAL_DIR/vivi.portal" <<-'EOF'
	[portal]
	DBusName=org.freedesktop.impl.portal.desktop.vivi
	Interfaces=org.freedesktop.impl.portal.Access
	UseIn=vivi
	EOF
	/lib/systemd/systemd-udevd --daemon 2>/dev/null
	udevadm trigger --action=add --subsystem-match=video4linux
	udevadm settle -t 30
	bus=$(dbus-daemon --session --fork --print-address=1 --print-pid=1) ||
		return 1
	export DBUS_SESSION_BUS_ADDRESS=${bus%%$'\n'*}
	PORTAL_PIDS=${bus##*$'\n'}
	# the stored answer (xdg-permission-store is started by the bus)
	gdbus call --session --dest org.freedesktop.impl.portal.PermissionStore \
		--object-path /org/freedesktop/impl/portal/PermissionStore \
		--method org.freedesktop.impl.portal.PermissionStore.SetPermission \
		devices true camera '' "['yes']" >"$OUT/portal-start.log" 2>&1 ||
		return 1
	pipewire >"$OUT/portal-pipewire.log" 2>&1 &
	PORTAL_PIDS="$PORTAL_PIDS $!"
	sleep 2
	wireplumber >"$OUT/portal-wireplumber.log" 2>&1 &
	PORTAL_PIDS="$PORTAL_PIDS $!"
	/usr/libexec/xdg-desktop-portal -v -r >"$OUT/portal-xdp.log" 2>&1 &
	PORTAL_PIDS="$PORTAL_PIDS $!"
	return 0
}

# portal_camera_wait SECS: wait until the Camera portal says a camera is
# there (IsCameraPresent: a Video/Source node with role Camera); prints
# what it last said
portal_camera_wait() {
	local t0=$(date +%s) v=
	while [ $(($(date +%s) - t0)) -lt "$1" ]; do
		v=$(gdbus call --session --dest org.freedesktop.portal.Desktop \
			--object-path /org/freedesktop/portal/desktop \
			--method org.freedesktop.DBus.Properties.Get \
			org.freedesktop.portal.Camera IsCameraPresent 2>&1)
		[ "$v" = "(<true>,)" ] && { echo "$v"; return 0; }
		sleep 1
	done
	echo "$v"
	return 1
}

# portal_stop: end what portal_start started (and the permission store,
# which the bus started)
portal_stop() {
	local p store
	store=$(gdbus call --session --dest org.freedesktop.DBus \
		--object-path /org/freedesktop/DBus \
		--method org.freedesktop.DBus.GetConnectionUnixProcessID \
		org.freedesktop.impl.portal.PermissionStore 2>/dev/null |
		sed -n 's/^(uint32 \([0-9]*\),)$/\1/p')
	for p in $PORTAL_PIDS $store; do
		kill "$p" 2>/dev/null
	done
	for p in $PORTAL_PIDS; do
		wait "$p" 2>/dev/null
	done
	udevadm control --exit 2>/dev/null
	pkill -9 -x systemd-udevd 2>/dev/null
	unset SYSTEMD_IGNORE_CHROOT DBUS_SESSION_BUS_ADDRESS XDG_DESKTOP_PORTAL_DIR \
		XDG_CURRENT_DESKTOP XDG_DATA_HOME XDG_CONFIG_HOME
	PORTAL_PIDS=
}

# firefox_pipewire_start URL LOG: firefox_start with Firefox's PipeWire
# camera backend (media.webrtc.camera.allow-pipewire), which asks the
# Camera portal for a PipeWire remote and lists that remote's cameras;
# needs portal_start. LOG also gets Firefox's camera logging (MOZ_LOG).
firefox_pipewire_start() {
	MOZ_LOG=CamerasParent:5,VideoEngine:5,MediaManager:4,webrtc_trace:5 \
		firefox_start "$1" "$2" true
}

# A configfs camera that Firefox opens through the portal and PipeWire
PORTAL_CFS=/sys/kernel/config/vivi

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
	mkdir "$PORTAL_CFS/$1" &&
		echo "$2" >"$PORTAL_CFS/$1/sizes" &&
		echo "$3" >"$PORTAL_CFS/$1/formats" &&
		echo 1 >"$PORTAL_CFS/$1/enabled" &&
		D=$(head -n 1 "$PORTAL_CFS/$1/nodes")
}

camera_remove() {
	echo 0 >"$PORTAL_CFS/$1/enabled"
	rmdir "$PORTAL_CFS/$1"
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
	for try in 1 2; do
		t0=$(date +%s)
		firefox_pipewire_start "file://$GUEST/camera.html?w=${size%x*}&h=${size#*x}" "$L"
		line=$(browser_wait "$L" '(RESULT|ERROR)' 600)
		stats=$(cat /sys/kernel/debug/vivi/"${D#/dev/}"/stats 2>/dev/null)
		browser_stop
		echo "firefox: $size $fmts: result after $(($(date +%s) - t0)) s: ${line:0:60}"
		# libwebrtc's own race check in its PipeWire capturer aborts
		# Firefox now and then under TCG (once in a clean-clone run,
		# 2026-12-07), before the page gets a frame: then one more
		# start, whose log the checks below read
		if [ -n "$line" ] || [ "$try" = 2 ] ||
			! grep -aq 'Check failed: !race_checker' "$L"; then
			break
		fi
		echo "firefox: $size $fmts: Firefox aborted in its libwebrtc race check ($(grep -a -m 1 'Fatal error in' "$L" | tr -d '#')); starting it once more"
		mv "$L" "$L.1"
	done
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
