/*
 * PSCI calls (asm/psci.h).
 *
 * PSCI follows the SMC Calling Convention: the function id in x0, the
 * arguments in x1-x3, the result in x0, entered with HVC (the firmware
 * is at EL2: QEMU without virtualization) or SMC (at EL3: QEMU with
 * virtualization, or real firmware). SMCCC 1.0 lets the callee change
 * x4-x17 too, so they are clobbered here as well.
 */
#include "boot/aarch64/fdt_boot.h"
#include "kernel/nokprobe.h"
#include "lib/errno.h"
#include <asm/psci.h>

/* Never probed: it runs on the way out of a panic (arch_poweroff), where
 * a probe would trap inside the panic. */
int64_t psci_call(uint32_t fn, uint64_t arg1, uint64_t arg2, uint64_t arg3)
{
	bool smc = fdt_devices()->psci_smc;
	/* Set after the call above, which would clobber them. */
	register uint64_t x0 __asm__("x0") = fn;
	register uint64_t x1 __asm__("x1") = arg1;
	register uint64_t x2 __asm__("x2") = arg2;
	register uint64_t x3 __asm__("x3") = arg3;

	if (smc)
		__asm__ volatile("smc #0"
				 : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3)
				 :
				 : "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11",
				   "x12", "x13", "x14", "x15", "x16", "x17", "memory");
	else
		__asm__ volatile("hvc #0"
				 : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3)
				 :
				 : "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11",
				   "x12", "x13", "x14", "x15", "x16", "x17", "memory");
	return (int64_t)x0;
}
NOKPROBE_SYMBOL(psci_call);

static int psci_errno(int64_t ret)
{
	switch (ret) {
	case PSCI_SUCCESS:
		return 0;
	case PSCI_ALREADY_ON:
	case PSCI_ON_PENDING:
		return -EBUSY;
	case PSCI_INVALID_PARAMETERS:
		return -EINVAL;
	case PSCI_INVALID_ADDRESS:
		return -EFAULT;
	case PSCI_DENIED:
		return -EPERM;
	case PSCI_NOT_SUPPORTED:
		return -ENOSYS;
	case PSCI_NOT_PRESENT:
	case PSCI_DISABLED:
		return -ENODEV;
	default:
		return -EIO;
	}
}

int psci_cpu_on(uint32_t fn, uint64_t mpidr, uint64_t entry, uint64_t context)
{
	if (!fn)
		return -ENOSYS;	/* the device tree names no CPU_ON */
	return psci_errno(psci_call(fn, mpidr, entry, context));
}
