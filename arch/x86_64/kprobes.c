/*
 * The x86_64 probe back end: everything about the probed instruction.
 *
 * Arming writes int3 (0xcc) over the instruction's first byte. When the
 * CPU reaches it, #BP enters the probes core with %rip just past the int3.
 * After the pre-handlers, the original instruction must run as if it had
 * never been replaced. There are three ways, cheapest first:
 *
 *  emulate  a few instructions are emulated on the saved registers:
 *           function-entry code (push %rbp, mov %rsp,%rbp, nop, endbr64)
 *           and all relative jumps, calls and returns. No slot, no trap.
 *  boost    the instruction is copied to a slot followed by a jmp back to
 *           the next original instruction; %rip is pointed at the slot and
 *           the trap returns. Used when no post-handler must run after it.
 *  step     the same slot, but run with the trap flag set, so #DB comes
 *           right after the copied instruction; then %rip and whatever the
 *           instruction saw of its own address are fixed up, and the post-
 *           handlers run.
 *
 * A copy that addresses memory relative to %rip would address memory
 * relative to the slot; its 32-bit displacement is adjusted when copied.
 * (Slots live within 2 GiB of kernel text, so the adjusted value fits.)
 */
#include "lib/export.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/nofault.h"
#include "kernel/nokprobe.h"
#include "kernel/panic.h"
#include "kernel/probes/probe_point.h"
#include "kernel/mm/text_patch.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"

#define RFLAGS_CF (1UL << 0)
#define RFLAGS_PF (1UL << 2)
#define RFLAGS_ZF (1UL << 6)
#define RFLAGS_SF (1UL << 7)
#define RFLAGS_TF (1UL << 8)
#define RFLAGS_OF (1UL << 11)
#define JMP_REL32 0xe9
#define JMP_REL32_LEN 5


/* Where the register a push/pop opcode names (3 bits, plus REX.B for
 * r8-r15) is saved in struct pt_regs. */
static uint8_t __kprobes gpr_offset(unsigned int n)
{
	static const uint8_t offset[16] = {
		offsetof(struct pt_regs, rax), offsetof(struct pt_regs, rcx),
		offsetof(struct pt_regs, rdx), offsetof(struct pt_regs, rbx),
		offsetof(struct pt_regs, rsp), offsetof(struct pt_regs, rbp),
		offsetof(struct pt_regs, rsi), offsetof(struct pt_regs, rdi),
		offsetof(struct pt_regs, r8), offsetof(struct pt_regs, r9),
		offsetof(struct pt_regs, r10), offsetof(struct pt_regs, r11),
		offsetof(struct pt_regs, r12), offsetof(struct pt_regs, r13),
		offsetof(struct pt_regs, r14), offsetof(struct pt_regs, r15),
	};

	return offset[n & 15];
}

static bool __kprobes is_nop(const struct insn *in, const uint8_t *code)
{
	static const uint8_t endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };

	if (in->opcode_len == 1 && in->opcode[0] == 0x90 && !in->rex &&
	    !in->prefixes[INSN_PFX_LOCK_REP])
		return true;	/* nop, 66 nop (not f3 90: that is pause) */
	if (in->opcode_len == 2 && in->opcode[0] == 0x0f && in->opcode[1] == 0x1f &&
	    ((in->modrm >> 3) & 7) == 0)
		return true;	/* nopl / nopw with any operand */
	return in->length == sizeof(endbr64) && memcmp(code, endbr64, sizeof(endbr64)) == 0;
}

static enum x86_emulation __kprobes classify(struct arch_probe_insn *ai)
{
	const struct insn *in = &ai->decoded;
	bool plain = in->nprefixes == 0;

	switch (in->flow) {
	case INSN_FLOW_JMP_REL:
		return EMU_JMP;
	case INSN_FLOW_JCC_REL:
		return EMU_JCC;
	case INSN_FLOW_CALL_REL:
		return EMU_CALL;
	case INSN_FLOW_RET:
		return in->opcode[0] == 0xc3 || in->opcode[0] == 0xc2 ? EMU_RET : EMU_NONE;
	default:
		break;
	}
	/* The decoder keeps only the last opcode byte of a VEX, EVEX or XOP
	 * instruction, which could look like a nop or a push below. */
	if (in->vex)
		return EMU_NONE;
	if (is_nop(in, ai->orig))
		return EMU_NOP;
	if (plain && in->opcode_len == 1 && (in->opcode[0] & 0xf8) == 0x50 &&
	    (in->rex & ~0x41) == 0) {
		ai->push_offset = gpr_offset((in->opcode[0] & 7) | ((in->rex & 1) << 3));
		return EMU_PUSH_REG;
	}
	if (in->length == 3 && ai->orig[0] == 0x48 && ai->orig[1] == 0x89 && ai->orig[2] == 0xe5)
		return EMU_MOV_RSP_RBP;
	return EMU_NONE;
}

