# SPDX-License-Identifier: GPL-2.0
#
# vivi: out-of-tree build, tests and helpers. The module itself is described
# in Kbuild.
#
#   make              build vivi.ko against KDIR
#   make run          build, boot a VM, capture from vivi into out/ (installs
#                     only what that needs)
#   make check        the whole test suite (installs what it needs)
#   make check STAGES="check-formats"  only these VM stages (tests/README.md),
#                     after a plain build and make tools; HOST_STEPS=1 adds
#                     the host steps, NEWEST=1 the newest kernel's boot;
#                     PARTS="padding|inputs" only the stages' parts whose
#                     "== part" name matches that regular expression
#   make check-full   the suite plus the long compliance matrix, check-deb
#                     and check-fresh
#   make check-kernels every Debian kernel from bullseye to experimental,
#                     then make check-deb
#   make check-deb    the vivi-dkms package installed, used and purged in a
#                     VM of each suite (DEB_SUITES); make sign's module loaded
#   make check-fresh  make run and a short make check in a fresh bookworm root
#   make check-mutants plant known defects one at a time, show make check
#                     catches each (MUTANTS="1 5" for some; about an hour)
#   make tools        the C test tools, into BUILD/tools
#   make unit         the unit tests in userspace; T=pack only the test
#                     binaries whose name contains "pack" (T="pack config")
#   make fuzz         the ioctl fuzzer alone in the VM, FUZZ_SECS (600) long
#   make bench        the pure code's speed tables in userspace (tests/unit)
#   make bench-vm     vivi against vivid in the VM: docs/benchmarks.md
#   sudo make load    load on this machine (V4L2 core modules first)
#   sudo make install install to /lib/modules/KVER/updates, then depmod
#   sudo make dkms    register with DKMS (/usr/src/vivi-VERSION), build, install
#   make deb          the vivi-dkms package: BUILD/vivi-dkms_VERSION_all.deb
#   make sign SIGN_KEY=K SIGN_CERT=C  sign vivi.ko (Secure Boot:
#                     docs/install.md)
#   make lint         checkpatch --strict, kernel-doc and sparse

# The running kernel if its headers are installed, else Debian's default
# (linux-headers-amd64), else the newest installed headers
KVER ?= $(shell $(CURDIR)/tests/kver.sh)
KDIR ?= /lib/modules/$(KVER)/build
BUILD ?= $(CURDIR)/build
# the kernel the VM tests boot
VIVI_KVER ?= $(KVER)
export KVER KDIR BUILD VIVI_KVER

# Module parameters for 'make load', e.g. make load ARGS="n_devs=2"
ARGS ?=

.PHONY: all modules strict deps deps-run deps-deb deps-bench run check \
	check-full check-kernels check-deb check-fresh check-mutants fuzz unit \
	bench bench-vm tools deb sign \
	load unload install uninstall dkms dkms-add dkms-remove lint clean help

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

# Warning-free under W=1, -Werror and sparse, or it fails
strict:
	tests/build-strict.sh

# what make check needs (all of it); make run and make deb need less
deps:
	tests/deps.sh check

deps-run:
	tests/deps.sh run

deps-deb:
	tests/deps.sh deb

deps-bench:
	tests/deps.sh bench

# only what building, booting the VM and capturing need (tests/deps.sh run)
run: deps-run
	tests/run.sh

# make check STAGES="check-x check-y" runs only those guest stages (and
# check-kernel the newest kernel's VM) after a plain build and the tools;
# HOST_STEPS=1 adds the strict build, unit tests, lint, DKMS and make install;
# NEWEST=1 the newest kernel's boot. VIVI_STAGES is the same as STAGES.
# PARTS="regex" runs only the parts of those stages whose "== part" name
# matches (case aside); the others are skipped, and so is their count in
# tests/manifest.txt.
STAGES ?=
HOST_STEPS ?=
NEWEST ?=
PARTS ?=
export STAGES HOST_STEPS NEWEST PARTS

check: deps
	tests/check.sh

# check plus v4l2-compliance -s -f over every format, size and rate (hours
# under TCG)
check-full: deps deps-deb
	tests/check.sh full
	tests/deb-test.sh $(DEB_SUITES)
	FRESH_STAGES="$(FRESH_STAGES)" tests/fresh.sh

