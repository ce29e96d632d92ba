/*
 * Compare arch/aarch64/insn.c with objdump on real code.
 *
 * Usage: check_aarch64_insn [-v] ELF...
 *
 * For each ELF file, runs `aarch64-linux-gnu-objdump -d -w FILE`
 * (AARCH64_OBJDUMP in the environment overrides the program) and reads
 * its listing: one line per instruction with its address, its 32-bit
 * word and its text. Each word is classified with a64_decode(), and the
 * class must be the one objdump's text implies:
 *
 *   - emulated, of the right kind: adr, adrp, b, bl, b.cond (and bc.cond),
 *     cbz, cbnz, tbz, tbnz, br, blr, ret, nop, ldr/ldrsw/prfm (literal),
 *     mov xN, sp and mrs xN, daif;
 *   - not probe-able (refused or unallocated): the exclusive loads and
 *     stores, eret and drps, exception-generating instructions (svc, hvc,
 *     smc, brk, hlt, dcps), wfi/wfe, every msr, mrs of ELR/SPSR/ESR/FAR
 *     _EL1 and SP_EL0, pointer-authenticated branches, floating-point and
 *     SIMD instructions (and SVE), ldr of an FP register from a literal,
 *     udf, and words objdump cannot decode (".inst ... ; undefined");
 *   - run out of line: everything else.
 *
 * Data in code sections (".word", ".short"...) is skipped.
 *
 * Prints the mismatches, then `aarch64 insn: N instructions compared, M
 * mismatches` (which tests/host/run_host_tests.py counts); exits with 1
 * if there is any mismatch or objdump fails. -v prints how many of each
 * class were seen.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* lib/types.h defines loff_t, as glibc does but with another type. */
#define loff_t probeos_loff_t
#include "arch/aarch64/insn.h"
#undef loff_t

#define MAX_REPORTS 40

enum expect {
	EXPECT_EMULATED,
	EXPECT_NOT_PROBEABLE,	/* refused or unallocated */
	EXPECT_OUT_OF_LINE,
	EXPECT_SKIP,
};

static bool in_list(const char *word, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(word, *list) == 0)
			return true;
	return false;
}

static const char *const refused_mnemonics[] = {
	"ldxr", "ldxrb", "ldxrh", "ldaxr", "ldaxrb", "ldaxrh", "ldxp", "ldaxp",
	"stxr", "stxrb", "stxrh", "stlxr", "stlxrb", "stlxrh", "stxp", "stlxp",
	"eret", "eretaa", "eretab", "drps", "svc", "hvc", "smc", "brk", "hlt",
	"dcps1", "dcps2", "dcps3", "wfi", "wfe", "msr", "udf", ".inst",
	"retaa", "retab", "braa", "brab", "braaz", "brabz", "blraa", "blrab",
	"blraaz", "blrabz", NULL,
};

/* SVE instructions whose operands name no vector or predicate register. */
static const char *const sve_scalar_mnemonics[] = {
	"cntb", "cnth", "cntw", "cntd", "rdvl", "addvl", "addpl", "incb", "inch",
	"incw", "incd", "decb", "dech", "decw", "decd", "setffr", NULL,
};

static const char *const clobbered_sysregs[] = {
	"elr_el1", "spsr_el1", "esr_el1", "far_el1", "sp_el0", NULL,
};

static const char *const data_directives[] = {
	".word", ".short", ".byte", ".hword", ".xword", ".quad", NULL,
};

/* Does the operand text name a floating-point/SIMD register (b0-b31,
 * h, s, d, q, v, and SVE's z and p)? Symbol names in <...> are not
 * looked at. */
static bool names_fp_register(const char *ops)
{
	bool in_symbol = false;

	for (const char *p = ops; *p; p++) {
		if (*p == '<')
			in_symbol = true;
		else if (*p == '>')
			in_symbol = false;
		if (in_symbol || !strchr("bhsdqvzp", *p) || (p > ops && isalnum((unsigned char)p[-1])))
			continue;
		if (isdigit((unsigned char)p[1]) &&
		    (!isalnum((unsigned char)p[2]) ||
		     (isdigit((unsigned char)p[2]) && !isalnum((unsigned char)p[3]))))
			return true;
	}
	return false;
}

