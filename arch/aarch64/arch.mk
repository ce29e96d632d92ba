# aarch64 build settings, included by the top Makefile (ARCH=aarch64).
#
# What differs between the architectures lives in arch/$(ARCH)/arch.mk:
# the toolchain, the code-generation flags, how QEMU boots the kernel
# and which images `make all` and `make crash-images` build. BUILD, Q and
# QEMU_ACCEL and CPUS are set by the Makefile before this file is read.
# The tests read the QEMU settings through `make qemu-config`, and what
# they expect of this architecture from testdata.py beside this file.

# A bare-metal aarch64-none-elf- compiler when installed, and otherwise
# Debian's Linux cross compiler, which builds a freestanding kernel as well.
CROSS_COMPILE ?= $(if $(shell command -v aarch64-none-elf-gcc 2>/dev/null),aarch64-none-elf-,aarch64-linux-gnu-)

# -mgeneral-regs-only: no FP/SIMD registers; the exception entry does not
#     save them, and CPACR_EL1 leaves them trapped.
# -mcmodel=small: code and data within 4 GiB of each other, addressed
#     PC-relative (ADRP), which works at any link address, including the
#     top of the address space where the kernel lives.
# -mno-omit-leaf-frame-pointer: leaf functions build a frame record too,
#     so a backtrace from a fault in one still names its caller (the
#     record is [x29] = caller's x29, [x29 + 8] = return address).
# -mbranch-protection=none: no pointer authentication or BTI, so return
#     addresses saved in frame records are plain addresses.
# -mno-outline-atomics: atomics as inline instructions rather than calls
#     into libgcc helpers, which a freestanding kernel does not link.
ARCH_CFLAGS := -mgeneral-regs-only -mcmodel=small -mno-omit-leaf-frame-pointer \
	-mbranch-protection=none -mno-outline-atomics

# The function tracer's call sites (docs/ftrace.md): two NOPs before each
# function's prologue, their address recorded in the section
# __patchable_function_entries. Two, because a call from the site must
# keep the return address the function will return with: the first
# becomes `mov x9, x30`, the second `bl` to the trampoline. Only the
# kernel and modules are built with them, never the host tests.
FTRACE_CFLAGS := -fpatchable-function-entry=2

# Defined for modules (tools/modules.mk), as Linux's configuration does,
# so that code such as Linux's kprobe_example.c picks its arm64 lines.
# Modules are compiled with ARCH_CFLAGS too: -mcmodel=small addresses the
# kernel PC-relative, within the 4 GiB of ADRP (calls, B/BL, reach
# 128 MiB: the loader's concern).
MODULE_ARCH_DEFINES := -DCONFIG_ARM64=1

# QEMU boots a raw image with the arm64 Linux header as Linux: the initrd
# is loaded and the device tree's address is passed in x0. The ELF itself
# would be booted as a bare-metal program, without the initrd.
QEMU := qemu-system-aarch64
QEMU_FLAGS := -accel $(QEMU_ACCEL) -smp $(CPUS) -M virt -cpu cortex-a72 -m 256M \
	-kernel $(BUILD)/probeos.bin -initrd $(BUILD)/rootfs.cpio \
	-display none -no-reboot
IMAGE := $(BUILD)/probeos.bin $(BUILD)/rootfs.cpio
# Share the host folder % with the kernel as the virtio 9p device tagged
# "host" (kernel/virtio/virtio_9p.c). QEMU's virtio-mmio devices are
# legacy (version 1) unless force-legacy is off; the kernel drives only
# version 2. Appended by `make run SHARE=DIR` and by the boot test
# virtio_9p.
QEMU_9P_FLAGS := -global virtio-mmio.force-legacy=false \
	-fsdev local,id=hostfs,path=%,security_model=none \
	-device virtio-9p-device,fsdev=hostfs,mount_tag=host

# No crash images: QEMU's -append passes crash=KIND to the usual image
# (QEMU_CRASH_FLAGS, for tests/boot/crash_tests.py: % is the kind).
CRASH_IMAGES :=
QEMU_CRASH_FLAGS = $(QEMU_FLAGS) -append crash=%
# `poweroff` ends QEMU through PSCI, with status 0.
POWEROFF_STATUS := 0
GDB := gdb-multiarch

# The raw image: the ELF's loadable bytes laid out by physical address.
$(BUILD)/%.bin: $(BUILD)/%.elf
	@echo "  OBJCOPY $@"
	$(Q)$(CROSS_COMPILE)objcopy -O binary $< $@
