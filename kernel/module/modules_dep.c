/*
 * Reading modules.dep (modules_dep.h) into the order modprobe loads in.
 *
 * The plan is a depth-first walk: a module's dependencies first (each
 * from its own line, so what they need comes before them), then the
 * module. A module already in the plan is not walked again; one met
 * again while its own dependencies are being walked needs itself, which
 * no load order can satisfy. The walk goes no deeper than the plan has
 * room for, so its recursion is bounded too.
 *
 * A line lists dependencies in the order depmod writes them, to be
 * loaded from the last to the first: the walk reads each line backwards.
 */
#include "kernel/module/module.h"
#include "kernel/module/modules_dep.h"
#include "lib/errno.h"
#include "lib/string.h"

/* One line: the module's path, and the text of its dependencies. */
struct dep_line {
	struct dep_ref key;
	const char *deps, *end;
};

struct planner {
	const char *text, *text_end;
	struct modprobe_plan *plan;
	struct dep_ref walking[MODPROBE_MAX_MODULES];	/* the modules being walked */
	size_t depth;
	struct dep_ref *culprit;
};

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static bool same(const struct dep_ref *a, const struct dep_ref *b)
{
	return a->len == b->len && memcmp(a->path, b->path, a->len) == 0;
}

static bool listed(const struct dep_ref *list, size_t n, const struct dep_ref *ref)
{
	for (size_t i = 0; i < n; i++)
		if (same(&list[i], ref))
			return true;
	return false;
}

bool module_name_of_path(const char *path, size_t len, char *name, size_t size)
{
	size_t start = len, n;

	while (start > 0 && path[start - 1] != '/')
		start--;
	n = len - start;
	if (n > 3 && memcmp(path + len - 3, ".ko", 3) == 0)
		n -= 3;
	if (size == 0)
		return false;
	name[0] = '\0';
	if (n == 0 || n >= size)
		return false;
	for (size_t i = 0; i < n; i++)
		name[i] = path[start + i] == '-' ? '_' : path[start + i];
	name[n] = '\0';
	return true;
}

/* The line starting at *p (before end), its key trimmed; *p moves to
 * the next line. Returns false at the end of the text. A line without
 * ':' has an empty key. */
static bool next_line(const char **p, const char *end, struct dep_line *line)
{
	const char *s = *p, *colon = NULL, *e = s;

	if (s >= end)
		return false;
	while (e < end && *e != '\n') {
		if (!colon && *e == ':')
			colon = e;
		e++;
	}
	*p = e < end ? e + 1 : end;
	line->end = e;
	line->key.path = s;
	line->key.len = 0;
	line->deps = e;
	if (!colon)
		return true;
	line->deps = colon + 1;
	while (s < colon && blank(*s))
		s++;
	while (colon > s && blank(colon[-1]))
		colon--;
	line->key.path = s;
	line->key.len = (size_t)(colon - s);
	return true;
}

/* The last word of [start, *end), moving *end before it; false if none. */
static bool prev_word(const char *start, const char **end, struct dep_ref *word)
{
	const char *e = *end, *s;

	while (e > start && blank(e[-1]))
		e--;
	if (e == start)
		return false;
	s = e;
	while (s > start && !blank(s[-1]))
		s--;
	word->path = s;
	word->len = (size_t)(e - s);
	*end = s;
	return true;
}

/* The line of the module at path key; false if there is none. */
static bool line_of_path(const struct planner *pl, const struct dep_ref *key,
			 struct dep_line *line)
{
	const char *p = pl->text;

	while (next_line(&p, pl->text_end, line))
		if (line->key.len && same(&line->key, key))
			return true;
	return false;
}

/* The line of the module called name; false if there is none. */
static bool line_of_name(const struct planner *pl, const char *name, struct dep_line *line)
{
	char have[MODULE_NAME_LEN];
	const char *p = pl->text;

	while (next_line(&p, pl->text_end, line))
		if (module_name_of_path(line->key.path, line->key.len, have, sizeof(have)) &&
		    strcmp(have, name) == 0)
			return true;
	return false;
}

static int walk(struct planner *pl, const struct dep_line *line);

/* A dependency named in a line: walked unless it is planned already. */
static int walk_dependency(struct planner *pl, const struct dep_ref *dep)
{
	struct dep_line line;

	if (listed(pl->plan->modules, pl->plan->count, dep))
		return 0;
	if (listed(pl->walking, pl->depth, dep)) {
		*pl->culprit = *dep;
		return -EINVAL;
	}
	if (!line_of_path(pl, dep, &line)) {
		*pl->culprit = *dep;
		return -ENOENT;
	}
	return walk(pl, &line);
}

static int walk(struct planner *pl, const struct dep_line *line)
{
	const char *end = line->end;
	struct dep_ref dep;
	int err;

	if (pl->depth == MODPROBE_MAX_MODULES) {
		*pl->culprit = line->key;
		return -E2BIG;
	}
	pl->walking[pl->depth++] = line->key;
	while (prev_word(line->deps, &end, &dep)) {
		err = walk_dependency(pl, &dep);
		if (err)
			return err;
	}
	pl->depth--;
	if (pl->plan->count == MODPROBE_MAX_MODULES) {
		*pl->culprit = line->key;
		return -E2BIG;
	}
	pl->plan->modules[pl->plan->count++] = line->key;
	return 0;
}

int modules_dep_plan(const char *text, size_t len, const char *name,
		     struct modprobe_plan *plan, struct dep_ref *culprit)
{
	struct planner pl = {
		.text = text, .text_end = text + len, .plan = plan, .culprit = culprit,
	};
	char want[MODULE_NAME_LEN];
	struct dep_line line;

	plan->count = 0;
	culprit->path = name;
	culprit->len = strlen(name);
	if (!module_name_of_path(name, culprit->len, want, sizeof(want)) ||
	    !line_of_name(&pl, want, &line))
		return -ENOENT;
	return walk(&pl, &line);
}
