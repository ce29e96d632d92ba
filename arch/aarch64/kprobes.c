/*
 * The aarch64 probe back end: everything about the probed instruction.
 *
 * Arming writes BRK #BRK_IMM_KPROBE over the instruction (every
 * instruction is 4 bytes, so the breakpoint covers exactly one). When the
 * CPU reaches it, the exception enters the probes core with pc AT the
 * BRK. After the pre-handlers, the original instruction must run as if it
 * had never been replaced. There are three ways (and the optimizer's
 * detour, which needs no BRK at all):
 *
 *  emulate   every instruction that reads the pc - pc-relative addresses
 *            and loads, all branches - does what it would have done, on
 *            the saved registers: a copy elsewhere would see the wrong pc.
 *            (Also nop, mov xd, sp and mrs xt, daif.) No slot, no trap.
 *            A function prologue's instructions - add/sub (immediate),
 *            stp/str through sp - are emulated too, when a post-handler
 *            must run: it then runs in the same exception. Their stores
 *            land in the gap the synchronous-exception entry leaves below
 *            the interrupted sp (SYNC_STACK_GAP, asm/ptrace.h).
 *  boost     a copy in a slot, followed by a B back to the next original
 *            instruction; pc is pointed at the copy and the trap returns.
 *            Used when no post-handler must run - for the prologue
 *            instructions too, as it costs fewer instructions than their
 *            emulation (see also_boosted).
 *  step      a copy in the same slot followed by a second BRK, with
 *            another immediate, that marks the end of the step: no
 *            hardware single-step is needed. arch/aarch64/traps.c sends
 *            that BRK to the single-step hook, and arch_finish_step
 *            resumes after the original instruction. Interrupts are
 *            masked from the first BRK to the second, so nothing else
 *            runs on this CPU in between. A second exception and eret:
 *            kept for what cannot be emulated.
 *
 * See the slot layout in asm/kprobes.h, and docs/aarch64.md.
 */
#include "lib/export.h"
#include "kernel/mm/nofault.h"
#include "kernel/nokprobe.h"
#include "kernel/panic.h"
#include "kernel/probes/probe_point.h"
#include "kernel/mm/text_patch.h"
#include "kernel/trap.h"
#include "lib/errno.h"
#include "lib/format.h"
#include <asm/sysreg.h>

#define DAIF_BITS (PSR_D | PSR_A | PSR_I | PSR_F)

/* The instruction classifier (insn.c) is part of this back end: a hit
 * simulates with it and arming encodes the BRK with it. It includes no
 * kernel header, so that the host tests can compile it, and so cannot
 * mark itself __kprobes; its functions are listed here instead. */
NOKPROBE_SYMBOL(a64_decode);
NOKPROBE_SYMBOL(a64_class_name);
NOKPROBE_SYMBOL(a64_emu_name);
NOKPROBE_SYMBOL(a64_pcrel_target);
NOKPROBE_SYMBOL(a64_condition_holds);
NOKPROBE_SYMBOL(a64_branch_taken);
NOKPROBE_SYMBOL(a64_b_reaches);
NOKPROBE_SYMBOL(a64_encode_b);
NOKPROBE_SYMBOL(a64_encode_brk);
NOKPROBE_SYMBOL(a64_is_brk);
NOKPROBE_SYMBOL(a64_is_load_exclusive);
NOKPROBE_SYMBOL(a64_is_store_exclusive);
NOKPROBE_SYMBOL(a64_add_sub_imm_result);
NOKPROBE_SYMBOL(a64_decode_sp_store);

/* Register n as an operand: 31 reads as zero (xzr) in the instructions
 * emulated here. */
static uint64_t __kprobes xreg(const struct pt_regs *regs, unsigned int n)
{
	return n == 31 ? 0 : regs->regs[n];
}

static void __kprobes set_xreg(struct pt_regs *regs, unsigned int n, uint64_t value)
{
	if (n != 31)
		regs->regs[n] = value;	/* a write to xzr is discarded */
}

/* Copy the instruction to its slot: once to be stepped (ending in the
 * step BRK), once to be boosted (ending in a B back) - see asm/kprobes.h. */
