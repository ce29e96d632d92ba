/* /proc/version: what kernel this is, in the shape of Linux's line
 * ("Linux version RELEASE (COMPILER) #1 SMP PREEMPT ..."): the release
 * is the build's identity, the first word of the vermagic that modules
 * must match (tools/mkvermagic.py), and the compiler GCC's own version
 * string. */

#include "generated/vermagic.h"
#include "kernel/fs/procfs.h"
#include "kernel/initcall.h"
#include "lib/errno.h"
#include "lib/string.h"
#include <asm/boot.h>

static int version_show(struct seq_file *m, void *v)
{
	const char *space = strchr(VERMAGIC_STRING, ' ');

	(void)v;
	seq_printf(m, "ProbeOS version %.*s (gcc version %s) #1 SMP PREEMPT %s\n",
		   (int)(space - VERMAGIC_STRING), VERMAGIC_STRING, __VERSION__, ARCH_NAME);
	return 0;
}

static int proc_version_init(void)
{
	return proc_create_single("version", 0444, NULL, version_show) ? 0 : -ENOMEM;
}
late_initcall(proc_version_init);
