/* Deliberate crashes for testing the panic path (see crash_test.c). */
#ifndef KERNEL_CRASH_TEST_H
#define KERNEL_CRASH_TEST_H

/* Crash as the command line's crash=KIND asks; return if it does not. */
void crash_test_from_cmdline(const char *cmdline);

/* For crash=kretprobe-bug: a function that returns with its stack
 * pointer off from where its call left it. Each architecture writes it
 * in assembly (arch/<arch>/crash_test.c). */
void crash_bad_return(void);

#endif
