/*
 * An x86_64 instruction decoder, for 64-bit mode.
 *
 * An x86 instruction is a sequence of 1 to 15 bytes, made of these parts,
 * all optional but the opcode:
 *
 *	prefixes  REX  opcode  ModRM  SIB  displacement  immediate
 *	0-14      0-1  1-3     0-1    0-1  0, 1 or 4     0, 1, 2, 4 or 8
 *
 * Prefixes: legacy prefixes change how the instruction runs: operand size
 *	(66: 16-bit instead of 32-bit operands), address size (67), segment
 *	(64 fs, 65 gs; cs/ss/ds/es are ignored in 64-bit mode), lock (f0)
 *	and repeat (f2, f3). SSE instructions reuse 66/f2/f3 as part of the
 *	opcode ("mandatory prefixes"). Any number may appear in any order.
 *
 * REX (40-4f): the 64-bit extension, which must come right before the
 *	opcode. Its low four bits are W (64-bit operand size), R, X and B
 *	(a fourth bit for the register numbers in ModRM and SIB, so that
 *	r8-r15 can be named).
 *
 * Opcode: one byte, or an escape byte 0f followed by one byte (the "0f
 *	map"), or 0f 38 / 0f 3a followed by one byte. The opcode tells
 *	whether a ModRM byte and an immediate follow.
 *
 * ModRM: mod (2 bits) | reg (3 bits) | rm (3 bits). reg names a register
 *	operand, or for "group" opcodes extends the opcode (written /0../7).
 *	mod=11 makes rm a register too; otherwise rm picks a memory form,
 *	which may need a SIB byte (scale, index, base) and a displacement.
 *
 * Immediate: a constant operand, or a branch offset.
 *
 * VEX (c4, c5), EVEX (62) and XOP (8f) replace the prefixes, REX and the
 *	escape bytes of the SSE/AVX instructions with one packed prefix of
 *	2 to 4 bytes; a ModRM byte always follows the opcode.
 *
 * The length of an instruction therefore depends only on its prefixes,
 * its opcode, ModRM and SIB: the tables below record, for every opcode,
 * whether ModRM follows and which immediate; a few "group" opcodes also
 * depend on ModRM.reg or on a prefix, and are refined in code.
 *
 * The decoder checks what the length and the meaning of an instruction
 * depend on and rejects opcodes that do not exist in 64-bit mode. It does
 * not check every rule that makes a CPU raise #UD (a lock prefix on an
 * add to a register, an undefined x87 or VEX opcode...): those cost
 * nothing to the kprobes layer, as the instruction faults out of line
 * just as it would in place.
 */
#include "arch/x86_64/insn.h"
#include "lib/errno.h"
#include "lib/string.h"

/* ---- Reading bytes, never past the end ---- */

struct reader {
	const uint8_t *code;
	size_t len;		/* bytes we may read: min(max_len, 15) */
	size_t pos;		/* next byte to read */
};

static bool peek_byte(const struct reader *r, uint8_t *b)
{
	if (r->pos >= r->len)
		return false;
	*b = r->code[r->pos];
	return true;
}

static bool take_byte(struct reader *r, uint8_t *b)
{
	if (!peek_byte(r, b))
		return false;
	r->pos++;
	return true;
}

/* A little-endian value of size bytes (1, 2, 4 or 8), sign-extended. */
static bool take_signed(struct reader *r, unsigned int size, int64_t *out)
{
	uint64_t v = 0;

	if (r->len - r->pos < size)
		return false;
	for (unsigned int i = 0; i < size; i++)
		v |= (uint64_t)r->code[r->pos + i] << (8 * i);
	r->pos += size;
	if (size < 8 && (v >> (8 * size - 1)) & 1)
		v |= ~(uint64_t)0 << (8 * size);
	*out = (int64_t)v;
	return true;
}

/* ---- Opcode attribute tables ---- */

/*
 * The immediate an opcode takes. Sizes that depend on the operand size
 * are 2 bytes with a 66 prefix, 4 without, and REX.W (64-bit operands)
 * overrides 66. 64-bit immediates are rare: only mov reg, imm64 has one.
 */
enum imm_kind {
	IMM_NONE,
	IMM_B,		/* Ib: 1 byte */
	IMM_W,		/* Iw: 2 bytes (ret iw) */
	IMM_Z,		/* Iz: 2 or 4 bytes by operand size; 4 with REX.W
			   (sign-extended to 64 bits) */
	IMM_V,		/* Iv: 2, 4 or 8 bytes by operand size (b8+r) */
	IMM_D,		/* Id: always 4 bytes (XOP map 10) */
	IMM_MOFFS,	/* a0-a3: an absolute address, 8 bytes, 4 with 67 */
	IMM_WB,		/* enter: Iw then Ib */
};

