/*
 * The aarch64 back end of the jump optimizer (the generic part is
 * kernel/probes/optimizer.c, and arch/x86_64/optprobe.c the other back
 * end).
 *
 * An optimized probe replaces the probed instruction with a B to a detour
 * buffer: the template of optprobe_template.S (save the registers as the
 * exception entry does, call the handlers, restore them), then the probed
 * instruction relocated to run there (copy_insn), then a B back to the
 * next instruction.
 *
 * Every instruction is one 4-byte word, so the B replaces exactly the
 * probed instruction: the "region" is that word. Most of x86's checks
 * are about the bytes after the first one, and vanish: no other
 * instruction is overwritten, nothing can jump into the middle of the B,
 * and an indirect jump can only land on a whole instruction - the B
 * itself, which is fine. What remains to check (arch_check_optprobe):
 *   - a B reaches +-128 MiB: the probed address must reach every detour
 *     buffer, and every buffer the next instruction and the target of a
 *     relocated branch. The executable region is placed for that
 *     (asm/layout.h); it is checked anyway;
 *   - the instruction must behave the same from the buffer. Those that
 *     do not use the pc are copied unchanged; those that do are rewritten
 *     (copy_insn), except `blr`, which is refused: its return address
 *     would point into the buffer (x86 refuses calls for the same reason);
 *   - no exception fix-up may be registered for the instruction: a fault
 *     in the copy would not be found in the fix-up table.
 */
#include "kernel/nokprobe.h"
#include "kernel/probes/optimizer.h"
#include "kernel/mm/text_patch.h"
#include "kernel/trap.h"
#include "lib/errno.h"
#include "lib/string.h"
#include <asm/layout.h>
#include <asm/optprobe.h>

#define ZERO_REGISTER 31	/* as the target of a load */

extern const uint8_t optprobe_template[], optprobe_template_insn[], optprobe_template_pp[];
extern const uint8_t optprobe_template_pc[], optprobe_template_value[];
extern const uint8_t optprobe_template_entry[], optprobe_template_end[];

/* Where the optimized B lands: after the literals at the buffer's start. */
static uintptr_t __kprobes entry_of(const uint8_t *detour)
{
	return (uintptr_t)detour + (optprobe_template_entry - optprobe_template);
}


/* Do addr and every address of the executable region reach each other
 * with a B? The region is one range, so its two ends decide. */
static bool __kprobes exec_region_reaches(uintptr_t addr)
{
	uintptr_t first = EXEC_REGION_BASE;
	uintptr_t last = EXEC_REGION_BASE + EXEC_REGION_SIZE - A64_INSN_SIZE;

	return a64_b_reaches(addr, first) && a64_b_reaches(addr, last) &&
	       a64_b_reaches(first, addr) && a64_b_reaches(last, addr);
}

static bool __kprobes is_relative_branch(enum a64_emu emu)
{
	return emu == A64_EMU_B || emu == A64_EMU_BL || emu == A64_EMU_B_COND ||
	       emu == A64_EMU_CBZ || emu == A64_EMU_CBNZ || emu == A64_EMU_TBZ ||
	       emu == A64_EMU_TBNZ;
}

int __kprobes
arch_check_optprobe(struct probe_point *pp, size_t *len, const char **why, uintptr_t *where)
{
	const struct a64_insn *in = &pp->insn.decoded;
	uintptr_t addr = (uintptr_t)pp->addr;

	*why = NULL;
	*where = addr;
	if (extable_search(addr))
		*why = "exception fix-up at";
	else if (in->emu == A64_EMU_BLR)
		*why = "call through a register in region at";
	else if (!exec_region_reaches(addr) || !exec_region_reaches(addr + A64_INSN_SIZE))
		*why = "detour buffers out of a B's reach at";
	else if (is_relative_branch(in->emu) && !exec_region_reaches(a64_pcrel_target(in, addr)))
		*why = "branch target out of a B's reach at";
	*len = A64_INSN_SIZE;
	return *why ? -EINVAL : 0;
}

/* ---- Relocating the probed instruction ---- */

/* ldr xt, label: the 64-bit literal at `literal`, from an instruction at `at`. */
static uint32_t __kprobes encode_ldr_literal(unsigned int rt, uintptr_t at, uintptr_t literal)
{
	return 0x58000000 | ((uint32_t)((literal - at) >> 2) & 0x7ffff) << 5 | rt;
}

/* ldr wt, [xt] / ldr xt, [xt] / ldrsw xt, [xt]: a literal load's own
 * width and sign extension, from the address now in xt. */
static uint32_t __kprobes encode_load_through(enum a64_emu kind, unsigned int rt)
{
	uint32_t op = kind == A64_EMU_LDR_LIT_W ? 0xb9400000 :
		      kind == A64_EMU_LDRSW_LIT ? 0xb9800000 : 0xf9400000;

	return op | rt << 5 | rt;
}

/* A conditional branch (b.cond, cbz/cbnz: imm19; tbz/tbnz: imm14) with
 * its offset replaced by `words` instructions forward. */
static uint32_t __kprobes retarget_conditional(const struct a64_insn *in, uint32_t words)
{
	uint32_t mask = (in->emu == A64_EMU_TBZ || in->emu == A64_EMU_TBNZ) ? 0x3fff : 0x7ffff;

	return (in->raw & ~(mask << 5)) | words << 5;
}

