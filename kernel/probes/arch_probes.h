/*
 * The probe layer's part of the architecture contract (listed in
 * kernel/arch.h): what the generic core (kernel/probes/) asks of an
 * architecture's probe back end and optimizer back end, and the core
 * functions the back end calls in return.
 *
 * The core owns lists, the hash table, registration, enable/disable and
 * the order in which handlers run. The back end owns everything about the
 * instruction: decoding it, copying it to a slot, writing and removing
 * the breakpoint or the jump, and running the original instruction
 * afterwards. The hot-path parts of the back end (kretprobes, jprobes,
 * the breakpoint's address) are static inlines of <asm/kprobes.h>, with
 * the per-point and per-CPU types; kernel/arch.h lists them.
 */
#ifndef KERNEL_PROBES_ARCH_PROBES_H
#define KERNEL_PROBES_ARCH_PROBES_H

#include "kernel/probes/probe_report.h"	/* enum probe_exec */
#include "lib/types.h"

struct kprobe;
struct probe_point;
struct pt_regs;
struct arch_kprobe_state;

/* ---- The probe back end (arch/<name>/kprobes.c) ---- */

/* Decide whether the instruction at pp->addr can be probed, and prepare
 * pp->insn (copy it, allocate a slot if one is needed) and
 * pp->can_emulate / pp->boost_copy. func_start and
 * func_size describe the enclosing function, for the boundary check.
 * Returns 0, -EILSEQ (not an instruction boundary), -EINVAL (an
 * instruction that cannot be probed) or -ENOMEM (no slot). */
int arch_prepare_kprobe(struct probe_point *pp, uintptr_t func_start, size_t func_size);
/* Write / remove the breakpoint at pp->addr (through text_poke). */
void arch_arm_kprobe(struct probe_point *pp);
void arch_disarm_kprobe(struct probe_point *pp);
/* Where buf (a copy of the text at buf_addr, len bytes) holds bytes that
 * pp patched, put the original bytes back. */
void arch_unpatched_bytes(const struct probe_point *pp, uint8_t *buf,
			  uintptr_t buf_addr, size_t len);
/* arch_breakpoint_addr(regs), the address of the breakpoint that trapped,
 * is a static inline of <asm/kprobes.h>: it is on every hit's path. So is
 * arch_boost_before_emulating(): true if a point that can be emulated
 * and also has a boost copy is boosted when it may be (no post-handler
 * to run), because the copy costs less than the emulation; a constant,
 * so that an architecture without such points pays nothing for it. */
/* True if the breakpoint instruction is at addr (someone else's int3). */
bool arch_is_breakpoint(uintptr_t addr);
/* Begin running the original instruction after the pre-handlers, in one
 * of the two ways only the back end knows: EMULATE completes it on regs;
 * STEP sets regs to step it from the slot, and arch_finish_step completes
 * it at the single-step trap. (BOOST and DETOUR need no hook: the core
 * points the instruction pointer at pp->boost_copy or pp->detour_copy.) */
void arch_exec_probed_insn(struct probe_point *pp, enum probe_exec how,
			   struct pt_regs *regs, struct arch_kprobe_state *saved);
/* Fix the registers after the single-step trap: resume after the
 * original instruction as if it had run in place. Returns false if the
 * instruction is not finished yet (a repeated string instruction traps
 * after each iteration): it is then stepped again. */
bool arch_finish_step(struct probe_point *pp, struct pt_regs *regs,
		      const struct arch_kprobe_state *saved);

/* If a single-step faulted: put regs back at the probed instruction. */
void arch_abort_step(struct probe_point *pp, struct pt_regs *regs,
		     const struct arch_kprobe_state *saved);
/* jprobes. arch_jprobe_enter(regs, entry, copy, saved) makes regs, the
 * trap frame of a hit at a function's entry, resume in the jprobe's entry
 * function: with interrupts off (like any handler, so that it cannot be
 * preempted while this CPU's state is in use), the argument registers
 * unchanged, and the stack pointer at copy - below the frame, so that the
 * frame outlives the entry function - where the top
 * JPROBE_STACK_COPY_SIZE bytes of the probed stack are copied once the
 * trap has returned. What it changes in regs it keeps in *saved;
 * arch_jprobe_leave(regs, saved) puts that back.
 * Both are static inlines of <asm/kprobes.h>: they run on every hit. The
 * back end's jprobe_return() (kprobes.h) calls jprobe_return_regs(),
 * below, then resumes the frame it returns as the trap return path would
 * - its own stack pointer included - leaving the entry function's stack
 * behind. */

/* Human-readable description of the probed instruction for `probe show`. */
void arch_describe_probe(const struct probe_point *pp, char *buf, size_t size);
/* How many bytes the probed instruction takes: the next instruction
 * boundary is that far past pp->addr (the bench walks a function's
 * instructions with it, without trying every byte). */
size_t arch_probe_insn_length(const struct probe_point *pp);

/* ---- The optimizer back end (arch/<name>/optprobe.c) ---- */

/* Run the safety checks for replacing the instructions at pp->addr with a
 * jump, and set *len to the bytes the jump would replace (0 if the checks
 * stopped before knowing; the core stores it in pp->opt_len under the
 * lock). Returns 0, or -EINVAL / -ENOMEM with *why (a short phrase) and
 * *where (the address it is about) set. Reads the text without other
 * probes' breakpoints. */
int arch_check_optprobe(struct probe_point *pp, size_t *len, const char **why, uintptr_t *where);
/* Build pp's detour buffer (ARCH_DETOUR_SIZE bytes from
 * optimizer_alloc_detour): save registers, call optprobe_callback(pp,
 * regs), restore, run the copied instructions, jump back. The call must
 * not be preempted, from before it to after it returns (a preempted
 * thread must never hold a return address into a buffer): interrupts off
 * or the thread's preemption count raised, as the back end prefers. Sets
 * pp->detour and pp->detour_copy (where the copied instructions start).
 * -ENOMEM if no executable memory is left. */
int arch_prepare_optprobe(struct probe_point *pp);
/* Write the jump over the region (breakpoint first, then the tail, then
 * the first byte), or put the original bytes back with the breakpoint
 * still first. */
void arch_optimize(struct probe_point *pp);
void arch_unoptimize(struct probe_point *pp);

/* ---- The core's entry points, called by the back end ---- */

/* Copy len bytes of text at addr as they were before any probe patched
 * them (for decoding next to other probes). */
void kprobes_read_text(uintptr_t addr, uint8_t *buf, size_t len);

/* The jprobe among pp's probes, or NULL (a point has one at most). Call
 * with kprobe_mutex held. */
struct kprobe *point_jprobe_locked(const struct probe_point *pp);
/* The way pp's instruction runs after a breakpoint hit that ran the
 * handlers, as things stand now (for describing the point). */
enum probe_exec kprobe_exec_path(const struct probe_point *pp);

/* The detour buffer's C half: run the pre-handlers of pp. Called with
 * preemption disabled; interrupts may be on (see arch_prepare_optprobe). */
void optprobe_callback(struct probe_point *pp, struct pt_regs *regs);

/* jprobe_return()'s C half, with the entry function's work done: put the
 * hit's trap frame back as it was, start the probed instruction, and
 * return the frame to resume. */
struct pt_regs *jprobe_return_regs(void);

#endif
