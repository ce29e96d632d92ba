/*
 * Compare arch/x86_64/insn.c with objdump on real code.
 *
 * Usage: check_insn_boundaries [-v] ELF...
 *
 * For each ELF file, runs `objdump -d -w FILE` (OBJDUMP in the
 * environment overrides the program) and reads its listing: one line per
 * instruction with its address, all its bytes (-w keeps them on one
 * line) and its text. The bytes of consecutive lines are the bytes of
 * the section, so they are gathered into "runs": the code from a symbol
 * to the next symbol. Each run is then decoded from its first byte with
 * insn_decode(), each instruction starting where the previous one ended,
 * and every instruction must:
 *
 *   - decode, with the length objdump gives it, so that the decoder finds
 *     exactly objdump's instruction boundaries (after a mismatch the walk
 *     starts again at objdump's next boundary, so that one error is
 *     reported once);
 *   - for a relative branch, have the target objdump prints;
 *   - be rip-relative exactly when objdump shows (%rip), with the address
 *     objdump prints in its "# address" comment;
 *   - have the flow class its mnemonic implies (ret, jmp*, syscall...).
 *
 * What is not compared:
 *
 *   - "(bad)" lines and data that objdump shows as ".byte": objdump could
 *     not decode the bytes, so they are data in a code section or code
 *     for another mode (the 32-bit boot code). The rest of the symbol is
 *     skipped, up to the next symbol: its boundaries are meaningless.
 *   - runs of zero bytes, which objdump prints as "..." and does not
 *     decode: the run ends there, and the next instruction starts a new
 *     one.
 *
 * One difference is accepted: objdump shows fwait (9b) followed by an x87
 * instruction as one instruction (9b df e0 is "fstsw %ax", fnstsw with a
 * wait first), but for the CPU 9b is an instruction of its own, after
 * which a single-step trap is taken. The decoder says so, and the check
 * then decodes the rest of objdump's line as a second instruction.
 *
 * Prints the mismatches, then `insn: N instructions compared, M
 * mismatches` (which tests/host/run_host_tests.py counts); exits with 1
 * if there is any mismatch or objdump fails.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/*
 * lib/types.h defines loff_t, as glibc does but with another type: rename
 * it as tests/host/rename.h does, but keep the C library's string and
 * printf functions, which this program uses.
 */
#define loff_t probeos_loff_t
#include "arch/x86_64/insn.h"
#undef loff_t

#define MAX_REPORTS 40

struct line {
	uint64_t addr;
	size_t off;		/* offset in the run's bytes */
	size_t len;		/* objdump's length */
	char *text;		/* objdump's text for the instruction */
};

struct run {
	char symbol[256];
	uint8_t *bytes;
	size_t nbytes, bytes_cap;
	struct line *lines;
	size_t nlines, lines_cap;
};

struct stats {
	unsigned long compared;
	unsigned long mismatches;
	unsigned long targets;		/* branch targets checked */
	unsigned long rip;		/* rip-relative addresses checked */
	unsigned long skipped_regions;
	unsigned long skipped_lines;
	bool verbose;
};

static void *grow(void *p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return p;
	*cap = need * 2 + 64;
	p = realloc(p, *cap * elem);
	if (!p) {
		perror("realloc");
		exit(2);
	}
	return p;
}

static void run_clear(struct run *run)
{
	for (size_t i = 0; i < run->nlines; i++)
		free(run->lines[i].text);
	run->nlines = 0;
	run->nbytes = 0;
}

static void report(struct stats *st, const struct run *run,
		   const struct line *l, const char *fmt, const char *detail)
{
	st->mismatches++;
	if (st->mismatches > MAX_REPORTS)
		return;
	printf("mismatch at %llx <%s>: ", (unsigned long long)l->addr,
	       run->symbol);
	printf(fmt, detail);
	printf("\n    bytes:");
	for (size_t i = 0; i < l->len && l->off + i < run->nbytes; i++)
		printf(" %02x", run->bytes[l->off + i]);
	printf("\n    objdump: %s\n", l->text);
}

/* ---- What objdump's text says ---- */

static bool is_prefix_word(const char *w, size_t n)
{
	static const char *const words[] = {
		"lock", "rep", "repz", "repe", "repnz", "repne", "bnd",
		"notrack", "cs", "ds", "es", "ss", "fs", "gs", "data16",
		"data32", "addr16", "addr32", "xacquire", "xrelease", "{vex}",
		"{vex3}", "{evex}",
	};

	if (n >= 3 && strncmp(w, "rex", 3) == 0)
		return true;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strlen(words[i]) == n && strncmp(w, words[i], n) == 0)
			return true;
	return false;
}

/* The mnemonic, after any prefix words; *op gets the operands. */
static void split_text(const char *text, char *mnem, size_t size,
		       const char **op)
{
	const char *p = text;
	size_t n;

	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		n = strcspn(p, " \t");
		if (!is_prefix_word(p, n) || p[n] == '\0')
			break;
		p += n;
	}
	if (n >= size)
		n = size - 1;
	memcpy(mnem, p, n);
	mnem[n] = '\0';
	p += n;
	while (*p == ' ' || *p == '\t')
		p++;
	*op = p;
}

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The flow class objdump's mnemonic implies. */
static enum insn_flow expected_flow(const char *text)
{
	char m[32];
	const char *op;
	bool indirect;

