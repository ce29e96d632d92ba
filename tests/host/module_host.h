/* The module loader on the host (module_host.c): what the host tests'
 * module_load_tool and the fuzzer's module targets run.
 *
 * Steps 1 to 5 of a load (prepare_module in kernel/module/loader.c) run
 * unchanged over host stand-ins for what they call of the kernel: the
 * heap is malloc, executable memory is a region mapped at a fixed low
 * address, and the kernel's exports are every EXPORT_SYMBOL of the
 * architecture's sources, at made-up addresses near that region.
 *
 * Why low addresses: a user program cannot map the kernel's half of the
 * address space, but what the relocation checks test is distance and
 * sign extension (x86_64's PC32 and 32S, aarch64's CALL26 and ADRP), and
 * a module and exports below 2 GiB, a few MiB apart, pass them as the
 * kernel's do. A malloc'd buffer, far above, would fail every one, and a
 * fuzzer would never get past the relocations to the parameters and
 * exports. */
#ifndef TESTS_HOST_MODULE_HOST_H
#define TESTS_HOST_MODULE_HOST_H

#include <stddef.h>

/* Where the loader's one-line messages go: NULL (the default) drops
 * them once formatted. */
void module_host_log_to(void *file);

/* Run steps 1 to 5 on image[0..size) with parameters args[0..nargs),
 * then free whatever was made. Returns prepare_module's result: 0 or a
 * negative errno, with the reason printed. image need not be aligned. */
int module_host_prepare(const void *image, size_t size, int nargs, char **args);

#endif
