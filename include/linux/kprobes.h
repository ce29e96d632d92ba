/* kprobes, jprobes and kretprobes, for modules.
 *
 * The structures and calls are the kernel's own (kernel/probes/kprobes.h),
 * which already have Linux's names: struct kprobe, register_kprobe,
 * jprobe_return, struct kretprobe_instance... __kprobes and
 * NOKPROBE_SYMBOL mark a module's code that must never be probed (its
 * handlers may be marked, and Linux's samples mark theirs; nothing
 * requires it, since a probe hit inside a handler is counted as missed). */
#ifndef _LINUX_KPROBES_H
#define _LINUX_KPROBES_H

#include <linux/compiler.h>
#include <linux/kallsyms.h>
#include <linux/ptrace.h>
#include <linux/types.h>
#include "kernel/nokprobe.h"
#include "kernel/probes/kprobes.h"

#endif