	split_text(text, m, sizeof(m), &op);
	indirect = op[0] == '*';
	if (starts(m, "ret") || starts(m, "lret"))
		return INSN_FLOW_RET;
	if (starts(m, "iret"))
		return INSN_FLOW_IRET;
	if (starts(m, "sys"))		/* syscall sysret sysenter sysexit */
		return INSN_FLOW_SYSCALL;
	if (strcmp(m, "hlt") == 0)
		return INSN_FLOW_HALT;
	if (strcmp(m, "int3") == 0 || strcmp(m, "int") == 0 ||
	    strcmp(m, "int1") == 0 || starts(m, "ud"))
		return INSN_FLOW_INT;
	if (starts(m, "lcall"))
		return INSN_FLOW_CALL_INDIRECT;
	if (starts(m, "call"))
		return indirect ? INSN_FLOW_CALL_INDIRECT : INSN_FLOW_CALL_REL;
	if (starts(m, "ljmp"))
		return INSN_FLOW_JMP_INDIRECT;
	if (starts(m, "jmp"))
		return indirect ? INSN_FLOW_JMP_INDIRECT : INSN_FLOW_JMP_REL;
	if (m[0] == 'j' || starts(m, "loop") || starts(m, "xbegin"))
		return INSN_FLOW_JCC_REL;
	return INSN_FLOW_NONE;
}

/* The branch target objdump prints: the first operand, in hex. */
static bool objdump_target(const char *text, uint64_t *out)
{
	char m[32], *end;
	const char *op;

	split_text(text, m, sizeof(m), &op);
	if (!isxdigit((unsigned char)op[0]))
		return false;
	*out = strtoull(op, &end, 16);
	return end != op;
}

/* The address in objdump's "# address <symbol>" comment. */
static bool objdump_comment_addr(const char *text, uint64_t *out)
{
	const char *p = strstr(text, "# ");
	char *end;

	if (!p)
		return false;
	*out = strtoull(p + 2, &end, 16);
	return end != p + 2;
}

/* ---- Checking one run ---- */

static void check_line(struct stats *st, const struct run *run,
		       const struct line *l, const struct insn *in)
{
	char buf[128];
	enum insn_flow want = expected_flow(l->text);
	bool objdump_rip = strstr(l->text, "(%rip)") != NULL ||
			   strstr(l->text, "(%eip)") != NULL;
	uint64_t addr;

	if (in->flow != want) {
		snprintf(buf, sizeof(buf), "flow %s, expected %s",
			 insn_flow_name(in->flow), insn_flow_name(want));
		report(st, run, l, "%s", buf);
		return;
	}
	if (want == INSN_FLOW_JMP_REL || want == INSN_FLOW_JCC_REL ||
	    want == INSN_FLOW_CALL_REL) {
		st->targets++;
		if (!objdump_target(l->text, &addr) ||
		    addr != insn_branch_target(in, l->addr)) {
			snprintf(buf, sizeof(buf), "branch target %llx",
				 (unsigned long long)
				 insn_branch_target(in, l->addr));
			report(st, run, l, "%s", buf);
			return;
		}
	}
	if (in->rip_relative != objdump_rip) {
		report(st, run, l, "%s", in->rip_relative ?
		       "rip-relative, objdump says not" :
		       "not rip-relative, objdump says it is");
		return;
	}
	if (in->rip_relative) {
		uint64_t want_addr = insn_rip_target(in, l->addr);

		if (strstr(l->text, "(%eip)"))
			want_addr &= 0xffffffffu;
		st->rip++;
		if (!objdump_comment_addr(l->text, &addr) ||
		    addr != want_addr) {
			snprintf(buf, sizeof(buf), "rip-relative address %llx",
				 (unsigned long long)want_addr);
			report(st, run, l, "%s", buf);
		}
	}
}

/*
 * Decode the run from its start. Each decoded length must be objdump's:
 * then the next instruction starts at objdump's next boundary, and by
 * induction every boundary of the run is objdump's. On a mismatch the
 * walk resumes at objdump's boundary.
 */
static void check_run(struct stats *st, struct run *run)
{
	size_t pos = 0;
	char buf[64];

	for (size_t i = 0; i < run->nlines; i++) {
		const struct line *l = &run->lines[i];
		struct insn in;
		int err;

		pos = l->off;
		st->compared++;
		err = insn_decode(&in, run->bytes + pos, run->nbytes - pos);
		if (err) {
			report(st, run, l, "%s", "insn_decode failed");
			continue;
		}
		if (in.length == 1 && run->bytes[pos] == 0x9b && l->len > 1) {
			/* fwait + x87 instruction: see the top of the file */
			err = insn_decode(&in, run->bytes + pos + 1,
					  run->nbytes - pos - 1);
			if (!err && in.length == l->len - 1)
				continue;
			report(st, run, l, "%s", "fwait, then not one x87 insn");
			continue;
		}
		if (in.length != l->len) {
			snprintf(buf, sizeof(buf), "length %u, objdump %zu",
				 in.length, l->len);
			report(st, run, l, "%s", buf);
			continue;
		}
		check_line(st, run, l, &in);
		if (st->verbose)
			printf("%llx %u %s\n", (unsigned long long)l->addr,
			       in.length, insn_flow_name(in.flow));
	}
	run_clear(run);
}