/* The operand after the first comma, or "". */
static const char *second_operand(const char *ops)
{
	const char *comma = strchr(ops, ',');

	if (!comma)
		return "";
	comma++;
	while (*comma == ' ')
		comma++;
	return comma;
}

static bool starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The operands address memory through sp with an immediate (or no)
 * offset: "[sp]", "[sp, #N]", "[sp, #N]!" or "[sp], #N" - not "[sp, xN]". */
static bool through_sp_immediate(const char *ops)
{
	const char *base = strstr(ops, "[sp");

	return base && (base[3] == ']' || starts_with(base + 3, ", #"));
}

/* The third operand, or "". */
static const char *third_operand(const char *ops)
{
	return second_operand(second_operand(ops));
}

/* What objdump's text says the class must be; for emulated ones, *emu
 * is the kind. */
static enum expect expected(const char *mn, const char *ops, enum a64_emu *emu)
{
	static const struct { const char *mn; enum a64_emu emu; } branches[] = {
		{ "adr", A64_EMU_ADR }, { "adrp", A64_EMU_ADRP }, { "b", A64_EMU_B },
		{ "bl", A64_EMU_BL }, { "cbz", A64_EMU_CBZ }, { "cbnz", A64_EMU_CBNZ },
		{ "tbz", A64_EMU_TBZ }, { "tbnz", A64_EMU_TBNZ }, { "br", A64_EMU_BR },
		{ "blr", A64_EMU_BLR }, { "ret", A64_EMU_RET }, { "nop", A64_EMU_NOP },
	};
	const char *second = second_operand(ops);
	bool literal = *second && *second != '[';

	*emu = A64_EMU_NONE;
	if (in_list(mn, data_directives))
		return EXPECT_SKIP;
	for (size_t i = 0; i < sizeof(branches) / sizeof(branches[0]); i++) {
		if (strcmp(mn, branches[i].mn) == 0) {
			*emu = branches[i].emu;
			return EXPECT_EMULATED;
		}
	}
	if (starts_with(mn, "b.") || starts_with(mn, "bc.")) {
		*emu = A64_EMU_B_COND;
		return EXPECT_EMULATED;
	}
	if (in_list(mn, refused_mnemonics) || in_list(mn, sve_scalar_mnemonics) ||
	    names_fp_register(ops))
		return EXPECT_NOT_PROBEABLE;
	if (strcmp(mn, "mrs") == 0) {
		if (strcmp(second, "daif") == 0) {
			*emu = A64_EMU_MRS_DAIF;
			return EXPECT_EMULATED;
		}
		return in_list(second, clobbered_sysregs) ? EXPECT_NOT_PROBEABLE
							  : EXPECT_OUT_OF_LINE;
	}
	if (literal && (strcmp(mn, "ldr") == 0 || strcmp(mn, "ldrsw") == 0 ||
			strcmp(mn, "prfm") == 0)) {
		if (strcmp(mn, "prfm") == 0)
			*emu = A64_EMU_PRFM_LIT;
		else if (strcmp(mn, "ldrsw") == 0)
			*emu = A64_EMU_LDRSW_LIT;
		else
			*emu = ops[0] == 'w' ? A64_EMU_LDR_LIT_W : A64_EMU_LDR_LIT_X;
		return EXPECT_EMULATED;
	}
	if (strcmp(mn, "mov") == 0 && ops[0] == 'x' && strcmp(second, "sp") == 0) {
		*emu = A64_EMU_MOV_FROM_SP;
		return EXPECT_EMULATED;
	}
	/* add/sub (immediate) without flags; mov to sp is add sp, xn, #0. */
	if ((strcmp(mn, "add") == 0 || strcmp(mn, "sub") == 0) && third_operand(ops)[0] == '#') {
		*emu = mn[0] == 'a' ? A64_EMU_ADD_IMM : A64_EMU_SUB_IMM;
		return EXPECT_EMULATED;
	}
	if (strcmp(mn, "mov") == 0 && starts_with(ops, "sp,")) {
		*emu = A64_EMU_ADD_IMM;
		return EXPECT_EMULATED;
	}
	/* Stores of general registers through sp, immediate offsets. */
	if ((strcmp(mn, "stp") == 0 || strcmp(mn, "str") == 0) && (ops[0] == 'x' || ops[0] == 'w') &&
	    through_sp_immediate(ops)) {
		*emu = mn[2] == 'p' ? A64_EMU_STP_SP : A64_EMU_STR_SP;
		return EXPECT_EMULATED;
	}
	return EXPECT_OUT_OF_LINE;
}

