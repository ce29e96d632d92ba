/* EXPORT_SYMBOL(name) in a module: name becomes callable by modules
 * loaded after it (see lib/export.h, the same macro the kernel uses;
 * the loader reads the module's __ksymtab section). */
#ifndef _LINUX_EXPORT_H
#define _LINUX_EXPORT_H

#include "lib/export.h"

#endif