#define IMM_MASK	0x07
#define MODRM		0x08	/* a ModRM byte follows the opcode */
#define REL		0x10	/* the immediate is a branch displacement */
#define GROUP		0x20	/* ModRM.reg or a prefix refines it: refine() */
#define VALID		0x40	/* the opcode exists in 64-bit mode */

/* Two-letter names, so that a table row lines up as 16 columns. */
#define __ 0				/* invalid in 64-bit mode */
#define PF 0				/* prefix: consumed before the table */
#define ES 0				/* escape to another map or VEX/EVEX */
#define X_ (VALID)			/* nothing follows the opcode */
#define M_ (VALID | MODRM)		/* ModRM */
#define MG (VALID | MODRM | GROUP)	/* ModRM, refined by ModRM.reg */
#define MB (VALID | MODRM | IMM_B)	/* ModRM, imm8 */
#define MZ (VALID | MODRM | IMM_Z)	/* ModRM, imm16/32 */
#define GB (VALID | MODRM | GROUP | IMM_B)
#define GZ (VALID | MODRM | GROUP | IMM_Z)
#define B_ (VALID | IMM_B)		/* imm8 */
#define W_ (VALID | IMM_W)		/* imm16 */
#define Z_ (VALID | IMM_Z)		/* imm16/32 */
#define V_ (VALID | IMM_V)		/* imm16/32/64 */
#define O_ (VALID | IMM_MOFFS)		/* moffs: absolute address */
#define WB (VALID | IMM_WB)		/* imm16, imm8 */
#define JB (VALID | REL | IMM_B)	/* rel8 */
#define JZ (VALID | REL | IMM_Z)	/* rel32 */

/*
 * The one-byte map. Row n is opcodes n0-nf. The gaps (__) are 32-bit
 * instructions that 64-bit mode dropped: push/pop of es/cs/ss/ds, the
 * BCD instructions (daa, aaa, aam...), pusha/popa, bound (62 became
 * EVEX), far call/jmp with an immediate pointer, into, salc and 82, an
 * alias of 80.
 */
static const uint8_t map0[256] = {
/*	 0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f */
/* 0 */	M_,M_,M_,M_,B_,Z_,__,__,M_,M_,M_,M_,B_,Z_,__,ES, /* add or */
/* 1 */	M_,M_,M_,M_,B_,Z_,__,__,M_,M_,M_,M_,B_,Z_,__,__, /* adc sbb */
/* 2 */	M_,M_,M_,M_,B_,Z_,PF,__,M_,M_,M_,M_,B_,Z_,PF,__, /* and sub */
/* 3 */	M_,M_,M_,M_,B_,Z_,PF,__,M_,M_,M_,M_,B_,Z_,PF,__, /* xor cmp */
/* 4 */	PF,PF,PF,PF,PF,PF,PF,PF,PF,PF,PF,PF,PF,PF,PF,PF, /* REX */
/* 5 */	X_,X_,X_,X_,X_,X_,X_,X_,X_,X_,X_,X_,X_,X_,X_,X_, /* push pop */
/* 6 */	__,__,ES,M_,PF,PF,PF,PF,Z_,MZ,B_,MB,X_,X_,X_,X_, /* imul ins outs */
/* 7 */	JB,JB,JB,JB,JB,JB,JB,JB,JB,JB,JB,JB,JB,JB,JB,JB, /* jcc rel8 */
/* 8 */	MB,MZ,__,MB,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_, /* alu test mov */
/* 9 */	X_,X_,X_,X_,X_,X_,X_,X_,X_,X_,__,X_,X_,X_,X_,X_, /* xchg pushf */
/* a */	O_,O_,O_,O_,X_,X_,X_,X_,B_,Z_,X_,X_,X_,X_,X_,X_, /* movabs string */
/* b */	B_,B_,B_,B_,B_,B_,B_,B_,V_,V_,V_,V_,V_,V_,V_,V_, /* mov reg, imm */
/* c */	MB,MB,W_,X_,ES,ES,GB,GZ,WB,X_,W_,X_,X_,B_,__,X_, /* shift ret int */
/* d */	M_,M_,M_,M_,__,__,__,X_,M_,M_,M_,M_,M_,M_,M_,M_, /* shift x87 */
/* e */	JB,JB,JB,JB,B_,B_,B_,B_,JZ,JZ,__,JB,X_,X_,X_,X_, /* loop in out */
/* f */	PF,X_,PF,PF,X_,X_,MG,MG,X_,X_,X_,X_,X_,X_,MG,MG, /* grp3 grp4/5 */
};

/*
 * The 0f ("two-byte") map: system instructions in rows 0-3, then cmov,
 * SSE and MMX, jcc rel32, setcc, and the bit instructions. 0f 0f is
 * 3DNow!: its real opcode is the imm8 that ends the instruction. 0f a6
 * and 0f a7 are VIA's PadLock crypto instructions (ModRM picks which).
 */
