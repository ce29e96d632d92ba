/* Deliberate crashes for testing the panic path (see crash_test.c). */
#ifndef KERNEL_CRASH_TEST_H
#define KERNEL_CRASH_TEST_H

/* Crash as the command line's crash=KIND asks; return if it does not. */
void crash_test_from_cmdline(const char *cmdline);

#endif
