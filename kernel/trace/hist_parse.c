/* The text of a histogram trigger, read (hist_parse.h). */
#include "kernel/trace/hist_parse.h"
#include "lib/ctype.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"

static const char *const error_text[] = {
#define HIST_ERROR_TEXT(name, text) [HIST_ERR_##name] = text,
	HIST_ERRORS(HIST_ERROR_TEXT)
#undef HIST_ERROR_TEXT
};

const char *hist_error_text(enum hist_error err)
{
	return (unsigned int)err < ARRAY_SIZE(error_text) && error_text[err] ? error_text[err] :
										"No error";
}

static const char *const mod_names[] = {
	[HIST_MOD_HEX] = "hex", [HIST_MOD_SYM] = "sym", [HIST_MOD_SYM_OFFSET] = "sym-offset",
	[HIST_MOD_EXECNAME] = "execname", [HIST_MOD_LOG2] = "log2", [HIST_MOD_BUCKETS] = "buckets",
};

/* A piece of the text: len bytes at s, pos bytes into the whole. */
struct piece {
	const char *s;
	size_t len, pos;
};

struct parser {
	const char *text;
	filter_field_lookup lookup;
	void *ctx;
	struct hist_def *def;
	enum hist_error *err;
	size_t *pos;
};

static int fail(struct parser *p, enum hist_error err, size_t pos)
{
	*p->err = err;
	*p->pos = pos;
	return -EINVAL;
}

/* Cut the first piece of *rest at sep off into *first: strsep over a
 * piece. Whether there was a sep (rest is empty if not). */
static bool cut(struct piece *rest, char sep, struct piece *first)
{
	const char *at = memchr(rest->s, sep, rest->len);
	size_t n = at ? (size_t)(at - rest->s) : rest->len;

	*first = (struct piece){ rest->s, n, rest->pos };
	rest->s += n + (at != NULL);
	rest->len -= n + (at != NULL);
	rest->pos += n + (at != NULL);
	return at != NULL;
}

static bool is(const struct piece *p, const char *word)
{
	return p->len == strlen(word) && !memcmp(p->s, word, p->len);
}

/* The number in piece p (decimal, or 0x hex), at most max. */
static bool number_of(const struct piece *p, uint64_t max, uint64_t *out)
{
	char digits[24];

	if (p->len == 0 || p->len >= sizeof(digits))
		return false;
	memcpy(digits, p->s, p->len);
	digits[p->len] = '\0';
	return parse_unsigned(digits, max, out) == 0;
}

/* The modifier m of field f (a key's when key), into f. */
static int take_modifier(struct parser *p, struct hist_field *f, const struct piece *m, bool key)
{
	struct piece n = *m, word;
	bool has_value = cut(&n, '=', &word);	/* word: the name; n: after a '=' */
	enum hist_mod mod;

	for (mod = HIST_MOD_HEX; mod < ARRAY_SIZE(mod_names); mod++)
		if (is(&word, mod_names[mod]) || (mod == HIST_MOD_BUCKETS && is(&word, "bucket")))
			break;
	if (mod == ARRAY_SIZE(mod_names) || (mod == HIST_MOD_BUCKETS) != has_value ||
	    (!key && mod != HIST_MOD_HEX) ||
	    (mod == HIST_MOD_EXECNAME && f->field.kind != FILTER_FIELD_PID) ||
	    (f->field.kind == FILTER_FIELD_STRING && mod != HIST_MOD_NONE))
		return fail(p, HIST_ERR_BAD_FIELD_MODIFIER, m->pos);
	if (mod == HIST_MOD_BUCKETS && (!number_of(&n, UINT64_MAX, &f->buckets) || !f->buckets))
		return fail(p, HIST_ERR_BAD_FIELD_MODIFIER, m->pos);
	f->mod = mod;
	return 0;
}