# the tested kernel matrix: each suite's newest kernel, built and booted in
# that suite's root (cached in VIVI_ROOTS, default /var/cache/vivi/roots)
check-kernels: deps deps-deb
	tests/kernels/run.sh
	tests/deb-test.sh $(DEB_SUITES)

# the package in each suite's root and VM (tests/deb-test.sh), and a module
# signed by make sign loaded in the VM
DEB_SUITES ?= bookworm
check-deb: deps deps-deb
	tests/deb-test.sh $(DEB_SUITES)

# the README's two commands in a fresh debootstrap bookworm root, from a
# clean clone (tests/fresh.sh): make run, then make check STAGES=...
FRESH_STAGES ?= check-base
check-fresh: deps
	FRESH_STAGES="$(FRESH_STAGES)" tests/fresh.sh

# tests/mutants.sh: each known defect planted in a copy of the tree must
# make the part of make check that covers it print a FAIL line
MUTANTS ?=
check-mutants: deps
	tests/mutants.sh $(MUTANTS)

# the fuzzer stage alone, longer; FUZZ_SEED=N replays a run
FUZZ_SECS ?= 600
fuzz: deps
	VIVI_STAGES=check-fuzz VIVI_FUZZ_SECS=$(FUZZ_SECS) \
		VIVI_FUZZ_IOCTLS=100000000 $(if $(FUZZ_SEED),VIVI_FUZZ_SEED=$(FUZZ_SEED)) \
		tests/check.sh

