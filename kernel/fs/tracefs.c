/* tracefs: the pseudo filesystem of Linux's tracing, mounted at
 * /sys/kernel/tracing and, as on Linux, at /sys/kernel/debug/tracing
 * (kernel/main.c). It is empty for now: the files of dynamic events
 * (kprobe_events) will be made in it with pseudofs's calls. */

#include "kernel/fs/pseudofs.h"
#include "kernel/initcall.h"

static struct pseudofs tracefs = PSEUDOFS_INIT(tracefs, "tracefs");

static int tracefs_init(void)
{
	register_filesystem(&tracefs.type);
	return 0;
}
late_initcall(tracefs_init);
