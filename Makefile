# SPDX-License-Identifier: GPL-2.0
#
# vivi: out-of-tree build, tests and helpers. The module itself is described
# in Kbuild.
#
#   make              build vivi.ko against KDIR
#   make run          build, boot a VM, capture from vivi into out/
#   make check        the whole test suite (installs what it needs)
#   make check-full   the suite plus the long compliance matrix
#   make fuzz         the ioctl fuzzer alone in the VM, FUZZ_SECS (600) long
#   sudo make load    load on this machine (V4L2 core modules first)

# The running kernel's headers if present, else Debian's stock kernel, else
# the newest installed ones (tests/kver.sh)
KVER ?= $(shell $(CURDIR)/tests/kver.sh)
KDIR ?= /lib/modules/$(KVER)/build
BUILD ?= $(CURDIR)/build
export KVER KDIR BUILD

# Module parameters for 'make load', e.g. make load ARGS="n_devs=2"
ARGS ?=

.PHONY: all modules strict deps run check check-full fuzz unit bench load \
	unload clean help

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

# the fuzzer stage alone, longer; FUZZ_SEED=N replays a run
FUZZ_SECS ?= 600
fuzz: deps
	VIVI_STAGES=check-fuzz VIVI_FUZZ_SECS=$(FUZZ_SECS) \
		VIVI_FUZZ_IOCTLS=100000000 $(if $(FUZZ_SEED),VIVI_FUZZ_SEED=$(FUZZ_SEED)) \
		tests/check.sh

unit:
	$(MAKE) -C tests/unit

bench:
	$(MAKE) -C tests/unit bench

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
