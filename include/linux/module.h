/* What a loadable module declares about itself.
 *
 *	static int __init hello_init(void) { pr_info("hello\n"); return 0; }
 *	static void __exit hello_exit(void) { }
 *	module_init(hello_init);
 *	module_exit(hello_exit);
 *	MODULE_LICENSE("GPL");
 *
 * module_init(fn) makes the global symbol init_module another name of
 * fn, and module_exit(fn) cleanup_module: those are the names the loader
 * (kernel/module/module.h) looks for, as Linux's does. A module without
 * module_exit cannot be removed. MODULE_LICENSE and the others put
 * "key=value" strings into the .modinfo section; the build adds
 * "name=" (tools/modules.mk). */
#ifndef _LINUX_MODULE_H
#define _LINUX_MODULE_H

#include <linux/compiler.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/types.h>

/* The functions are checked to have the types the loader calls them
 * with. Each macro ends with its own semicolon, so that it may be
 * written with or without one, as Linux allows (its samples write
 * `module_init(fn)` without). */
#define module_init(initfn)                                                    \
	_Static_assert(__builtin_types_compatible_p(__typeof__(&initfn),       \
						    int (*)(void)),            \
		       "module_init: " #initfn " must be int " #initfn "(void)"); \
	int init_module(void) __attribute__((alias(#initfn)));

#define module_exit(exitfn)                                                    \
	_Static_assert(__builtin_types_compatible_p(__typeof__(&exitfn),       \
						    void (*)(void)),           \
		       "module_exit: " #exitfn " must be void " #exitfn "(void)"); \
	void cleanup_module(void) __attribute__((alias(#exitfn)));

/* What a module puts in its file operations' owner field (Linux's
 * &__this_module). ProbeOS reads no owner (include/linux/fs.h), so it
 * is NULL, as Linux's THIS_MODULE is in code built into the kernel. */
#define THIS_MODULE ((struct module *)0)

/* (Each macro's parameter is named apart from its tag, which it would
 * otherwise replace.) */
#define MODULE_INFO(tag, info)	__MODULE_INFO(tag, info)
/* Every license is accepted: nothing here is restricted to GPL code. */
#define MODULE_LICENSE(_l)	MODULE_INFO(license, _l)
#define MODULE_AUTHOR(_a)	MODULE_INFO(author, _a)
#define MODULE_DESCRIPTION(_d)	MODULE_INFO(description, _d)
#define MODULE_VERSION(_v)	MODULE_INFO(version, _v)
#define MODULE_ALIAS(_a)	MODULE_INFO(alias, _a)

#endif