static const uint8_t map1[256] = {
/*	 0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f */
/* 0 */	MG,M_,M_,M_,__,X_,X_,X_,X_,X_,__,X_,__,M_,X_,MB, /* syscall ud2 */
/* 1 */	M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_, /* sse, nop Ev */
/* 2 */	MG,MG,MG,MG,__,__,__,__,M_,M_,M_,M_,M_,M_,M_,M_, /* mov cr/dr */
/* 3 */	X_,X_,X_,X_,X_,X_,__,X_,ES,__,ES,__,__,__,__,__, /* wrmsr rdtsc */
/* 4 */	M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_, /* cmovcc */
/* 5 */	M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_, /* sse */
/* 6 */	M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_, /* mmx sse2 */
/* 7 */	MB,MB,MB,MB,M_,M_,M_,X_,MG,M_,__,__,M_,M_,M_,M_, /* pshuf emms */
/* 8 */	JZ,JZ,JZ,JZ,JZ,JZ,JZ,JZ,JZ,JZ,JZ,JZ,JZ,JZ,JZ,JZ, /* jcc rel32 */
/* 9 */	M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_, /* setcc */
/* a */	X_,X_,X_,M_,MB,M_,M_,M_,X_,X_,X_,M_,MB,M_,M_,M_, /* cpuid bt shld */
/* b */	M_,M_,M_,M_,M_,M_,M_,M_,MG,M_,GB,M_,M_,M_,M_,M_, /* cmpxchg movzx */
/* c */	M_,M_,MB,M_,MB,MB,MB,M_,X_,X_,X_,X_,X_,X_,X_,X_, /* xadd bswap */
/* d */	M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_, /* mmx sse2 */
/* e */	M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,
/* f */	M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_, /* ... ud0 */
};

/*
 * The 0f 38 map: every opcode takes a ModRM and no immediate. Only the
 * opcodes that exist without VEX are valid here: SSSE3/SSE4 (00-41),
 * invept/invvpid/invpcid (80-82), SHA, GFNI, AES, Key Locker (c8-df),
 * movbe, crc32, adcx/adox, wrss, movdiri, movdir64b, enqcmd (f0-fc).
 */
static const uint8_t map2[256] = {
/*	 0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f */
/* 0 */	M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,M_,__,__,__,__,
/* 1 */	M_,__,__,__,M_,M_,__,M_,__,__,__,__,M_,M_,M_,__,
/* 2 */	M_,M_,M_,M_,M_,M_,__,__,M_,M_,M_,M_,__,__,__,__,
/* 3 */	M_,M_,M_,M_,M_,M_,__,M_,M_,M_,M_,M_,M_,M_,M_,M_,
/* 4 */	M_,M_,__,__,__,__,__,__,__,__,__,__,__,__,__,__,
/* 5 */	__,__,__,__,__,__,__,__,__,__,__,__,__,__,__,__,
/* 6 */	__,__,__,__,__,__,__,__,__,__,__,__,__,__,__,__,
/* 7 */	__,__,__,__,__,__,__,__,__,__,__,__,__,__,__,__,
/* 8 */	M_,M_,M_,__,__,__,__,__,__,__,__,__,__,__,__,__,
/* 9 */	__,__,__,__,__,__,__,__,__,__,__,__,__,__,__,__,
/* a */	__,__,__,__,__,__,__,__,__,__,__,__,__,__,__,__,
/* b */	__,__,__,__,__,__,__,__,__,__,__,__,__,__,__,__,
/* c */	__,__,__,__,__,__,__,__,M_,M_,M_,M_,M_,M_,__,M_,
/* d */	__,__,__,__,__,__,__,__,M_,__,__,M_,M_,M_,M_,M_,
/* e */	__,__,__,__,__,__,__,__,__,__,__,__,__,__,__,__,
/* f */	M_,M_,__,__,__,M_,M_,__,M_,M_,M_,M_,M_,__,__,__,
};

/*
 * The 0f 3a map: every opcode takes a ModRM and an imm8. Valid without
 * VEX: SSE4 blends, rounds, inserts and extracts (08-22), dpps, mpsadbw,
 * pclmulqdq (40-44), string compares (60-63), sha1rnds4, GFNI (cc-cf),
 * aeskeygenassist (df) and hreset (f0).
 */
