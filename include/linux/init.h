/* Sections for code and data used only while a module starts or ends.
 *
 * The loader (kernel/module/) frees .init.* once the module's init
 * function has returned 0, as Linux does: mark with __init only what
 * init alone calls. .exit.text stays loaded for as long as the module.
 * module_init and module_exit are in linux/module.h. */
#ifndef _LINUX_INIT_H
#define _LINUX_INIT_H

#include "lib/types.h"

#define __init		__section(".init.text")
#define __initdata	__section(".init.data")
#define __initconst	__section(".init.rodata")
#define __exit		__section(".exit.text")
#define __exitdata	__section(".exit.data")

#endif
