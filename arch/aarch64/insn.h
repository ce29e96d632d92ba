/*
 * aarch64 instruction classifier, for the probes layer.
 *
 * Every A64 instruction is one 32-bit little-endian word, so there are no
 * boundaries to find as on x86: the questions are what the instruction
 * does with the program counter, and whether it is safe to run anywhere
 * but in place. a64_decode() sorts an instruction word into one of four
 * classes:
 *
 *   unallocated  not an instruction (as far as this decoder knows the
 *                encoding tables): refused;
 *   refused      an instruction that cannot be probed: it changes the
 *                exception level or PSTATE, waits, traps on purpose, is
 *                part of an exclusive load/store pair, or reads state the
 *                breakpoint exception itself overwrites;
 *   emulated     it reads the pc (pc-relative addresses and loads, every
 *                branch) or is cheaper to emulate than to run - the
 *                function-prologue instructions: add/sub (immediate) and
 *                stores through sp: the probes layer does what it would
 *                do on the saved registers;
 *   out of line  anything else: it behaves the same at any address, so a
 *                copy of it runs in an instruction slot. Such a copy may
 *                always be boosted (followed by a B back) as well as
 *                stepped (followed by a BRK): nothing that differs
 *                between the two - the pc, the interrupt mask - is seen
 *                by an out-of-line instruction.
 *
 * The file is freestanding and pure (no kernel state), so the host tests
 * compile it too: tests/host/test_aarch64_insn.c checks hand-picked
 * encodings and tests/host/check_aarch64_insn.c every instruction of the
 * kernel against objdump.
 */
#ifndef ARCH_AARCH64_INSN_H
#define ARCH_AARCH64_INSN_H

#include "lib/types.h"

#define A64_INSN_SIZE 4

enum a64_class {
	A64_UNALLOCATED,
	A64_REFUSED,
	A64_EMULATED,
	A64_OUT_OF_LINE,
};

/* What an emulated instruction is. */
enum a64_emu {
	A64_EMU_NONE,		/* not emulated */
	A64_EMU_NOP,		/* nop */
	A64_EMU_PRFM_LIT,	/* prfm (literal): a hint, emulated as nothing */
	A64_EMU_MOV_FROM_SP,	/* mov xd, sp (add xd, sp, #0) */
	A64_EMU_MRS_DAIF,	/* mrs xt, daif: the step changes the mask */
	A64_EMU_ADR,
	A64_EMU_ADRP,
	A64_EMU_B,
	A64_EMU_BL,
	A64_EMU_B_COND,
	A64_EMU_CBZ,
	A64_EMU_CBNZ,
	A64_EMU_TBZ,
	A64_EMU_TBNZ,
	A64_EMU_LDR_LIT_W,	/* ldr wt, label (zero-extended) */
	A64_EMU_LDR_LIT_X,	/* ldr xt, label */
	A64_EMU_LDRSW_LIT,	/* ldrsw xt, label (sign-extended) */
	A64_EMU_BR,
	A64_EMU_BLR,
	A64_EMU_RET,
	A64_EMU_ADD_IMM,	/* add xd|sp, xn|sp, #imm (no flags) */
	A64_EMU_SUB_IMM,	/* sub xd|sp, xn|sp, #imm (no flags) */
	A64_EMU_STP_SP,		/* stp xt, xt2, [sp...] (pre, post, offset) */
	A64_EMU_STR_SP,		/* str xt, [sp...] (pre, post, unsigned offset) */
	A64_EMU_COUNT
};

struct a64_insn {
	uint32_t raw;
	enum a64_class cls;
	enum a64_emu emu;	/* A64_EMU_NONE unless cls is A64_EMULATED */
	const char *what;	/* the instruction's family, for messages */
};

/* Classify one instruction word. */
void a64_decode(uint32_t raw, struct a64_insn *out);

const char *a64_class_name(enum a64_class cls);
const char *a64_emu_name(enum a64_emu emu);

/* Register fields: Rd/Rt (bits 4:0) and Rn (bits 9:5). Register 31 is the
 * zero register or sp depending on the instruction. */
static inline unsigned int a64_rd(uint32_t raw)
{
	return raw & 31;
}

static inline unsigned int a64_rn(uint32_t raw)
{
	return (raw >> 5) & 31;
}

/* For pc-relative emulated instructions (adr, adrp, b, bl, b.cond,
 * cbz/cbnz, tbz/tbnz, ldr literal): the address they compute, branch to
 * or load from, when the instruction is at pc. */
uint64_t a64_pcrel_target(const struct a64_insn *in, uint64_t pc);

/* Does condition cond (0-15, as in b.cond) hold for the NZCV flags of
 * pstate (bits 31:28)? */
bool a64_condition_holds(unsigned int cond, uint64_t pstate);

/* For b.cond, cbz/cbnz and tbz/tbnz: is the branch taken, given pstate
 * and the value of the tested register Rt? */
bool a64_branch_taken(const struct a64_insn *in, uint64_t pstate, uint64_t rt_value);

/* add/sub (immediate): the result, given the value of Rn (sp when Rn is
 * 31), truncated to 32 bits for the w form. */
uint64_t a64_add_sub_imm_result(const struct a64_insn *in, uint64_t rn_value);

/*
 * A store through sp (A64_EMU_STP_SP, A64_EMU_STR_SP), all its effects
 * relative to sp before it runs. Every such store the classifier calls
 * emulated writes no lower than A64_SP_STORE_REACH bytes below sp (stp x
 * pre-indexed reaches -512; the w and str forms less), so a trap entry
 * that leaves that much room below the interrupted sp
 * (arch/aarch64/trap_entry.S) can emulate them all.
 */
#define A64_SP_STORE_REACH 512

struct a64_sp_store {	/* small: every probe point holds one */
	int16_t offset;		/* the first byte written, from sp */
	int16_t sp_change;	/* added to sp by write-back (0: none) */
	uint8_t size;		/* bytes per register: 4 (w) or 8 (x) */
	uint8_t count;		/* registers stored: 1 (str) or 2 (stp) */
	uint8_t rt, rt2;	/* stored registers; 31 is xzr */
};

void a64_decode_sp_store(const struct a64_insn *in, struct a64_sp_store *out);

/* B from `from` to `to`: whether its 26-bit offset reaches (+-128 MiB),
 * and its encoding. */
bool a64_b_reaches(uint64_t from, uint64_t to);
uint32_t a64_encode_b(uint64_t from, uint64_t to);

/* BRK #imm, and recognising one. */
uint32_t a64_encode_brk(uint16_t imm);
bool a64_is_brk(uint32_t raw);

/* Exclusive loads (ldxr, ldaxr, ldxp, ldaxp and byte/halfword forms) and
 * stores (stxr, stlxr, stxp, stlxp...): a probe must not sit between
 * them (see arch/aarch64/kprobes.c). */
bool a64_is_load_exclusive(uint32_t raw);
bool a64_is_store_exclusive(uint32_t raw);

#endif
