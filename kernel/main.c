/*
 * kmain: from the boot code's first call into C to a running shell.
 *
 * The order matters: per-CPU data first (everything below may use
 * this_cpu()), then the descriptor tables so a fault prints a panic rather
 * than resetting the machine, then physical memory and the final page
 * tables (with the guards under the static stacks unmapped), then the
 * heap-backed services, then threads and interrupts.
 */
#include "boot/boot_info.h"
#include "kernel/arch.h"
#include "kernel/cpu.h"
#include "kernel/crash_test.h"
#include "kernel/fs/mount.h"
#include "kernel/fs/ninepfs.h"
#include "kernel/fs/ramfs.h"
#include "kernel/initcall.h"
#include "kernel/mm/frame.h"
#include "kernel/mm/paging.h"
#include "kernel/mm/stack.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/probes/kprobes.h"
#include "kernel/rcu.h"
#include "kernel/sched.h"
#include "kernel/smp.h"
#include "kernel/shell/shell.h"
#include "kernel/time.h"
#include "kernel/trace/ftrace.h"
#include "lib/errno.h"
#include <asm/boot.h>
#include <asm/layout.h>

extern char __kernel_end[];

static struct boot_info boot_info;

static void mount_rootfs(const struct boot_info *bi)
{
	int n;

	if (!bi->initrd_size) {
		kprintf("rootfs: no archive was loaded; the file system is empty\n");
		return;
	}
	n = ramfs_mount_archive(phys_to_virt(bi->initrd_base), bi->initrd_size);
	if (n < 0)
		kprintf("rootfs: cannot read the archive: %s\n", strerror(n));
	else
		kprintf("rootfs: %d entries from a %lu-byte archive\n", n,
			(unsigned long)bi->initrd_size);
}

/* The pseudo filesystems, where Linux mounts them at boot (its systemd
 * does), the source named after the type as there: /proc and /sys are
 * made in the root filesystem first; the others' directories are
 * sysfs's and debugfs's own. tracefs is at both of its Linux places. */
static void mount_filesystems(void)
{
	static const struct {
		const char *type, *dir;
	} boot_mounts[] = {
		{ "proc", "/proc" },
		{ "sysfs", "/sys" },
		{ "debugfs", "/sys/kernel/debug" },
		{ "tracefs", "/sys/kernel/tracing" },
		{ "tracefs", "/sys/kernel/debug/tracing" },
	};

	/* A failure here shows as the mount's. */
	vfs_mkdir("/proc");
	vfs_mkdir("/sys");
	for (size_t i = 0; i < ARRAY_SIZE(boot_mounts); i++) {
		const char *type = boot_mounts[i].type, *dir = boot_mounts[i].dir;
		int err = vfs_mount(type, dir, type);

		if (err)
			kprintf("mount: cannot mount %s on %s: %s\n", type, dir, strerror(err));
	}
	/* The host's folder, when QEMU shares one (it prints its own line). */
	ninepfs_mount_host();
}

/* The shell's thread begins here, as Linux's first thread does: the
 * initcalls run (they may sleep, which kmain, the boot CPU's idle
 * thread, must not), the filesystems are mounted, and it becomes the
 * shell. */
static void kernel_init(void *unused)
{
	do_initcalls();
	mount_filesystems();
	shell_main(unused);
}

void kmain(uint64_t boot_arg0, uint64_t boot_arg1)
{
	int err;

	cpu_init_this(0);
	arch_cpu_init(0);
	arch_console_init();
	kprintf("\nProbeOS %s booting\n", ARCH_NAME);

	err = arch_boot_info(boot_arg0, boot_arg1, &boot_info);
	if (err < 0)
		panic("cannot read the boot loader's information: %s", strerror(err));
	frame_init(&boot_info, KERNEL_LOAD_PHYS, (uintptr_t)__kernel_end - KERNEL_VMA);
	paging_init(&boot_info);
	stack_guard_static();
	if (boot_info.cmdline[0])
		kprintf("command line: %s\n", boot_info.cmdline);

	mount_rootfs(&boot_info);
	sched_init();
	rcu_init();
	ftrace_init();
	kprobes_init();
	arch_interrupts_init();
	time_init();
	smp_boot_cpus(&boot_info);
	crash_test_from_cmdline(boot_info.cmdline);
	if (thread_create("shell", kernel_init, NULL) < 0)
		panic("cannot create the shell thread");
	sched_run_idle();
}
