/* Fuzz target "modinfo": what `modinfo` reads of a module file
 * (kernel/module/modinfo.c), with the loader's ELF check in front.
 *
 * The input is a module file, of any machine. It is checked and its
 * .modinfo found (modinfo_section), looked up (modinfo_get) and printed
 * as modinfo prints it (modinfo_print), into a sink that checks what
 * must always hold: the section lies in the file, a value found is a
 * string of the section, and the text printed has no NUL, starts with
 * the filename: line and ends its last line. Seeded with the .ko files
 * the build makes and the broken ones of tools/mkbadmodules.py. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check_failed(const char *what, int line)
{
	fprintf(stderr, "fuzz_modinfo.c:%d: check failed: %s\n", line, what);
	abort();
}

#define CHECK(cond) do { if (!(cond)) check_failed(#cond, __LINE__); } while (0)

#include "tests/host/rename.h"
#include "kernel/module/modinfo.h"
#include "lib/string.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct printed {
	size_t len;
	char first, last;
};

static void sink(void *ctx, const char *text, size_t len)
{
	struct printed *p = ctx;

	CHECK(memchr(text, '\0', len) == NULL);
	if (len == 0)
		return;
	if (p->len == 0)
		p->first = text[0];
	p->last = text[len - 1];
	p->len += len;
}

/* value, if not NULL, is a string that ends inside [start, start + size). */
static void check_value(const char *value, const char *start, size_t size)
{
	if (!value)
		return;
	CHECK(value >= start && value < start + size);
	CHECK(memchr(value, '\0', (size_t)(start + size - value)) != NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* The kernel reads a file into a heap buffer: 8-byte aligned, and
	 * exactly its size, so that ASan sees a read past its end. */
	uint8_t *image = malloc(size ? size : 1);
	struct printed out = { 0 };
	const void *section;
	size_t len;
	char why[128];

	memcpy(image, data, size);
	if (modinfo_section(image, size, &section, &len, why, sizeof(why)) == 0) {
		const char *s = section;

		CHECK(s >= (const char *)image && len <= size - (size_t)(s - (const char *)image));
		check_value(modinfo_get(s, len, "name"), s, len);
		check_value(modinfo_get(s, len, "vermagic"), s, len);
		modinfo_print("/lib/modules/fuzz.ko", size, s, len, sink, &out);
		CHECK(out.first == 'f' && out.last == '\n');
	} else {
		CHECK(strlen(why) > 0);
	}
	free(image);
	return 0;
}
