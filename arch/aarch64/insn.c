/*
 * aarch64 instruction classifier (see insn.h).
 *
 * The A64 encoding is a tree: bits 28:25 ("op0") pick one of a few
 * groups - data processing with an immediate, branches and system
 * instructions, loads and stores, data processing on registers, and
 * floating point/SIMD - and each group has its own fields that pick the
 * instruction. The decoder follows that tree from the top, group by
 * group, far enough to answer the probes layer's questions; the comments
 * name the fields as the Arm Architecture Reference Manual does, so a
 * student can follow along in its "A64 instruction set encoding" chapter.
 *
 * Instructions of later architecture versions (atomics, load-acquire
 * forms, pointer authentication hints...) are accepted as out of line
 * where they are harmless there: on a CPU without them, the copy raises
 * the same undefined-instruction exception the original would have.
 *
 * The helpers a probe hit calls to emulate an instruction are notrace:
 * a hit must not call the function tracer (tests/host/
 * check_ftrace_sites.py follows the hit path).
 */
#include "arch/aarch64/insn.h"

/* Bits hi..lo of x, shifted down. */
static inline uint32_t bits(uint32_t x, unsigned int hi, unsigned int lo)
{
	return (x >> lo) & ((1U << (hi - lo + 1)) - 1);
}

static inline uint32_t bit(uint32_t x, unsigned int n)
{
	return (x >> n) & 1;
}

/* The value of an n-bit two's-complement field. */
static int64_t sign_extend(uint64_t value, unsigned int n)
{
	uint64_t sign = 1ULL << (n - 1);

	return (int64_t)((value ^ sign) - sign);
}

static void set(struct a64_insn *out, enum a64_class cls, enum a64_emu emu, const char *what)
{
	out->cls = cls;
	out->emu = emu;
	out->what = what;
}

static void unallocated(struct a64_insn *out)
{
	set(out, A64_UNALLOCATED, A64_EMU_NONE, "unallocated encoding");
}

static void out_of_line(struct a64_insn *out, const char *what)
{
	set(out, A64_OUT_OF_LINE, A64_EMU_NONE, what);
}

static void refused(struct a64_insn *out, const char *what)
{
	set(out, A64_REFUSED, A64_EMU_NONE, what);
}

static void emulated(struct a64_insn *out, enum a64_emu emu)
{
	set(out, A64_EMULATED, emu, a64_emu_name(emu));
}

/* ---- Data processing, immediate (op0 = 100x) ---- */

/* A logical immediate's N:imms must describe an element of 2, 4, ..., 64
 * bits (the highest set bit of N:NOT(imms) gives its size) whose run of
 * ones is not the whole element; the other encodings are reserved. */
static bool valid_bitmask(uint32_t n, uint32_t imms)
{
	uint32_t size_bits = (n << 6) | (~imms & 0x3f);
	uint32_t levels;

	if (size_bits < 2)
		return false;
	levels = (1u << (31 - __builtin_clz(size_bits))) - 1;
	return (imms & levels) != levels;
}