/* One field of keys= or vals=, "name[.modifier]", into f. */
static int take_field(struct parser *p, const struct piece *text, struct hist_field *f, bool key)
{
	struct piece rest = *text, name;
	bool has_mod = cut(&rest, '.', &name);

	if (name.len == 0 || name.len >= HIST_NAME_MAX)
		return fail(p, HIST_ERR_FIELD_NOT_FOUND, name.pos);
	memcpy(f->name, name.s, name.len);
	f->name[name.len] = '\0';
	if (is(&name, "common_cpu"))
		f->field = (struct filter_field){ .kind = FILTER_FIELD_CPU };
	else if (!p->lookup(p->ctx, name.s, name.len, &f->field) ||
		 f->field.kind == FILTER_FIELD_COMM)
		return fail(p, HIST_ERR_FIELD_NOT_FOUND, name.pos);
	if (!key && f->field.kind == FILTER_FIELD_STRING)
		return fail(p, HIST_ERR_INVALID_STR_OPERAND, name.pos);
	f->mod = HIST_MOD_NONE;
	return has_mod ? take_modifier(p, f, &rest, key) : 0;
}

static int take_keys(struct parser *p, struct piece list)
{
	struct hist_def *def = p->def;
	struct piece one;
	bool more = true;

	def->nr_keys = 0;
	def->key_size = 0;
	while (more) {
		struct hist_field *k = &def->keys[def->nr_keys];
		int err;

		if (def->nr_keys == HIST_KEYS_MAX)
			return fail(p, HIST_ERR_TOO_MANY_KEYS, list.pos);
		more = cut(&list, ',', &one);
		err = take_field(p, &one, k, true);
		if (err)
			return err;
		k->offset = (uint16_t)def->key_size;
		k->size = k->field.kind == FILTER_FIELD_STRING ? HIST_STRING_MAX : 8;
		def->key_size += k->size;
		def->nr_keys++;
	}
	return 0;
}

static int take_vals(struct parser *p, struct piece list)
{
	struct hist_def *def = p->def;
	struct piece one;
	bool more = list.len > 0;

	def->nr_vals = 0;
	while (more) {
		int err;

		more = cut(&list, ',', &one);
		if (is(&one, "hitcount"))
			continue;
		if (def->nr_vals == HIST_VALS_MAX)
			return fail(p, HIST_ERR_TOO_MANY_VALS, one.pos);
		err = take_field(p, &one, &def->vals[def->nr_vals], false);
		if (err)
			return err;
		def->nr_vals++;
	}
	return 0;
}

/* What sort name names, or -1. */
static int sort_target(const struct hist_def *def, const struct piece *name)
{
	if (is(name, "hitcount"))
		return HIST_SORT_HITCOUNT;
	for (unsigned int i = 0; i < def->nr_vals; i++)
		if (is(name, def->vals[i].name))
			return HIST_SORT_VAL(i);
	for (unsigned int i = 0; i < def->nr_keys; i++)
		if (is(name, def->keys[i].name))
			return HIST_SORT_KEY(i);
	return -1;
}

/* The field a sort key names, or NULL for hitcount. */
static const struct hist_field *sort_field(const struct hist_def *def, uint8_t what)
{
	if (what == HIST_SORT_HITCOUNT)
		return NULL;
	return what < HIST_SORT_KEY(0) ? &def->vals[what - HIST_SORT_VAL(0)] :
					 &def->keys[what - HIST_SORT_KEY(0)];
}

/* A field's modifier as written after its '.': "log2", "buckets=32"; ""
 * for none. */
static void mod_text(const struct hist_field *f, char *buf, size_t size)
{
	if (f->mod == HIST_MOD_BUCKETS)
		snprintf(buf, size, "buckets=%llu", (unsigned long long)f->buckets);
	else
		snprintf(buf, size, "%s", f->mod == HIST_MOD_NONE ? "" : mod_names[f->mod]);
}

/* In a sort key's text after its name, the field's own modifier, which
 * the trigger file shows ("sort=count.log2"), skipped: whether
 * anything is left in *rest. */
static bool skip_own_modifier(const struct hist_field *f, struct piece *rest)
{
	char mod[32];
	size_t n;

	if (!f)
		return true;
	mod_text(f, mod, sizeof(mod));
	n = strlen(mod);
	if (!n || rest->len < n || memcmp(rest->s, mod, n) || (rest->len > n && rest->s[n] != '.'))
		return true;
	if (rest->len == n)
		return false;
	*rest = (struct piece){ rest->s + n + 1, rest->len - n - 1, rest->pos + n + 1 };
	return true;
}