static const uint8_t map3[256] = {
/*	 0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f */
/* 0 */	__,__,__,__,__,__,__,__,MB,MB,MB,MB,MB,MB,MB,MB,
/* 1 */	__,__,__,__,MB,MB,MB,MB,__,__,__,__,__,__,__,__,
/* 2 */	MB,MB,MB,__,__,__,__,__,__,__,__,__,__,__,__,__,
/* 3 */	__,__,__,__,__,__,__,__,__,__,__,__,__,__,__,__,
/* 4 */	MB,MB,MB,__,MB,__,__,__,__,__,__,__,__,__,__,__,
/* 5 */	__,__,__,__,__,__,__,__,__,__,__,__,__,__,__,__,
/* 6 */	MB,MB,MB,MB,__,__,__,__,__,__,__,__,__,__,__,__,
/* 7 */	__,__,__,__,__,__,__,__,__,__,__,__,__,__,__,__,
/* 8 */	__,__,__,__,__,__,__,__,__,__,__,__,__,__,__,__,
/* 9 */	__,__,__,__,__,__,__,__,__,__,__,__,__,__,__,__,
/* a */	__,__,__,__,__,__,__,__,__,__,__,__,__,__,__,__,
/* b */	__,__,__,__,__,__,__,__,__,__,__,__,__,__,__,__,
/* c */	__,__,__,__,__,__,__,__,__,__,__,__,MB,__,MB,MB,
/* d */	__,__,__,__,__,__,__,__,__,__,__,__,__,__,__,MB,
/* e */	__,__,__,__,__,__,__,__,__,__,__,__,__,__,__,__,
/* f */	MB,__,__,__,__,__,__,__,__,__,__,__,__,__,__,__,
};

static const uint8_t *const legacy_maps[4] = { map0, map1, map2, map3 };

/*
 * VEX, EVEX and XOP instructions always have a ModRM; their immediates
 * follow the map, with a few exceptions in map 1 that are kept from the
 * SSE forms (pshufd, the shift-by-immediate groups, cmpps, pinsrw,
 * pextrw, shufps). Undefined opcodes are not told apart from defined ones.
 */
static uint8_t vex_attr(unsigned int map, uint8_t op)
{
	switch (map) {
	case 1:
		if (op == 0x77)		/* vzeroupper, vzeroall */
			return X_;
		if ((op >= 0x70 && op <= 0x73) || op == 0xc2 ||
		    (op >= 0xc4 && op <= 0xc6))
			return MB;
		return M_;
	case 2:			/* 0f 38 */
	case 5:			/* EVEX only (AVX512-FP16) */
	case 6:
	case 9:			/* XOP */
		return M_;
	case 3:			/* 0f 3a */
	case 8:			/* XOP */
		return MB;
	case 10:		/* XOP: bextr, lwpins, lwpval take an imm32 */
		return VALID | MODRM | IMM_D;
	default:
		return __;
	}
}

/* ---- Prefixes ---- */

#define REX_W 0x08

/* The group of a legacy prefix byte, or -1 if b is not one. */
static int prefix_group(uint8_t b)
{
	switch (b) {
	case 0xf0: case 0xf2: case 0xf3:
		return INSN_PFX_LOCK_REP;
	case 0x2e: case 0x36: case 0x3e: case 0x26: case 0x64: case 0x65:
		return INSN_PFX_SEGMENT;
	case 0x66:
		return INSN_PFX_OPSIZE;
	case 0x67:
		return INSN_PFX_ADDRSIZE;
	default:
		return -1;
	}
}

/*
 * Legacy prefixes and REX. A REX prefix only counts when the opcode (or
 * an escape) comes right after it: a CPU ignores a REX followed by
 * another prefix, and so do we.
 */
static void decode_prefixes(struct insn *insn, struct reader *r)
{
	uint8_t b;
	int group;

	while (peek_byte(r, &b)) {
		group = prefix_group(b);
		if (group >= 0) {
			insn->prefixes[group] = b;
			if (b == 0xf0)
				insn->lock = true;
			else if (group == INSN_PFX_LOCK_REP)
				insn->rep = b;
			insn->nprefixes++;
			insn->rex = 0;
		} else if ((b & 0xf0) == 0x40) {
			insn->rex = b;
		} else {
			return;
		}
		r->pos++;
	}
}

static bool opsize16(const struct insn *insn)
{
	return insn->prefixes[INSN_PFX_OPSIZE] && !(insn->rex & REX_W);
}

/* ---- Opcode ---- */

/*
 * VEX (c4 = 3-byte form, c5 = 2-byte form), EVEX (62, 4 bytes) and XOP
 * (8f, 3 bytes). Their bits hold REX.RXBW (inverted), the implied 66/f2/f3
 * prefix (pp), the vector length and an extra register operand (vvvv);
 * what matters for the length is only the map, which names the escape
 * bytes the prefix replaces:
 *
 *	c5 [R vvvv L pp]                          map 1 (0f) implied
 *	c4 [R X B m-mmmm] [W vvvv L pp]           map 1, 2 (0f 38), 3 (0f 3a)
 *	62 [R X B R' 0 mmm] [W vvvv 1 pp] [z L'L b V' aaa]   maps 1-3, 5, 6
 *	8f [R X B m-mmmm] [W vvvv L pp]           maps 8, 9, 10 (AMD XOP)
 *
 * In 64-bit mode, c4, c5 and 62 are always these prefixes (the les, lds
 * and bound they were in 32-bit mode are gone). 8f is also pop r/m, whose
 * ModRM.reg is 0; XOP maps are >= 8, so the byte after an XOP 8f has a
 * nonzero reg field, and that tells the two apart.
 *
 * A VEX-like prefix after 66, f2, f3, f0 or REX raises #UD.
 */
