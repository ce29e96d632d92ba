/* The function graph's trampoline: a hooked call's return lands here and
 * goes on to fgraph_trampoline_handler (fgraph.c). */
#include <asm/rethook_trampoline.h>

RETHOOK_TRAMPOLINE fgraph_trampoline, fgraph_trampoline_handler
