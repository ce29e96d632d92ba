/* sysfs (sysfs.h): a pseudo filesystem, with the directories Linux's
 * has at boot for what is mounted or made below it. */

#include "kernel/fs/sysfs.h"
#include "kernel/initcall.h"
#include "lib/err.h"

struct pseudofs sysfs = PSEUDOFS_INIT(sysfs, "sysfs");

static int sysfs_init(void)
{
	static const char *const dirs[] = {
		"kernel", "kernel/debug", "kernel/tracing", "module",
	};
	int err = 0;

	register_filesystem(&sysfs.type);
	for (size_t i = 0; i < ARRAY_SIZE(dirs) && !err; i++)
		err = PTR_ERR_OR_ZERO(pseudofs_create(&sysfs, NULL,
						      &(struct pseudo_spec){ .name = dirs[i] }));
	return err;
}
late_initcall(sysfs_init);
