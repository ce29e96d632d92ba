/*
 * Reading a module's .modinfo section (modinfo.h), for the loader and
 * for `modinfo`.
 *
 * What `modinfo` prints of tests/modules/mod_params.ko:
 *
 *	filename:       /lib/modules/mod_params.ko
 *	size:           21944
 *	license:        GPL
 *	depends:
 *	name:           mod_params
 *	vermagic:       probeos-5b0f7961639f SMP preempt mod_unload x86_64
 *	parm:           p_int:an int (int)
 *	parm:           p_string:string
 *	...
 *
 * A parameter has up to two strings, parm=NAME:DESCRIPTION
 * (MODULE_PARM_DESC) and parmtype=NAME:TYPE (module_param); Linux's
 * modinfo joins them into one line, and so does this.
 */
#include "kernel/module/elf_check.h"
#include "kernel/module/modinfo.h"
#include "lib/errno.h"
#include "lib/string.h"

/* Field names are padded to this many columns, their ':' included. */
#define FIELD_WIDTH 16

void modinfo_iter_init(struct modinfo_iter *it, const void *data, size_t size)
{
	it->p = data;
	it->end = it->p + size;
}

bool modinfo_next(struct modinfo_iter *it, const char **key, size_t *key_len,
		  const char **value)
{
	while (it->p < it->end) {
		const char *s = it->p;
		size_t n = strnlen(s, (size_t)(it->end - s));
		const char *eq;

		if (n == (size_t)(it->end - s)) {
			it->p = it->end;	/* cut by the section's end */
			return false;
		}
		it->p = s + n + 1;
		eq = strchr(s, '=');
		if (!eq || eq == s)
			continue;	/* padding, or not key=value */
		*key = s;
		*key_len = (size_t)(eq - s);
		*value = eq + 1;
		return true;
	}
	return false;
}

/* Whether key[0..len) is the word want. */
static bool key_is(const char *key, size_t len, const char *want)
{
	return len == strlen(want) && strncmp(key, want, len) == 0;
}

const char *modinfo_get(const void *data, size_t size, const char *key)
{
	struct modinfo_iter it;
	const char *k, *value;
	size_t len;

	modinfo_iter_init(&it, data, size);
	while (modinfo_next(&it, &k, &len, &value))
		if (key_is(k, len, key))
			return value;
	return NULL;
}

int modinfo_section(const void *image, size_t image_size, const void **data, size_t *size,
		    char *why, size_t why_size)
{
	const Elf64_Ehdr *eh = image;
	uint16_t machine = 0;
	int err;

	/* Any machine's module: its strings read the same. Read byte-wise,
	 * before the check has seen the header (or its alignment). */
	if (image_size >= sizeof(*eh))
		memcpy(&machine, (const uint8_t *)image + offsetof(Elf64_Ehdr, e_machine),
		       sizeof(machine));
	err = module_elf_check(image, image_size, machine, why, why_size);
	if (err)
		return err;
	for (unsigned int i = 1; i < eh->e_shnum; i++) {
		const Elf64_Shdr *sh = elf_section(eh, i);

		if (strcmp(elf_section_name(eh, sh), ".modinfo") == 0) {
			/* The check made it PROGBITS, inside the file. */
			*data = elf_section_data(eh, sh);
			*size = sh->sh_size;
			return 0;
		}
	}
	if (why && why_size > 0)
		snprintf(why, why_size, "no .modinfo section");
	return -ENOEXEC;
}

static __printf(3, 4) void out(format_sink emit, void *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vformat(emit, ctx, fmt, ap);
	va_end(ap);
}

/* "key:" and the spaces up to the value's column (none for a longer key). */
static void field_name(format_sink emit, void *ctx, const char *key, size_t len)
{
	int pad = len < FIELD_WIDTH - 1 ? (int)(FIELD_WIDTH - 1 - len) : 0;

	out(emit, ctx, "%.*s:%*s", (int)len, key, pad, "");
}

/* A parm= or parmtype= string: the parameter it is about is its value
 * up to the first ':' (one without is no parameter's). */
static bool param_entry(const char *key, size_t key_len, const char *value, size_t *name_len)
{
	const char *colon;

	if (!key_is(key, key_len, "parm") && !key_is(key, key_len, "parmtype"))
		return false;
	colon = strchr(value, ':');
	if (!colon)
		return false;
	*name_len = (size_t)(colon - value);
	return true;
}

/* For parameter name[0..len): the text after "NAME:" of its first
 * string of kind want (parm or parmtype), or NULL; or, with want NULL,
 * whether any string of either kind before the one at upto names it. */
static const char *param_text(const void *data, size_t size, const char *want,
			      const char *name, size_t len, const char *upto)
{
	struct modinfo_iter it;
	const char *key, *value;
	size_t key_len, name_len;

	modinfo_iter_init(&it, data, size);
	while (modinfo_next(&it, &key, &key_len, &value)) {
		if (upto && value >= upto)
			break;
		if (!param_entry(key, key_len, value, &name_len) || name_len != len ||
		    strncmp(value, name, len) != 0)
			continue;
		if (!want || key_is(key, key_len, want))
			return value + len + 1;
	}
	return NULL;
}

/* One line per parameter, at its first string: NAME:DESC (TYPE), or
 * NAME:DESC or NAME:TYPE when it has only one of them. */
static void print_params(const void *data, size_t size, format_sink emit, void *ctx)
{
	struct modinfo_iter it;
	const char *key, *value, *desc, *type;
	size_t key_len, len;

	modinfo_iter_init(&it, data, size);
	while (modinfo_next(&it, &key, &key_len, &value)) {
		if (!param_entry(key, key_len, value, &len) ||
		    param_text(data, size, NULL, value, len, value))
			continue;
		desc = param_text(data, size, "parm", value, len, NULL);
		type = param_text(data, size, "parmtype", value, len, NULL);
		field_name(emit, ctx, "parm", 4);
		out(emit, ctx, "%.*s:%s", (int)len, value, desc ? desc : type);
		if (desc && type)
			out(emit, ctx, " (%s)", type);
		out(emit, ctx, "\n");
	}
}

void modinfo_print(const char *filename, size_t file_size, const void *data, size_t size,
		   format_sink emit, void *ctx)
{
	struct modinfo_iter it;
	const char *key, *value;
	size_t key_len, len;

	field_name(emit, ctx, "filename", 8);
	out(emit, ctx, "%s\n", filename);
	field_name(emit, ctx, "size", 4);
	out(emit, ctx, "%zu\n", file_size);
	modinfo_iter_init(&it, data, size);
	while (modinfo_next(&it, &key, &key_len, &value)) {
		if (param_entry(key, key_len, value, &len))
			continue;
		field_name(emit, ctx, key, key_len);
		out(emit, ctx, "%s\n", value);
	}
	print_params(data, size, emit, ctx);
}
