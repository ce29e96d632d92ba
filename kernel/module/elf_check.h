/* Checking a module file before the loader reads it.
 *
 * A .ko comes from outside the kernel (`insmod FILE`), so every offset,
 * size and index in it is checked once, here, before the loader follows
 * any of them: after module_elf_check() has returned 0, the helpers
 * below and the loader may use the headers, the section contents, the
 * symbols, their names and the relocations without bounds checks of
 * their own. What it does not check is the loader's business: which
 * symbols resolve, whether a relocation's result fits its field, and
 * whether the field, which starts within its section (r_offset <
 * sh_size), also ends within it: its width (1 to 8 bytes) depends on the
 * type, which only the architecture knows. Nor does it bound the sizes
 * and alignments of SHT_NOBITS sections, which have no bytes in the file:
 * the loader must check their sum before allocating.
 *
 * It also checks that each section's type fits what the loader will do
 * with it (module_section_loaded() below): an allocated section must be
 * of a type the loader loads, a section named .rel* or .rela* must be
 * RELA, and .modinfo must have contents in the file. */
#ifndef KERNEL_MODULE_ELF_CHECK_H
#define KERNEL_MODULE_ELF_CHECK_H

#include "lib/elf.h"
#include "lib/types.h"

/* Check that image[0..size) is a well-formed ELF-64 little-endian
 * relocatable object for machine (EM_X86_64, EM_AARCH64) that this loader
 * can read: every header, section, symbol, name and relocation lies
 * within the file and refers to things that exist. image must be 8-byte
 * aligned. Returns 0; -ENOEXEC for a bad file, with a one-line lowercase
 * reason (no newline) in why[0..why_size) when why is not NULL; or
 * -EINVAL if image is misaligned. */
int module_elf_check(const void *image, size_t size, uint16_t machine,
		     char *why, size_t why_size);

/* The following are for a checked image only. */

/* Section header i, or NULL if there is no section i. */
const Elf64_Shdr *elf_section(const Elf64_Ehdr *eh, unsigned int i);

/* The name of section sh (from the section name table). */
const char *elf_section_name(const Elf64_Ehdr *eh, const Elf64_Shdr *sh);

/* Whether section sh has bytes in the file: every type but SHT_NULL and
 * SHT_NOBITS (.bss). This is what "inside the file" means for each type:
 * module_elf_check() has put the bytes of every section that has them
 * inside the file, and nothing may read those of one that has none,
 * wherever its sh_offset points. */
bool elf_section_has_data(const Elf64_Shdr *sh);

/* Whether the loader places section sh in memory: allocated (whose type
 * the check has made one the loader loads), not empty, and not .modinfo,
 * which is read from the file and unused at run time. Every part of the
 * loader decides with this. */
bool module_section_loaded(const Elf64_Ehdr *eh, const Elf64_Shdr *sh);

/* The bytes of section sh in the file, or NULL for a section that has
 * none (elf_section_has_data). */
const void *elf_section_data(const Elf64_Ehdr *eh, const Elf64_Shdr *sh);

/* The symbol table's section header (a checked image has exactly one). */
const Elf64_Shdr *elf_symtab_section(const Elf64_Ehdr *eh);

/* The symbols, symbol 0 (the null symbol) included; their number in
 * *count. */
const Elf64_Sym *elf_symbols(const Elf64_Ehdr *eh, size_t *count);

/* The name of a symbol of the symbol table ("" for an unnamed one). */
const char *elf_symbol_name(const Elf64_Ehdr *eh, const Elf64_Sym *sym);

/* The relocations of a SHT_RELA section; their number in *count. */
const Elf64_Rela *elf_relocations(const Elf64_Ehdr *eh, const Elf64_Shdr *sh,
				  size_t *count);

#endif
