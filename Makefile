# ProbeOS build.
#
#   make                 build build/$(ARCH)/probeos.elf (and the ISO on x86_64)
#   make run             build and boot in QEMU, serial console on this terminal,
#                        sharing the top of this tree with the kernel over virtio 9p
#                        (tag "host", mounted at /host; docs/9p.md, docs/virtio.md)
#   make run SHARE=DIR   the same, sharing the host folder DIR instead
#   make run SHARE=      the same, sharing nothing
#   make debug           boot halted with a GDB stub and attach GDB (shares as run)
#   make -s qemu-config  print this architecture's QEMU settings for the tests
#   make test            host tests, fuzzer, symbol-table check and boot tests
#   make bench           per-hit costs of probes, then the host folder's read speed
#   make bench-host      only the host folder's read speed (tools/bench_host.py)
#   make fuzz            long fuzzing campaigns (FUZZ_TIME, FUZZ_TARGETS)
#   make M=DIR           also build the modules of DIR into /lib/modules
#   make M=DIR modules   only build and install the modules of DIR and modules.dep
#                        into build/$(ARCH)/modules/lib/modules/: no kernel, archive
#                        or ISO. The edit loop (docs/modules.md): with `make run`
#                        in another terminal, `rmmod NAME; insmod NAME` there
#                        loads the new build from /host/build/$(ARCH)/modules/...
#   make modules         the same for the project's own module directories
#   make linux-samples   build Linux's own kprobes samples (for the tests)
#   make deps            install missing tools from Debian packages
#   make clean
#
# ARCH selects the architecture (x86_64 is the default); its settings are
# in arch/$(ARCH)/arch.mk. CROSS_COMPILE selects the toolchain prefix; by
# default arch.mk picks a bare-metal compiler when one is installed (for
# x86_64 x86_64-elf-, and otherwise the host GCC, which can build a
# freestanding kernel with the flags it sets).

SHELL := /bin/bash
# Every architecture there is: `make test` builds and tests each, and the
# test scripts read this list from `make qemu-config`. A port adds its
# name here (docs/porting.md).
ARCHS := x86_64 aarch64
ARCH ?= x86_64
BUILD := build/$(ARCH)
PYTHON ?= python3
# `make run` and `make debug` boot CPUS CPUs, each on a host thread of
# its own (multi-threaded TCG), so that they really run at once.
CPUS ?= 4
QEMU_ACCEL ?= $(if $(filter 1,$(CPUS)),tcg,tcg$(comma)thread=multi)
comma := ,

