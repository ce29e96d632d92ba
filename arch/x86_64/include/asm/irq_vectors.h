/* Interrupt vectors: the 8259 PICs are remapped to 32-47, just past the
 * CPU exceptions. */
#ifndef ASM_IRQ_VECTORS_H
#define ASM_IRQ_VECTORS_H

#define IRQ_VECTOR_BASE 32
#define IRQ_TIMER 0	/* PIT channel 0 */
#define IRQ_COM1  4

/* Acknowledge and handle legacy IRQ number irq (0-15). */
void pic_handle_irq(unsigned int irq);

#endif
