/* How a probe reads in a listing, shared by the two listings: the
 * debugfs file /sys/kernel/debug/kprobes/list, which prints Linux's
 * line, and the shell's `probe list`, which prints the same columns its
 * own way, with the probe's number first and the hit counts and owner
 * after. Plain functions of a report (probe_report.h), so the host
 * tests can check them. */
#ifndef KERNEL_PROBES_FILES_PROBE_LINE_H
#define KERNEL_PROBES_FILES_PROBE_LINE_H

#include "kernel/probes/probe_report.h"

/* The letter of a kind, as Linux's list shows it: k, j or r. */
char probe_kind_letter(enum kprobe_kind kind);

/* The state flags of a probe as Linux's list names them, "[GONE]",
 * "[DISABLED]" and "[OPTIMIZED]" in that order, each with sep before it,
 * into buf (size bytes). A gone probe is not said to be disabled: its
 * code is gone, so it is neither armed nor disarmed. */
void probe_format_flags(unsigned int flags, const char *sep, char *buf, size_t size);

/* "fn+0x4", or "fn+0x4 [module]" on a module's code: a place as the
 * shell and backtraces write it. PROBE_PLACE_MAX bytes hold any. */
#define PROBE_PLACE_MAX (sizeof(((struct kprobe_info *)0)->where) + MODULE_NAME_LEN + 3)
void probe_format_place(const struct kprobe_info *info, char *buf, size_t size);

/* Room for any line probe_format_list_line or probe_format_shell_line
 * makes. */
#define PROBE_LIST_LINE_MAX 384

/* The line of /sys/kernel/debug/kprobes/list for info, newline
 * included, in the columns of Linux's report_probe: the address in 16
 * hex digits, the kind letter, the place, then the module's name (a
 * blank in the kernel), each two spaces apart, a space, and the flags
 * with nothing between them:
 *
 *   ffffffff80123450  k  vfs_read+0x0    [DISABLED]
 *   ffffffffc0001000  r  exporter_add+0x0  mod_exporter [GONE]
 */
void probe_format_list_line(const struct kprobe_info *info, char *buf, size_t size);

/* The line of `probe list` for info, newline included: the probe's
 * number, then the columns above with the module in brackets after the
 * place (probe_format_place) and each flag two spaces after it, then
 * the counts, and owner (the word the command chose: a module's name,
 * "shell" or "kernel"):
 *
 *   3  ffffffff80123450  k  vfs_read+0x0  [DISABLED]  hits=2 missed=0  owner=shell
 *   4  ffffffffc0001000  k  exporter_add+0x0 [mod_exporter]  hits=0 missed=0  owner=mod_user
 */
void probe_format_shell_line(const struct kprobe_info *info, const char *owner, char *buf,
			     size_t size);

#endif
