/* TLB shootdowns on x86_64 (tlb.c): the NMI handler's half. */
#ifndef ARCH_X86_64_TLB_H
#define ARCH_X86_64_TLB_H

#include "lib/types.h"

/* If this NMI is a request to flush the TLB (arch_flush_tlb_page_all on
 * another CPU), flush and return true; false if nobody asked. */
bool tlb_handle_nmi(void);

#endif
