/*
 * Module parameters: `insmod m.ko name=value ...` (moduleparam.h). Each
 * word is parsed into the variable its struct kernel_param names, before
 * the module's init runs. A word naming no parameter, or a value that
 * does not parse or does not fit, refuses the module with one line.
 *
 * The entries are the module's own data: check_params checks every one
 * of them (declarations.c calls it) before set_module_params follows a
 * name or stores through a variable's pointer.
 */
#include "kernel/module/internal.h"
#include "kernel/mm/heap.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/string.h"

static const char *const type_names[] = {
	[PARAM_TYPE_int] = "an int", [PARAM_TYPE_uint] = "an unsigned int",
	[PARAM_TYPE_long] = "a long", [PARAM_TYPE_ulong] = "an unsigned long",
	[PARAM_TYPE_bool] = "a bool (y/n)", [PARAM_TYPE_charp] = "a string",
	[PARAM_TYPE_string] = "a string",
};

static int parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "y", "Y", "1", "true", "on" };
	static const char *const no[] = { "n", "N", "0", "false", "off" };

	for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
		if (strcmp(s, yes[i]) == 0 || strcmp(s, no[i]) == 0) {
			*out = strcmp(s, yes[i]) == 0;
			return 0;
		}
	}
	return -EINVAL;
}

/* Keep a copy of a charp value; the module frees with the module. */
static int set_charp(struct module *mod, const struct kernel_param *kp, const char *value)
{
	size_t len = strlen(value) + 1;
	char **strings = kmalloc((mod->num_param_strings + 1) * sizeof(*strings));
	char *copy = kmalloc(len);

	if (!strings || !copy) {
		kfree(strings);
		kfree(copy);
		return -ENOMEM;
	}
	strlcpy(copy, value, len);
	memcpy(strings, mod->param_strings, mod->num_param_strings * sizeof(*strings));
	kfree(mod->param_strings);
	strings[mod->num_param_strings++] = copy;
	mod->param_strings = strings;
	*(char **)kp->arg = copy;
	return 0;
}

static int set_value(struct module *mod, const struct kernel_param *kp, const char *value)
{
	int64_t s;
	uint64_t u;
	int err = 0;

	switch (kp->type) {
	case PARAM_TYPE_int:
		if (!(err = parse_signed(value, INT32_MAX, &s)))
			*(int *)kp->arg = (int)s;
		break;
	case PARAM_TYPE_long:
		if (!(err = parse_signed(value, INT64_MAX, &s)))
			*(long *)kp->arg = (long)s;
		break;
	case PARAM_TYPE_uint:
		if (!(err = parse_unsigned(value, UINT32_MAX, &u)))
			*(unsigned int *)kp->arg = (unsigned int)u;
		break;
	case PARAM_TYPE_ulong:
		if (!(err = parse_unsigned(value, UINT64_MAX, &u)))
			*(unsigned long *)kp->arg = (unsigned long)u;
		break;
	case PARAM_TYPE_bool:
		err = parse_bool(value, (bool *)kp->arg);
		break;
	case PARAM_TYPE_charp:
		err = set_charp(mod, kp, value);
		break;
	case PARAM_TYPE_string:
		if (strlen(value) >= kp->maxlen) {
			kprintf("insmod: value for parameter '%s' is longer than %u characters\n",
				kp->name, kp->maxlen - 1);
			return -ENOSPC;
		}
		strlcpy(kp->arg, value, kp->maxlen);
		break;
	}
	if (err == -ENOMEM)
		kprintf("insmod: out of memory\n");
	else if (err)
		kprintf("insmod: bad value '%s' for parameter '%s' (%s%s)\n", value, kp->name,
			type_names[kp->type], err == -ERANGE ? ", out of range" : "");
	return err;
}

/* The size and alignment of a parameter's variable, by its type; 0 for
 * a type this loader does not know. */
static size_t variable_size(const struct kernel_param *kp)
{
	switch (kp->type) {
	case PARAM_TYPE_int:
		return sizeof(int);
	case PARAM_TYPE_uint:
		return sizeof(unsigned int);
	case PARAM_TYPE_long:
		return sizeof(long);
	case PARAM_TYPE_ulong:
		return sizeof(unsigned long);
	case PARAM_TYPE_bool:
		return sizeof(bool);
	case PARAM_TYPE_charp:
		return sizeof(char *);
	case PARAM_TYPE_string:
		return kp->maxlen;	/* an array of chars */
	default:
		return 0;
	}
}

static size_t variable_align(const struct kernel_param *kp)
{
	return kp->type == PARAM_TYPE_string ? 1 : variable_size(kp);
}

/* One entry: a name that is a string of the module's, a known type, and
 * a variable in its writable data with room for that type. */
static int check_param(const struct load_info *li, size_t i, const struct kernel_param *kp)
{
	const char *name = module_string(li, (uintptr_t)kp->name);

	if (!name) {
		kprintf("insmod: parameter %zu's name is not a string in the module's data\n", i);
		return -ENOEXEC;
	}
	if (kp->type >= ARRAY_SIZE(type_names)) {
		kprintf("insmod: parameter '%s' has unknown type %u\n", name, kp->type);
		return -ENOEXEC;
	}
	if (variable_size(kp) == 0) {
		kprintf("insmod: parameter '%s' is a string of size 0\n", name);
		return -ENOEXEC;
	}
	if (!module_variable(li, (uintptr_t)kp->arg, variable_size(kp), variable_align(kp))) {
		kprintf("insmod: parameter '%s' has no room for %s in the module's writable data\n",
			name, type_names[kp->type]);
		return -ENOEXEC;
	}
	return 0;
}

int check_params(const struct load_info *li, const struct kernel_param *params, size_t nparams)
{
	for (size_t i = 0; i < nparams; i++) {
		int err = check_param(li, i, &params[i]);

		if (err)
			return err;
	}
	return 0;
}

static const struct kernel_param *find_param(const struct kernel_param *params, size_t n,
					     const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(params[i].name, name) == 0)
			return &params[i];
	return NULL;
}

int set_module_params(struct module *mod, const struct kernel_param *params,
		      size_t nparams, int nargs, char **args)
{
	for (int i = 0; i < nargs; i++) {
		char *eq = strchr(args[i], '=');
		const struct kernel_param *kp;
		int err;

		if (eq)
			*eq = '\0';
		kp = find_param(params, nparams, args[i]);
		if (!kp) {
			kprintf("insmod: unknown parameter '%s'\n", args[i]);
			return -EINVAL;
		}
		/* A bare bool name means true, as in Linux. */
		if (!eq && kp->type != PARAM_TYPE_bool) {
			kprintf("insmod: parameter '%s' needs a value (%s=...)\n", kp->name, kp->name);
			return -EINVAL;
		}
		err = set_value(mod, kp, eq ? eq + 1 : "y");
		if (eq)
			*eq = '=';
		if (err)
			return err;
	}
	return 0;
}
