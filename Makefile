# SPDX-License-Identifier: GPL-2.0
#
# vivi: out-of-tree build, tests and helpers. The module itself is described
# in Kbuild.
#
#   make              build vivi.ko against KDIR
#   make run          build, boot a VM, capture from vivi into out/
#   make check        the whole test suite (installs what it needs)
#   make check-full   the suite plus the long compliance matrix
#   make bench-vm     vivi against vivid in the VM: docs/benchmarks.md
#   sudo make load    load on this machine (V4L2 core modules first)

# The running kernel's headers if present, else the newest installed ones
KVER ?= $(shell if [ -d /lib/modules/$$(uname -r)/build ]; then uname -r; \
	else ls -d /lib/modules/*/build 2>/dev/null | sort -V | tail -n 1 | \
	cut -d/ -f4; fi)
KDIR ?= /lib/modules/$(KVER)/build
BUILD ?= $(CURDIR)/build
export KVER KDIR BUILD

# Module parameters for 'make load', e.g. make load ARGS="n_devs=2"
ARGS ?=

.PHONY: all modules strict deps run check check-full unit bench bench-vm \
	load unload clean help

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

# Warning-free under W=1, -Werror and sparse, or it fails
strict:
	tests/build-strict.sh

deps:
	tests/deps.sh

run: deps
	tests/run.sh

check: deps
	tests/check.sh

# check plus v4l2-compliance -s -f over every format, size and rate (hours
# under TCG)
check-full: deps
	tests/check.sh full

unit:
	$(MAKE) -C tests/unit

bench:
	$(MAKE) -C tests/unit bench

# vivi and vivid side by side in one VM boot; writes docs/benchmarks.md and
# docs/bench-interval.png (a benchmark: not part of check)
bench-vm: deps
	tests/bench/bench-vm.sh

load: modules
	modprobe -a videodev videobuf2-common videobuf2-v4l2 videobuf2-vmalloc
	insmod $(CURDIR)/vivi.ko $(ARGS)

unload:
	rmmod vivi

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null || true
	rm -rf $(BUILD) out
	-$(MAKE) -C tests/unit clean

help:
	@sed -n 's/^#   //p' Makefile