static void decode_dp_imm(uint32_t i, struct a64_insn *out)
{
	uint32_t sf = bit(i, 31), n = bit(i, 22);

	switch (bits(i, 25, 23)) {
	case 0: case 1:	/* pc-relative addressing */
		emulated(out, bit(i, 31) ? A64_EMU_ADRP : A64_EMU_ADR);
		return;
	case 2:		/* add/sub (immediate) */
		/* mov xd, sp: add xd, sp, #0 (sf=1, op=0, S=0, sh=0) */
		if ((i & 0xffffffe0) == 0x910003e0 && a64_rd(i) != 31) {
			emulated(out, A64_EMU_MOV_FROM_SP);
			return;
		}
		/* Without flags (S=0) it is one addition on the saved
		 * registers - sub sp, sp, #N opens many a function. The
		 * flag-setting forms (adds, subs, cmp, cmn) run out of line. */
		if (!bit(i, 29))
			emulated(out, bit(i, 30) ? A64_EMU_SUB_IMM : A64_EMU_ADD_IMM);
		else
			out_of_line(out, "add/sub (immediate, setting flags)");
		return;
	case 3:		/* add/sub with tags (memory tagging) */
		if (!sf || bit(i, 29) || bit(i, 22))
			unallocated(out);
		else
			out_of_line(out, "add/sub with tags");
		return;
	case 4:		/* logical (immediate): N=1 needs 64 bits */
		if ((!sf && n) || !valid_bitmask(n, bits(i, 15, 10)))
			unallocated(out);
		else
			out_of_line(out, "logical (immediate)");
		return;
	case 5:		/* move wide: opc=01 is free; hw 2-3 need 64 bits */
		if (bits(i, 30, 29) == 1 || (!sf && bit(i, 22)))
			unallocated(out);
		else
			out_of_line(out, "move wide");
		return;
	case 6:		/* bitfield: opc=11 is free; N must equal sf */
		if (bits(i, 30, 29) == 3 || n != sf || (!sf && (bit(i, 21) || bit(i, 15))))
			unallocated(out);
		else
			out_of_line(out, "bitfield");
		return;
	default:	/* extract: only op21=00, o0=0, N=sf */
		if (bits(i, 30, 29) || bit(i, 21) || n != sf || (!sf && bit(i, 15)))
			unallocated(out);
		else
			out_of_line(out, "extract");
		return;
	}
}

/* ---- Branches, exception generating and system instructions ---- */

/* System registers by their op0:op1:CRn:CRm:op2 (bits 20:5 of MRS/MSR). */
#define SYSREG(op0, op1, crn, crm, op2) \
	(((op0) << 14) | ((op1) << 11) | ((crn) << 7) | ((crm) << 3) | (op2))
#define SYSREG_DAIF	SYSREG(3, 3, 4, 2, 1)
#define SYSREG_SPSR_EL1	SYSREG(3, 0, 4, 0, 0)
#define SYSREG_ELR_EL1	SYSREG(3, 0, 4, 0, 1)
#define SYSREG_SP_EL0	SYSREG(3, 0, 4, 1, 0)
#define SYSREG_ESR_EL1	SYSREG(3, 0, 5, 2, 0)
#define SYSREG_FAR_EL1	SYSREG(3, 0, 6, 0, 0)

/* The registers that the breakpoint's own exception entry and return
 * overwrite (arch/aarch64/trap_entry.S uses SP_EL0 as scratch): an
 * instruction reading one would see the breakpoint's values. */
static bool clobbered_by_exception(uint32_t sysreg)
{
	return sysreg == SYSREG_SPSR_EL1 || sysreg == SYSREG_ELR_EL1 ||
	       sysreg == SYSREG_SP_EL0 || sysreg == SYSREG_ESR_EL1 ||
	       sysreg == SYSREG_FAR_EL1;
}

/* Hints: nop, yield, wfe, wfi, sev, sevl and the later hint-space
 * instructions (pointer authentication, bti...), by CRm:op2. */
static void decode_hint(uint32_t i, struct a64_insn *out)
{
	uint32_t crm_op2 = bits(i, 11, 5);

	if (crm_op2 == 0)
		emulated(out, A64_EMU_NOP);
	else if (crm_op2 == 2 || crm_op2 == 3)
		refused(out, "wfe/wfi (waits with interrupts masked)");
	else
		out_of_line(out, "hint");
}