static int __kprobes fill_slot(struct probe_point *pp)
{
	struct arch_probe_insn *ai = &pp->insn;
	uint32_t code[ARCH_PROBE_SLOT_SIZE / A64_INSN_SIZE];
	uintptr_t slot, next = (uintptr_t)pp->addr + A64_INSN_SIZE;
	uintptr_t b_at;

	pp->slot = kprobe_alloc_slot();
	if (!pp->slot)
		return -ENOMEM;
	slot = (uintptr_t)pp->slot;
	b_at = slot + SLOT_BOOST_OFFSET + A64_INSN_SIZE;
	code[0] = ai->orig;
	code[1] = a64_encode_brk(BRK_IMM_KPROBE_STEP);
	code[2] = ai->orig;
	/* The executable region is within a B's reach of all kernel text
	 * (asm/layout.h); if a slot ever were not, it is only stepped. */
	ai->boostable = a64_b_reaches(b_at, next);
	code[3] = ai->boostable ? a64_encode_b(b_at, next) : a64_encode_brk(BRK_IMM_KPROBE_STEP);
	return text_poke(pp->slot, code, sizeof(code));
}

/*
 * Is addr between a load-exclusive and its store-exclusive? Taking an
 * exception clears the exclusive monitor, so with a breakpoint there the
 * store-exclusive would fail every time and its retry loop never end.
 * Look back a few instructions for a load-exclusive not yet followed by
 * a store-exclusive (the sequences the compiler emits are short).
 */
#define EXCLUSIVE_LOOKBACK 16

static bool __kprobes in_exclusive_sequence(uintptr_t addr, uintptr_t func_start)
{
	uint32_t code[EXCLUSIVE_LOOKBACK];
	size_t n = MIN((size_t)EXCLUSIVE_LOOKBACK, (addr - func_start) / A64_INSN_SIZE);

	kprobes_read_text(addr - n * A64_INSN_SIZE, (uint8_t *)code, n * A64_INSN_SIZE);
	for (size_t i = n; i-- > 0;) {
		if (a64_is_store_exclusive(code[i]))
			return false;
		if (a64_is_load_exclusive(code[i]))
			return true;
	}
	return false;
}

static bool __kprobes is_sp_store(const struct a64_insn *in)
{
	return in->emu == A64_EMU_STP_SP || in->emu == A64_EMU_STR_SP;
}

/* A store that may fault into an exception fix-up must fault at its own
 * address, where the fix-up table expects it - not inside the handler
 * emulating it: it runs out of line (stepped, as has_fixup makes it). */
static bool __kprobes store_with_fixup(const struct arch_probe_insn *ai, uintptr_t addr)
{
	return is_sp_store(&ai->decoded) && extable_search(addr);
}

/*
 * The prologue instructions (add/sub immediate, stores through sp) are
 * emulated only so that a post-handler can run without a second
 * exception. Without one, a copy in the slot followed by a B back costs
 * fewer instructions than the C that emulates it (make bench: 142 per
 * hit boosted, 205 emulated, on vfs_read's stp), and the exceptions are
 * the same: so they get a slot too, and the core boosts them when it
 * may (choose_exec in kprobe_trap.c). The instructions that read the pc
 * cannot run anywhere else and have no slot.
 */
static bool __kprobes also_boosted(const struct a64_insn *in)
{
	return is_sp_store(in) || in->emu == A64_EMU_ADD_IMM || in->emu == A64_EMU_SUB_IMM;
}

/* Does an emulated instruction write x16 or x17, which the jprobe
 * return clobbers (jprobe_return, jprobe_trampoline.S)? */
static bool __kprobes writes_ip_register(const struct a64_insn *in)
{
	unsigned int rd = a64_rd(in->raw);

	switch (in->emu) {
	case A64_EMU_ADR:
	case A64_EMU_ADRP:
	case A64_EMU_LDR_LIT_W:
	case A64_EMU_LDR_LIT_X:
	case A64_EMU_LDRSW_LIT:
	case A64_EMU_MOV_FROM_SP:
	case A64_EMU_MRS_DAIF:
	case A64_EMU_ADD_IMM:
	case A64_EMU_SUB_IMM:
		return rd == 16 || rd == 17;
	default:
		return false;
	}
}

