/* x86_64's call-site patcher (kernel/trace/arch_ftrace.h).
 *
 * A site is the 5-byte NOP `0f 1f 44 00 00` or a 5-byte `call
 * ftrace_caller` or `call ftrace_regs_caller` (e8 and a 32-bit
 * displacement: every site, the kernel's and the modules', lies within
 * 2 GiB of the trampolines, asm/layout.h). Five bytes cannot change at once while other CPUs may
 * be running them, so each change goes in three steps, each seen by
 * every CPU before the next (text_poke_sync): an int3 on the first
 * byte, so that no CPU starts the instruction while it is half written
 * (the int3 resumes past the site, as if it were the NOP:
 * ftrace_site_breakpoint); the last four bytes; then the first. The
 * steps are taken for every changing site together, so that turning on
 * a thousand sites costs three rounds of syncing, not three thousand. */
#include "kernel/trace/arch_ftrace.h"
#include "kernel/mm/nofault.h"
#include "kernel/mm/text_patch.h"
#include "kernel/nokprobe.h"
#include <asm/ftrace.h>
#include <asm/kprobes.h>	/* BREAKPOINT_INSN */
#include <asm/ptrace.h>

#define CALL_REL32 0xe8

extern char ftrace_caller[], ftrace_regs_caller[];

static const uint8_t site_nop[ARCH_FTRACE_SITE_SIZE] = FTRACE_SITE_OFF;

/* The five bytes a site holds when ch is made. */
static void new_bytes(const struct ftrace_change *ch, uint8_t *out)
{
	uintptr_t to = (uintptr_t)(ch->to == FTRACE_SITE_CALL_REGS ? ftrace_regs_caller : ftrace_caller);
	int32_t rel = (int32_t)(to - (ch->ip + ARCH_FTRACE_SITE_SIZE));

	if (ch->to == FTRACE_SITE_NOP) {
		for (int i = 0; i < ARCH_FTRACE_SITE_SIZE; i++)
			out[i] = site_nop[i];
		return;
	}
	out[0] = CALL_REL32;
	for (int i = 0; i < 4; i++)
		out[1 + i] = (uint8_t)((uint32_t)rel >> (8 * i));
}

/* As built, a site is the NOP of a site turned off. */
int arch_ftrace_init_sites(const uintptr_t *ips, size_t n)
{
	(void)ips;
	(void)n;
	return 0;
}

int notrace arch_ftrace_apply(const struct ftrace_change *changes, size_t n)
{
	static const uint8_t int3 = BREAKPOINT_INSN;
	uint8_t bytes[ARCH_FTRACE_SITE_SIZE];
	int err = 0;

	for (size_t i = 0; i < n && !err; i++)
		err = text_poke((void *)changes[i].ip, &int3, 1);
	text_poke_sync();
	for (size_t i = 0; i < n && !err; i++) {
		new_bytes(&changes[i], bytes);
		err = text_poke((void *)(changes[i].ip + 1), bytes + 1, ARCH_FTRACE_SITE_SIZE - 1);
	}
	text_poke_sync();
	for (size_t i = 0; i < n && !err; i++) {
		new_bytes(&changes[i], bytes);
		err = text_poke((void *)changes[i].ip, bytes, 1);
	}
	return err;
}

/* The site's call pushed its return address, past the site, just above
 * the frame the trampoline built. */
uintptr_t notrace arch_ftrace_regs_site(const struct pt_regs *regs, uintptr_t regs_addr)
{
	uintptr_t past_site;

	if (copy_from_kernel_nofault(&past_site, (const void *)(regs_addr + sizeof(*regs)),
				     sizeof(past_site)))
		return 0;
	return past_site - ARCH_FTRACE_SITE_SIZE;
}
NOKPROBE_SYMBOL(arch_ftrace_regs_site);
