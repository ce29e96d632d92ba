/*
 * The crash kind of the module loader (crash=KIND on the command line;
 * see kernel/crash_test.c):
 *
 *   crash=module-fault  load /lib/modules/mod_crash.ko (tests/modules/)
 *                       with crash=1: its init writes through a NULL
 *                       pointer, and the panic's backtrace must name the
 *                       module's functions and go on through the loader
 *                       to kmain, as through kernel code
 */
#include "kernel/crash_test.h"
#include "kernel/mm/heap.h"
#include "kernel/module/module.h"
#include "kernel/printk.h"
#include "kernel/fs/vfs.h"

static void crash_in_module(void)
{
	static char arg[] = "crash=1";
	char *args[] = { arg };
	void *image;
	size_t size;

	if (vfs_read_all("/lib/modules/mod_crash.ko", &image, &size) < 0) {
		kprintf("crash=module-fault: no /lib/modules/mod_crash.ko\n");
		return;
	}
	module_load(image, size, 1, args);
	kfree(image);
}
CRASH_KIND("module-fault", crash_in_module);
