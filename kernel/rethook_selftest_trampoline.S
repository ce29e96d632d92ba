/* The trampoline of rethook_selftest.c's second user of the service. */
#include <asm/rethook_trampoline.h>

RETHOOK_TRAMPOLINE second_user_trampoline, second_user_return