static int decode_vex(struct insn *insn, struct reader *r, uint8_t first)
{
	uint8_t p[3];
	unsigned int n = first == 0xc5 ? 1 : first == 0x62 ? 3 : 2;

	if (insn->rex || insn->prefixes[INSN_PFX_OPSIZE] ||
	    insn->prefixes[INSN_PFX_LOCK_REP])
		return -EILSEQ;
	for (unsigned int i = 0; i < n; i++)
		if (!take_byte(r, &p[i]))
			return -EILSEQ;

	insn->vex = true;
	insn->vex_len = n + 1;
	switch (first) {
	case 0xc5:
		insn->map = 1;
		break;
	case 0xc4:
		insn->map = p[0] & 0x1f;
		if (insn->map < 1 || insn->map > 3)
			return -EILSEQ;
		break;
	case 0x62:
		insn->map = p[0] & 0x07;
		/* Fixed bits: P0 bit 3 is 0, P1 bit 2 is 1. */
		if ((p[0] & 0x08) || !(p[1] & 0x04))
			return -EILSEQ;
		if (insn->map == 0 || insn->map == 4 || insn->map == 7)
			return -EILSEQ;
		break;
	default:		/* 0x8f */
		insn->map = p[0] & 0x1f;
		if (insn->map < 8 || insn->map > 10)
			return -EILSEQ;
		break;
	}
	return 0;
}

/*
 * Read the opcode, following the escapes: 0f selects map 1, 0f 38 map 2,
 * 0f 3a map 3; a VEX-like prefix selects its map and the opcode byte
 * follows it. Sets *attr to the opcode's table entry.
 */
static int decode_opcode(struct insn *insn, struct reader *r, uint8_t *attr)
{
	uint8_t b, next;
	int err;

	if (!take_byte(r, &b))
		return -EILSEQ;
	if (b == 0xc4 || b == 0xc5 || b == 0x62 ||
	    (b == 0x8f && peek_byte(r, &next) && (next & 0x38))) {
		err = decode_vex(insn, r, b);
		if (err)
			return err;
		if (!take_byte(r, &b))
			return -EILSEQ;
		insn->opcode[0] = b;
		insn->opcode_len = 1;
		*attr = vex_attr(insn->map, b);
		return 0;
	}

	insn->opcode[insn->opcode_len++] = b;
	if (b == 0x0f) {
		if (!take_byte(r, &b))
			return -EILSEQ;
		insn->opcode[insn->opcode_len++] = b;
		insn->map = 1;
		if (b == 0x38 || b == 0x3a) {
			insn->map = b == 0x38 ? 2 : 3;
			if (!take_byte(r, &b))
				return -EILSEQ;
			insn->opcode[insn->opcode_len++] = b;
		}
	}
	*attr = legacy_maps[insn->map][b];
	return 0;
}

/* The last opcode byte: the one the tables are indexed by. */
static uint8_t opcode_byte(const struct insn *insn)
{
	return insn->opcode[insn->opcode_len - 1];
}

static bool is_legacy(const struct insn *insn, unsigned int map, uint8_t op)
{
	return !insn->vex && insn->map == map && opcode_byte(insn) == op;
}

static unsigned int modrm_mod(const struct insn *insn)
{
	return insn->modrm >> 6;
}

static unsigned int modrm_reg(const struct insn *insn)
{
	return (insn->modrm >> 3) & 7;
}

/* ---- ModRM, SIB and displacement ---- */

/*
 * The memory forms of ModRM in 64-bit mode (67 makes the addresses 32-bit
 * but keeps this format; the 16-bit forms do not exist in 64-bit mode):
 *
 *	mod=00  [reg]		rm=100: SIB follows; rm=101: [rip + disp32]
 *	mod=01  [reg + disp8]	rm=100: SIB follows
 *	mod=10  [reg + disp32]	rm=100: SIB follows
 *	mod=11  a register, no memory operand
 *
 * SIB is scale (2 bits) | index (3) | base (3): base + index * scale.
 * With mod=00, base=101 means "no base, disp32" instead of rbp/r13.
 * REX.B does not change these special cases: r12 as a base always needs a
 * SIB and r13 always a displacement, as rsp and rbp do.
 *
 * rip-relative addressing is what makes out-of-line execution delicate:
 * the displacement counts from the end of the instruction, so a copy
 * placed elsewhere must have it adjusted.
 */
