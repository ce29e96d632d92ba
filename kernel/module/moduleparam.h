/* Module parameters: what `insmod m.ko name=value` sets.
 *
 * module_param(name, type, perm) in a module (include/linux/moduleparam.h)
 * places one struct kernel_param in the module's __param section. The
 * loader relocates the module, finds the section, and parses each
 * name=value of the insmod command line into the variable arg points
 * to, before init runs. This header is the layout both sides share. */
#ifndef KERNEL_MODULE_MODULEPARAM_H
#define KERNEL_MODULE_MODULEPARAM_H

#include "lib/types.h"

enum kernel_param_type {
	PARAM_TYPE_int,		/* int */
	PARAM_TYPE_uint,	/* unsigned int */
	PARAM_TYPE_long,	/* long */
	PARAM_TYPE_ulong,	/* unsigned long */
	PARAM_TYPE_bool,	/* bool: y/n, 1/0, true/false, on/off */
	PARAM_TYPE_charp,	/* char *: the loader keeps a copy of the value */
	PARAM_TYPE_string,	/* char[maxlen]: copied into the module's array */
};

struct kernel_param {
	const char *name;
	void *arg;			/* the variable */
	uint32_t type;			/* enum kernel_param_type */
	uint32_t maxlen;		/* PARAM_TYPE_string: the array's size */
	uint32_t perm;			/* Linux's sysfs mode; recorded, not used */
	uint32_t reserved;
};

#endif