int __kprobes arch_prepare_kprobe(struct probe_point *pp, uintptr_t func_start, size_t func_size)
{
	struct arch_probe_insn *ai = &pp->insn;
	uintptr_t addr = (uintptr_t)pp->addr;
	int err;

	/* Fixed-width instructions: a boundary is a multiple of 4 from the
	 * function's start, with a whole instruction before its end. */
	if (addr < func_start || addr + A64_INSN_SIZE > func_start + func_size ||
	    (addr - func_start) % A64_INSN_SIZE || addr % A64_INSN_SIZE)
		return -EILSEQ;
	kprobes_read_text(addr, (uint8_t *)&ai->orig, A64_INSN_SIZE);
	a64_decode(ai->orig, &ai->decoded);
	if (ai->decoded.cls == A64_UNALLOCATED || ai->decoded.cls == A64_REFUSED)
		return -EINVAL;
	if (in_exclusive_sequence(addr, func_start))
		return -EINVAL;
	pp->can_emulate = ai->decoded.cls == A64_EMULATED && !store_with_fixup(ai, addr);
	if (is_sp_store(&ai->decoded))
		a64_decode_sp_store(&ai->decoded, &ai->store);
	ai->writes_ip = pp->can_emulate && writes_ip_register(&ai->decoded);
	pp->slot = NULL;
	ai->boostable = false;
	if (!pp->can_emulate || also_boosted(&ai->decoded)) {
		err = fill_slot(pp);
		if (err)
			return err;
	}
	pp->boost_copy = pp->slot && ai->boostable ? pp->slot + SLOT_BOOST_OFFSET : NULL;
	return 0;
}

/*
 * Whether other CPUs may run through a change of this instruction: the
 * architecture (ARM ARM, "Concurrent modification and execution of
 * instructions") guarantees that a CPU running code while another
 * changes it sees either the old or the new instruction only when both
 * are one of B, BL, BRK, NOP, ISB, SVC, HVC and SMC. Any other change
 * may be seen as neither, so it is made with the other CPUs held still.
 */
static bool __kprobes may_change_concurrently(uint32_t insn)
{
	return (insn & 0x7c000000) == 0x14000000 ||	/* B, BL */
	       (insn & 0xffe0001f) == 0xd4200000 ||	/* BRK */
	       (insn & 0xffe0001c) == 0xd4000000 ||	/* SVC, HVC, SMC (op 1-3) */
	       insn == 0xd503201f ||			/* NOP */
	       (insn & 0xfffff0ff) == 0xd50330df;	/* ISB */
}

/* Replace the BRK at pp->addr by insn or the other way round (text_poke
 * also makes the change visible to instruction fetch on every CPU). */
static void __kprobes patch_with_brk(struct probe_point *pp, uint32_t insn)
{
	if (may_change_concurrently(pp->insn.orig))
		text_poke(pp->addr, &insn, sizeof(insn));
	else
		text_poke_stopped(pp->addr, &insn, sizeof(insn));
}

void __kprobes arch_arm_kprobe(struct probe_point *pp)
{
	patch_with_brk(pp, a64_encode_brk(BRK_IMM_KPROBE));
}

void __kprobes arch_disarm_kprobe(struct probe_point *pp)
{
	patch_with_brk(pp, pp->insn.orig);
}

void __kprobes arch_unpatched_bytes(const struct probe_point *pp, uint8_t *buf,
			  uintptr_t buf_addr, size_t len)
{
	const uint8_t *orig = (const uint8_t *)&pp->insn.orig;
	uintptr_t a = (uintptr_t)pp->addr;

	for (size_t i = 0; i < A64_INSN_SIZE; i++)
		if (a + i >= buf_addr && a + i < buf_addr + len)
			buf[a + i - buf_addr] = orig[i];
}

bool __kprobes arch_is_breakpoint(uintptr_t addr)
{
	uint32_t insn;

	return copy_from_kernel_nofault(&insn, (void *)addr, sizeof(insn)) == 0 &&
	       a64_is_brk(insn);
}

/* ldr (literal): the literal is in the kernel image, next to the code,
 * and 4-byte aligned; a 64-bit one is read as two words. */
static uint64_t __kprobes load_literal(enum a64_emu kind, uintptr_t at)
{
	const uint32_t *word = (const uint32_t *)at;

	switch (kind) {
	case A64_EMU_LDR_LIT_W:
		return word[0];
	case A64_EMU_LDRSW_LIT:
		return (uint64_t)(int64_t)(int32_t)word[0];
	default:
		return word[0] | (uint64_t)word[1] << 32;
	}
}