static int decode_modrm(struct insn *insn, struct reader *r)
{
	unsigned int mod, rm;
	int64_t disp;

	if (!take_byte(r, &insn->modrm))
		return -EILSEQ;
	insn->has_modrm = true;

	/*
	 * mov to and from control and debug registers (0f 20-23) always
	 * take a register: the CPU ignores mod and treats it as 11.
	 */
	if (!insn->vex && insn->map == 1 && (opcode_byte(insn) & 0xfc) == 0x20)
		return 0;

	mod = modrm_mod(insn);
	rm = insn->modrm & 7;
	if (mod == 3)
		return 0;
	if (rm == 4) {
		if (!take_byte(r, &insn->sib))
			return -EILSEQ;
		insn->has_sib = true;
		if (mod == 0 && (insn->sib & 7) == 5)
			insn->disp_size = 4;
	} else if (mod == 0 && rm == 5) {
		insn->rip_relative = true;
		insn->disp_size = 4;
	}
	if (mod == 1)
		insn->disp_size = 1;	/* EVEX scales it by N; same length */
	else if (mod == 2)
		insn->disp_size = 4;

	if (insn->disp_size) {
		insn->disp_offset = r->pos;
		if (!take_signed(r, insn->disp_size, &disp))
			return -EILSEQ;
		insn->disp = (int32_t)disp;
	}
	return 0;
}

/* ---- Group opcodes: ModRM.reg or a prefix completes the opcode ---- */

/*
 * Returns the refined attributes, or 0 (invalid). Only opcodes marked
 * with GROUP in the tables come here.
 */
static uint8_t refine_group(const struct insn *insn, uint8_t attr)
{
	unsigned int reg = modrm_reg(insn);
	bool reg_form = modrm_mod(insn) == 3;
	uint8_t rep = insn->rep;

	if (insn->map == 0) {
		switch (opcode_byte(insn)) {
		case 0xf6:	/* /0 /1 test r/m8, imm8; /2-/7 not neg mul div */
			return reg < 2 ? attr | IMM_B : attr;
		case 0xf7:	/* /0 /1 test r/m, imm; /2-/7 as f6 */
			return reg < 2 ? attr | IMM_Z : attr;
		case 0xc6:	/* /0 mov r/m8, imm8; c6 f8 xabort imm8 */
		case 0xc7:	/* /0 mov r/m, imm32; c7 f8 xbegin rel32 */
			return reg == 0 || insn->modrm == 0xf8 ? attr : 0;
		case 0xfe:	/* /0 inc, /1 dec */
			return reg < 2 ? attr : 0;
		case 0xff:	/* inc dec call callf jmp jmpf push; no /7 */
			if (reg == 7)
				return 0;
			/* The far forms take a pointer in memory. */
			if ((reg == 3 || reg == 5) && reg_form)
				return 0;
			return attr;
		}
		return attr;
	}

	switch (opcode_byte(insn)) {
	case 0x00:	/* sldt str lldt ltr verr verw; no /6 /7 */
		return reg < 6 ? attr : 0;
	case 0x78:	/* vmread; 66: extrq, f2: insertq, both ib, ib */
		if (rep == 0xf2 || (!rep && insn->prefixes[INSN_PFX_OPSIZE]))
			return attr | IMM_B;
		return attr;
	case 0xb8:	/* f3: popcnt. Without f3, jmpe (Itanium only). */
		return rep == 0xf3 ? attr : 0;
	case 0xba:	/* /4-/7 bt bts btr btc r/m, imm8 */
		return reg >= 4 ? attr : 0;
	}
	return attr;	/* 0f 20-23: only decode_modrm() cares */
}

/* True for extrq/insertq (66/f2 0f 78), which have a second imm8. */
static bool has_second_imm8(const struct insn *insn)
{
	return is_legacy(insn, 1, 0x78) && insn->imm_size == 1;
}

/* ---- Immediates ---- */

static int decode_immediates(struct insn *insn, struct reader *r,
			     uint8_t attr)
{
	unsigned int size;
	int64_t v;

	switch (attr & IMM_MASK) {
	case IMM_NONE:
		return 0;
	case IMM_B:
		size = 1;
		break;
	case IMM_W:
	case IMM_WB:
		size = 2;
		break;
	case IMM_Z:
		size = opsize16(insn) ? 2 : 4;
		break;
	case IMM_V:
		size = insn->rex & REX_W ? 8 : opsize16(insn) ? 2 : 4;
		break;
	case IMM_D:
		size = 4;
		break;
	default:		/* IMM_MOFFS */
		size = insn->prefixes[INSN_PFX_ADDRSIZE] ? 4 : 8;
		break;
	}

	/*
	 * jmp, jcc and call rel32 with a 66 prefix: AMD CPUs take a rel16
	 * and cut rip to 16 bits, Intel CPUs ignore the prefix. Neither is
	 * useful and their lengths differ, so refuse to guess.
	 */
	if ((attr & REL) && size == 2)
		return -EILSEQ;

	insn->imm_offset = r->pos;
	insn->imm_size = size;
	if (!take_signed(r, size, &insn->imm))
		return -EILSEQ;

	if ((attr & IMM_MASK) == IMM_WB || has_second_imm8(insn)) {
		insn->imm2_size = 1;
		if (!take_signed(r, 1, &v))
			return -EILSEQ;
		insn->imm2 = (uint8_t)v;
	}
	return 0;
}