# The C test tools (tests/tools, tests/fuzz, tests/bench), warning-free,
# and the guest's Python helpers beside them: tests/guest/lib.sh puts
# BUILD/tools on the guest's PATH
TOOLS_SRC := $(wildcard tests/tools/*.c tests/fuzz/*.c tests/bench/*.c)
TOOLS := $(patsubst %.c,$(BUILD)/tools/%,$(notdir $(TOOLS_SRC)))
TOOLS_CFLAGS ?= -O2 -g
vpath %.c tests/tools tests/fuzz tests/bench

tools: $(TOOLS)
	cp tests/guest/*.py $(BUILD)/tools/

$(BUILD)/tools/%: %.c tests/tools/vivi-tool.h tests/tools/vivi-stamp.h
	@mkdir -p $(@D)
	gcc $(TOOLS_CFLAGS) -Wall -Wextra -Werror -pthread -o $@ $<

# vivi-transit checks frames with the unit tests' reference decoder and
# pattern definitions (tests/unit/tfmt.c, none of the generator's code)
$(BUILD)/tools/vivi-transit: tests/tools/vivi-transit.c tests/tools/vivi-tool.h \
		tests/unit/tfmt.c tests/unit/tfmt.h vivi_gen.h
	@mkdir -p $(@D)
	gcc $(TOOLS_CFLAGS) -Wall -Wextra -Werror -pthread -DTFMT_NO_GEN \
		-Itests/shim -I. -o $@ tests/tools/vivi-transit.c \
		tests/unit/tfmt.c -ljpeg -lm

# T="word ..." (make unit T=pack): only the unit test binaries whose name
# contains one of the words
unit:
	$(MAKE) -C tests/unit

bench: deps-bench
	$(MAKE) -C tests/unit bench

# vivi and vivid side by side in one VM boot; writes docs/benchmarks.md and
# docs/bench-interval.png (a benchmark: not part of check)
bench-vm: deps
	tests/bench/bench-vm.sh

# the V4L2 core and configfs (a module or built in), which insmod does not
# load; configfs mounted, for the cameras made at run time (docs/configfs.md)
load: modules
	modprobe -a videodev videobuf2-common videobuf2-v4l2 videobuf2-vmalloc
	modprobe configfs 2>/dev/null || grep -qw configfs /proc/filesystems
	mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
	insmod $(CURDIR)/vivi.ko $(ARGS)

unload:
	rmmod vivi

# INSTALL_MOD_PATH=DIR installs into DIR/lib/modules/KVER instead. Debian's
# headers carry neither the kernel's signing key (sign with a MOK instead,
# see docs/install.md) nor System.map (kbuild skips depmod): so no
# signing, and depmod here.
install: modules
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_DIR=updates \
		CONFIG_MODULE_SIG_ALL= modules_install
	depmod $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $(KVER)

uninstall:
	rm -f $(INSTALL_MOD_PATH)/lib/modules/$(KVER)/updates/vivi.ko*
	depmod $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $(KVER)

# The one version: MODULE_VERSION in vivi_main.c. dkms.conf and
# debian/changelog must say the same (debian/rules and tests/dkms.sh check).
VERSION = $(shell sed -n 's/^MODULE_VERSION("\(.*\)");/\1/p' vivi_main.c)

# DKMS: the module sources go to DKMS_SRC/vivi-VERSION. The tests point DKMS
# and DKMS_SRC at private trees (dkms --dkmstree/--sourcetree).
DKMS ?= dkms
DKMS_SRC ?= /usr/src

dkms-add:
	rm -rf $(DKMS_SRC)/vivi-$(VERSION)
	mkdir -p $(DKMS_SRC)/vivi-$(VERSION)
	cp dkms.conf Kbuild vivi_*.c vivi*.h $(DKMS_SRC)/vivi-$(VERSION)/
	$(DKMS) add -m vivi -v $(VERSION)

dkms: dkms-add
	$(DKMS) install -m vivi -v $(VERSION) -k $(KVER)

dkms-remove:
	$(DKMS) remove -m vivi -v $(VERSION) --all
	rm -rf $(DKMS_SRC)/vivi-$(VERSION)

# make deb: the vivi-dkms package (debian/), built by dpkg-buildpackage in
# a copy of the tree under BUILD/deb, so that the tree stays clean
DEB = $(BUILD)/vivi-dkms_$(VERSION)_all.deb
DEB_FILES = debian Kbuild Makefile dkms.conf LICENSE README.md \
	vivi.conf.example $(filter-out %.mod.c,$(wildcard vivi_*.c vivi*.h))

deb: deps-deb
	rm -rf $(BUILD)/deb && mkdir -p $(BUILD)/deb/vivi-$(VERSION)
	cp -r $(DEB_FILES) $(BUILD)/deb/vivi-$(VERSION)/
	cd $(BUILD)/deb/vivi-$(VERSION) && dpkg-buildpackage -b -us -uc
	mv $(BUILD)/deb/vivi-dkms_$(VERSION)_all.deb $(DEB)
	@echo "deb: $(DEB)"

# make sign SIGN_KEY=MOK.priv SIGN_CERT=MOK.der: sign vivi.ko with the
# kernel's own sign-file (from KVER's headers or kbuild package), for
# Secure Boot (docs/install.md). SIGN_HASH is the kernel's
# CONFIG_MODULE_SIG_HASH.
SIGN_KEY ?=
SIGN_CERT ?=
SIGN_FILE ?= $(firstword $(wildcard $(KDIR)/scripts/sign-file \
	/usr/lib/linux-kbuild-$(basename $(firstword $(subst -, ,$(KVER))))/scripts/sign-file))
SIGN_HASH ?= $(or $(shell sed -n 's/^CONFIG_MODULE_SIG_HASH="\(.*\)"/\1/p' \
	$(KDIR)/.config 2>/dev/null),sha256)

sign: modules
	@test -n "$(SIGN_KEY)" -a -n "$(SIGN_CERT)" || \
		{ echo "sign: make sign SIGN_KEY=key.priv SIGN_CERT=cert.der" >&2; exit 1; }
	@test -x "$(SIGN_FILE)" || \
		{ echo "sign: no scripts/sign-file for $(KVER) (headers of KVER)" >&2; exit 1; }
	$(SIGN_FILE) $(SIGN_HASH) $(SIGN_KEY) $(SIGN_CERT) vivi.ko
	@echo "sign: vivi.ko signed by '$$(modinfo -F signer vivi.ko)'"

lint:
	tests/lint.sh

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null || true
	rm -rf $(BUILD) out
	-$(MAKE) -C tests/unit clean

help:
	@sed -n 's/^#   //p' Makefile
