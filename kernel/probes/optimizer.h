/*
 * The jump optimizer, seen from the rest of the probes core.
 *
 * The core tells the optimizer whenever something that decides whether a
 * point may be optimized changes (optimizer_update_locked), and asks it to
 * let go of a point before freeing it.
 */
#ifndef KERNEL_PROBES_OPTIMIZER_H
#define KERNEL_PROBES_OPTIMIZER_H

#include "kernel/probes/probe_point.h"

/* Start the optimizer thread (after the scheduler is up). */
void optimizer_init(void);
/* pp or its neighbourhood changed: queue it, or unoptimize it, so that
 * its optimization matches the rules again. Call with kprobe_lock held;
 * never sleeps. */
void optimizer_update_locked(struct probe_point *pp);
/* Re-evaluate every point that could be affected by a probe at addr
 * (one whose region holds addr). Call with kprobe_lock held. */
void optimizer_update_around_locked(uintptr_t addr);
/* pp is unregistered: take it out of the queue (with kprobe_lock held). */
void optimizer_forget_locked(struct probe_point *pp);
/* Before freeing pp: wait for the optimizer thread to let go of it and
 * free its detour buffer once no thread is inside it. */
void optimizer_release(struct probe_point *pp);
/* Detour buffers, ARCH_DETOUR_SIZE bytes of executable memory each, for
 * the back end's arch_prepare_optprobe; NULL when none is left. */
uint8_t *optimizer_alloc_detour(void);
void optimizer_free_detour(uint8_t *detour);
/* Detour buffers in use (tests check none leak). */
unsigned long optimizer_detours_in_use(void);
/* One line for `probe show`: optimized, or why not. */
void optimizer_describe(struct probe_point *pp, char *buf, size_t size);
/* Whether the optimizer runs (`probe optimize on|off`). */
void kprobes_set_optimization(bool on);

#endif
