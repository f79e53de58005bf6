#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# VM stage of 'make check-full': v4l2-compliance streaming every format,
# size and interval, with all formats offered.
set -u
. "$(dirname "$0")/lib.sh"

check "full: V4L2 core modules load" core_modules
check "full: load vivi with all formats" load_vivi n_devs=1
stage_start "compliance -s -f"
compliance_skew "compliance: -s -f, all formats" "$(vivi_node 0)" -s -f
stage_end
