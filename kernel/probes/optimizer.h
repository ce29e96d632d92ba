/*
 * The jump optimizer, seen from the rest of the probes core.
 *
 * The core tells the optimizer whenever something that decides whether a
 * point may be optimized changes (optimizer_update_locked), and tells it
 * when a point is unregistered. Everything here that ends in _locked is
 * called with kprobe_mutex held.
 */
#ifndef KERNEL_PROBES_OPTIMIZER_H
#define KERNEL_PROBES_OPTIMIZER_H

#include "kernel/probes/probe_point.h"

/* Start the optimizer thread (after the scheduler is up). */
void optimizer_init(void);
/* pp or its neighbourhood changed: queue it, or unoptimize it, so that
 * its optimization matches the rules again. */
void optimizer_update_locked(struct probe_point *pp);
/* Re-evaluate every point that could be affected by a probe at addr
 * (one whose region holds addr). */
void optimizer_update_around_locked(uintptr_t addr);
/* pp is unregistered: take it out of the queue. (Its detour buffer is
 * freed with it, once no thread can be inside.) */
void optimizer_forget_locked(struct probe_point *pp);
/* Detour buffers, ARCH_DETOUR_SIZE bytes of executable memory each, for
 * the back end's arch_prepare_optprobe; NULL when none is left. */
uint8_t *optimizer_alloc_detour(void);
void optimizer_free_detour(uint8_t *detour);
/* Detour buffers in use (tests check none leak). */
unsigned long optimizer_detours_in_use(void);
/* One line for `probe show`: optimized, or why not. */
void optimizer_describe_locked(struct probe_point *pp, char *buf, size_t size);
/* True when no point waits for the optimizer thread (none QUEUED or
 * READY): the thread has done all the work it was given. */
bool optimizer_idle_locked(void);

#endif