/* System instructions: 1101010100 L op0 op1 CRn CRm op2 Rt. */
static void decode_system(uint32_t i, struct a64_insn *out)
{
	uint32_t l = bit(i, 21), op0 = bits(i, 20, 19), op1 = bits(i, 18, 16);
	uint32_t crn = bits(i, 15, 12), op2 = bits(i, 7, 5), rt = a64_rd(i);

	if (op0 == 0 && !l) {
		if (crn == 2 && op1 == 3 && rt == 31)
			decode_hint(i, out);
		else if (crn == 3 && op1 == 3 && rt == 31 && op2 >= 2 && op2 != 3)
			out_of_line(out, "barrier (clrex, dsb, dmb, isb, sb)");
		else if (crn == 4)
			refused(out, "msr (immediate): writes PSTATE (daifset, daifclr, spsel...)");
		else
			unallocated(out);
	} else if (op0 == 0) {
		unallocated(out);
	} else if (op0 == 1) {
		out_of_line(out, l ? "sysl" : "sys (cache and TLB maintenance)");
	} else if (!l) {
		refused(out, "msr (register): writes a system register");
	} else if (bits(i, 20, 5) == SYSREG_DAIF) {
		emulated(out, A64_EMU_MRS_DAIF);
	} else if (clobbered_by_exception(bits(i, 20, 5))) {
		refused(out, "mrs of a register the breakpoint exception overwrites");
	} else {
		out_of_line(out, "mrs");
	}
}

/* Exception generation: svc, hvc, smc, brk, hlt, dcps1-3 (and nothing
 * else) - they all trap on purpose or change exception level. */
static void decode_exception(uint32_t i, struct a64_insn *out)
{
	uint32_t opc = bits(i, 23, 21), op2 = bits(i, 4, 2), ll = bits(i, 1, 0);

	if (op2 != 0)
		unallocated(out);
	else if (opc == 0 && ll != 0)
		refused(out, "svc/hvc/smc (exception generating)");
	else if ((opc == 1 || opc == 2) && ll == 0)
		refused(out, opc == 1 ? "brk (a breakpoint already)" : "hlt (halting debug)");
	else if (opc == 5 && ll != 0)
		refused(out, "dcps (debug state)");
	else
		unallocated(out);
}

/* Unconditional branch (register): 1101011 opc op2 op3 Rn op4. */
static void decode_branch_reg(uint32_t i, struct a64_insn *out)
{
	uint32_t opc = bits(i, 24, 21), op3 = bits(i, 15, 10), op4 = bits(i, 4, 0);

	if (bits(i, 20, 16) != 31) {
		unallocated(out);
		return;
	}
	if (opc <= 2 && op3 == 0 && op4 == 0) {
		static const enum a64_emu kind[] = { A64_EMU_BR, A64_EMU_BLR, A64_EMU_RET };

		emulated(out, kind[opc]);
	} else if (opc <= 2 && (op3 == 2 || op3 == 3)) {
		refused(out, "pointer-authenticated branch");
	} else if (opc == 4 || opc == 5) {
		refused(out, "eret/drps (exception return)");
	} else if ((opc == 8 || opc == 9) && (op3 == 2 || op3 == 3)) {
		refused(out, "pointer-authenticated branch");
	} else {
		unallocated(out);
	}
}

static void decode_branch_sys(uint32_t i, struct a64_insn *out)
{
	if ((i & 0x7c000000) == 0x14000000)		/* B, BL: x00101 imm26 */
		emulated(out, bit(i, 31) ? A64_EMU_BL : A64_EMU_B);
	else if ((i & 0x7e000000) == 0x34000000)	/* CBZ, CBNZ */
		emulated(out, bit(i, 24) ? A64_EMU_CBNZ : A64_EMU_CBZ);
	else if ((i & 0x7e000000) == 0x36000000)	/* TBZ, TBNZ */
		emulated(out, bit(i, 24) ? A64_EMU_TBNZ : A64_EMU_TBZ);
	else if ((i & 0xff000000) == 0x54000000)	/* B.cond (o0=0); BC.cond (o0=1,
							   v8.8) is the same branch */
		emulated(out, A64_EMU_B_COND);
	else if ((i & 0xff000000) == 0xd4000000)
		decode_exception(i, out);
	else if ((i & 0xffc00000) == 0xd5000000)
		decode_system(i, out);
	else if ((i & 0xfe000000) == 0xd6000000)
		decode_branch_reg(i, out);
	else
		unallocated(out);
}

