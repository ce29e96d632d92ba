/* Calls into PSCI, the Arm Power State Coordination Interface: the
 * firmware service (QEMU itself, under QEMU) that starts and stops CPUs
 * and powers the machine off (arch/aarch64/psci.c). */
#ifndef ASM_PSCI_H
#define ASM_PSCI_H

#include <stdint.h>

/* Function ids of PSCI 0.2 and later (SMC64 where there are addresses). */
#define PSCI_FN64_CPU_ON     0xc4000003
#define PSCI_FN_SYSTEM_OFF   0x84000008

/* PSCI's own return codes. */
#define PSCI_SUCCESS             0
#define PSCI_NOT_SUPPORTED      -1
#define PSCI_INVALID_PARAMETERS -2
#define PSCI_DENIED             -3
#define PSCI_ALREADY_ON         -4
#define PSCI_ON_PENDING         -5
#define PSCI_INTERNAL_FAILURE   -6
#define PSCI_NOT_PRESENT        -7
#define PSCI_DISABLED           -8
#define PSCI_INVALID_ADDRESS    -9

/* Call PSCI function fn with up to three arguments, through the conduit
 * the device tree names (HVC or SMC). Returns what PSCI returns in x0. */
int64_t psci_call(uint32_t fn, uint64_t arg1, uint64_t arg2, uint64_t arg3);

/* Start the CPU whose MPIDR affinity is mpidr at the physical address
 * entry, with the MMU off and x0 = context. fn is CPU_ON's function id
 * (the device tree's). Returns 0, or a negative errno: -EBUSY if the CPU
 * is already on or starting, -EINVAL for a bad mpidr, -EFAULT for a bad
 * entry address, -EPERM if refused, -ENOSYS if PSCI cannot, -ENODEV if
 * the CPU is absent or disabled, -EIO otherwise. */
int psci_cpu_on(uint32_t fn, uint64_t mpidr, uint64_t entry, uint64_t context);

#endif