/* The registers a store through sp stores, at sp + its offset - in the
 * gap the synchronous-exception entry left between the interrupted sp and
 * regs (SYNC_STACK_GAP), or above sp - then sp's write-back. */
_Static_assert(SYNC_STACK_GAP >= A64_SP_STORE_REACH,
	       "an emulated store through sp must land in the trap entry's gap");

static void __kprobes emulate_sp_store(const struct a64_sp_store *st, struct pt_regs *regs)
{
	uintptr_t at = regs->sp + st->offset;

	for (unsigned int n = 0; n < st->count; n++, at += st->size) {
		uint64_t value = xreg(regs, n ? st->rt2 : st->rt);

		if (st->size == 8)
			*(uint64_t *)at = value;
		else
			*(uint32_t *)at = (uint32_t)value;
	}
	regs->sp += st->sp_change;
}

/* add/sub (immediate): register 31 is sp here, as source and result. */
static void __kprobes emulate_add_sub(const struct a64_insn *in, struct pt_regs *regs)
{
	unsigned int rn = a64_rn(in->raw), rd = a64_rd(in->raw);
	uint64_t result = a64_add_sub_imm_result(in, rn == 31 ? regs->sp : regs->regs[rn]);

	if (rd == 31)
		regs->sp = result;
	else
		regs->regs[rd] = result;
}

/*
 * Do what the instruction at pp->addr would have done, on the trap's
 * registers. The only memory written is by a store through sp, which a
 * breakpoint's exception (a synchronous one) can take: its frame lies
 * SYNC_STACK_GAP bytes below the interrupted sp, further than any such
 * store reaches.
 * Not inlined: it needs registers that a boosted or stepped hit, which
 * only sets the pc, would otherwise save and restore for nothing.
 */
static __noinline void __kprobes emulate(const struct probe_point *pp, struct pt_regs *regs)
{
	const struct a64_insn *in = &pp->insn.decoded;
	uintptr_t addr = (uintptr_t)pp->addr, next = addr + A64_INSN_SIZE;
	unsigned int rd = a64_rd(in->raw);
	uint64_t target;

	regs->pc = next;
	switch (in->emu) {
	case A64_EMU_MOV_FROM_SP:
		set_xreg(regs, rd, regs->sp);
		break;
	case A64_EMU_MRS_DAIF:
		set_xreg(regs, rd, regs->pstate & DAIF_BITS);
		break;
	case A64_EMU_ADR:
	case A64_EMU_ADRP:
		set_xreg(regs, rd, a64_pcrel_target(in, addr));
		break;
	case A64_EMU_LDR_LIT_W:
	case A64_EMU_LDR_LIT_X:
	case A64_EMU_LDRSW_LIT:
		set_xreg(regs, rd, load_literal(in->emu, a64_pcrel_target(in, addr)));
		break;
	case A64_EMU_BL:
		regs->regs[LINK_REGISTER] = next;
		/* fall through */
	case A64_EMU_B:
		regs->pc = a64_pcrel_target(in, addr);
		break;
	case A64_EMU_B_COND:
	case A64_EMU_CBZ:
	case A64_EMU_CBNZ:
	case A64_EMU_TBZ:
	case A64_EMU_TBNZ:
		if (a64_branch_taken(in, regs->pstate, xreg(regs, rd)))
			regs->pc = a64_pcrel_target(in, addr);
		break;
	case A64_EMU_BLR:
		target = xreg(regs, a64_rn(in->raw));	/* before blr x30 changes it */
		regs->regs[LINK_REGISTER] = next;
		regs->pc = target;
		break;
	case A64_EMU_BR:
	case A64_EMU_RET:
		regs->pc = xreg(regs, a64_rn(in->raw));
		break;
	case A64_EMU_ADD_IMM:
	case A64_EMU_SUB_IMM:
		emulate_add_sub(in, regs);
		break;
	case A64_EMU_STP_SP:
	case A64_EMU_STR_SP:
		emulate_sp_store(&pp->insn.store, regs);
		break;
	default:
		break;	/* nop, prfm (literal) */
	}
}

