/* aarch64's call-site patcher (kernel/trace/arch_ftrace.h).
 *
 * A site is two words. As the compiler built it, both are NOPs. The
 * first becomes `mov x9, x30` once, while no other CPU can run it
 * (arch_ftrace_init_sites), and stays so: it keeps the function's
 * return address, which a `bl` in the second word overwrites. The
 * architecture lets one CPU change an instruction while others run it
 * only between a few kinds (B, BL, NOP, BRK among them), so turning a
 * site on or off is then one aligned store, NOP <-> `bl ftrace_caller`
 * (or `bl ftrace_regs_caller`; or from one to the other),
 * with no CPU stopped. Off, the site costs what the two NOPs did: two
 * instructions a call (Linux's arm64 ftrace_init_nop does the same).
 *
 * A bl reaches 128 MiB. Modules live in the executable region, farther
 * than that from the kernel (asm/layout.h), so their sites call a
 * veneer in that region, made on the first call, which branches on. */
#include "kernel/trace/arch_ftrace.h"
#include "kernel/mm/execmem.h"
#include "kernel/mm/text_patch.h"
#include "kernel/nokprobe.h"
#include "lib/errno.h"
#include <asm/ftrace.h>
#include <asm/ptrace.h>

#define A64_BL 0x94000000u
#define BL_REACH (128l << 20)

extern char ftrace_caller[], ftrace_regs_caller[];

/* ldr x16, 8; br x16; .quad TRAMPOLINE: for the modules' sites, one for
 * each trampoline (indexed by enum ftrace_site_call). */
static uintptr_t veneers[FTRACE_SITE_CALL_REGS + 1];

static int make_veneer(enum ftrace_site_call to, uintptr_t target)
{
	uint32_t code[4] = { 0x58000050u, 0xd61f0200u, (uint32_t)target,
			     (uint32_t)(target >> 32) };
	void *page;

	if (veneers[to])
		return 0;
	page = execmem_alloc_page();
	if (!page)
		return -ENOMEM;
	if (text_poke(page, code, sizeof(code)))
		return -EFAULT;
	veneers[to] = (uintptr_t)page;
	return 0;
}

static bool in_reach(uintptr_t from, uintptr_t to)
{
	long off = (long)(to - from);

	return off >= -BL_REACH && off < BL_REACH;
}

/* The second word of a site that ch turns on or off. */
static int second_word(const struct ftrace_change *ch, uint32_t *word)
{
	uintptr_t from = ch->ip + 4;
	uintptr_t to = (uintptr_t)(ch->to == FTRACE_SITE_CALL_REGS ? ftrace_regs_caller : ftrace_caller);
	int err;

	if (ch->to == FTRACE_SITE_NOP) {
		*word = A64_NOP;
		return 0;
	}
	if (!in_reach(from, to)) {
		if ((err = make_veneer(ch->to, to)))
			return err;
		to = veneers[ch->to];
	}
	*word = A64_BL | (((uint32_t)((to - from) >> 2)) & 0x3ffffff);
	return 0;
}

int arch_ftrace_init_sites(const uintptr_t *ips, size_t n)
{
	static const uint32_t mov = A64_MOV_X9_X30;
	int err = 0;

	for (size_t i = 0; i < n && !err; i++)
		err = text_poke((void *)ips[i], &mov, sizeof(mov));
	return err;
}

int notrace arch_ftrace_apply(const struct ftrace_change *changes, size_t n)
{
	int err = 0;

	for (size_t i = 0; i < n && !err; i++) {
		uint32_t word;

		err = second_word(&changes[i], &word);
		if (!err)
			err = text_poke((void *)(changes[i].ip + 4), &word, sizeof(word));
	}
	return err;
}

/* The trampoline put a frame record in the frame (regs->frame) before
 * its call, with the site's bl's return address, past the site. */
uintptr_t notrace arch_ftrace_regs_site(const struct pt_regs *regs, uintptr_t regs_addr)
{
	(void)regs_addr;
	return regs->frame[1] - ARCH_FTRACE_SITE_SIZE;
}
NOKPROBE_SYMBOL(arch_ftrace_regs_site);