/* Copy the instruction to its slot, followed by a jump back. */
static int __kprobes fill_slot(struct probe_point *pp)
{
	struct arch_probe_insn *ai = &pp->insn;
	const struct insn *in = &ai->decoded;
	uint8_t buf[ARCH_PROBE_SLOT_SIZE];
	uintptr_t slot, next = (uintptr_t)pp->addr + in->length;
	int32_t rel;

	pp->slot = kprobe_alloc_slot();
	if (!pp->slot)
		return -ENOMEM;
	slot = (uintptr_t)pp->slot;
	memcpy(buf, ai->orig, in->length);
	if (in->rip_relative) {
		/* Same target, seen from the slot. */
		int32_t disp = (int32_t)(in->disp + ((uintptr_t)pp->addr - slot));

		memcpy(buf + in->disp_offset, &disp, sizeof(disp));
	}
	buf[in->length] = JMP_REL32;
	rel = (int32_t)(next - (slot + in->length + JMP_REL32_LEN));
	memcpy(buf + in->length + 1, &rel, sizeof(rel));
	return text_poke(pp->slot, buf, in->length + JMP_REL32_LEN);
}

/* Is addr the start of an instruction of the function at func_start?
 * Decode from the start of the function, reading the text as it would be
 * without other probes' breakpoints in it. */
static int __kprobes check_boundary(uintptr_t addr, uintptr_t func_start, size_t func_size)
{
	size_t len = addr - func_start + INSN_MAX_LEN, at = 0;
	uint8_t *code;

	len = MIN(len, func_size);
	code = kmalloc(len);
	if (!code)
		return -ENOMEM;
	kprobes_read_text(func_start, code, len);
	while (func_start + at < addr) {
		struct insn in;

		if (insn_decode(&in, code + at, len - at) < 0)
			break;
		at += in.length;
	}
	kfree(code);
	return func_start + at == addr ? 0 : -EILSEQ;
}

int __kprobes arch_prepare_kprobe(struct probe_point *pp, uintptr_t func_start, size_t func_size)
{
	struct arch_probe_insn *ai = &pp->insn;
	uintptr_t addr = (uintptr_t)pp->addr;
	size_t avail = MIN(sizeof(ai->orig), func_start + func_size - addr);
	int err = check_boundary(addr, func_start, func_size);

	if (err)
		return err;
	kprobes_read_text(addr, ai->orig, avail);
	if (insn_decode(&ai->decoded, ai->orig, avail) < 0)
		return -EILSEQ;
	switch (ai->decoded.flow) {
	case INSN_FLOW_INT:
	case INSN_FLOW_IRET:
	case INSN_FLOW_SYSCALL:
	case INSN_FLOW_HALT:
		return -EINVAL;
	default:
		break;
	}
	if (ai->decoded.privileged)
		return -EINVAL;
	/* xbegin's abort path jumps relative to it: it can neither be
	 * emulated nor run from a slot without that target moving. */
	if (ai->decoded.flow == INSN_FLOW_JCC_REL && ai->decoded.opcode[0] == 0xc7)
		return -EINVAL;
	ai->emulation = classify(ai);
	ai->next = addr + ai->decoded.length;
	if (ai->decoded.flow == INSN_FLOW_JMP_REL || ai->decoded.flow == INSN_FLOW_JCC_REL ||
	    ai->decoded.flow == INSN_FLOW_CALL_REL)
		ai->target = insn_branch_target(&ai->decoded, addr);
	pp->can_emulate = ai->emulation != EMU_NONE;
	pp->slot = NULL;
	if (!pp->can_emulate) {
		err = fill_slot(pp);
		if (err)
			return err;
	}
	/* Control flow needs a fix-up after it runs, so it is stepped. The
	 * boosted copy is the slot itself: the instruction, then a jmp back. */
	pp->boost_copy = pp->slot && ai->decoded.flow == INSN_FLOW_NONE ? pp->slot : NULL;
	return 0;
}

