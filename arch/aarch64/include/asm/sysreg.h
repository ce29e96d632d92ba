/* aarch64 system register values used by the boot code and arch/aarch64,
 * and accessors for C. Constants only in the first part, so that assembly
 * can include this file too. */
#ifndef ASM_SYSREG_H
#define ASM_SYSREG_H

#ifdef __ASSEMBLY__
#define BIT(n) (1 << (n))
#else
#define BIT(n) (1ULL << (n))
#endif

/* SCTLR_EL1: the bits that must be 1 (RES1 on ARMv8.0), and the ones we
 * set. WXN ("writable means never executable") is turned on once the W^X
 * page tables are in place. */
#define SCTLR_EL1_RES1 (BIT(29) | BIT(28) | BIT(23) | BIT(22) | BIT(20) | BIT(11))
#define SCTLR_M   BIT(0)	/* MMU on */
#define SCTLR_C   BIT(2)	/* data caches on */
#define SCTLR_SA  BIT(3)	/* fault on a misaligned sp */
#define SCTLR_I   BIT(12)	/* instruction cache on */
#define SCTLR_WXN BIT(19)

/* MAIR_EL1: memory attribute slot 0 is normal write-back memory, slot 1
 * device registers (nGnRE: no gathering, no reordering, early ack). */
#define MAIR_NORMAL_WB  0xff
#define MAIR_DEVICE     0x04
#define MAIR_VALUE      (MAIR_NORMAL_WB | (MAIR_DEVICE << 8))
#define ATTR_NORMAL     0
#define ATTR_DEVICE     1

/* TCR_EL1: 48-bit virtual addresses in both halves, 4 KiB pages, page
 * table walks through the inner-shareable write-back caches. The physical
 * address size (IPS) is copied from ID_AA64MMFR0_EL1 at boot. */
#define TCR_T0SZ(n)   (n)
#define TCR_T1SZ(n)   ((n) << 16)
#define TCR_IRGN0_WB  (1 << 8)
#define TCR_ORGN0_WB  (1 << 10)
#define TCR_SH0_INNER (3 << 12)
#define TCR_TG0_4K    (0 << 14)
#define TCR_EPD0      BIT(7)	/* no walks through TTBR0: lower half faults */
#define TCR_IRGN1_WB  (1 << 24)
#define TCR_ORGN1_WB  (1 << 26)
#define TCR_SH1_INNER (3 << 28)
#define TCR_TG1_4K    (2 << 30)
#define TCR_IPS_SHIFT 32
#define TCR_VALUE (TCR_T0SZ(16) | TCR_IRGN0_WB | TCR_ORGN0_WB | TCR_SH0_INNER | \
		   TCR_TG0_4K | TCR_T1SZ(16) | TCR_IRGN1_WB | TCR_ORGN1_WB |  \
		   TCR_SH1_INNER | TCR_TG1_4K)

/* Translation table descriptors (4 KiB granule). */
#define PTE_VALID     BIT(0)
#define PTE_TABLE     BIT(1)	/* levels 0-2: next-level table, not a block */
#define PTE_PAGE      BIT(1)	/* level 3: must be set for a page */
#define PTE_ATTR(i)   ((i) << 2)
#define PTE_RDONLY    BIT(7)	/* AP[2] */
#define PTE_SH_INNER  (3 << 8)
#define PTE_AF        BIT(10)	/* access flag: clear would fault on use */
#define PTE_PXN       BIT(53)	/* never executable at EL1 */
#define PTE_UXN       BIT(54)	/* never executable at EL0 */
#define PTE_ADDR_MASK 0x0000fffffffff000

/* PSTATE / SPSR bits. */
#define PSR_MODE_EL1H 0x5	/* EL1, using SP_EL1 */
#define PSR_F  BIT(6)
#define PSR_I  BIT(7)
#define PSR_A  BIT(8)
#define PSR_D  BIT(9)
#define PSR_SS BIT(21)	/* software step: step one instruction after ERET */

/* MDSCR_EL1: SS enables software step, KDE debug exceptions (step,
 * breakpoints) at EL1 itself. */
#define MDSCR_SS  BIT(0)
#define MDSCR_KDE BIT(13)

/* HCR_EL2.RW: EL1 runs in AArch64 state. CNTHCTL_EL2: let EL1 use the
 * physical counter and timer. */
#define HCR_EL2_RW BIT(31)
#define CNTHCTL_EL1PCTEN BIT(0)
#define CNTHCTL_EL1PCEN  BIT(1)

/* ESR_EL1: exception class (bits 31:26) and the fields of aborts. */
#define ESR_EC_SHIFT 26
#define ESR_EC(esr)  (((esr) >> ESR_EC_SHIFT) & 0x3f)
#define EC_UNKNOWN        0x00
#define EC_FP_ACCESS      0x07
#define EC_ILLEGAL_STATE  0x0e
#define EC_SVC64          0x15
#define EC_HVC64          0x16
#define EC_SMC64          0x17
#define EC_SYSREG         0x18
#define EC_IABT_LOW       0x20
#define EC_IABT_CUR       0x21
#define EC_PC_ALIGN       0x22
#define EC_DABT_LOW       0x24
#define EC_DABT_CUR       0x25
#define EC_SP_ALIGN       0x26
#define EC_SERROR         0x2f
#define EC_BREAKPT_CUR    0x31
#define EC_SOFTSTP_LOW    0x32
#define EC_SOFTSTP_CUR    0x33
#define EC_WATCHPT_CUR    0x35
#define EC_BRK64          0x3c
#define ESR_ISS_MASK      0x1ffffff
#define ESR_WNR           BIT(6)	/* data abort: caused by a write */
#define ESR_FSC(esr)      ((esr) & 0x3f)
#define FSC_TYPE(fsc)     ((fsc) & 0x3c)	/* without the level */
#define FSC_ADDR_SIZE     0x00
#define FSC_TRANSLATION   0x04
#define FSC_ACCESS_FLAG   0x08
#define FSC_PERMISSION    0x0c

/* The 16 entries of the vector table, in their order: the exception came
 * from the current EL using SP_EL0, the current EL using SP_ELx (the only
 * one the kernel uses), a lower EL in AArch64, or a lower EL in AArch32;
 * each with four kinds (synchronous, IRQ, FIQ, SError). */
#define VECTOR_CUR_SP0_SYNC 0
#define VECTOR_CUR_SPX_SYNC 4
#define VECTOR_CUR_SPX_IRQ  5
#define VECTOR_COUNT        16

#ifndef __ASSEMBLY__
#include <stdint.h>

#define read_sysreg(reg) ({						\
	uint64_t __v;							\
	__asm__ volatile("mrs %0, " #reg : "=r"(__v));			\
	__v;								\
})

#define write_sysreg(v, reg)						\
	__asm__ volatile("msr " #reg ", %x0" : : "rZ"((uint64_t)(v)) : "memory")

static inline void isb(void)
{
	__asm__ volatile("isb" : : : "memory");
}
#endif

#endif
