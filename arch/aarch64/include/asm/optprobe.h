/* Sizes of the aarch64 detour buffer, shared by arch/aarch64/optprobe.c
 * and its template, optprobe_template.S (so only plain constants). */
#ifndef ASM_OPTPROBE_H
#define ASM_OPTPROBE_H

#include <asm/brk.h>

/* Bytes of one detour buffer: the template with its literals. */
#define ARCH_DETOUR_SIZE 320
/* Words for the relocated instruction: at most three (a conditional
 * branch, the branch back and the branch to its target). One spare. */
#define OPT_COPY_WORDS 4
/* What fills the unused words: BRK #BRK_IMM_FILL, as unused slot space. */
#define OPT_FILL_INSN (0xd4200000 | (BRK_IMM_FILL << 5))

#endif