/* ---- Loads and stores (op0 = x1x0) ---- */

/* Load/store exclusive and ordered: size 001000 o2 L o1 Rs o0 Rt2 Rn Rt. */
static void decode_exclusive(uint32_t i, struct a64_insn *out)
{
	uint32_t size = bits(i, 31, 30), o2 = bit(i, 23), o1 = bit(i, 21);

	if (!o2 && (!o1 || size >= 2))
		refused(out, "exclusive load/store (a breakpoint would clear the monitor)");
	else if (o2 && !o1)
		out_of_line(out, "load-acquire/store-release");
	else
		out_of_line(out, "compare and swap");
}

/* The single-register forms (unscaled, pre/post-indexed, unprivileged,
 * register offset, unsigned offset) share size:opc: a 64-bit register
 * cannot be loaded sign-extended, and only 64-bit "loads" to a 64-bit
 * register prefetch (prfm), where the form has a prefetch. */
static bool size_opc_allocated(uint32_t i, bool has_prefetch)
{
	uint32_t size = bits(i, 31, 30), opc = bits(i, 23, 22);

	if (size == 3 && opc == 2)
		return has_prefetch;
	if (size == 3 && opc == 3)
		return false;
	return !(size == 2 && opc == 3);
}

/*
 * Stores through sp that a function's prologue makes (stp x29, x30, [sp,
 * #-N]!, str x19, [sp, #N]...) are emulated: with sp as the base their
 * address is known to be the stack's, and they cannot fault where the
 * stack was good. Stores through any other base register, and the byte,
 * halfword, unscaled and register-offset forms, run out of line.
 *
 * stp/stp w (opc 10/00, L=0) post-indexed, signed offset or pre-indexed
 * (op2 01, 10, 11: not the no-allocate stnp); the caller checked that
 * bits 29:28 are 10 and V (bit 26) is 0.
 */
static bool is_stp_through_sp(uint32_t i)
{
	return a64_rn(i) == 31 && !bit(i, 22) && bits(i, 24, 23) != 0 && !bit(i, 30);
}

/* str xt/wt (size 11/10, V=0, opc=00) with an unsigned offset, or
 * post-/pre-indexed (op4 01/11); the caller checked bits 29:28 are 11. */
static bool is_str_through_sp(uint32_t i)
{
	if (a64_rn(i) != 31 || bits(i, 31, 30) < 2 || bit(i, 26) || bits(i, 23, 22) != 0)
		return false;
	if (bit(i, 24))		/* unsigned offset */
		return true;
	return !bit(i, 21) && bit(i, 10);	/* imm9 with op4 = x1 */
}

static void decode_load_store(uint32_t i, struct a64_insn *out)
{
	uint32_t op2 = bits(i, 24, 23), op4 = bits(i, 11, 10);

	if (bit(i, 26)) {
		refused(out, "floating-point/SIMD load/store (FP is off in the kernel)");
		return;
	}
	if (bits(i, 31, 24) == 0xd9 && bit(i, 21)) {
		out_of_line(out, "load/store memory tags");
		return;
	}
	switch (bits(i, 29, 28)) {
	case 0:
		if (bits(i, 29, 24) == 0x08)
			decode_exclusive(i, out);
		else
			unallocated(out);
		return;
	case 1:
		if (op2 < 2) {
			static const enum a64_emu kind[] = {
				A64_EMU_LDR_LIT_W, A64_EMU_LDR_LIT_X, A64_EMU_LDRSW_LIT,
				A64_EMU_PRFM_LIT,
			};

			emulated(out, kind[bits(i, 31, 30)]);
		} else if (!bit(i, 21) && op4 == 0) {
			out_of_line(out, "load-acquire/store-release (unscaled)");
		} else {
			unallocated(out);
		}
		return;
	case 2:	/* pairs: opc=11 is free; ldpsw has no no-allocate form */
		if (bits(i, 31, 30) == 3 || (bits(i, 31, 30) == 1 && op2 == 0))
			unallocated(out);
		else if (is_stp_through_sp(i))
			emulated(out, A64_EMU_STP_SP);
		else
			out_of_line(out, "load/store pair");
		return;
	default:
		break;
	}
	/* Single register. */
	if (is_str_through_sp(i)) {
		emulated(out, A64_EMU_STR_SP);
	} else if (op2 >= 2) {
		if (size_opc_allocated(i, true))
			out_of_line(out, "load/store (unsigned offset)");
		else
			unallocated(out);
	} else if (!bit(i, 21)) {
		/* op4: 00 unscaled (prfum), 01 post-indexed, 10 unprivileged,
		 * 11 pre-indexed */
		if (size_opc_allocated(i, op4 == 0))
			out_of_line(out, "load/store (immediate)");
		else
			unallocated(out);
	} else if (op4 == 0) {
		out_of_line(out, "atomic memory operation");
	} else if (op4 == 2) {
		/* register offset: option<1> must be set */
		if (bit(i, 14) && size_opc_allocated(i, true))
			out_of_line(out, "load/store (register offset)");
		else
			unallocated(out);
	} else {
		out_of_line(out, "load (pointer authenticated)");
	}
}

