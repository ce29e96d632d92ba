/* The rows of /proc/interrupts on x86_64 (arch_irq_row, kernel/arch.h),
 * as Linux's x86 file has them: first each legacy line the kernel
 * unmasks, numbered, with its controller, line, trigger and driver (only
 * COM1's, whose driver Linux calls ttyS0; its IRQ goes through the 8259
 * PIC, which Linux calls XT-PIC; counted by pic.c), then a row per kind
 * of local APIC interrupt, under Linux's three-letter names: LOC, each
 * CPU's timer; RES and CAL, the reschedule and function-call IPIs.
 *
 * IPI_STOP (an NMI, on the way to a halt) and the TLB shootdowns' NMIs
 * are not counted, and have no row. */

#include "kernel/arch.h"
#include "lib/format.h"
#include "lib/string.h"
#include <asm/irq_vectors.h>

/* A kind's row: Linux's name for it, then two spaces and what it is. */
static bool kind_row(struct irq_row *row, const char *label, const char *what,
		     enum irq_source source, unsigned int which)
{
	strlcpy(row->label, label, sizeof(row->label));
	snprintf(row->text, sizeof(row->text), "  %s", what);
	row->source = source;
	row->which = which;
	return true;
}

bool arch_irq_row(unsigned int i, struct irq_row *row)
{
	switch (i) {
	case 0:
		/* Linux's columns: the controller in 8, the line in 3, "-"
		 * and the trigger in 8, two spaces, the driver. */
		snprintf(row->label, sizeof(row->label), "%u", IRQ_COM1);
		snprintf(row->text, sizeof(row->text), " %8s %3u-%-8s  %s", "XT-PIC", IRQ_COM1,
			 "edge", "ttyS0");
		row->source = IRQ_SOURCE_DEVICE;
		row->which = IRQ_COM1;
		return true;
	case 1:
		return kind_row(row, "LOC", "Local timer interrupts", IRQ_SOURCE_TIMER, 0);
	case 2:
		return kind_row(row, "RES", "Rescheduling interrupts", IRQ_SOURCE_IPI,
				IPI_RESCHEDULE);
	case 3:
		return kind_row(row, "CAL", "Function call interrupts", IRQ_SOURCE_IPI,
				IPI_CALL_FUNCTION);
	default:
		return false;
	}
}
