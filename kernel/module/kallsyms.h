/* Linux's kallsyms_lookup_name, which modules written for Linux before
 * 5.7 call (include/linux/kallsyms.h gives it to them). */
#ifndef KERNEL_MODULE_KALLSYMS_H
#define KERNEL_MODULE_KALLSYMS_H

/* The address of the kernel's or a loaded module's symbol called name
 * ("module:name" looks in that module only), or 0 if there is none.
 * Exported. */
unsigned long kallsyms_lookup_name(const char *name);

#endif