void __kprobes arch_arm_kprobe(struct probe_point *pp)
{
	const uint8_t int3 = BREAKPOINT_INSN;

	text_poke(pp->addr, &int3, 1);
}

void __kprobes arch_disarm_kprobe(struct probe_point *pp)
{
	text_poke(pp->addr, pp->insn.orig, 1);
}

void __kprobes arch_unpatched_bytes(const struct probe_point *pp, uint8_t *buf,
			  uintptr_t buf_addr, size_t len)
{
	/* A breakpoint covers one byte; an optimizer's jump its region. */
	size_t patched = pp->opt_state == OPT_OPTIMIZED ? pp->opt_len : 1;
	const uint8_t *orig = pp->opt_state == OPT_OPTIMIZED ? pp->opt.orig : pp->insn.orig;

	for (size_t i = 0; i < patched; i++) {
		uintptr_t a = (uintptr_t)pp->addr + i;

		if (a >= buf_addr && a < buf_addr + len)
			buf[a - buf_addr] = orig[i];
	}
}

bool __kprobes arch_is_breakpoint(uintptr_t addr)
{
	uint8_t byte;

	return copy_from_kernel_nofault(&byte, (void *)addr, 1) == 0 && byte == BREAKPOINT_INSN;
}

/* The condition of a jcc (low 4 bits of its opcode) on these flags. */
static bool __kprobes condition_holds(unsigned int cc, uint64_t f)
{
	bool of = f & RFLAGS_OF, sf = f & RFLAGS_SF, zf = f & RFLAGS_ZF;
	bool cf = f & RFLAGS_CF, pf = f & RFLAGS_PF;
	bool result;

	switch (cc >> 1) {
	case 0: result = of; break;		/* jo */
	case 1: result = cf; break;		/* jb */
	case 2: result = zf; break;		/* je */
	case 3: result = cf || zf; break;	/* jbe */
	case 4: result = sf; break;		/* js */
	case 5: result = pf; break;		/* jp */
	case 6: result = sf != of; break;	/* jl */
	default: result = zf || sf != of; break; /* jle */
	}
	return (cc & 1) ? !result : result;	/* odd codes are the negations */
}

/* loopne/loope/loop/jrcxz (e0-e3): count register then condition. */
static bool __kprobes loop_taken(const struct insn *in, struct pt_regs *regs)
{
	bool addr32 = in->prefixes[INSN_PFX_ADDRSIZE] == 0x67;
	uint64_t mask = addr32 ? 0xffffffffULL : ~0ULL;
	uint8_t op = in->opcode[0];

	if (op == 0xe3)
		return (regs->rcx & mask) == 0;
	regs->rcx = (regs->rcx & ~mask) | ((regs->rcx - 1) & mask);
	if ((regs->rcx & mask) == 0)
		return false;
	if (op == 0xe0)
		return !(regs->rflags & RFLAGS_ZF);
	if (op == 0xe1)
		return regs->rflags & RFLAGS_ZF;
	return true;
}

static bool __kprobes jcc_taken(const struct insn *in, struct pt_regs *regs)
{
	uint8_t op = in->opcode[in->opcode_len - 1];

	if (in->opcode_len == 1 && op >= 0xe0 && op <= 0xe3)
		return loop_taken(in, regs);
	return condition_holds(op & 0x0f, regs->rflags);
}

static void __kprobes push(struct pt_regs *regs, uint64_t value)
{
	regs->rsp -= 8;
	*(uint64_t *)regs->rsp = value;
}

/*
 * Emulate the instruction on the trap's registers. Pushing onto the
 * interrupted stack is safe because the #BP entry moved its own frame
 * down, leaving a gap below the interrupted %rsp (arch/x86_64/trap_entry.S).
 */
static void __kprobes emulate(const struct arch_probe_insn *ai, struct pt_regs *regs)
{
	const struct insn *in = &ai->decoded;

	regs->rip = ai->next;
	switch (ai->emulation) {
	case EMU_PUSH_REG:
		push(regs, *(uint64_t *)((char *)regs + ai->push_offset));
		break;
	case EMU_MOV_RSP_RBP:
		regs->rbp = regs->rsp;
		break;
	case EMU_JMP:
		regs->rip = ai->target;
		break;
	case EMU_JCC:
		if (jcc_taken(in, regs))
			regs->rip = ai->target;
		break;
	case EMU_CALL:
		push(regs, ai->next);
		regs->rip = ai->target;
		break;
	case EMU_RET:
		regs->rip = *(uint64_t *)regs->rsp;
		regs->rsp += 8 + (in->opcode[0] == 0xc2 ? (uint16_t)in->imm : 0);
		break;
	default:
		break;	/* EMU_NOP */
	}
}