# The host folder `make run` and `make debug` share with the kernel over
# virtio 9p (arch.mk's QEMU_9P_FLAGS), which mounts it at /host: by
# default the top of this tree (CURDIR, the absolute path of the folder
# make runs in, which is the top: every path of the build is relative to
# it), so that the kernel can load a module from
# /host/build/ARCH/modules/lib/modules/ as soon as `make M=DIR modules`
# has installed it (docs/modules.md, "The edit loop"). Only that folder
# and what is below it are exposed: QEMU's local backend refuses paths
# that leave the shared folder, and does not follow symbolic links on
# the host (the guest sees a link as a link). SHARE=DIR on the command
# line shares DIR instead and SHARE= shares nothing. Only the command
# line counts, as for Linux's M=: a SHARE variable in the environment,
# set for something else, never exposes a folder.
ifneq ($(origin SHARE),command line)
SHARE := $(CURDIR)
endif
# QEMU's flags for SHARE (none when it is empty): the path goes into an
# option value, where QEMU reads a doubled comma as a comma, and into the
# shell, in single quotes (each ' in it written '\'').
QEMU_SHARE_FLAGS = $(if $(SHARE),$(subst %,'$(subst ','\'',$(subst $(comma),$(comma)$(comma),$(SHARE)))',$(QEMU_9P_FLAGS)))

# V=1 shows the full commands.
Q := $(if $(V),,@)

# What differs between the architectures (toolchain, code-generation
# flags, how QEMU boots the kernel, which images are built) is set in
# arch/$(ARCH)/arch.mk: CROSS_COMPILE, ARCH_CFLAGS, QEMU, QEMU_FLAGS, IMAGE,
# CRASH_IMAGES, QEMU_CRASH_FLAGS, POWEROFF_STATUS and GDB.
ifeq ($(wildcard arch/$(ARCH)/arch.mk),)
$(error ARCH=$(ARCH) is not supported: there is no arch/$(ARCH)/arch.mk (try one of: $(ARCHS)))
endif
include arch/$(ARCH)/arch.mk

CC := $(CROSS_COMPILE)gcc
LD := $(CROSS_COMPILE)ld
NM := $(CROSS_COMPILE)nm
OBJDUMP := $(CROSS_COMPILE)objdump

# -ffreestanding -fno-builtin: no C library; memcpy and friends are ours.
# -fno-pic -fno-pie: the kernel is linked at a fixed address.
# -fno-stack-protector: there is no canary support to call into.
# -fno-omit-frame-pointer -fno-optimize-sibling-calls -fno-shrink-wrap:
#     keep a frame-pointer chain for backtraces (kernel/backtrace.c): every
#     function that has a frame sets it up first thing (push %rbp; mov
#     %rsp,%rbp), and a function ending in a call keeps its frame. (GCC still
#     gives leaf functions that use no stack no frame at all; a trap inside
#     one shows the faulting function but not its caller.)
# -fno-asynchronous-unwind-tables: no .eh_frame; nothing unwinds with it.
# -fcf-protection=none: no endbr64 at function entries.
# -Wstack-usage=$(STACK_FRAME_MAX): no function's frame may be larger, nor
#     of a size GCC cannot bound (a variable-length array). A thread's stack
#     is THREAD_STACK_SIZE (16 KiB, kernel/sched.h) and nothing catches
#     running off its end. 2048 bytes is an eighth of it, so one large
#     frame still leaves most of the stack to the calls around it. How deep
#     calls nest is checked apart: tests/host/check_callgraph.py.
# $(FTRACE_CFLAGS): the function tracer's call sites, a NOP at each
#     function's entry (arch/$(ARCH)/arch.mk, docs/ftrace.md).
STACK_FRAME_MAX := 2048
CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror \
	-ffreestanding -fno-builtin -nostdlib -fno-pic -fno-pie \
	-fno-stack-protector -fno-omit-frame-pointer -fno-optimize-sibling-calls -fno-shrink-wrap \
	-fno-asynchronous-unwind-tables -fcf-protection=none -Wstack-usage=$(STACK_FRAME_MAX) \
	$(ARCH_CFLAGS) $(FTRACE_CFLAGS) -I. -Iarch/$(ARCH)/include -I$(BUILD)/include -MMD -MP
ASFLAGS := $(filter-out -std=gnu11,$(CFLAGS)) -D__ASSEMBLY__
# The architecture's linker script includes linker/common.ld, the
# sections every architecture shares: the links depend on both.
LDSCRIPTS := linker/$(ARCH).ld linker/common.ld
LDFLAGS := -nostdlib -z max-page-size=0x1000 -z noexecstack --no-warn-rwx-segments \
	-T linker/$(ARCH).ld

# Every C and assembly file under kernel/ and lib/, in all their
# subfolders (the portable ones' assembly is a users' trampolines, made
# by an architecture's macro), and this architecture's own. Sorted, so
# that the link order, and with it the kernel's layout, does not depend
# on the order the file system lists.
SRCS := $(sort $(shell find kernel lib -name '*.c' -o -name '*.S')) \
	$(sort $(wildcard arch/$(ARCH)/*.c arch/$(ARCH)/*.S boot/$(ARCH)/*.c boot/$(ARCH)/*.S))
OBJS := $(patsubst %,$(BUILD)/obj/%.o,$(SRCS))

.PHONY: all run debug qemu-config test host-tests deps clean crash-images bench bench-host modules linux-samples
all: $(IMAGE)
crash-images: $(CRASH_IMAGES)

$(BUILD)/obj/%.c.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CFLAGS) -c $< -o $@

# The one exception to STACK_FRAME_MAX: bench_hits and scale_rows keep
# every row's probes (a kprobe, a jprobe and a kretprobe each) live at once,
# about 3.5 KiB. They run only as the `bench` command, straight from the
# shell's thread, so the frame sits near the top of its stack.
$(BUILD)/obj/kernel/probes/cmd/bench.c.o: CFLAGS += -Wstack-usage=4096

$(BUILD)/obj/%.S.o: %.S
	@mkdir -p $(dir $@)
	@echo "  AS      $<"
	$(Q)$(CC) $(ASFLAGS) -c $< -o $@

-include $(OBJS:.o=.d)

# Objects depend on the flags they were compiled with: a change of flags
# (another CROSS_COMPILE, say) rebuilds them.
$(BUILD)/cflags: FORCE
	@mkdir -p $(dir $@)
	@echo '$(CC) $(CFLAGS)' | cmp -s - $@ || echo '$(CC) $(CFLAGS)' > $@
$(OBJS): $(BUILD)/cflags
.PHONY: FORCE

# The kernel depends on the list of its objects: a source removed or
# renamed since the last build changes the list, which relinks the kernel
# (no object would be newer than the links otherwise, and the old kernel,
# with the removed code in it, would stay). Rewritten only when it changes.
$(BUILD)/objs: FORCE
	@mkdir -p $(dir $@)
	@echo '$(OBJS)' | cmp -s - $@ || echo '$(OBJS)' > $@

# The kernel build's identity (tools/mkvermagic.py): a digest of every
# header a module can include. The loader compares it with the vermagic=
# that tools/modules.mk writes into each module's .modinfo. Rewritten only
# when it changes; made before anything is compiled (order-only).
VERMAGIC_H := $(BUILD)/include/generated/vermagic.h
include tools/vermagic.mk
$(OBJS): | $(VERMAGIC_H)

# Portable code may use only what the architecture contract (kernel/arch.h)
# lists: checked before anything is compiled, so a use of an undeclared
# arch_ name fails the build (order-only: a new check rebuilds no object).
$(BUILD)/arch-contract.ok: tools/check_arch_contract.py \
		$(shell find kernel lib -name '*.[ch]') $(wildcard arch/*/include/asm/*.h)
	@mkdir -p $(dir $@)
	@echo "  CHECK   architecture contract"
	$(Q)$(PYTHON) tools/check_arch_contract.py && touch $@
$(OBJS): | $(BUILD)/arch-contract.ok

# The symbol table is built into the kernel by linking three times, as
# Linux does for kallsyms: link 1 has an empty table; the symbols of link
# N give the table of link N+1. Links 2 and 3 contain the same symbols, so
# their tables have the same size and nothing moves: the table of link 3
# must equal the one it was built from, which is checked. The last link's
# table of function-tracer call sites is then sorted in place
# (tools/sortsites.py).
KERNEL_LINK = @echo "  LD      $@"; $(LD) $(LDFLAGS) -o $@ $(OBJS)
SYMTAB_GEN = @echo "  SYMTAB  $@"; $(NM) -n -S --defined-only $< | $(PYTHON) tools/mksymtab.py > $@

$(BUILD)/symtab0.S: tools/mksymtab.py
	@mkdir -p $(dir $@)
	$(Q)$(PYTHON) tools/mksymtab.py < /dev/null > $@

$(BUILD)/symtab%.o: $(BUILD)/symtab%.S
	$(Q)$(CC) $(ASFLAGS) -c $< -o $@

$(BUILD)/link1.elf: $(OBJS) $(BUILD)/objs $(BUILD)/symtab0.o $(LDSCRIPTS)
	$(KERNEL_LINK) $(BUILD)/symtab0.o
$(BUILD)/symtab1.S: $(BUILD)/link1.elf tools/mksymtab.py
	$(SYMTAB_GEN)
$(BUILD)/link2.elf: $(OBJS) $(BUILD)/objs $(BUILD)/symtab1.o $(LDSCRIPTS)
	$(KERNEL_LINK) $(BUILD)/symtab1.o
$(BUILD)/symtab2.S: $(BUILD)/link2.elf tools/mksymtab.py
	$(SYMTAB_GEN)
$(BUILD)/probeos.elf: $(OBJS) $(BUILD)/objs $(BUILD)/symtab2.o $(LDSCRIPTS) tools/sortsites.py
	$(KERNEL_LINK) $(BUILD)/symtab2.o
	$(Q)$(NM) -n -S --defined-only $@ | $(PYTHON) tools/mksymtab.py | cmp -s - $(BUILD)/symtab2.S || \
		{ echo "symbol table did not converge after three links" >&2; rm -f $@; exit 1; }
	$(Q)$(NM) $@ | $(PYTHON) tools/sortsites.py $@ || { rm -f $@; exit 1; }

# ---- Loadable modules (docs/modules.md) ----
#
# `make M=DIR` builds the modules DIR/Kbuild (or DIR/Makefile) lists, as
# Linux's `make M=DIR` does, and `make` always builds the project's own
# samples/kprobes and the boot tests' tests/modules. tools/modules.mk
# builds each directory into build/$(ARCH)/M/ and installs the .ko files
# into the staging tree $(BUILD)/modules/lib/modules/, which the root file
# system archive includes: the next `make run` has them in /lib/modules,
# with the modules.dep tools/depmod.py writes there for modprobe. A module
# change rebuilds the archive (and the ISO), never the kernel.
#
# The staging tree is also what a running kernel reads over virtio 9p,
# as /host/build/$(ARCH)/modules/lib/modules/ (`make run` shares the
# tree): `make M=DIR modules` installs there without touching the images,
# and every file is installed by a rename (tools/modules.mk, depmod.py),
# so that a reader never sees one half written.
#
# The flags: the kernel's code generation (the code model of where modules
# are placed, the same as the kernel's; no red zone, no FP/SIMD, frame
# pointers), so that a module can call the kernel and be called back.
# The warnings are kbuild's, shown but never -Werror (Linux's samples have
# unused parameters and its own mismatched formats; -Wextra is not used,
# as in kbuild), except those kbuild also makes errors: a call of an
# undeclared function would only fail at load time. -DMODULE and the
# CONFIG_ macros are what Linux's module code tests. include/ comes first,
# for <linux/...>. -fno-unwind-tables: Debian's aarch64 GCC emits
# .eh_frame even under -fno-asynchronous-unwind-tables; the kernel's link
# discards it, but in a module it would be an allocated section to load
# for nothing.
MODULE_CONFIG_DEFINES := -DCONFIG_64BIT=1 -DCONFIG_MODULES=1 -DCONFIG_KPROBES=1 \
	-DCONFIG_KRETPROBES=1 $(MODULE_ARCH_DEFINES)
MODULE_CFLAGS := -std=gnu11 -O2 -g \
	-Wall -Wundef -Wstrict-prototypes -Wno-trigraphs -Wno-format-security \
	-Werror=implicit-function-declaration -Werror=implicit-int -Werror=return-type \
	-fno-strict-aliasing -fno-common -fno-unwind-tables \
	$(filter-out -std=gnu11 -O2 -g -Wall -Wextra -Werror -I. -Iarch/$(ARCH)/include -MMD -MP,$(CFLAGS)) \
	-DMODULE $(MODULE_CONFIG_DEFINES) -Iinclude -I. -Iarch/$(ARCH)/include
# `make M=DIR modules` (no other goal) is the edit loop's step, as in
# Linux: only DIR's modules are built and installed (and modules.dep
# written again, from every module installed), which is what the running
# kernel loads from /host; `make modules` builds the project's own
# directories, and any goal that makes the archive builds them all.
ifeq ($(strip $(M)),)
MODULE_DIRS := samples/kprobes tests/modules
else ifeq ($(MAKECMDGOALS),modules)
MODULE_DIRS := $(M)
else
MODULE_DIRS := samples/kprobes tests/modules $(M)
endif
# Where modules are installed: $(INSTALL_MOD_PATH)/lib/modules/, Linux's
# variable. By default the staging tree, which the archive is made from
# and `make run` shares; the boot tests' edit loop installs into a
# scratch folder of their own with `make M=DIR INSTALL_MOD_PATH=DIR2
# modules`, so that the work tree's staging tree never changes under a
# test.
INSTALL_MOD_PATH ?= $(BUILD)/modules
MODULES_STAMP := $(BUILD)/modules.stamp
MODULES_MAKE = $(MAKE) --no-print-directory -f tools/modules.mk ARCH=$(ARCH) BUILD=$(BUILD) \
	STAGING=$(INSTALL_MOD_PATH)/lib/modules \
	CC='$(CC)' LD='$(LD)' PYTHON='$(PYTHON)' MODULE_CFLAGS='$(MODULE_CFLAGS)' V=$(V)

# Always run: each directory's make does nothing when its modules are up
# to date, and touches the stamp only when it installs a changed .ko.
$(MODULES_STAMP): $(VERMAGIC_H) FORCE
	@mkdir -p $(INSTALL_MOD_PATH)/lib/modules
	$(Q)for d in $(MODULE_DIRS); do $(MODULES_MAKE) M=$$d install || exit 1; done
	$(Q)[ -e $@ ] || touch $@
# Written again whenever a module is installed (the stamp changes), from
# every module of the staging tree, whichever directory it came from.
MODULES_DEP := $(INSTALL_MOD_PATH)/lib/modules/modules.dep
$(MODULES_DEP): $(MODULES_STAMP) tools/depmod.py
	@echo "  DEPMOD  /lib/modules/modules.dep"
	$(Q)$(PYTHON) tools/depmod.py $(dir $@)
# Nothing but the modules and modules.dep: no kernel, archive or ISO
# (the loader compares each module's vermagic= with the kernel's, which
# comes from the headers, not from the kernel's objects).
modules: $(MODULES_DEP)

# The archive holds rootfs/ and the staging tree, merged.
$(BUILD)/rootfs.cpio: tools/mkcpio.py $(shell find rootfs -type f 2>/dev/null) $(MODULES_DEP)
	@mkdir -p $(dir $@)
	@echo "  CPIO    $@"
	$(Q)$(PYTHON) tools/mkcpio.py rootfs $(BUILD)/modules $@

# The ISO: GRUB (BIOS) with our grub.cfg, the kernel and the rootfs module.
# $(call make-iso,DIR,EXTRA-KERNEL-ARGUMENTS) builds $@ from a tree in DIR.
define make-iso
	@rm -rf $(1)
	@mkdir -p $(1)/boot/grub
	@sed 's|multiboot2 /boot/probeos.elf|& $(2)|' iso/grub.cfg > $(1)/boot/grub/grub.cfg
	@cp $(BUILD)/probeos.elf $(BUILD)/rootfs.cpio $(1)/boot/
	@echo "  ISO     $@"
	$(Q)grub-mkrescue -o $@ $(1) 2> $(1).log || { cat $(1).log; exit 1; }
endef

$(BUILD)/probeos.iso: $(BUILD)/probeos.elf $(BUILD)/rootfs.cpio iso/grub.cfg
	$(call make-iso,$(BUILD)/isodir,)

# Images that crash on purpose (kernel/crash_test.c), for
# tests/boot/crash_tests.py: on x86_64 an ISO per kind, whose GRUB passes
# crash=KIND; on aarch64 QEMU's -append passes it to the usual image.
$(BUILD)/crash-%.iso: $(BUILD)/probeos.elf $(BUILD)/rootfs.cpio iso/grub.cfg
	$(call make-iso,$(BUILD)/crash-$*,crash=$*)

# `poweroff` on x86_64 leaves QEMU through isa-debug-exit, whose exit
# status is (value << 1) | 1: POWEROFF_STATUS is a clean end, not an error.
# The virtio 9p device shares SHARE (the top of the tree unless SHARE= is
# given; QEMU_SHARE_FLAGS), which the kernel mounts at /host.
run: deps $(IMAGE)
	$(QEMU) $(QEMU_FLAGS) $(QEMU_SHARE_FLAGS) -serial mon:stdio; \
	status=$$?; [ $$status -eq 0 ] || [ $$status -eq $(POWEROFF_STATUS) ]

# QEMU starts halted with a GDB stub on port 1234, and GDB attaches with
# the kernel's symbols. GDB owns this terminal, so the serial console is on
# TCP port 4444: talk to the shell from another terminal with
# `nc localhost 4444`. Quitting GDB stops QEMU. SHARE is shared as for
# `make run`, so that the edit loop works under GDB too. GDB loads
# tools/gdb/probeos.py: `lx-symbols` loads the symbols of the loaded
# modules (docs/modules.md, "Debugging a module with GDB").
debug: deps $(IMAGE)
	@echo "console: in another terminal, run: nc localhost 4444"
	@echo "modules: type lx-symbols [DIR...] in GDB (now, or after Ctrl-C) to load the symbols"
	@echo "         of loaded modules, and from then on of each module insmod loads (help lx-symbols)"
	$(QEMU) $(QEMU_FLAGS) $(QEMU_SHARE_FLAGS) -serial tcp:localhost:4444,server,nowait \
		-S -gdb tcp:localhost:1234 & \
	qemu=$$!; sleep 1; \
	$(GDB) -q $(BUILD)/probeos.elf -x tools/gdb/probeos.py -ex 'target remote localhost:1234'; \
	kill $$qemu 2>/dev/null || true

# What the tests (tests/boot/archs.py) and tools/bench.py need from the
# build, so that no script repeats arch.mk: one KEY=VALUE a line, for
# this ARCH, with CPUS CPUs and QEMU_ACCEL as given (make's own defaults
# otherwise). A test adds its serial and monitor options to QEMU and
# QEMU_FLAGS; QEMU_CRASH_FLAGS boots with crash=% on the kernel's command
# line (% is the kind); OTHER_ARCH is another architecture, whose modules
# the tests offer this one's loader.
#   make -s ARCH=aarch64 CPUS=1 qemu-config
QEMU_CONFIG := ARCHS OTHER_ARCH QEMU QEMU_FLAGS QEMU_CRASH_FLAGS QEMU_9P_FLAGS IMAGE POWEROFF_STATUS \
	GDB NM OBJDUMP
# $(call other-arch,ARCH): the first listed architecture that is not ARCH.
other-arch = $(firstword $(filter-out $(1),$(ARCHS)))
OTHER_ARCH := $(call other-arch,$(ARCH))
# (The `@:` is a command, so that make does not add "Nothing to be done".)
qemu-config:
	$(foreach v,$(QEMU_CONFIG),$(info $(v)=$($(v))))
	@:

include tests/host/host.mk
include tests/fuzz/fuzz.mk

# The cost of a probe hit, as a table (tools/bench.py): instruction counts
# under -icount shift=0 and nanoseconds in emulated time; then how fast the
# host's folder is read over virtio 9P (tools/bench_host.py). Not a test.
bench: deps $(IMAGE)
	$(PYTHON) tools/bench.py --arch $(ARCH)
	$(PYTHON) tools/bench_host.py --arch $(ARCH)

# Only the host folder's read speed (tools/bench_host.py, docs/9p.md).
bench-host: deps $(IMAGE)
	$(PYTHON) tools/bench_host.py --arch $(ARCH)

# Linux's own samples/kprobes (kprobe_example.c, kretprobe_example.c),
# built unchanged with `make M=`: from Debian's linux-source package,
# extracted once into build/linux-samples/ (tar reads through the whole
# compressed archive to find them, some 10-30 s). Nothing from it is
# written into the project's own files.
LINUX_SOURCE_TAR := /usr/src/linux-source-6.1.tar.xz
LINUX_SAMPLES := build/linux-samples/kprobes
$(LINUX_SAMPLES)/Makefile: | deps
	@[ -e $(LINUX_SOURCE_TAR) ] || { echo "$(LINUX_SOURCE_TAR) is missing: run make deps" >&2; exit 1; }
	@echo "  TAR     $(LINUX_SOURCE_TAR): samples/kprobes"
	$(Q)rm -rf $(LINUX_SAMPLES) $(LINUX_SAMPLES).tmp && mkdir -p $(LINUX_SAMPLES).tmp
	$(Q)tar -xJf $(LINUX_SOURCE_TAR) -C $(LINUX_SAMPLES).tmp --wildcards '*/samples/kprobes/*'
	$(Q)mv $(LINUX_SAMPLES).tmp/*/samples/kprobes $(LINUX_SAMPLES) && rm -rf $(LINUX_SAMPLES).tmp
linux-samples: deps $(LINUX_SAMPLES)/Makefile
	@for arch in $(ARCHS); do \
		$(MAKE) --no-print-directory ARCH=$$arch M=$(LINUX_SAMPLES) all || exit 1; done

# Every test, on every architecture. Linux's kprobes samples are built
# into each archive first, so that the boot tests can load them, and so
# are broken module files (tools/mkbadmodules.py), one of them a module
# of another architecture (other-arch).
test: deps host-test-bins $(LINUX_SAMPLES)/Makefile
	@for arch in $(ARCHS); do \
		$(MAKE) --no-print-directory ARCH=$$arch modules && \
		$(MAKE) --no-print-directory ARCH=$$arch M=$(LINUX_SAMPLES) modules || exit 1; done
	$(Q)$(foreach a,$(ARCHS),$(PYTHON) tools/mkbadmodules.py build $(a) $(call other-arch,$(a)) &&) true
	@for arch in $(ARCHS); do \
		$(MAKE) --no-print-directory ARCH=$$arch M=$(LINUX_SAMPLES) all crash-images \
			|| exit 1; done
	$(PYTHON) tests/run_tests.py $(addprefix --arch ,$(ARCHS))

# Debian packages this project needs, by the command or file that shows
# each is there. A file may be a pattern: libFuzzer's runtime lies under
# clang's version (14.0.6 in Debian 12), which a point release may change.
DEPS := grub-mkrescue:grub-common grub-mkrescue:grub-pc-bin xorriso:xorriso \
	mformat:mtools qemu-system-x86_64:qemu-system-x86 gdb:gdb nc:netcat-openbsd \
	gcc:gcc python3:python3 /usr/include/cmocka.h:libcmocka-dev \
	/usr/lib/grub/i386-pc/multiboot2.mod:grub-pc-bin \
	aarch64-linux-gnu-gcc:gcc-aarch64-linux-gnu qemu-system-aarch64:qemu-system-arm \
	gdb-multiarch:gdb-multiarch \
	/usr/src/linux-source-6.1.tar.xz:linux-source-6.1 \
	clang:clang \
	/usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-$(shell uname -m).a:libclang-rt-14-dev
# set -f: the list itself is not expanded; compgen -G matches each file
# (or pattern) on its own.
deps:
	@set -f; missing=""; for d in $(DEPS); do \
		what=$${d%%:*}; pkg=$${d#*:}; \
		if compgen -G "$$what" >/dev/null || command -v "$$what" >/dev/null 2>&1; then :; \
		else missing="$$missing $$pkg"; fi; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

clean:
	rm -rf build
