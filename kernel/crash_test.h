/* Deliberate crashes for testing the panic path (see crash_test.c). */
#ifndef KERNEL_CRASH_TEST_H
#define KERNEL_CRASH_TEST_H

#include "lib/types.h"

/* A crash kind: CRASH_KIND(name, fn) makes crash=name call fn, which
 * should not return. The linker gathers them into one table (see
 * linker/), so crash_test.c names none, not even its own, and a layer
 * above adds its kinds (the probes layer's, kernel/probes/crash_kinds.c)
 * without crash_test.c knowing them. */
struct crash_kind {
	const char *name;
	void (*crash)(void);
};

#define CRASH_KIND(kind_name, fn)                                              \
	static const struct crash_kind crash_kind_##fn                        \
		__used __section(".crash_kinds") __aligned(8) = {             \
		.name = kind_name, .crash = fn,                               \
	}

/* Crash as the command line's crash=KIND asks; return if it does not. */
void crash_test_from_cmdline(const char *cmdline);

/* For crash=kretprobe-bug: a function that returns with its stack
 * pointer off from where its call left it. Each architecture writes it
 * in assembly (arch/<arch>/crash_test.c). */
void crash_bad_return(void);

#endif