/* sort=, whose text starts at at (for the errors Linux puts there). */
static int take_sort(struct parser *p, struct piece list, size_t at)
{
	struct hist_def *def = p->def;
	struct piece one, name;
	bool more = true;

	def->nr_sort = 0;
	while (more) {
		struct hist_sort *s = &def->sort[def->nr_sort];
		bool has_mod;
		int what;

		more = cut(&list, ',', &one);
		if (one.len == 0)
			return fail(p, HIST_ERR_EMPTY_SORT_FIELD, at);
		if (def->nr_sort == HIST_SORT_MAX - 1 && more)
			return fail(p, HIST_ERR_TOO_MANY_SORT_FIELDS, at);
		has_mod = cut(&one, '.', &name);
		if (name.len == 0)
			return fail(p, HIST_ERR_EMPTY_SORT_FIELD, at);
		what = sort_target(def, &name);
		if (what < 0)
			return fail(p, HIST_ERR_INVALID_SORT_FIELD, name.pos);
		s->what = (uint8_t)what;
		s->descending = false;
		if (has_mod && skip_own_modifier(sort_field(def, s->what), &one)) {
			if (is(&one, "descending"))
				s->descending = true;
			else if (!is(&one, "ascending"))
				return fail(p, HIST_ERR_INVALID_SORT_MODIFIER, one.pos);
		}
		def->nr_sort++;
	}
	return 0;
}

/* size=N: rounded up to a power of 2, which must be in range. */
static int take_size(struct parser *p, const struct piece *n)
{
	uint64_t size;
	unsigned int bits = 0;

	if (!number_of(n, 1u << HIST_BITS_MAX, &size) || size == 0)
		return fail(p, HIST_ERR_BAD_SIZE, n->pos);
	while ((1ull << bits) < size)
		bits++;
	if (bits < HIST_BITS_MIN)
		return fail(p, HIST_ERR_BAD_SIZE, n->pos);
	p->def->bits = bits;
	return 0;
}

/* The value after the '=' of attr if its name is one of names (a list
 * ending in NULL), into *rhs. */
static bool named(const struct piece *attr, const char *const *names, struct piece *rhs)
{
	for (; *names; names++) {
		size_t n = strlen(*names);

		if (attr->len > n && !memcmp(attr->s, *names, n) && attr->s[n] == '=') {
			*rhs = (struct piece){ attr->s + n + 1, attr->len - n - 1, attr->pos + n + 1 };
			return true;
		}
	}
	return false;
}

int hist_parse(const char *text, size_t len, filter_field_lookup lookup, void *ctx,
	       struct hist_def *def, enum hist_error *err, size_t *pos)
{
	static const char *const keys[] = { "keys", "key", NULL };
	static const char *const vals[] = { "vals", "val", "values", NULL };
	static const char *const sorts[] = { "sort", NULL };
	static const char *const sizes[] = { "size", NULL };
	struct parser p = { text, lookup, ctx, def, err, pos };
	struct piece rest = { text, len, 0 }, attr, rhs;
	struct piece key_list = { 0 }, val_list = { text, 0, 0 }, sort_list = { 0 };
	size_t sort_at = 0;
	bool more = true;
	int ret;

	*def = (struct hist_def){ .bits = HIST_BITS_DEFAULT };
	*err = HIST_ERR_NONE;
	*pos = 0;
	while (more) {
		const char *eq;

		more = cut(&rest, ':', &attr);
		eq = memchr(attr.s, '=', attr.len);
		if (eq && eq == attr.s + attr.len - 1)
			return fail(&p, HIST_ERR_EMPTY_ASSIGNMENT, attr.pos);
		if (named(&attr, keys, &rhs))
			key_list = rhs;
		else if (named(&attr, vals, &rhs))
			val_list = rhs;
		else if (named(&attr, sorts, &rhs)) {
			sort_list = rhs;
			sort_at = attr.pos;
		} else if (named(&attr, sizes, &rhs)) {
			ret = take_size(&p, &rhs);
			if (ret)
				return ret;
		} else if (is(&attr, "pause"))
			def->pause = true;
		else if (is(&attr, "cont") || is(&attr, "continue"))
			def->cont = true;
		else if (is(&attr, "clear"))
			def->clear = true;
		else
			return fail(&p, HIST_ERR_NOT_AVAILABLE, attr.pos);
	}
	if (!key_list.s)
		return fail(&p, HIST_ERR_NO_KEYS, 0);
	ret = take_keys(&p, key_list);
	if (!ret)
		ret = take_vals(&p, val_list);
	if (!ret && sort_list.s)
		ret = take_sort(&p, sort_list, sort_at);
	if (!ret && !sort_list.s)
		def->nr_sort = 1;	/* hitcount, ascending */
	return ret;
}

