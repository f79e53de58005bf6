#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Print the Debian archive this machine's apt takes packages from: the URI
# of its first "deb" source for a main suite (not -security or -updates),
# read from /etc/apt/sources.list and sources.list.d (one-line and deb822
# forms). The tests reach other suites through private source lists built
# on it, so no mirror's address is written in the repository and the
# system's own sources stay as they are. Status 1 if there is none.
set -uo pipefail
etc=${APT_ETC:-/etc/apt}
uri=$(
	for f in "$etc"/sources.list "$etc"/sources.list.d/*.list; do
		[ -r "$f" ] && sed -e 's/#.*//' -e 's/\[[^]]*\]//' "$f"
	done | awk '$1 == "deb" && $3 !~ /-(security|updates)$/ { print $2; exit }'
)
if [ -z "$uri" ]; then
	uri=$(
		for f in "$etc"/sources.list.d/*.sources; do
			[ -r "$f" ] && { sed -e '/^[[:space:]]*#/d' -e 's/#.*//' "$f"; echo; }
		done | awk '
			/^[ \t]*$/ {
				if (deb && u != "" && main) { print u; exit }
				deb = 0; u = ""; main = 0; next
			}
			tolower($1) == "types:" { for (i = 2; i <= NF; i++) if ($i == "deb") deb = 1 }
			tolower($1) == "uris:" { u = $2 }
			tolower($1) == "suites:" {
				for (i = 2; i <= NF; i++) if ($i !~ /-(security|updates)$/) main = 1
			}
			tolower($1) == "enabled:" && tolower($2) == "no" { deb = 0 }'
	)
fi
[ -n "$uri" ] || { echo "apt-mirror: no Debian source in $etc" >&2; exit 1; }
echo "${uri%/}"
