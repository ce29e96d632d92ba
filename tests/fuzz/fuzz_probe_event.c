/* Fuzz target "probe_event": a line written to kprobe_events
 * (kernel/trace/kprobe_event_parse.c and the argument parser and
 * compiler under it, trace_probe.c), read for x86_64's registers and for
 * aarch64's, and each program it compiles run once (probe_fetch.c).
 *
 * The input is the line, cut into words at spaces and tabs as the file
 * cuts it. A line refused must give a reason and a caret inside the line
 * (or one past its end). A line taken must have made at most
 * MAX_TRACE_ARGS arguments, each a program that ends within
 * FETCH_INSN_MAX instructions with its field inside the record; its
 * normalized form (what kprobe_events shows) must be read again to the
 * same form. Running the programs, with registers that point anywhere,
 * reads only through the stand-in fault-tolerant reads (everything
 * outside one buffer faults) and writes only inside the record, which is
 * allocated to its exact size so that ASan sees a write past it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check_failed(const char *what, int line)
{
	fprintf(stderr, "fuzz_probe_event.c:%d: check failed: %s\n", line, what);
	abort();
}

#define CHECK(cond) do { if (!(cond)) check_failed(#cond, __LINE__); } while (0)

#include "tests/host/rename.h"
#include "tests/host/probe_event_host.h"
#include "kernel/trace/probe_fetch.h"
#include "lib/errno.h"
#include "lib/string.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

extern const struct probe_reg aarch64_probe_regs[];

#define MAX_WORDS 512
#define LINE_MAX_BYTES 8192

static struct probe_arg args[MAX_TRACE_ARGS], again_args[MAX_TRACE_ARGS];

/* Cut text (changed in place) into words at blanks. */
static int split(char *text, const char **argv)
{
	int argc = 0;

	for (char *p = text; *p && argc < MAX_WORDS;) {
		while (*p == ' ' || *p == '\t')
			*p++ = '\0';
		if (!*p)
			break;
		argv[argc++] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
	}
	return argc;
}

/* What every program taken must be. */
static void check_def(const struct kprobe_event_def *def)
{
	CHECK(def->nr_args <= MAX_TRACE_ARGS);
	CHECK(def->size <= MAX_PROBE_EVENT_SIZE);
	CHECK(def->group[0] && def->event[0]);
	for (int i = 0; i < def->nr_args; i++) {
		const struct probe_arg *a = &def->args[i];
		int end = -1;

		for (int j = 0; j < FETCH_INSN_MAX; j++)
			if (a->code[j].op == FETCH_OP_END) {
				end = j;
				break;
			}
		CHECK(end > 0);
		CHECK(a->type != NULL);
		CHECK(a->offset + a->type->size * (a->count ? a->count : 1) <= def->size);
	}
}

/* Run the programs with registers full of the input's bytes (any
 * address) or pointing into a buffer of its bytes. */
static void run(const struct kprobe_event_def *def, const uint8_t *data, size_t size)
{
	static uint8_t buffer[4096];
	/* Room for either architecture's struct pt_regs: the programs
	 * read registers at aarch64's offsets too (the stack pointer, the
	 * arguments and the return value at x86_64's). */
	static uint64_t words[64];
	struct probe_hit_regs hit = { .regs = (const struct pt_regs *)words, .comm = "fuzz" };
	size_t room = 16 + def->size + 2 * PROBE_STRING_MAX;
	uint8_t *record = malloc(room);

	memset(buffer, 0, sizeof(buffer));
	memcpy(buffer, data, size < sizeof(buffer) ? size : sizeof(buffer));
	for (size_t i = 0; i < 64; i++)
		words[i] = i % 2 ? (uintptr_t)buffer + (i * 64) % sizeof(buffer) : buffer[i] * 0x1111ULL;
	probe_host_readable((uintptr_t)buffer, (uintptr_t)buffer + sizeof(buffer));
	CHECK(probe_fetch_args(def->args, def->nr_args, &hit, record, 16, 16 + def->size, room) <=
	      room);
	free(record);
}

static void read_line(const struct probe_reg *regs, const uint8_t *data, size_t size,
		      const char *line)
{
	static char text[LINE_MAX_BYTES], shown[LINE_MAX_BYTES], shown_again[LINE_MAX_BYTES];
	static const char *argv[MAX_WORDS];
	struct kprobe_parse_env env = probe_host_env(regs);
	struct kprobe_event_def def = { .args = args }, again = { .args = again_args };
	struct probe_log log;
	size_t len = strlen(line), n;
	int argc, err;

	memcpy(text, line, len + 1);
	argc = split(text, argv);
	err = kprobe_event_parse(argc, argv, &def, &env, &log);
	if (err == -ECANCELED)
		return;
	if (err) {
		CHECK(err == -EINVAL || err == -E2BIG || err == -ENOENT || err == -EADDRNOTAVAIL);
		CHECK(log.err != PROBE_ERR_NONE);
		CHECK(probe_log_pos(&log) >= 0);
		CHECK((size_t)probe_log_pos(&log) <= probe_log_command(&log, shown, sizeof(shown)) + 1);
		return;
	}
	check_def(&def);
	n = kprobe_event_show(&def, shown, sizeof(shown));
	CHECK(n < sizeof(shown));
	memcpy(text, shown, n + 1);
	argc = split(text, argv);
	CHECK(kprobe_event_parse(argc, argv, &again, &env, &log) == 0);
	CHECK(kprobe_event_show(&again, shown_again, sizeof(shown_again)) == n);
	CHECK(!strcmp(shown, shown_again));
	run(&def, data, size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char line[LINE_MAX_BYTES];

	if (size >= sizeof(line))
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	read_line(arch_probe_regs, data, size, line);
	read_line(aarch64_probe_regs, data, size, line);
	return 0;
}
