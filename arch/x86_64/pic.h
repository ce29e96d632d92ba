/* The 8259 PICs and the 8254 PIT (pic.c): COM1's interrupt, and the
 * measure of the TSC's rate. */
#ifndef ARCH_X86_64_PIC_H
#define ARCH_X86_64_PIC_H

/* Measure the TSC's rate with the PIT (arch_cycles_frequency), and remap
 * the PICs to vectors 32-47 with only COM1's line unmasked. Interrupts
 * must be off. */
void pic_init(void);
/* Acknowledge and handle legacy IRQ number irq (0-15). */
void pic_handle_irq(unsigned int irq);


#endif
