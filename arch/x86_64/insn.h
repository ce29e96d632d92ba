/*
 * x86_64 instruction decoder (64-bit mode only).
 *
 * The kprobes layer copies a probed instruction to a slot and runs it
 * there, out of line. For that it must know how long the instruction is,
 * whether it addresses memory relative to %rip (the displacement then
 * has to be fixed up for the slot's address), whether it changes the flow
 * of control, and whether it is too dangerous to run out of line at all.
 * insn_decode() answers those questions; arch/x86_64/insn.c explains the
 * instruction format as it goes.
 */
#ifndef ARCH_X86_64_INSN_H
#define ARCH_X86_64_INSN_H

#include "lib/types.h"

/* The longest instruction the CPU accepts; a longer one raises #GP. */
#define INSN_MAX_LEN 15

/* What an instruction does to the flow of control. */
enum insn_flow {
	INSN_FLOW_NONE,		/* falls through to the next instruction */
	INSN_FLOW_JMP_REL,	/* jmp rel8/rel32 (eb, e9) */
	INSN_FLOW_JCC_REL,	/* jcc rel8/rel32 (7x, 0f 8x), loop/loope/loopne/
				   jrcxz (e0-e3); also xbegin (c7 f8), whose
				   abort path jumps to its target */
	INSN_FLOW_CALL_REL,	/* call rel32 (e8) */
	INSN_FLOW_JMP_INDIRECT,	/* ff /4, ff /5 */
	INSN_FLOW_CALL_INDIRECT,/* ff /2, ff /3 */
	INSN_FLOW_RET,		/* c3, c2 iw, cb, ca iw */
	INSN_FLOW_INT,		/* int3 cc, int n cd, int1 f1, ud2, ud0, ud1
				   (into, ce, is invalid in 64-bit mode) */
	INSN_FLOW_IRET,		/* iret/iretq (cf) */
	INSN_FLOW_SYSCALL,	/* syscall, sysret, sysenter, sysexit */
	INSN_FLOW_HALT,		/* hlt */
};

/*
 * Indexes into insn.prefixes[]: the legacy prefixes fall into four groups,
 * and an instruction uses at most one prefix of each group meaningfully.
 * Each slot holds the LAST prefix byte seen of its group (the one the CPU
 * obeys when a group repeats), or 0. Group 1 mixes lock with the repeat
 * prefixes, which an instruction may combine (f0 f3 0f b8 is lock popcnt),
 * so insn.lock and insn.rep record them apart as well.
 */
enum insn_prefix_group {
	INSN_PFX_LOCK_REP,	/* f0 lock, f2 repne/bnd, f3 rep */
	INSN_PFX_SEGMENT,	/* 2e cs, 36 ss, 3e ds, 26 es, 64 fs, 65 gs */
	INSN_PFX_OPSIZE,	/* 66 operand size (or mandatory prefix) */
	INSN_PFX_ADDRSIZE,	/* 67 address size */
};

struct insn {
	uint8_t length;		/* total bytes, 1..15 */
	uint8_t nprefixes;	/* legacy prefix bytes, repeats included */
	uint8_t prefixes[4];	/* by enum insn_prefix_group, 0 if absent */
	bool lock;		/* an f0 prefix was present */
	uint8_t rep;		/* the last f2 or f3 prefix, 0 if none: a
				   repeat, or part of an SSE opcode */
	uint8_t rex;		/* 0 if none */
	bool vex;		/* VEX (c4/c5), EVEX (62) or XOP (8f) encoded */
	uint8_t vex_len;	/* bytes of that prefix: 2, 3 or 4; else 0 */
	uint8_t map;		/* opcode map: 0 one-byte, 1 0f, 2 0f38, 3 0f3a,
				   5/6 EVEX maps, 8/9/10 XOP maps */
	uint8_t opcode[3];	/* opcode bytes incl. 0f / 0f 38 / 0f 3a
				   escapes; with VEX just the one opcode byte */
	uint8_t opcode_len;
	bool has_modrm;
	uint8_t modrm;
	bool has_sib;
	uint8_t sib;
	uint8_t disp_offset;	/* offset of the displacement, 0 if none */
	uint8_t disp_size;	/* 0, 1 or 4 */
	int32_t disp;		/* sign-extended; an EVEX disp8 is NOT
				   scaled by its N here */
	uint8_t imm_offset;	/* offset of the first immediate, 0 if none */
	uint8_t imm_size;	/* 0, 1, 2, 4 or 8. Branch displacements
				   (rel8/rel32) and the absolute address
				   (moffs) of a0-a3 count as immediates */
	int64_t imm;		/* sign-extended from imm_size bytes */
	uint8_t imm2_size;	/* second immediate: enter iw,ib; extrq and
				   insertq ib,ib. It follows the first. */
	int32_t imm2;		/* zero-extended */
	bool rip_relative;	/* ModRM mod=00 rm=101: disp is relative to
				   the next instruction */
	enum insn_flow flow;
	int32_t rel;		/* branch displacement for *_REL flows */
	bool privileged;	/* unsafe to single-step out of line; see
				   insn.c, insn_is_privileged(), for the list */
	bool modifies_flags_if;	/* popf, sti, cli, iret: touch IF/TF */
	bool pushes_flags;	/* pushf: the pushed TF must be fixed up */
};

/*
 * Decode one instruction in 64-bit mode from code[0..max_len). Returns 0,
 * or -EILSEQ if the bytes are not a valid instruction or would exceed
 * max_len or 15 bytes. Never reads code[max_len] or beyond.
 *
 * Also -EILSEQ, on purpose: jmp/jcc/call rel32 with a 66 prefix (rel16 on
 * AMD, rel32 on Intel), and VEX/EVEX/XOP after a 66, f2, f3, f0 or REX
 * prefix (#UD). A REX followed by another prefix is ignored, as the CPU
 * ignores it (objdump shows it as an instruction of its own).
 */
int insn_decode(struct insn *insn, const uint8_t *code, size_t max_len);

/* For *_REL flows: address of the branch target given the instruction's
 * address. */
uintptr_t insn_branch_target(const struct insn *insn, uintptr_t addr);

/* For rip_relative instructions: the address the memory operand names. */
uintptr_t insn_rip_target(const struct insn *insn, uintptr_t addr);

/* A short name of the flow class for display: "none", "jmp", "jcc",
 * "call", "jmp*", "call*", "ret", "int", "iret", "syscall", "hlt". */
const char *insn_flow_name(enum insn_flow flow);

#endif
