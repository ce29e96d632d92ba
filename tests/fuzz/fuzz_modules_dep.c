/* Fuzz target "modules_dep": what modprobe reads of
 * /lib/modules/modules.dep (kernel/module/modules_dep.c).
 *
 * The input is the file's text. A load is planned for a few names: the
 * module of each of the first lines, and names no file would have. What
 * must always hold: a plan has 1 to MODPROBE_MAX_MODULES modules, each
 * once, each a path inside the text, the last one the module asked for;
 * a failure names a culprit that is the name asked for or a path inside
 * the text. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check_failed(const char *what, int line)
{
	fprintf(stderr, "fuzz_modules_dep.c:%d: check failed: %s\n", line, what);
	abort();
}

#define CHECK(cond) do { if (!(cond)) check_failed(#cond, __LINE__); } while (0)

#include "tests/host/rename.h"
#include "kernel/module/module.h"
#include "kernel/module/modules_dep.h"
#include "lib/errno.h"
#include "lib/string.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool inside(const struct dep_ref *r, const char *text, size_t len)
{
	return r->path >= text && r->len <= len - (size_t)(r->path - text);
}

static void plan_for(const char *text, size_t len, const char *name)
{
	struct modprobe_plan plan;
	struct dep_ref culprit;
	char last[MODULE_NAME_LEN], want[MODULE_NAME_LEN];
	int err = modules_dep_plan(text, len, name, &plan, &culprit);

	if (err) {
		CHECK(err == -ENOENT || err == -EINVAL || err == -E2BIG);
		CHECK(culprit.path == name || inside(&culprit, text, len));
		return;
	}
	CHECK(plan.count >= 1 && plan.count <= MODPROBE_MAX_MODULES);
	for (size_t i = 0; i < plan.count; i++) {
		CHECK(inside(&plan.modules[i], text, len) && plan.modules[i].len > 0);
		for (size_t j = 0; j < i; j++)
			CHECK(plan.modules[j].len != plan.modules[i].len ||
			      memcmp(plan.modules[j].path, plan.modules[i].path,
				     plan.modules[i].len) != 0);
	}
	CHECK(module_name_of_path(plan.modules[plan.count - 1].path,
				  plan.modules[plan.count - 1].len, last, sizeof(last)));
	CHECK(module_name_of_path(name, strlen(name), want, sizeof(want)));
	CHECK(strcmp(last, want) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Exactly the file's bytes, no NUL after them (as vfs_read_all
	 * gives them), so that ASan sees a read past the end. */
	char *text = malloc(size ? size : 1);
	const char *p, *end = (const char *)data + size;
	int lines = 0;

	memcpy(text, data, size);
	plan_for(text, size, "a");
	plan_for(text, size, "mod_user");
	/* The module of each of the first lines: up to its ':'. */
	for (p = (const char *)data; p < end && lines < 4; lines++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *colon = memchr(p, ':', (size_t)((nl ? nl : end) - p));
		char name[64];

		if (colon && (size_t)(colon - p) < sizeof(name)) {
			memcpy(name, p, (size_t)(colon - p));
			name[colon - p] = '\0';
			if (strlen(name) == (size_t)(colon - p))
				plan_for(text, size, name);
		}
		p = nl ? nl + 1 : end;
	}
	free(text);
	return 0;
}
