/* The ELF header of the small relocatable objects the host tests of the
 * module code build in memory (test_module_elf.c, test_modinfo.c). */
#ifndef TESTS_HOST_ELF_HEADER_H
#define TESTS_HOST_ELF_HEADER_H

#include "lib/elf.h"
#include "lib/string.h"

/* A valid header of a 64-bit little-endian relocatable object for
 * machine, whose shnum section headers start at shoff, the names'
 * section being shstrndx. */
static inline void elf_header_init(Elf64_Ehdr *eh, uint16_t machine, uint64_t shoff,
				   uint16_t shnum, uint16_t shstrndx)
{
	memset(eh, 0, sizeof(*eh));
	memcpy(eh->e_ident, "\177ELF", 4);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_REL;
	eh->e_machine = machine;
	eh->e_version = EV_CURRENT;
	eh->e_shoff = shoff;
	eh->e_ehsize = sizeof(Elf64_Ehdr);
	eh->e_shentsize = sizeof(Elf64_Shdr);
	eh->e_shnum = shnum;
	eh->e_shstrndx = shstrndx;
}

#endif
