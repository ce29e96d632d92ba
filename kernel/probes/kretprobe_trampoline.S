/* The kretprobes' trampoline: a probed function's return lands here and
 * goes on to kretprobe_trampoline_handler (kretprobes.c). */
#include <asm/rethook_trampoline.h>

RETHOOK_TRAMPOLINE kretprobe_trampoline, kretprobe_trampoline_handler