/* ---- Data processing, register (op0 = x101) ---- */

static void decode_dp_3source(uint32_t i, struct a64_insn *out)
{
	uint32_t sf = bit(i, 31), op31 = bits(i, 23, 21), o0 = bit(i, 15);

	if (bits(i, 30, 29) != 0)
		unallocated(out);
	else if (op31 == 0)
		out_of_line(out, "multiply-add");
	else if ((op31 == 1 || op31 == 5) && sf)
		out_of_line(out, "multiply-add long");
	else if ((op31 == 2 || op31 == 6) && sf && !o0)
		out_of_line(out, "multiply high");
	else
		unallocated(out);
}

static void decode_dp_source(uint32_t i, struct a64_insn *out)
{
	uint32_t opcode = bits(i, 15, 10);

	if (bit(i, 30)) {	/* one source: rbit, rev*, clz, cls, pac* */
		if (!bit(i, 29) && bits(i, 20, 17) == 0 && (bit(i, 16) || opcode <= 5))
			out_of_line(out, "data processing (1 source)");
		else
			unallocated(out);
		return;
	}
	/* Two sources: udiv, sdiv, shifts, crc32, and the tagging/pac ones. */
	if (!bit(i, 29) && (opcode == 2 || opcode == 3 || (opcode >= 8 && opcode <= 12) ||
			    (opcode >= 16 && opcode <= 23) || opcode == 0 || opcode == 4 ||
			    opcode == 5))
		out_of_line(out, "data processing (2 sources)");
	else
		unallocated(out);
}

static void decode_dp_reg(uint32_t i, struct a64_insn *out)
{
	uint32_t sf = bit(i, 31), op2 = bits(i, 24, 21);

	if (!bit(i, 28)) {
		if (!(op2 & 8)) {		/* logical (shifted register) */
			if (!sf && bit(i, 15))
				unallocated(out);
			else
				out_of_line(out, "logical (shifted register)");
		} else if (!(op2 & 1)) {	/* add/sub (shifted register) */
			if (bits(i, 23, 22) == 3 || (!sf && bit(i, 15)))
				unallocated(out);
			else
				out_of_line(out, "add/sub (shifted register)");
		} else {			/* add/sub (extended register) */
			if (bits(i, 23, 22) != 0 || bits(i, 12, 10) > 4)
				unallocated(out);
			else
				out_of_line(out, "add/sub (extended register)");
		}
		return;
	}
	if (op2 & 8) {
		decode_dp_3source(i, out);
		return;
	}
	switch (op2) {
	case 0:		/* add/sub with carry, and the v8.4 flag operations */
		out_of_line(out, "add/sub with carry");
		return;
	case 2:		/* conditional compare: S=1, o2=0, o3=0 */
		if (bit(i, 29) && !bit(i, 10) && !bit(i, 4))
			out_of_line(out, "conditional compare");
		else
			unallocated(out);
		return;
	case 4:		/* conditional select: S=0, op2<1>=0 */
		if (!bit(i, 29) && !bit(i, 11))
			out_of_line(out, "conditional select");
		else
			unallocated(out);
		return;
	case 6:
		decode_dp_source(i, out);
		return;
	default:
		unallocated(out);
		return;
	}
}

