#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Inside the VM: every guest test stage, in order; with VIVI_FULL=1 also the
# long ones of 'make check-full'. VIVI_STAGES="check-x check-y" runs only
# those (for working on one stage: make check VIVI_STAGES=...).
set -u
dir=$(dirname "$0")
stages="check-install check-base check-formats check-apps check-gen check-clients check-robust"
[ "${VIVI_FULL:-0}" = 1 ] && stages="$stages check-full"
stages=${VIVI_STAGES:-$stages}
for stage in $stages; do
	"$dir/$stage.sh"
done