/* ---- Reading objdump's listing ---- */

/* "  401000:\t48 89 e5             \tmov    %rsp,%rbp" */
static bool parse_insn_line(char *s, uint64_t *addr, uint8_t *bytes,
			    size_t *len, char **text)
{
	char *p, *end;

	*addr = strtoull(s, &end, 16);
	if (end == s || end[0] != ':' || end[1] != '\t')
		return false;
	p = end + 2;
	*len = 0;
	while (isxdigit((unsigned char)p[0]) && isxdigit((unsigned char)p[1]) &&
	       (p[2] == ' ' || p[2] == '\t' || p[2] == '\0')) {
		if (*len == 32)
			return false;
		bytes[(*len)++] = (uint8_t)strtoul((char[]){ p[0], p[1], 0 },
						   NULL, 16);
		p += 2;
		while (*p == ' ')
			p++;
	}
	if (*p == '\t')
		p++;
	*text = p;
	return *len > 0;
}

/* "0000000000401000 <main>:" */
static bool parse_symbol_line(const char *s, char *name, size_t size)
{
	const char *lt = strchr(s, '<');
	const char *gt = lt ? strstr(lt, ">:") : NULL;
	size_t n;

	if (!isxdigit((unsigned char)s[0]) || !gt)
		return false;
	n = (size_t)(gt - lt - 1);
	if (n >= size)
		n = size - 1;
	memcpy(name, lt + 1, n);
	name[n] = '\0';
	return true;
}

static bool is_undecodable(const char *text)
{
	return strstr(text, "(bad)") != NULL || text[0] == '.';
}

static int check_file(const char *path, struct stats *st)
{
	const char *objdump = getenv("OBJDUMP") ? getenv("OBJDUMP") : "objdump";
	char cmd[4096];
	char *s = NULL;
	size_t cap = 0;
	struct run run = { 0 };
	bool skipping = false;
	FILE *f;
	int status;

	snprintf(cmd, sizeof(cmd), "%s -d -w '%s'", objdump, path);
	f = popen(cmd, "r");
	if (!f) {
		perror("popen");
		return -1;
	}
	while (getline(&s, &cap, f) > 0) {
		uint8_t bytes[32];
		uint64_t addr;
		size_t len;
		char *text, name[256];

		s[strcspn(s, "\n")] = '\0';
		if (parse_symbol_line(s, name, sizeof(name)) ||
		    starts(s, "Disassembly of section")) {
			check_run(st, &run);
			snprintf(run.symbol, sizeof(run.symbol), "%s",
				 starts(s, "Disassembly") ? "?" : name);
			skipping = false;
		} else if (strcmp(s, "\t...") == 0) {
			check_run(st, &run);
		} else if (parse_insn_line(s, &addr, bytes, &len, &text)) {
			if (!skipping && is_undecodable(text)) {
				check_run(st, &run);
				skipping = true;
				st->skipped_regions++;
			}
			if (skipping) {
				st->skipped_lines++;
				continue;
			}
			run.bytes = grow(run.bytes, &run.bytes_cap,
					 run.nbytes + len, 1);
			run.lines = grow(run.lines, &run.lines_cap,
					 run.nlines + 1, sizeof(*run.lines));
			run.lines[run.nlines++] = (struct line){
				addr, run.nbytes, len, strdup(text)
			};
			memcpy(run.bytes + run.nbytes, bytes, len);
			run.nbytes += len;
		}
	}
	check_run(st, &run);
	free(run.bytes);
	free(run.lines);
	free(s);
	status = pclose(f);
	if (status != 0) {
		fprintf(stderr, "%s failed on %s\n", objdump, path);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct stats st = { 0 };
	bool failed = false;
	int first = 1;
	struct timespec t0, t1;

	if (argc > 1 && strcmp(argv[1], "-v") == 0) {
		st.verbose = true;
		first = 2;
	}
	if (first >= argc) {
		fprintf(stderr, "usage: %s [-v] ELF...\n", argv[0]);
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = first; i < argc; i++)
		if (check_file(argv[i], &st) < 0)
			failed = true;
	clock_gettime(CLOCK_MONOTONIC, &t1);

	if (st.mismatches > MAX_REPORTS)
		printf("(%lu more mismatches not shown)\n",
		       st.mismatches - MAX_REPORTS);
	printf("insn: %lu branch targets and %lu rip-relative addresses "
	       "checked; %lu undecodable regions (%lu lines) skipped; "
	       "%.2f s\n", st.targets, st.rip, st.skipped_regions,
	       st.skipped_lines,
	       (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	printf("insn: %lu instructions compared, %lu mismatches\n",
	       st.compared, st.mismatches);
	return failed || st.mismatches || !st.compared ? 1 : 0;
}
