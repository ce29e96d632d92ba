/* The types of probe event arguments (probe_types.h): how each is
 * printed, and finding one by its name. */
#include "kernel/trace/probe_types.h"
#include "kernel/symtab.h"
#include "lib/format.h"
#include "lib/string.h"

#define PRINT_NUMBER(tname, ctype, fmt_)                                         \
	static int print_##tname(char *buf, size_t size, const void *field,       \
				 const void *base, size_t len)                    \
	{                                                                         \
		ctype v;                                                          \
		(void)base;                                                       \
		(void)len;                                                        \
		memcpy(&v, field, sizeof(v));                                     \
		return snprintf(buf, size, fmt_, v);                              \
	}

PRINT_NUMBER(u8, uint8_t, "%u")
PRINT_NUMBER(u16, uint16_t, "%u")
PRINT_NUMBER(u32, uint32_t, "%u")
PRINT_NUMBER(u64, unsigned long long, "%llu")
PRINT_NUMBER(s8, int8_t, "%d")
PRINT_NUMBER(s16, int16_t, "%d")
PRINT_NUMBER(s32, int32_t, "%d")
PRINT_NUMBER(s64, long long, "%lld")
PRINT_NUMBER(x8, uint8_t, "0x%x")
PRINT_NUMBER(x16, uint16_t, "0x%x")
PRINT_NUMBER(x32, uint32_t, "0x%x")
PRINT_NUMBER(x64, unsigned long long, "0x%llx")

static int print_symbol(char *buf, size_t size, const void *field, const void *base, size_t len)
{
	uint64_t addr;
	char name[128];

	(void)base;
	(void)len;
	memcpy(&addr, field, sizeof(addr));
	sym_format((uintptr_t)addr, name, sizeof(name));
	return snprintf(buf, size, "%s", name);
}

/* A string the fetch copied, or "(fault)". */
static int print_string(char *buf, size_t size, const void *field, const void *base, size_t len)
{
	const char *str = probe_data_loc_string(field, base, len);

	return str ? snprintf(buf, size, "\"%s\"", str) : snprintf(buf, size, "%s", PROBE_FAULT_TEXT);
}

#define NUMBER(tname, bytes, sign, ftype, fmt_) \
	{ #tname, bytes, sign, false, false, ftype, fmt_, print_##tname }
#define STRING(tname, user) \
	{ tname, 4, false, true, user, "__data_loc char[]", "\\\"%s\\\"", print_string }

static const struct fetch_type types[] = {
	STRING("string", false),
	STRING("ustring", true),
	STRING("symstr", false),
	NUMBER(u8, 1, false, "u8", "%u"),
	NUMBER(u16, 2, false, "u16", "%u"),
	NUMBER(u32, 4, false, "u32", "%u"),
	NUMBER(u64, 8, false, "u64", "%Lu"),
	NUMBER(s8, 1, true, "s8", "%d"),
	NUMBER(s16, 2, true, "s16", "%d"),
	NUMBER(s32, 4, true, "s32", "%d"),
	NUMBER(s64, 8, true, "s64", "%Ld"),
	NUMBER(x8, 1, false, "u8", "0x%x"),
	NUMBER(x16, 2, false, "u16", "0x%x"),
	NUMBER(x32, 4, false, "u32", "0x%x"),
	NUMBER(x64, 8, false, "u64", "0x%Lx"),
	NUMBER(symbol, 8, false, "u64", "%pS"),
};

/* A bitfield's container: the part after its '/'. */
static const char *bitfield_container(const char *name)
{
	const char *slash = strchr(name, '/');

	if (!slash)
		return NULL;
	if (!strcmp(slash + 1, "8"))
		return "u8";
	if (!strcmp(slash + 1, "16"))
		return "u16";
	if (!strcmp(slash + 1, "32"))
		return "u32";
	if (!strcmp(slash + 1, "64"))
		return "u64";
	return NULL;
}

const struct fetch_type *find_fetch_type(const char *name)
{
	if (!name)
		name = "x64";
	if (name[0] == 'b') {
		name = bitfield_container(name);
		if (!name)
			return NULL;
	}
	for (size_t i = 0; i < ARRAY_SIZE(types); i++)
		if (!strcmp(types[i].name, name))
			return &types[i];
	return NULL;
}