void __kprobes arch_exec_probed_insn(struct probe_point *pp, enum probe_exec how,
			   struct pt_regs *regs, struct arch_kprobe_state *saved)
{
	if (how == PROBE_EXEC_EMULATE) {
		emulate(&pp->insn, regs);
	} else if (how == PROBE_EXEC_STEP) {
		/* Trap after one instruction, with interrupts off so nothing
		 * runs between the copy and the trap. */
		saved->rflags = regs->rflags;
		regs->rflags = (regs->rflags | RFLAGS_TF) & ~X86_RFLAGS_IF;
		regs->rip = (uintptr_t)pp->slot;
	} else {
		panic("kprobes: no way %d to run the instruction at %p", how, pp->addr);
	}
}

/* Give back the TF and IF the interrupted code had. */
static uint64_t __kprobes restore_tf_if(uint64_t now, uint64_t saved)
{
	return (now & ~(RFLAGS_TF | X86_RFLAGS_IF)) | (saved & (RFLAGS_TF | X86_RFLAGS_IF));
}

bool __kprobes arch_finish_step(struct probe_point *pp, struct pt_regs *regs,
		      const struct arch_kprobe_state *saved)
{
	const struct insn *in = &pp->insn.decoded;
	uintptr_t slot = (uintptr_t)pp->slot, addr = (uintptr_t)pp->addr;

	/* rep movs/stos/...: the trap flag stops after every iteration, with
	 * %rip still on the instruction until %rcx runs out. */
	if (in->rep && regs->rip == slot)
		return false;

	/* Still inside the slot: resume at the same offset in the original. */
	if (regs->rip >= slot && regs->rip < slot + ARCH_PROBE_SLOT_SIZE)
		regs->rip = addr + (regs->rip - slot);
	/* An indirect call pushed the slot's address as its return address. */
	if (in->flow == INSN_FLOW_CALL_INDIRECT)
		*(uint64_t *)regs->rsp = addr + in->length;
	/* pushf pushed the flags we set for stepping. */
	if (in->pushes_flags)
		*(uint64_t *)regs->rsp = restore_tf_if(*(uint64_t *)regs->rsp, saved->rflags);
	if (in->modifies_flags_if)
		/* popf: IF is whatever was popped; only TF is ours to undo. */
		regs->rflags = (regs->rflags & ~RFLAGS_TF) | (saved->rflags & RFLAGS_TF);
	else
		regs->rflags = restore_tf_if(regs->rflags, saved->rflags);
	return true;
}

void __kprobes arch_abort_step(struct probe_point *pp, struct pt_regs *regs,
		     const struct arch_kprobe_state *saved)
{
	regs->rip = (uintptr_t)pp->addr;
	regs->rflags = restore_tf_if(regs->rflags, saved->rflags);
}

void __kprobes arch_describe_probe(const struct probe_point *pp, char *buf, size_t size)
{
	static const char *const emu_names[] = {
		"", "nop", "push", "mov %rsp,%rbp", "jmp", "jcc", "call", "ret",
	};
	const struct insn *in = &pp->insn.decoded;

	snprintf(buf, size, "length %u, class %s%s%s%s", in->length, insn_flow_name(in->flow),
		 in->rip_relative ? ", rip-relative" : "",
		 pp->insn.emulation ? ", emulated as " : "",
		 emu_names[pp->insn.emulation]);
}

size_t __kprobes arch_probe_insn_length(const struct probe_point *pp)
{
	return pp->insn.decoded.length;
}

/* ---- kretprobes and jprobes ---- */

/* No trap: the frame jprobe_return_regs() returns is a trap frame, so
 * %rsp moves onto it and trap_return pops it; its iretq loads the probed
 * function's %rip, %rflags and %rsp. Interrupts stay off until then (the
 * entry function runs with them off), so nothing else can use this CPU's
 * jprobe state. */
void __kprobes jprobe_return(void)
{
	__asm__ volatile("call jprobe_return_regs\n\t"
			 "movq %%rax, %%rsp\n\t"
			 "jmp trap_return" : : : "memory");
	__builtin_unreachable();
}
EXPORT_SYMBOL(jprobe_return);