void a64_decode(uint32_t raw, struct a64_insn *out)
{
	out->raw = raw;
	switch (bits(raw, 28, 25)) {
	case 0x0:
		set(out, A64_UNALLOCATED, A64_EMU_NONE, "udf / reserved");
		break;
	case 0x2:
		refused(out, "SVE (not on this CPU, and FP is off)");
		break;
	case 0x1: case 0x3:
		unallocated(out);
		break;
	case 0x8: case 0x9:
		decode_dp_imm(raw, out);
		break;
	case 0xa: case 0xb:
		decode_branch_sys(raw, out);
		break;
	case 0x5: case 0xd:
		decode_dp_reg(raw, out);
		break;
	case 0x7: case 0xf:
		refused(out, "floating-point/SIMD (FP is off in the kernel)");
		break;
	default:	/* x1x0 */
		decode_load_store(raw, out);
		break;
	}
}

const char *a64_class_name(enum a64_class cls)
{
	static const char *const names[] = {
		"unallocated", "refused", "emulated", "out of line",
	};

	return cls <= A64_OUT_OF_LINE ? names[cls] : "?";
}

const char *a64_emu_name(enum a64_emu emu)
{
	static const char *const names[A64_EMU_COUNT] = {
		"-", "nop", "prfm (literal)", "mov xd, sp", "mrs daif", "adr", "adrp",
		"b", "bl", "b.cond", "cbz", "cbnz", "tbz", "tbnz", "ldr wt (literal)",
		"ldr xt (literal)", "ldrsw (literal)", "br", "blr", "ret",
		"add (immediate)", "sub (immediate)", "stp through sp", "str through sp",
	};

	return emu < A64_EMU_COUNT ? names[emu] : "?";
}

uint64_t notrace a64_pcrel_target(const struct a64_insn *in, uint64_t pc)
{
	uint32_t i = in->raw;
	int64_t adr = sign_extend((bits(i, 23, 5) << 2) | bits(i, 30, 29), 21);

	switch (in->emu) {
	case A64_EMU_ADR:
		return pc + adr;
	case A64_EMU_ADRP:
		return (pc & ~0xfffULL) + (uint64_t)adr * 4096;
	case A64_EMU_B:
	case A64_EMU_BL:
		return pc + sign_extend(bits(i, 25, 0), 26) * 4;
	case A64_EMU_TBZ:
	case A64_EMU_TBNZ:
		return pc + sign_extend(bits(i, 18, 5), 14) * 4;
	default:	/* b.cond, cbz/cbnz, ldr (literal): imm19 */
		return pc + sign_extend(bits(i, 23, 5), 19) * 4;
	}
}

bool notrace a64_condition_holds(unsigned int cond, uint64_t pstate)
{
	bool n = pstate >> 31 & 1, z = pstate >> 30 & 1;
	bool c = pstate >> 29 & 1, v = pstate >> 28 & 1;
	bool result;

	switch (cond >> 1) {
	case 0: result = z; break;		/* eq */
	case 1: result = c; break;		/* cs/hs */
	case 2: result = n; break;		/* mi */
	case 3: result = v; break;		/* vs */
	case 4: result = c && !z; break;	/* hi */
	case 5: result = n == v; break;		/* ge */
	case 6: result = n == v && !z; break;	/* gt */
	default: return true;			/* al, and nv which is al too */
	}
	return (cond & 1) ? !result : result;	/* odd codes are the negations */
}