/* ---- What the instruction does ---- */

static enum insn_flow flow_map0(const struct insn *insn)
{
	uint8_t op = opcode_byte(insn);

	if ((op >= 0x70 && op <= 0x7f) || (op >= 0xe0 && op <= 0xe3))
		return INSN_FLOW_JCC_REL;
	switch (op) {
	case 0xeb: case 0xe9:
		return INSN_FLOW_JMP_REL;
	case 0xe8:
		return INSN_FLOW_CALL_REL;
	case 0xc7:
		/* xbegin: on abort, execution resumes at the target. */
		return insn->modrm == 0xf8 ? INSN_FLOW_JCC_REL : INSN_FLOW_NONE;
	case 0xc2: case 0xc3: case 0xca: case 0xcb:
		return INSN_FLOW_RET;
	case 0xcc: case 0xcd: case 0xf1:
		return INSN_FLOW_INT;
	case 0xcf:
		return INSN_FLOW_IRET;
	case 0xf4:
		return INSN_FLOW_HALT;
	case 0xff:
		switch (modrm_reg(insn)) {
		case 2: case 3:
			return INSN_FLOW_CALL_INDIRECT;
		case 4: case 5:
			return INSN_FLOW_JMP_INDIRECT;
		}
		return INSN_FLOW_NONE;
	}
	return INSN_FLOW_NONE;
}

static enum insn_flow flow_map1(const struct insn *insn)
{
	uint8_t op = opcode_byte(insn);

	if (op >= 0x80 && op <= 0x8f)
		return INSN_FLOW_JCC_REL;
	switch (op) {
	case 0x0b: case 0xb9: case 0xff:	/* ud2, ud1, ud0 */
		return INSN_FLOW_INT;
	case 0x05: case 0x07: case 0x34: case 0x35:
		return INSN_FLOW_SYSCALL;
	}
	return INSN_FLOW_NONE;
}

static enum insn_flow insn_flow(const struct insn *insn)
{
	if (insn->vex)
		return INSN_FLOW_NONE;
	if (insn->map == 0)
		return flow_map0(insn);
	if (insn->map == 1)
		return flow_map1(insn);
	return INSN_FLOW_NONE;
}

/*
 * The 0f 01 forms with mod=11 that are safe in user mode (so carry no
 * kernel state): xgetbv, xend, xtest, enclu, serialize, rdpkru, wrpkru,
 * rdtscp, monitorx, mwaitx, clzero, rdpru. Every other register form of
 * 0f 01 is a VMX, SVM or SGX instruction, monitor/mwait, clac/stac,
 * xsetbv, swapgs, lmsw or another system instruction.
 */
static bool user_0f01(uint8_t modrm)
{
	static const uint8_t user[] = {
		0xd0, 0xd5, 0xd6, 0xd7, 0xe8, 0xee, 0xef,
		0xf9, 0xfa, 0xfb, 0xfc, 0xfd,
	};

	if ((modrm & 0xf8) == 0xe0)	/* smsw */
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(user); i++)
		if (user[i] == modrm)
			return true;
	return false;
}

/*
 * Instructions the kprobes layer must not single-step out of line: the
 * ones that only run at CPL0 or change processor state that the probe
 * machinery itself relies on.
 *
 *	hlt; cli, sti (IF); in, out, ins, outs (ports)
 *	iret, sysret, sysexit (change privilege level and stack)
 *	mov to or from a control or debug register (0f 20-23)
 *	lgdt, lidt, lldt, ltr, lmsw, invlpg, clts, invd, wbinvd, swapgs,
 *	    rdmsr, wrmsr, rdpmc, rsm, getsec, invept, invvpid, invpcid,
 *	    xsaves, xrstors, VMX/SVM/SGX, monitor/mwait, clac/stac, xsetbv
 *	loads of segment registers (mov to Sreg, pop fs/gs, lss, lfs, lgs):
 *	    a load of ss also holds off the single-step trap for one
 *	    instruction, which would lose control of the probe
 *
 * popf is NOT privileged: it only needs its TF fixed up (see
 * modifies_flags_if); neither are int3, int n, ud2, syscall (see flow).
 */
static bool privileged_map0(const struct insn *insn)
{
	uint8_t op = opcode_byte(insn);

	switch (op) {
	case 0xf4: case 0xfa: case 0xfb: case 0xcf:
	case 0xe4: case 0xe5: case 0xe6: case 0xe7:
	case 0xec: case 0xed: case 0xee: case 0xef:
	case 0x6c: case 0x6d: case 0x6e: case 0x6f:
	case 0x8e:
		return true;
	}
	return false;
}

