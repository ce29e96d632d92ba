/* What the module loader asks of each architecture: which ELF machine
 * it loads, and how to apply one relocation. Both live in
 * arch/<arch>/module_reloc.c, which the host tests also compile, so it
 * uses nothing but lib/. */
#ifndef KERNEL_MODULE_ARCH_MODULE_H
#define KERNEL_MODULE_ARCH_MODULE_H

#include "lib/types.h"

/* The e_machine of modules this kernel loads (EM_X86_64, EM_AARCH64). */
extern const uint16_t arch_module_machine;

/* Apply one RELA relocation of the given type. loc is where the bytes to
 * patch are now; place is the address they will run at (the P of the
 * processor supplement's formulas); value is S + A. Returns 0, -ENOEXEC
 * for a type this loader does not know, or -ERANGE if the result does not
 * fit the field (nothing is written then). */
int arch_module_relocate(uint32_t type, void *loc, uint64_t place, uint64_t value);

/* How many bytes a relocation of this type patches (0 for none, or for
 * an unknown type): the loader checks the field lies in its section. */
size_t arch_module_reloc_width(uint32_t type);

/* The name of a relocation type ("R_X86_64_PC32"), or NULL if unknown. */
const char *arch_module_reloc_name(uint32_t type);

#endif