static bool matches(enum expect want, enum a64_emu want_emu, const struct a64_insn *in)
{
	switch (want) {
	case EXPECT_EMULATED:
		return in->cls == A64_EMULATED && in->emu == want_emu;
	case EXPECT_NOT_PROBEABLE:
		return in->cls == A64_REFUSED || in->cls == A64_UNALLOCATED;
	default:
		return in->cls == A64_OUT_OF_LINE;
	}
}

struct stats {
	unsigned long compared, mismatches;
	unsigned long by_class[A64_OUT_OF_LINE + 1];
};

/* One objdump line: "  ADDR:\tWORD \tMNEMONIC\tOPERANDS[\t// comment]".
 * Lines of any other shape (headers, symbols) are ignored. */
static void check_line(char *line, struct stats *st)
{
	static const char *const want_names[] = {
		"emulated", "refused or unallocated", "out of line",
	};
	char *colon = strchr(line, ':'), *word_end, *mn, *ops, *cut;
	unsigned long long addr;
	struct a64_insn in;
	enum a64_emu want_emu;
	enum expect want;
	uint32_t word;

	if (!colon || colon[1] != '\t' || sscanf(line, "%llx:", &addr) != 1)
		return;
	word = (uint32_t)strtoul(colon + 2, &word_end, 16);
	if (word_end - (colon + 2) != 8 || strncmp(word_end, " \t", 2) != 0)
		return;	/* not one 32-bit word: data or a gap */
	mn = word_end + 2;
	line[strcspn(line, "\n")] = '\0';
	ops = mn + strcspn(mn, "\t");
	if (*ops)
		*ops++ = '\0';
	for (cut = ops; *cut; cut++)	/* drop comments: "// ...", "; ..." */
		if ((cut[0] == '/' && cut[1] == '/') || cut[0] == ';')
			break;
	while (cut > ops && isspace((unsigned char)cut[-1]))
		cut--;
	*cut = '\0';

	want = expected(mn, ops, &want_emu);
	if (want == EXPECT_SKIP)
		return;
	a64_decode(word, &in);
	st->compared++;
	st->by_class[in.cls]++;
	if (matches(want, want_emu, &in))
		return;
	if (++st->mismatches <= MAX_REPORTS)
		printf("%llx: %08x %s %s: classed %s (%s%s%s), expected %s%s%s\n", addr, word,
		       mn, ops, a64_class_name(in.cls), in.what,
		       in.emu ? ", " : "", in.emu ? a64_emu_name(in.emu) : "",
		       want_names[want], want == EXPECT_EMULATED ? " as " : "",
		       want == EXPECT_EMULATED ? a64_emu_name(want_emu) : "");
}

static int check_file(const char *elf, struct stats *st)
{
	const char *objdump = getenv("AARCH64_OBJDUMP");
	char cmd[4096], line[4096];
	FILE *f;

	if (!objdump)
		objdump = "aarch64-linux-gnu-objdump";
	snprintf(cmd, sizeof(cmd), "%s -d -w '%s'", objdump, elf);
	f = popen(cmd, "r");
	if (!f) {
		perror(cmd);
		return -1;
	}
	while (fgets(line, sizeof(line), f))
		check_line(line, st);
	if (pclose(f) != 0) {
		fprintf(stderr, "%s failed\n", cmd);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct stats st = { 0 };
	bool verbose = false, failed = false;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-v") == 0)
			verbose = true;
		else if (check_file(argv[i], &st) < 0)
			failed = true;
	}
	if (st.mismatches > MAX_REPORTS)
		printf("(%lu more mismatches not shown)\n", st.mismatches - MAX_REPORTS);
	if (verbose)
		for (int c = 0; c <= A64_OUT_OF_LINE; c++)
			printf("  %-12s %lu\n", a64_class_name((enum a64_class)c), st.by_class[c]);
	printf("aarch64 insn: %lu instructions compared, %lu mismatches\n", st.compared,
	       st.mismatches);
	return failed || st.mismatches || st.compared == 0;
}
