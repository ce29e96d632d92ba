/* How a probe reads in a listing (probe_line.h). */
#include "kernel/probes/files/probe_line.h"
#include "lib/format.h"
#include "lib/string.h"

char probe_kind_letter(enum kprobe_kind kind)
{
	static const char letters[] = { [KPROBE_KIND_K] = 'k', [KPROBE_KIND_J] = 'j',
					[KPROBE_KIND_R] = 'r' };

	return letters[kind];
}

void probe_format_flags(unsigned int flags, const char *sep, char *buf, size_t size)
{
	static const struct {
		unsigned int flag;
		const char *name;
	} names[] = {
		{ KPROBE_FLAG_GONE, "[GONE]" },
		{ KPROBE_FLAG_DISABLED, "[DISABLED]" },
		{ KPROBE_FLAG_OPTIMIZED, "[OPTIMIZED]" },
		{ KPROBE_FLAG_FTRACE, "[FTRACE]" },
	};
	size_t len = 0;

	if (flags & KPROBE_FLAG_GONE)
		flags &= ~KPROBE_FLAG_DISABLED;
	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if ((flags & names[i].flag) && len < size)
			len += (size_t)snprintf(buf + len, size - len, "%s%s", sep, names[i].name);
}

void probe_format_place(const struct kprobe_info *info, char *buf, size_t size)
{
	if (info->module[0])
		snprintf(buf, size, "%s [%s]", info->where, info->module);
	else
		strlcpy(buf, info->where, size);
}

void probe_format_list_line(const struct kprobe_info *info, char *buf, size_t size)
{
	char flags[40];

	probe_format_flags(info->flags, "", flags, sizeof(flags));
	/* Linux prints a blank where a kernel probe has no module, so the
	 * flags of every line start after a space of their own. */
	snprintf(buf, size, "%016lx  %c  %s  %s %s\n", (unsigned long)info->addr,
		 probe_kind_letter(info->kind), info->where,
		 info->module[0] ? info->module : " ", flags);
}

void probe_format_shell_line(const struct kprobe_info *info, const char *owner, char *buf,
			     size_t size)
{
	char place[PROBE_PLACE_MAX], flags[48];

	probe_format_place(info, place, sizeof(place));
	probe_format_flags(info->flags, "  ", flags, sizeof(flags));
	snprintf(buf, size, "%u  %016lx  %c  %s%s  hits=%lu missed=%lu  owner=%s\n", info->id,
		 (unsigned long)info->addr, probe_kind_letter(info->kind), place, flags,
		 info->nhit, info->nmissed, owner);
}
