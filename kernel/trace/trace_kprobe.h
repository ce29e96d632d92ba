/* Kprobe events: the events a line written to kprobe_events defines,
 * each a kprobe (or kretprobe) whose hits write a record of the values
 * its fetch arguments name (Documentation/trace/kprobetrace.rst;
 * docs/events.md). Shared by their three files:
 *
 *   trace_kprobe.c         definitions, their probes, and the records
 *   trace_kprobe_output.c  the records as text, and the format file
 *   trace_kprobe_files.c   kprobe_events, dynamic_events, kprobe_profile */
#ifndef KERNEL_TRACE_TRACE_KPROBE_H
#define KERNEL_TRACE_TRACE_KPROBE_H

#include "kernel/probes/kprobes.h"
#include "kernel/trace/kprobe_event_parse.h"
#include "kernel/trace/trace_events.h"

struct seq_file;

struct trace_kprobe {
	struct trace_event_call call;
	struct kretprobe rp;		/* rp.kp alone for a kprobe event */
	/* "GROUP/EVENT", which `probe list` shows as the probe's owner. */
	char label[2 * MAX_EVENT_NAME_LEN];
	bool placed;			/* its probe is registered */
	/* Hits and misses of its probes unregistered before (a module's
	 * probes, gone and placed again). */
	unsigned long nhit_before, nmissed_before;
	struct list_node link;		/* in the list of kprobe events */
	struct trace_kprobe *name_next;	/* in its bucket of them by name */
	struct kprobe_event_def def;	/* def.args is args */
	struct probe_arg args[];
};

/* The fields every record of tk starts with, before its arguments. */
struct kprobe_event_head {
	uint64_t ip;			/* the probed address */
};
struct kretprobe_event_head {
	uint64_t func;			/* the function returning */
	uint64_t ret_ip;		/* where it returns to */
};

static inline size_t trace_kprobe_head_size(const struct trace_kprobe *tk)
{
	return tk->def.is_return ? sizeof(struct kretprobe_event_head)
				 : sizeof(struct kprobe_event_head);
}

/* Run one line of kprobe_events, the len bytes at line (no newline): a
 * definition, or a removal ("-:[GROUP/]EVENT"); a blank line or a '#'
 * comment does nothing. 0 or a negative errno (-EINVAL for a line of
 * 4,096 bytes or more), with an entry in error_log for a definition
 * refused. */
int trace_kprobe_command(const char *line, size_t len);

/* Remove every kprobe event (kprobe_events opened with O_TRUNC): 0, or
 * -EBUSY, and none removed, if one is enabled. */
int trace_kprobe_remove_all(void);

/* The kprobe events, oldest first, for the files' readers: under the
 * lock that keeps them (trace_kprobe_lock), the one at position pos
 * (0: the oldest), and the one after tk; NULL past the last. */
void trace_kprobe_lock(void);
void trace_kprobe_unlock(void);
struct trace_kprobe *trace_kprobe_at(long pos);
struct trace_kprobe *trace_kprobe_next(struct trace_kprobe *tk);

/* tk's hits, and the hits it missed (a kretprobe's calls missed for
 * want of an instance among them), over every probe it has had. Under
 * trace_kprobe_lock. */
unsigned long trace_kprobe_nhit(const struct trace_kprobe *tk);
unsigned long trace_kprobe_nmissed(const struct trace_kprobe *tk);

/* A record of call's as trace shows it, after "EVENT: ":
 * "(vfs_read+0x0/0x90) count=4096", or for a return
 * "(ksys_read+0x6b/0xc0 <- vfs_read) arg1=12"; as trace_event_ops's
 * print. */
int trace_kprobe_print(const struct trace_event_call *call, char *line, size_t size,
		       const void *body, size_t len);
/* The format file's own part of call: as trace_event_ops's show_format. */
void trace_kprobe_show_format(const struct trace_event_call *call, struct seq_file *m);
/* The field of call's records called name, for a filter: the head's
 * (__probe_ip; __probe_func, __probe_ret_ip) and the arguments' (not
 * an array's); as trace_event_ops's field. */
bool trace_kprobe_field(const struct trace_event_call *call, const char *name, size_t len,
			struct filter_field *f);

#endif