bool hist_def_same(const struct hist_def *a, const struct hist_def *b)
{
	if (a->nr_keys != b->nr_keys || a->nr_vals != b->nr_vals || a->nr_sort != b->nr_sort)
		return false;
	for (unsigned int i = 0; i < a->nr_keys; i++)
		if (strcmp(a->keys[i].name, b->keys[i].name) || a->keys[i].mod != b->keys[i].mod ||
		    a->keys[i].buckets != b->keys[i].buckets)
			return false;
	for (unsigned int i = 0; i < a->nr_vals; i++)
		if (strcmp(a->vals[i].name, b->vals[i].name) || a->vals[i].mod != b->vals[i].mod)
			return false;
	for (unsigned int i = 0; i < a->nr_sort; i++)
		if (a->sort[i].what != b->sort[i].what || a->sort[i].descending != b->sort[i].descending)
			return false;
	return true;
}

/* A field as the trigger file shows it: "count.log2", "len.buckets=32". */
static size_t show_field(const struct hist_field *f, char *buf, size_t size)
{
	char mod[32];

	mod_text(f, mod, sizeof(mod));
	return (size_t)snprintf(buf, size, "%s%s%s", f->name, *mod ? "." : "", mod);
}

/* snprintf's count, kept inside the buffer. */
static size_t clamp(size_t n, size_t size)
{
	return n < size ? n : size - 1;
}

void hist_def_show(const struct hist_def *def, char *buf, size_t size)
{
	size_t n = clamp((size_t)snprintf(buf, size, "hist:keys="), size);

	for (unsigned int i = 0; i < def->nr_keys; i++) {
		if (i)
			n = clamp(n + (size_t)snprintf(buf + n, size - n, ","), size);
		n = clamp(n + show_field(&def->keys[i], buf + n, size - n), size);
	}
	n = clamp(n + (size_t)snprintf(buf + n, size - n, ":vals=hitcount"), size);
	for (unsigned int i = 0; i < def->nr_vals; i++) {
		n = clamp(n + (size_t)snprintf(buf + n, size - n, ","), size);
		n = clamp(n + show_field(&def->vals[i], buf + n, size - n), size);
	}
	n = clamp(n + (size_t)snprintf(buf + n, size - n, ":sort="), size);
	for (unsigned int i = 0; i < def->nr_sort; i++) {
		uint8_t what = def->sort[i].what;

		if (i)
			n = clamp(n + (size_t)snprintf(buf + n, size - n, ","), size);
		if (what == HIST_SORT_HITCOUNT)
			n = clamp(n + (size_t)snprintf(buf + n, size - n, "hitcount"), size);
		else
			n = clamp(n + show_field(sort_field(def, what), buf + n, size - n), size);
		if (def->sort[i].descending)
			n = clamp(n + (size_t)snprintf(buf + n, size - n, ".descending"), size);
	}
	snprintf(buf + n, size - n, ":size=%u", 1u << def->bits);
}

unsigned int notrace hist_log2(uint64_t v)
{
	unsigned int bits = 0;

	while (bits < 64 && (1ull << bits) < v)
		bits++;
	return bits;
}

void notrace hist_pack_key(const struct hist_def *def, const struct filter_hit *hit, uint8_t *key)
{
	for (unsigned int i = 0; i < def->nr_keys; i++) {
		const struct hist_field *k = &def->keys[i];
		uint8_t *at = key + k->offset;
		uint64_t v;

		if (k->field.kind == FILTER_FIELD_STRING) {
			const char *s = filter_field_string(&k->field, hit);
			size_t n = strnlen(s, HIST_STRING_MAX - 1);

			memcpy(at, s, n);
			memset(at + n, 0, HIST_STRING_MAX - n);
			continue;
		}
		v = filter_field_number(&k->field, hit);
		if (k->mod == HIST_MOD_LOG2)
			v = hist_log2(v);
		else if (k->mod == HIST_MOD_BUCKETS)
			v -= v % k->buckets;
		memcpy(at, &v, sizeof(v));
	}
}

uint64_t notrace hist_val_of(const struct hist_def *def, unsigned int i,
			     const struct filter_hit *hit)
{
	return filter_field_number(&def->vals[i].field, hit);
}