void __kprobes arch_exec_probed_insn(struct probe_point *pp, enum probe_exec how,
			   struct pt_regs *regs, struct arch_kprobe_state *saved)
{
	switch (how) {
	case PROBE_EXEC_EMULATE:
		/* A prologue's store, the commonest by far (a post-handler
		 * at a function's entry), skips emulate()'s dispatch. */
		if (is_sp_store(&pp->insn.decoded)) {
			emulate_sp_store(&pp->insn.store, regs);
			regs->pc = (uintptr_t)pp->addr + A64_INSN_SIZE;
			break;
		}
		emulate(pp, regs);
		/* A jprobe's return would clobber the x16 or x17 it wrote. */
		if (unlikely(pp->insn.writes_ip))
			regs->need_eret = 1;
		break;
	case PROBE_EXEC_STEP:
		/* Run the copy up to the step BRK with interrupts masked; a
		 * jprobe's return into it keeps the exception return, which
		 * handles every case. */
		regs->need_eret = 1;
		saved->pstate = regs->pstate;
		regs->pstate |= PSR_I;
		regs->pc = (uintptr_t)pp->slot + SLOT_STEP_OFFSET;
		break;
	default:
		panic("kprobes: no way %d to run the instruction at %p", how, pp->addr);
	}
}

/* Give back the interrupt mask the interrupted code had. */
static void __kprobes restore_irq_mask(struct pt_regs *regs, const struct arch_kprobe_state *saved)
{
	regs->pstate = (regs->pstate & ~PSR_I) | (saved->pstate & PSR_I);
}

bool __kprobes arch_finish_step(struct probe_point *pp, struct pt_regs *regs,
		      const struct arch_kprobe_state *saved)
{
	uintptr_t marker = (uintptr_t)pp->slot + SLOT_STEP_OFFSET + A64_INSN_SIZE;

	/* Only instructions that do not touch the pc are stepped, so the
	 * copy always ends on the step BRK right after it. */
	if (regs->pc != marker)
		panic("kprobes: step of %p ended at 0x%lx, not at its slot's BRK",
		      pp->addr, (unsigned long)regs->pc);
	regs->pc = (uintptr_t)pp->addr + A64_INSN_SIZE;
	restore_irq_mask(regs, saved);
	return true;
}

void __kprobes arch_abort_step(struct probe_point *pp, struct pt_regs *regs,
		     const struct arch_kprobe_state *saved)
{
	regs->pc = (uintptr_t)pp->addr;
	restore_irq_mask(regs, saved);
}

/* How a jprobe at pp ends (see jprobe_return in jprobe_trampoline.S),
 * or "" if pp has none. The caller holds kprobe_mutex. */
static const char __kprobes *jprobe_return_how(const struct probe_point *pp)
{
	enum probe_exec how = kprobe_exec_path(pp);

	if (!point_jprobe_locked(pp))
		return "";
	if (how == PROBE_EXEC_STEP || (how == PROBE_EXEC_EMULATE && pp->insn.writes_ip))
		return "; jprobe returns by eret";
	return "; jprobe returns by branch";
}

void __kprobes arch_describe_probe(const struct probe_point *pp, char *buf, size_t size)
{
	const struct a64_insn *in = &pp->insn.decoded;
	const char *jprobe = jprobe_return_how(pp);

	if (in->cls == A64_EMULATED && !pp->can_emulate)
		snprintf(buf, size, "%08x, out of line (it has an exception fix-up): %s%s",
			 in->raw, in->what, jprobe);
	else
		snprintf(buf, size, "%08x, %s%s%s%s%s", in->raw, a64_class_name(in->cls),
			 in->cls == A64_OUT_OF_LINE ? ": " : " as ", in->what,
			 pp->boost_copy && pp->can_emulate ? " (boosted if no post-handler)" : "",
			 jprobe);
}

size_t __kprobes arch_probe_insn_length(const struct probe_point *pp)
{
	(void)pp;
	return A64_INSN_SIZE;	/* every instruction is one word */
}

/* ---- kretprobes and jprobes ---- */

/* jprobe_return() is in jprobe_trampoline.S: with no C around it, the
 * return without eret costs fewer instructions than the one with it. */
EXPORT_SYMBOL(jprobe_return);
