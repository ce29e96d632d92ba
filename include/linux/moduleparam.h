/* Module parameters: variables `insmod m.ko name=value` sets.
 *
 *	static int count = 3;
 *	module_param(count, int, 0644);
 *	MODULE_PARM_DESC(count, "how many times");
 *
 * Each parameter puts one struct kernel_param (the layout shared with the
 * loader, kernel/module/moduleparam.h) into the module's __param section,
 * and "parmtype=NAME:TYPE" into .modinfo. The loader sets the variables
 * before init runs. Types: int, uint, long, ulong, bool, charp (a char *
 * the loader points at its own copy of the value) and, through
 * module_param_string, a char array the value is copied into. The
 * variable's C type is checked at compile time: a mismatch is an error,
 * because the loader would write the wrong number of bytes. perm is
 * Linux's sysfs mode (S_IRUGO and the others of <linux/stat.h>);
 * it is recorded and not used. */
#ifndef _LINUX_MODULEPARAM_H
#define _LINUX_MODULEPARAM_H

#include <linux/stat.h>
#include "kernel/module/moduleparam.h"
#include "lib/types.h"

/* The C type of each parameter type. */
#define __param_ctype_int	int
#define __param_ctype_uint	unsigned int
#define __param_ctype_long	long
#define __param_ctype_ulong	unsigned long
#define __param_ctype_bool	bool
#define __param_ctype_charp	char *

/* Paste after expanding (for __COUNTER__). */
#define __modinfo_paste2(a, b) a##b
#define __modinfo_paste(a, b) __modinfo_paste2(a, b)

/* One "tag=info" string in .modinfo, byte-aligned so that the strings of
 * all a module's objects lie end to end, NUL-separated. The name only
 * has to be unique in its file. */
#define __MODULE_INFO(tag, info)                                               \
	static const char __modinfo_paste(__modinfo_##tag##_, __COUNTER__)[]   \
		__used __section(".modinfo") __aligned(1) = #tag "=" info

/* The struct kernel_param of parameter pname, for variable var, and its
 * "parmtype=" string, after a compile-time check of var's type. The
 * macros' parameters are not called name, type... : those are field
 * names of struct kernel_param, which a parameter would replace. And
 * the type's name reaches this macro already pasted (ctype, tenum) or
 * quoted (tstr): passed on as it is, `bool` would first be expanded by
 * <stdbool.h> into _Bool. */
#define __module_param(pname, var, ctype, tenum, tstr, plen, pperm)            \
	_Static_assert(__builtin_types_compatible_p(__typeof__(var), ctype),   \
		       "module_param " #pname ": the variable is not of type " tstr); \
	static const char __param_str_##pname[] = #pname;                      \
	static const struct kernel_param __param_##pname                       \
		__used __section("__param") __aligned(8) = {                   \
		.name = __param_str_##pname,                                   \
		.arg = &(var),                                                 \
		.type = tenum,                                                 \
		.maxlen = (plen),                                              \
		.perm = (pperm),                                               \
	};                                                                     \
	__MODULE_INFO(parmtype, #pname ":" tstr)

/* Parameter pname (as insmod spells it) sets the variable var. */
#define module_param_named(pname, var, ptype, pperm)                           \
	__module_param(pname, var, __param_ctype_##ptype, PARAM_TYPE_##ptype,  \
		       #ptype, 0, pperm)

#define module_param(pname, ptype, pperm)                                      \
	__module_param(pname, pname, __param_ctype_##ptype, PARAM_TYPE_##ptype, \
		       #ptype, 0, pperm)

/* A parameter copied into the char array var of plen bytes (the value
 * is cut to plen - 1 characters). The check: var is an array of char
 * (its first element's address is a char *, and it is no pointer, whose
 * size would be too small) of at least plen bytes. */
#define module_param_string(pname, var, plen, pperm)                           \
	_Static_assert(sizeof(var) >= (plen), "module_param_string " #pname    \
		       ": the array is smaller than " #plen " bytes");         \
	__module_param(pname, var, __typeof__(char[sizeof(var)]),              \
		       PARAM_TYPE_string, "string", plen, pperm)

/* A description of parameter pname, for tools that list a module's
 * parameters. */
#define MODULE_PARM_DESC(pname, desc) __MODULE_INFO(parm, #pname ":" desc)

#endif
