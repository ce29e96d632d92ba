# x86_64 build settings, included by the top Makefile (ARCH=x86_64).
#
# What differs between the architectures lives in arch/$(ARCH)/arch.mk:
# the toolchain, the code-generation flags, how QEMU boots the kernel
# and which images `make all` and `make crash-images` build. BUILD, Q and
# QEMU_ACCEL and CPUS are set by the Makefile before this file is read.
# The tests read the QEMU settings through `make qemu-config`, and what
# they expect of this architecture from testdata.py beside this file.

# A bare-metal x86_64-elf- compiler when installed, and otherwise the host
# GCC, which can build a freestanding kernel with these flags.
CROSS_COMPILE ?= $(if $(shell command -v x86_64-elf-gcc 2>/dev/null),x86_64-elf-,)

# -mno-red-zone: interrupts push onto the current stack, which would
#     overwrite the 128-byte "red zone" leaf functions may use below %rsp.
# -mcmodel=kernel: the kernel lives in the top 2 GiB of the address space,
#     so addresses fit in sign-extended 32-bit immediates.
# -mgeneral-regs-only: no SSE/x87 registers; the trap entry does not save
#     them, and so the kernel must never touch them.
# -mpreferred-stack-boundary=3: without SSE nothing needs a 16-byte aligned
#     stack, so the trap entry, the detour buffers and the kretprobe
#     trampoline call C with whatever 8-byte alignment they arrive with
#     (as Linux does on x86_64).
ARCH_CFLAGS := -mno-red-zone -mcmodel=kernel -mgeneral-regs-only -mpreferred-stack-boundary=3

# The function tracer's call sites (docs/ftrace.md): -pg -mfentry puts a
# 5-byte `call __fentry__` before each function's prologue, -mnop-mcount
# makes it a 5-byte NOP instead (nopl 0(%rax,%rax,1)), so that nothing
# needs patching at boot, and -mrecord-mcount records each site's address
# in the section __mcount_loc. Only the kernel and modules are built with
# them: -mnop-mcount refuses -fpic, and the host tests need no sites.
FTRACE_CFLAGS := -pg -mfentry -mrecord-mcount -mnop-mcount

# Defined for modules (tools/modules.mk), as Linux's configuration does,
# so that code such as Linux's kprobe_example.c picks its x86 lines. The
# modules are compiled with the kernel's ARCH_CFLAGS above: -mcmodel=kernel
# fits them too, as the loader places them in the top 2 GiB as well
# (0xffffffffa0000000, above the kernel), within 32-bit reach of the
# kernel's functions and data.
MODULE_ARCH_DEFINES := -DCONFIG_X86=1 -DCONFIG_X86_64=1

# GRUB boots the ISO; the isa-debug-exit device lets `poweroff` end QEMU.
QEMU := qemu-system-x86_64
QEMU_FLAGS := -accel $(QEMU_ACCEL) -smp $(CPUS) -m 256M -cdrom $(BUILD)/probeos.iso -boot d \
	-display none -no-reboot -device isa-debug-exit,iobase=0xf4,iosize=0x04
IMAGE := $(BUILD)/probeos.iso
# Share the host folder % with the kernel as the virtio 9p device tagged
# "host" (kernel/virtio/virtio_9p.c): a transitional virtio-9p-pci
# device, whose modern registers the kernel drives. Appended by
# `make run SHARE=DIR` and by the boot test virtio_9p.
QEMU_9P_FLAGS := -virtfs local,path=%,mount_tag=host,security_model=none

# An ISO per crash kind (kernel/crash_test.c), whose GRUB passes crash=KIND:
# GRUB's configuration is the only way to the kernel's command line.
# QEMU_CRASH_FLAGS boots the ISO of kind % (tests/boot/crash_tests.py).
CRASH_IMAGES := $(patsubst %,$(BUILD)/crash-%.iso,trap text-write breakpoint \
	double-fault kretprobe-bug jprobe-return sleep-in-handler stack-overflow stack-end-mark \
	stack-tracer-end-mark lock-recursion module-fault)
QEMU_CRASH_FLAGS = $(subst $(IMAGE),$(BUILD)/crash-%.iso,$(QEMU_FLAGS))

# `poweroff` leaves QEMU through isa-debug-exit, whose exit status is
# (value << 1) | 1: 33 (a write of 16) is a clean end, not an error.
POWEROFF_STATUS := 33
GDB := gdb
