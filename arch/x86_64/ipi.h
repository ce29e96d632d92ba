/* Inter-processor interrupts on x86_64 (ipi.c): arch_send_ipi's other
 * half, for the NMI handler. */
#ifndef ARCH_X86_64_IPI_H
#define ARCH_X86_64_IPI_H

#include "lib/types.h"

/* Whether another CPU asked this one to stop (IPI_STOP): then the NMI
 * that just arrived is that request. */
bool ipi_stop_requested(void);

#endif