static bool privileged_map1(const struct insn *insn)
{
	uint8_t op = opcode_byte(insn);
	unsigned int reg = modrm_reg(insn);
	bool reg_form = modrm_mod(insn) == 3;

	switch (op) {
	case 0x00:			/* lldt, ltr */
		return reg == 2 || reg == 3;
	case 0x01:
		if (reg_form)
			return !user_0f01(insn->modrm);
		/* lgdt, lidt, lmsw, invlpg; sgdt sidt smsw are harmless */
		return reg == 2 || reg == 3 || reg == 6 || reg == 7;
	case 0x06: case 0x07:				/* clts sysret */
	case 0x08: case 0x09:				/* invd wbinvd */
	case 0x20: case 0x21: case 0x22: case 0x23:	/* mov cr, dr */
	case 0x30: case 0x32: case 0x33:		/* wrmsr rdmsr rdpmc */
	case 0x35: case 0x37: case 0xaa:		/* sysexit getsec rsm */
	case 0xa1: case 0xa9:				/* pop fs, pop gs */
	case 0xb2: case 0xb4: case 0xb5:		/* lss lfs lgs */
		return true;
	case 0x78: case 0x79:	/* vmread, vmwrite (not extrq/insertq) */
		return !insn->prefixes[INSN_PFX_OPSIZE] && !insn->rep;
	case 0xc7:
		/* Memory forms: /3 xrstors, /5 xsaves, /6 vmptrld, vmclear,
		 * vmxon, /7 vmptrst. (The register forms are rdrand, rdseed,
		 * rdpid.) */
		return !reg_form && (reg == 3 || reg == 5 || reg >= 6);
	}
	return false;
}

static bool insn_is_privileged(const struct insn *insn)
{
	if (insn->vex)
		return false;
	switch (insn->map) {
	case 0:
		return privileged_map0(insn);
	case 1:
		return privileged_map1(insn);
	case 2:			/* invept, invvpid, invpcid */
		return opcode_byte(insn) >= 0x80 && opcode_byte(insn) <= 0x82;
	}
	return false;
}

static void classify(struct insn *insn)
{
	insn->flow = insn_flow(insn);
	switch (insn->flow) {
	case INSN_FLOW_JMP_REL:
	case INSN_FLOW_JCC_REL:
	case INSN_FLOW_CALL_REL:
		insn->rel = (int32_t)insn->imm;
		break;
	default:
		break;
	}
	insn->privileged = insn_is_privileged(insn);
	if (!insn->vex && insn->map == 0) {
		uint8_t op = opcode_byte(insn);

		/* popf, cli, sti, iret */
		insn->modifies_flags_if = op == 0x9d || op == 0xfa ||
					  op == 0xfb || op == 0xcf;
		insn->pushes_flags = op == 0x9c;
	}
}

/* ---- The decoder ---- */

int insn_decode(struct insn *insn, const uint8_t *code, size_t max_len)
{
	struct reader r = { code, MIN(max_len, (size_t)INSN_MAX_LEN), 0 };
	uint8_t attr;
	int err;

	memset(insn, 0, sizeof(*insn));
	decode_prefixes(insn, &r);
	err = decode_opcode(insn, &r, &attr);
	if (err)
		return err;
	if (!(attr & VALID))
		return -EILSEQ;
	if (attr & MODRM) {
		err = decode_modrm(insn, &r);
		if (err)
			return err;
	}
	if (attr & GROUP) {
		attr = refine_group(insn, attr);
		if (!(attr & VALID))
			return -EILSEQ;
	}
	err = decode_immediates(insn, &r, attr);
	if (err)
		return err;
	insn->length = r.pos;
	classify(insn);
	return 0;
}

uintptr_t insn_branch_target(const struct insn *insn, uintptr_t addr)
{
	return addr + insn->length + (intptr_t)insn->rel;
}

uintptr_t insn_rip_target(const struct insn *insn, uintptr_t addr)
{
	return addr + insn->length + (intptr_t)insn->disp;
}

const char *insn_flow_name(enum insn_flow flow)
{
	static const char *const names[] = {
		[INSN_FLOW_NONE] = "none",
		[INSN_FLOW_JMP_REL] = "jmp",
		[INSN_FLOW_JCC_REL] = "jcc",
		[INSN_FLOW_CALL_REL] = "call",
		[INSN_FLOW_JMP_INDIRECT] = "jmp*",
		[INSN_FLOW_CALL_INDIRECT] = "call*",
		[INSN_FLOW_RET] = "ret",
		[INSN_FLOW_INT] = "int",
		[INSN_FLOW_IRET] = "iret",
		[INSN_FLOW_SYSCALL] = "syscall",
		[INSN_FLOW_HALT] = "hlt",
	};

	if ((unsigned int)flow >= ARRAY_SIZE(names) || !names[flow])
		return "?";
	return names[flow];
}
