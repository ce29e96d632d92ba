/* The kernel's symbol table, as Linux names it for modules:
 * kallsyms_lookup_name (kernel/module/kallsyms.h) and KSYM_NAME_LEN. */
#ifndef _LINUX_KALLSYMS_H
#define _LINUX_KALLSYMS_H

#include "kernel/module/kallsyms.h"

/* The longest symbol name, with its NUL, as in Linux: a buffer this size
 * holds any name register_kprobe can be given. */
#define KSYM_NAME_LEN 512

#endif
