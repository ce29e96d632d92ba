/* What CPUID says of each CPU, for /proc/cpuinfo (arch_cpuinfo_field,
 * kernel/arch.h), in the fields Linux prints on x86 whose values the
 * kernel knows: the vendor; the family, model and stepping that leaf 1's
 * signature encodes; the brand string (model name); the TSC's rate
 * (cpu MHz: what Linux shows too when no frequency driver knows
 * better); the local APIC id; and the highest standard leaf (cpuid
 * level). The feature flags, cache and topology lines are left out: the
 * kernel reads none of that.
 *
 * Each CPU records its own as it comes up (cpuinfo_record, from
 * arch_cpu_init): CPUID describes the CPU that runs it, and a machine's
 * CPUs need not all be the same. */

#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/cpuinfo.h"
#include "kernel/arch.h"
#include "kernel/cpu.h"
#include "kernel/smp.h"
#include "lib/format.h"
#include "lib/string.h"

#define LEAF_BRAND_FIRST 0x80000002
#define LEAF_BRAND_LAST  0x80000004
#define MODEL_NAME_MAX   48

struct cpu_ident {
	bool recorded;
	uint32_t max_leaf;		/* leaf 0's EAX */
	uint32_t signature;		/* leaf 1's EAX: family, model, stepping */
	char vendor[13];		/* leaf 0's EBX, EDX, ECX */
	char model_name[MODEL_NAME_MAX + 1];
};

static struct cpu_ident idents[MAX_CPUS];

/* The brand string (leaves 0x80000002-4), less the spaces some CPUs
 * start it with, as Linux shows it; "" for a CPU that has none. */
static void read_model_name(char *name)
{
	size_t lead = 0;

	name[0] = '\0';
	if (cpuid(0x80000000).eax < LEAF_BRAND_LAST)
		return;
	for (uint32_t leaf = LEAF_BRAND_FIRST; leaf <= LEAF_BRAND_LAST; leaf++) {
		struct cpuid_regs r = cpuid(leaf);

		memcpy(name + 16 * (leaf - LEAF_BRAND_FIRST), &r, 16);
	}
	name[MODEL_NAME_MAX] = '\0';
	while (name[lead] == ' ')
		lead++;
	memmove(name, name + lead, strlen(name + lead) + 1);
}

void cpuinfo_record(unsigned int id)
{
	struct cpu_ident *c = &idents[id];
	struct cpuid_regs r = cpuid(0);

	c->max_leaf = r.eax;
	memcpy(c->vendor, &r.ebx, 4);
	memcpy(c->vendor + 4, &r.edx, 4);
	memcpy(c->vendor + 8, &r.ecx, 4);
	c->signature = cpuid(1).eax;
	read_model_name(c->model_name);
	__atomic_store_n(&c->recorded, true, __ATOMIC_RELEASE);
}

/* The family and model as Linux counts them: the extended family is
 * added to family 15, the extended model put above the model from
 * family 6 on. */
static unsigned int family(uint32_t signature)
{
	unsigned int f = (signature >> 8) & 0xf;

	return f == 0xf ? f + ((signature >> 20) & 0xff) : f;
}

static unsigned int model(uint32_t signature)
{
	unsigned int m = (signature >> 4) & 0xf;

	return family(signature) >= 6 ? m | ((signature >> 16) & 0xf) << 4 : m;
}

/* Name the field and write its value; true, for arch_cpuinfo_field. */
static bool field(const char **name, const char *field_name, char *value, size_t size,
		  const char *fmt, ...)
{
	va_list ap;

	*name = field_name;
	va_start(ap, fmt);
	vsnprintf(value, size, fmt, ap);
	va_end(ap);
	return true;
}

bool arch_cpuinfo_field(unsigned int id, unsigned int i, const char **name, char *value,
			size_t size)
{
	unsigned long khz = (unsigned long)(arch_cycles_frequency() / 1000);
	const struct cpu_ident *c;

	if (id >= MAX_CPUS || !__atomic_load_n(&idents[id].recorded, __ATOMIC_ACQUIRE))
		return false;
	c = &idents[id];
	switch (i) {
	case 0:
		return field(name, "vendor_id", value, size, "%s", c->vendor);
	case 1:
		return field(name, "cpu family", value, size, "%u", family(c->signature));
	case 2:
		return field(name, "model", value, size, "%u", model(c->signature));
	case 3:
		return field(name, "model name", value, size, "%s",
			     c->model_name[0] ? c->model_name : "unknown");
	case 4:
		return field(name, "stepping", value, size, "%u", c->signature & 0xf);
	case 5:
		return field(name, "cpu MHz", value, size, "%lu.%03lu", khz / 1000, khz % 1000);
	case 6:
		return field(name, "apicid", value, size, "%lu", (unsigned long)cpu_hw_id(id));
	case 7:
		return field(name, "cpuid level", value, size, "%u", c->max_leaf);
	default:
		return false;
	}
}
