/*
 * kprobe_regs: a kprobe that prints all the general registers each time
 * a kernel function is reached.
 *
 *	probeos> insmod /lib/modules/kprobe_regs.ko symbol=vfs_read
 *	probeos> cat /etc/hostname
 *	kprobe_regs: vfs_read hit 1 at 0xffffffff8010ae20
 *	kprobe_regs:  ip ffffffff8010ae20 flags 0000000000000046 ...
 *	probeos> rmmod kprobe_regs
 *
 * symbol (default vfs_read) is any function the kernel's symbol table
 * knows (`sym NAME` in the shell). The registers are the ones the
 * breakpoint stopped the CPU with, before the function's first
 * instruction ran: on x86_64 rdi, rsi, rdx, rcx, r8 and r9 are still its
 * first six arguments, on aarch64 x0-x7 its first eight. The x86_64
 * lines use Linux's names for the registers (ip, ax...), which ProbeOS's
 * struct pt_regs answers to beside its own (rip, rax...).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/kprobes.h>

static char symbol[KSYM_NAME_LEN] = "vfs_read";
module_param_string(symbol, symbol, sizeof(symbol), 0644);
MODULE_PARM_DESC(symbol, "the function to probe (default vfs_read)");

static struct kprobe kp = {
	.symbol_name = symbol,
};

/* Runs on every hit, before the probed instruction. It only prints, so
 * it returns 0: the probed instruction then runs as usual. */
static int handler_pre(struct kprobe *p, struct pt_regs *regs)
{
	pr_info("%s hit %lu at %p\n", p->symbol_name, kprobe_nhit(p), p->addr);
#ifdef CONFIG_X86_64
	pr_info(" ip %016lx flags %016lx sp %016lx\n", regs->ip, regs->flags, regs->sp);
	pr_info(" ax %016lx bx %016lx cx %016lx dx %016lx\n",
		regs->ax, regs->bx, regs->cx, regs->dx);
	pr_info(" si %016lx di %016lx bp %016lx\n", regs->si, regs->di, regs->bp);
	pr_info(" r8 %016lx r9 %016lx r10 %016lx r11 %016lx\n",
		regs->r8, regs->r9, regs->r10, regs->r11);
	pr_info(" r12 %016lx r13 %016lx r14 %016lx r15 %016lx\n",
		regs->r12, regs->r13, regs->r14, regs->r15);
	pr_info(" cs %04lx ss %04lx\n", regs->cs, regs->ss);
#endif
#ifdef CONFIG_ARM64
	pr_info(" pc %016lx sp %016lx pstate %016lx\n",
		(unsigned long)regs->pc, (unsigned long)regs->sp, (unsigned long)regs->pstate);
	/* x0-x30, four to a line (x29 is the frame pointer, x30 the
	 * link register: here, the return address into the caller). */
	for (int i = 0; i < 31; i += 4) {
		pr_info(" x%-2d %016lx", i, (unsigned long)regs->regs[i]);
		for (int j = i + 1; j < i + 4 && j < 31; j++)
			pr_cont(" x%-2d %016lx", j, (unsigned long)regs->regs[j]);
		pr_cont("\n");
	}
#endif
	return 0;
}

static int __init kprobe_regs_init(void)
{
	int ret;

	kp.pre_handler = handler_pre;
	ret = register_kprobe(&kp);
	if (ret < 0) {
		pr_err("register_kprobe(%s) failed: %d\n", symbol, ret);
		return ret;
	}
	pr_info("probing %s at %p\n", symbol, kp.addr);
	return 0;
}

static void __exit kprobe_regs_exit(void)
{
	unregister_kprobe(&kp);
	pr_info("%s: %lu hits, %lu missed\n", symbol, kp.nhit, kp.nmissed);
}

module_init(kprobe_regs_init);
module_exit(kprobe_regs_exit);
MODULE_LICENSE("GPL");
MODULE_AUTHOR("ProbeOS");
MODULE_DESCRIPTION("print the registers at each hit of a kprobe");