bool notrace a64_branch_taken(const struct a64_insn *in, uint64_t pstate, uint64_t rt_value)
{
	uint32_t i = in->raw;
	uint64_t value = bit(i, 31) ? rt_value : (uint32_t)rt_value;	/* sf */
	unsigned int test_bit = (bit(i, 31) << 5) | bits(i, 23, 19);	/* b5:b40 */

	switch (in->emu) {
	case A64_EMU_B_COND:
		return a64_condition_holds(bits(i, 3, 0), pstate);
	case A64_EMU_CBZ:
		return value == 0;
	case A64_EMU_CBNZ:
		return value != 0;
	case A64_EMU_TBZ:
		return !(rt_value >> test_bit & 1);
	case A64_EMU_TBNZ:
		return rt_value >> test_bit & 1;
	default:
		return true;
	}
}

uint64_t notrace a64_add_sub_imm_result(const struct a64_insn *in, uint64_t rn_value)
{
	uint32_t i = in->raw;
	uint64_t imm = (uint64_t)bits(i, 21, 10) << (bit(i, 22) ? 12 : 0);
	uint64_t result = in->emu == A64_EMU_SUB_IMM ? rn_value - imm : rn_value + imm;

	return bit(i, 31) ? result : (uint32_t)result;
}

void a64_decode_sp_store(const struct a64_insn *in, struct a64_sp_store *out)
{
	uint32_t i = in->raw;
	bool pre_or_offset;
	int64_t imm;

	out->rt = a64_rd(i);
	if (in->emu == A64_EMU_STP_SP) {
		out->size = bit(i, 31) ? 8 : 4;
		out->count = 2;
		out->rt2 = bits(i, 14, 10);
		imm = sign_extend(bits(i, 21, 15), 7) * out->size;
		pre_or_offset = bits(i, 24, 23) != 1;
		out->sp_change = (int16_t)(bits(i, 24, 23) == 2 ? 0 : imm);
	} else {
		out->size = bit(i, 30) ? 8 : 4;
		out->count = 1;
		out->rt2 = out->rt;
		if (bit(i, 24)) {	/* unsigned offset, scaled */
			imm = (int64_t)bits(i, 21, 10) * out->size;
			pre_or_offset = true;
			out->sp_change = 0;
		} else {		/* imm9, pre (11) or post (01) */
			imm = sign_extend(bits(i, 20, 12), 9);
			pre_or_offset = bit(i, 11);
			out->sp_change = (int16_t)imm;
		}
	}
	/* Post-indexed: stores at sp, then moves it. */
	out->offset = (int16_t)(pre_or_offset ? imm : 0);	/* |imm| < 32 KiB */
}

bool a64_b_reaches(uint64_t from, uint64_t to)
{
	int64_t offset = (int64_t)(to - from);

	return offset >= -(1LL << 27) && offset < (1LL << 27) && (offset & 3) == 0;
}

uint32_t a64_encode_b(uint64_t from, uint64_t to)
{
	return 0x14000000 | (((uint32_t)((to - from) >> 2)) & 0x03ffffff);
}

uint32_t a64_encode_brk(uint16_t imm)
{
	return 0xd4200000 | ((uint32_t)imm << 5);
}

bool notrace a64_is_brk(uint32_t raw)
{
	return (raw & 0xffe0001f) == 0xd4200000;
}

/* Exclusive register and pair forms: size 001000 o2=0 L o1 ..., with
 * o1=1 meaning a pair only for 32- and 64-bit sizes (else casp). */
static bool is_exclusive(uint32_t raw)
{
	return bits(raw, 29, 24) == 0x08 && !bit(raw, 23) &&
	       (!bit(raw, 21) || bits(raw, 31, 30) >= 2);
}

bool a64_is_load_exclusive(uint32_t raw)
{
	return is_exclusive(raw) && bit(raw, 22);
}

bool a64_is_store_exclusive(uint32_t raw)
{
	return is_exclusive(raw) && !bit(raw, 22);
}
