/* The exception vectors x86_64 code names (Linux's asm/trapnr.h calls
 * them X86_TRAP_*): the dispatcher (traps.c) and the trap-frame readers
 * (trap_frame.c) both need them. */
#ifndef ASM_TRAPNR_H
#define ASM_TRAPNR_H

#define VEC_DEBUG        1
#define VEC_NMI          2
#define VEC_BREAKPOINT   3
#define VEC_DOUBLE_FAULT 8
#define VEC_PAGE_FAULT  14

#endif
