/* What each CPU's MIDR_EL1 says of it, for /proc/cpuinfo
 * (arch_cpuinfo_field, kernel/arch.h), in the fields and forms of Linux's
 * arm64 /proc/cpuinfo: who designed it (implementer), which design
 * (part), its major and minor revision (variant, revision), and the
 * architecture, which Linux writes as 8 for every AArch64 CPU. BogoMIPS
 * and the feature list are left out: the kernel measures and reads
 * neither.
 *
 * Each CPU records its own register as it comes up (cpuinfo_record,
 * from arch_cpu_init): a big.LITTLE machine has CPUs of two designs. */

#include "arch/aarch64/cpuinfo.h"
#include "kernel/arch.h"
#include "kernel/cpu.h"
#include "lib/format.h"
#include <asm/sysreg.h>

static uint64_t midr[MAX_CPUS];
static bool recorded[MAX_CPUS];

void cpuinfo_record(unsigned int id)
{
	midr[id] = read_sysreg(midr_el1);
	__atomic_store_n(&recorded[id], true, __ATOMIC_RELEASE);
}

bool arch_cpuinfo_field(unsigned int id, unsigned int i, const char **name, char *value,
			size_t size)
{
	static const char *const names[] = {
		"CPU implementer", "CPU architecture", "CPU variant", "CPU part", "CPU revision",
	};
	uint64_t m;

	if (id >= MAX_CPUS || !__atomic_load_n(&recorded[id], __ATOMIC_ACQUIRE) ||
	    i >= ARRAY_SIZE(names))
		return false;
	m = midr[id];
	*name = names[i];
	switch (i) {
	case 0:
		snprintf(value, size, "0x%02x", (unsigned int)(m >> 24) & 0xff);
		break;
	case 1:
		snprintf(value, size, "8");
		break;
	case 2:
		snprintf(value, size, "0x%x", (unsigned int)(m >> 20) & 0xf);
		break;
	case 3:
		snprintf(value, size, "0x%03x", (unsigned int)(m >> 4) & 0xfff);
		break;
	default:
		snprintf(value, size, "%u", (unsigned int)m & 0xf);
	}
	return true;
}
