/* A module file's .modinfo section: the "key=value" strings that
 * MODULE_LICENSE, MODULE_PARM_DESC, module_param and the build
 * (tools/modules.mk: name=, vermagic=, depends=) put there, each
 * NUL-terminated, end to end. The loader reads name= and vermagic= from
 * it (loader.c); `modinfo` prints them all (modinfo_cmd.c).
 *
 * The section comes from outside the kernel, so nothing here trusts it:
 * a string cut by the section's end, or one without '=', is skipped. */
#ifndef KERNEL_MODULE_MODINFO_H
#define KERNEL_MODULE_MODINFO_H

#include "lib/format.h"
#include "lib/types.h"

/* A walk over the strings of a .modinfo section. */
struct modinfo_iter {
	const char *p, *end;
};

/* Start a walk over the size bytes at data. */
void modinfo_iter_init(struct modinfo_iter *it, const void *data, size_t size);

/* The next "key=value" string: its key (key_len bytes, not terminated
 * there) and its value (NUL-terminated). Returns false after the last. */
bool modinfo_next(struct modinfo_iter *it, const char **key, size_t *key_len,
		  const char **value);

/* The value of the first "key=..." string of the section, or NULL. */
const char *modinfo_get(const void *data, size_t size, const char *key);

/* Check image[0..size) as the loader does (elf_check.h), for whatever
 * machine it was built for, and find its .modinfo. Returns 0 with the
 * section in *data and *size; or -ENOEXEC with a one-line reason in
 * why[0..why_size) (no newline); or -EINVAL if image is not 8-byte
 * aligned. */
int modinfo_section(const void *image, size_t image_size, const void **data, size_t *size,
		    char *why, size_t why_size);

/* Print a module's information as Linux's modinfo does, one field a
 * line, each name padded to 16 columns: "filename:" (filename), "size:"
 * (file_size bytes: a ProbeOS extra), then every string of the section
 * in its order but the parameters', then one "parm:" line a parameter,
 * "NAME:DESCRIPTION (TYPE)", in the order they first appear. The text
 * goes to emit(ctx, ...) (lib/format.h). */
void modinfo_print(const char *filename, size_t file_size, const void *data, size_t size,
		   format_sink emit, void *ctx);

#endif
