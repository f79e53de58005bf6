#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Inside the VM: every guest test stage, in order.
set -u
dir=$(dirname "$0")
for stage in "$dir"/check-base.sh; do
	"$stage"
done