/*
 * Write at w (to run at address `at`) what the probed instruction does,
 * followed by the way back to the next instruction. *value receives the
 * literal a rewritten instruction loads from value_at. Returns the number
 * of words.
 *
 *   adr, adrp xd, X         ldr xd, =X
 *   ldr xt|wt, label        ldr xt, =label; ldr xt|wt, [xt]  (ldrsw too)
 *   b X                     b X                   (re-aimed, no way back)
 *   bl X                    ldr x30, =next; b X
 *   b.cond/cbz/tbz... X     b.cond/... 1f; b next; 1: b X
 *   nop, prfm (literal)     nothing
 *   anything else           the instruction unchanged: it does not read
 *                           the pc (br and ret included)
 *
 * The conditional branch keeps its condition and jumps over the B back, so
 * no condition has to be inverted (b.al/b.nv, which are always taken,
 * work like the others).
 */
static size_t __kprobes copy_insn(const struct probe_point *pp, uint32_t *w, uintptr_t at,
			uint64_t *value, uintptr_t value_at)
{
	const struct a64_insn *in = &pp->insn.decoded;
	uintptr_t addr = (uintptr_t)pp->addr, next = addr + A64_INSN_SIZE;
	unsigned int rt = a64_rd(in->raw);
	size_t n = 0;

	switch (in->emu) {
	case A64_EMU_NOP:
	case A64_EMU_PRFM_LIT:
		break;
	case A64_EMU_ADR:
	case A64_EMU_ADRP:
		*value = a64_pcrel_target(in, addr);
		w[n] = encode_ldr_literal(rt, at, value_at);
		n++;
		break;
	case A64_EMU_LDR_LIT_W:
	case A64_EMU_LDR_LIT_X:
	case A64_EMU_LDRSW_LIT:
		if (rt == ZERO_REGISTER)
			break;	/* the value is thrown away */
		*value = a64_pcrel_target(in, addr);
		w[n] = encode_ldr_literal(rt, at, value_at);
		w[n + 1] = encode_load_through(in->emu, rt);
		n += 2;
		break;
	case A64_EMU_BL:
		*value = next;
		w[n] = encode_ldr_literal(LINK_REGISTER, at, value_at);
		n++;
		/* fall through */
	case A64_EMU_B:
		w[n] = a64_encode_b(at + n * A64_INSN_SIZE, a64_pcrel_target(in, addr));
		return n + 1;
	case A64_EMU_B_COND:
	case A64_EMU_CBZ:
	case A64_EMU_CBNZ:
	case A64_EMU_TBZ:
	case A64_EMU_TBNZ:
		w[0] = retarget_conditional(in, 2);
		w[1] = a64_encode_b(at + A64_INSN_SIZE, next);
		w[2] = a64_encode_b(at + 2 * A64_INSN_SIZE, a64_pcrel_target(in, addr));
		return 3;
	default:
		w[n] = in->raw;
		n++;
		break;
	}
	w[n] = a64_encode_b(at + n * A64_INSN_SIZE, next);
	return n + 1;
}

/* ---- The buffer ---- */

static void __kprobes put_literal(uint8_t *buf, const uint8_t *label, uint64_t v)
{
	memcpy(buf + (label - optprobe_template), &v, sizeof(v));
}

int __kprobes arch_prepare_optprobe(struct probe_point *pp)
{
	size_t size = optprobe_template_end - optprobe_template;
	size_t copy_at = optprobe_template_insn - optprobe_template;
	size_t value_at = optprobe_template_value - optprobe_template;
	uint8_t *detour = optimizer_alloc_detour();
	uint32_t code[OPT_COPY_WORDS];
	uint8_t buf[ARCH_DETOUR_SIZE];
	uint64_t value = 0;
	uintptr_t d = (uintptr_t)detour;
	size_t words;

	if (!detour)
		return -ENOMEM;
	/* arch_check_optprobe made sure every buffer is in reach. */
	if (!a64_b_reaches((uintptr_t)pp->addr, entry_of(detour))) {
		optimizer_free_detour(detour);
		return -ERANGE;
	}
	words = copy_insn(pp, code, d + copy_at, &value, d + value_at);
	memcpy(buf, optprobe_template, size);
	memcpy(buf + copy_at, code, words * A64_INSN_SIZE);
	put_literal(buf, optprobe_template_pp, (uintptr_t)pp);
	put_literal(buf, optprobe_template_pc, (uintptr_t)pp->addr);
	put_literal(buf, optprobe_template_value, value);
	text_poke(detour, buf, size);	/* also makes it visible to instruction fetch */
	pp->detour = detour;
	pp->detour_copy = detour + copy_at;
	return 0;
}

/*
 * Breakpoint first, as on x86: a candidate is armed, so its BRK is in the
 * text already, and one aligned 4-byte store turns it into the B
 * (text_poke writes an aligned word with a single store). Either
 * instruction is whole at every moment. That also holds for another CPU
 * running this code meanwhile: the architecture's rules on concurrent
 * modification and execution allow a B, BL, BRK, NOP or ISB to be
 * replaced by another of them while it may be executing - the CPU runs
 * the old instruction or the new one, never a mix. text_poke then does
 * the cache maintenance that makes the new word visible to instruction
 * fetch.
 */
void __kprobes arch_optimize(struct probe_point *pp)
{
	const uint32_t b = a64_encode_b((uintptr_t)pp->addr, entry_of(pp->detour));

	text_poke(pp->addr, &b, sizeof(b));
}

/* The reverse, leaving a breakpoint probe: the B becomes the BRK again. */
void __kprobes arch_unoptimize(struct probe_point *pp)
{
	const uint32_t brk = a64_encode_brk(BRK_IMM_KPROBE);

	text_poke(pp->addr, &brk, sizeof(brk));
}
