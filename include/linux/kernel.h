/* The grab bag Linux modules include first: types, attributes, printk,
 * kallsyms_lookup_name, the limits, NR_CPUS, and a few helpers
 * (ARRAY_SIZE and container_of come from lib/types.h). */
#ifndef _LINUX_KERNEL_H
#define _LINUX_KERNEL_H

#include <linux/compiler.h>
#include <linux/kallsyms.h>
#include <linux/limits.h>
#include <linux/printk.h>
#include <linux/threads.h>
#include <linux/types.h>
#include "lib/errno.h"
#include "lib/string.h"

#endif
