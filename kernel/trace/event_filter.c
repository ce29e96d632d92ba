/* Event filters (event_filter.h): their text compiled to a postfix
 * program, and the program run at a hit.
 *
 * The parser is a recursive descent over
 *
 *   expr   := and ( "||" and )*
 *   and    := factor ( "&&" factor )*
 *   factor := "!" factor | "(" expr ")" | term
 *   term   := FIELD OP VALUE
 *
 * that emits each term where it ends and each operator after its
 * operands: `a && (b || !c)` is a b c NOT OR AND. Running that is one
 * pass with a stack of results, one bit each. The refusals and their
 * places are Linux's (its kernel/trace/trace_events_filter.c): a value
 * is a number or a quoted string, never a bare word. Nesting is bounded
 * (FILTER_NESTING_MAX), so the parser's recursion is. */
#include "kernel/trace/event_filter.h"
#include "kernel/mm/heap.h"
#include "kernel/trace/probe_types.h"
#include "lib/ctype.h"
#include "lib/errno.h"
#include "lib/glob.h"
#include "lib/string.h"

/* How deep parentheses and "!" may nest. */
#define FILTER_NESTING_MAX 32

enum filter_op { OP_GLOB, OP_NE, OP_EQ, OP_LE, OP_LT, OP_GE, OP_GT, OP_BAND };

/* Longest first where one is the start of another ("<=" before "<"). */
static const char *const op_text[] = {
	[OP_GLOB] = "~", [OP_NE] = "!=", [OP_EQ] = "==", [OP_LE] = "<=",
	[OP_LT] = "<", [OP_GE] = ">=", [OP_GT] = ">", [OP_BAND] = "&",
};

#define FILTER_ERROR_TEXT(name, text) [FILTER_ERR_##name] = text,
static const char *const error_text[] = {
	[FILTER_ERR_NONE] = "No error",
	FILTER_ERRORS(FILTER_ERROR_TEXT)
};
#undef FILTER_ERROR_TEXT

const char *filter_error_text(enum filter_error err)
{
	return (unsigned int)err < ARRAY_SIZE(error_text) ? error_text[err] : "";
}

/* A parse in progress. */
struct parser {
	const char *text;
	size_t at;
	filter_field_lookup lookup;
	void *ctx;
	struct event_filter *f;
	unsigned int room;		/* terms and steps allocated */
	enum filter_error err;
	size_t err_pos;
};

static int fail(struct parser *p, enum filter_error err, size_t pos)
{
	if (p->err == FILTER_ERR_NONE) {
		p->err = err;
		p->err_pos = pos;
	}
	return -EINVAL;
}

static void skip_space(struct parser *p)
{
	while (is_space(p->text[p->at]))
		p->at++;
}

static bool take(struct parser *p, const char *s)
{
	size_t n = strlen(s);

	skip_space(p);
	if (strncmp(p->text + p->at, s, n))
		return false;
	p->at += n;
	return true;
}

static int emit(struct parser *p, uint16_t what)
{
	struct event_filter *f = p->f;

	f->steps[f->nr_steps++].what = what;
	return 0;
}

/* The number at s (len bytes): Linux's kstrtoll/kstrtoull with base 0,
 * decimal or 0x hex here. */
static bool parse_value(const char *s, size_t len, bool is_signed, uint64_t *out)
{
	char buf[24];
	int64_t v;

	if (len == 0 || len >= sizeof(buf))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (is_signed) {
		if (parse_signed(buf, INT64_MAX, &v) < 0)
			return false;
		*out = (uint64_t)v;
		return true;
	}
	return parse_unsigned(buf, UINT64_MAX, out) == 0;
}

static bool is_string_field(const struct filter_field *f)
{
	return f->kind == FILTER_FIELD_STRING || f->kind == FILTER_FIELD_COMM;
}

/* A quoted string after an operator. */
static int parse_string(struct parser *p, struct filter_term *t)
{
	char quote = p->text[p->at];
	size_t start = p->at + 1, end = start;

	if (t->op != OP_NE && t->op != OP_GLOB && t->op != OP_EQ)
		return fail(p, FILTER_ERR_ILLEGAL_FIELD_OP, p->at);
	if (!is_string_field(&t->field))
		return fail(p, FILTER_ERR_EXPECT_DIGIT, p->at);
	while (p->text[end] && p->text[end] != quote)
		end++;
	if (!p->text[end])
		return fail(p, FILTER_ERR_MISSING_QUOTE, end);
	if (end - start >= FILTER_STRING_MAX)
		return fail(p, FILTER_ERR_OPERAND_TOO_LONG, end);
	memcpy(t->text, p->text + start, end - start);
	t->text[end - start] = '\0';
	p->at = end + 1;
	return 0;
}

/* A number after an operator. */
static int parse_number(struct parser *p, struct filter_term *t)
{
	size_t start = p->at, end = start + (p->text[start] == '-');

	if (is_string_field(&t->field))
		return fail(p, FILTER_ERR_EXPECT_STRING, p->at);
	if (t->op == OP_GLOB)
		return fail(p, FILTER_ERR_ILLEGAL_FIELD_OP, p->at);
	while (is_alnum(p->text[end]))
		end++;
	if (end - start >= 24)
		return fail(p, FILTER_ERR_OPERAND_TOO_LONG, end);
	if (!parse_value(p->text + start, end - start,
			 t->field.is_signed || t->field.kind != FILTER_FIELD_NUMBER, &t->value))
		return fail(p, FILTER_ERR_ILLEGAL_INTVAL, start);
	p->at = end;
	return 0;
}

/* FIELD OP VALUE. */
static int parse_term(struct parser *p)
{
	struct event_filter *f = p->f;
	struct filter_term *t;
	size_t start;
	int op, err;

	skip_space(p);
	start = p->at;
	while (is_alnum(p->text[p->at]) || p->text[p->at] == '_')
		p->at++;
	if (p->at == start)
		return fail(p, FILTER_ERR_INVALID_FILTER, p->at);
	if (f->nr_terms == FILTER_TERMS_MAX)
		return fail(p, FILTER_ERR_TOO_MANY_PREDS, start);
	t = &f->terms[f->nr_terms];
	memset(t, 0, sizeof(*t));
	if (!p->lookup(p->ctx, p->text + start, p->at - start, &t->field))
		return fail(p, FILTER_ERR_FIELD_NOT_FOUND, p->at);
	skip_space(p);
	for (op = 0; op < (int)ARRAY_SIZE(op_text); op++)
		if (!strncmp(p->text + p->at, op_text[op], strlen(op_text[op])))
			break;
	if (op == (int)ARRAY_SIZE(op_text))
		return fail(p, FILTER_ERR_INVALID_OP, p->at);
	t->op = (uint8_t)op;
	p->at += strlen(op_text[op]);
	skip_space(p);
	if (p->text[p->at] == '"' || p->text[p->at] == '\'')
		err = parse_string(p, t);
	else if (is_digit(p->text[p->at]) || p->text[p->at] == '-')
		err = parse_number(p, t);
	else
		err = fail(p, FILTER_ERR_INVALID_VALUE, p->at);
	if (err)
		return err;
	return emit(p, (uint16_t)f->nr_terms++);
}

static int parse_expr(struct parser *p, unsigned int depth);

static int parse_factor(struct parser *p, unsigned int depth)
{
	size_t open;
	int err;

	skip_space(p);
	open = p->at;
	if (depth > FILTER_NESTING_MAX)
		return fail(p, FILTER_ERR_TOO_MANY_OPEN, open);
	if (take(p, "!")) {
		err = parse_factor(p, depth + 1);
		return err ? err : emit(p, FILTER_STEP_NOT);
	}
	if (take(p, "(")) {
		err = parse_expr(p, depth + 1);
		if (err)
			return err;
		if (!take(p, ")"))
			return fail(p, FILTER_ERR_TOO_MANY_OPEN, open);
		return 0;
	}
	return parse_term(p);
}

static int parse_and(struct parser *p, unsigned int depth)
{
	int err = parse_factor(p, depth);

	while (!err && take(p, "&&")) {
		err = parse_factor(p, depth);
		if (!err)
			emit(p, FILTER_STEP_AND);
	}
	return err;
}

static int parse_expr(struct parser *p, unsigned int depth)
{
	int err = parse_and(p, depth);

	while (!err && take(p, "||")) {
		err = parse_and(p, depth);
		if (!err)
			emit(p, FILTER_STEP_OR);
	}
	return err;
}

/* A bound on the terms of text: each needs an operator character. */
static unsigned int terms_bound(const char *text)
{
	unsigned int n = 0;

	for (; *text; text++)
		n += strchr("=!<>&~", *text) != NULL;
	return MIN(n + 1, (unsigned int)FILTER_TERMS_MAX);
}

int event_filter_parse(const char *text, filter_field_lookup lookup, void *ctx,
		       struct event_filter **out, enum filter_error *err, size_t *pos)
{
	struct parser p = { .text = text, .lookup = lookup, .ctx = ctx };
	unsigned int room = terms_bound(text);
	int ret;

	*err = FILTER_ERR_NONE;
	*pos = 0;
	p.f = kzalloc(sizeof(*p.f));
	if (!p.f)
		return -ENOMEM;
	/* Every step is a term, or an operator over terms: at most three
	 * per term (its NOT, and the AND or OR joining it). */
	p.f->terms = kmalloc(room * sizeof(*p.f->terms));
	p.f->steps = kmalloc(3 * room * sizeof(*p.f->steps) + sizeof(*p.f->steps));
	if (!p.f->terms || !p.f->steps) {
		event_filter_free(p.f);
		return -ENOMEM;
	}
	skip_space(&p);
	if (!text[p.at])
		ret = fail(&p, FILTER_ERR_NO_FILTER, 0);
	else
		ret = parse_expr(&p, 0);
	skip_space(&p);
	if (!ret && text[p.at] == ')')
		ret = fail(&p, FILTER_ERR_TOO_MANY_CLOSE, p.at);
	else if (!ret && text[p.at])
		ret = fail(&p, FILTER_ERR_INVALID_FILTER, p.at);
	if (ret) {
		*err = p.err;
		*pos = p.err_pos;
		event_filter_free(p.f);
		return ret;
	}
	*out = p.f;
	return 0;
}

void event_filter_free(struct event_filter *f)
{
	if (!f)
		return;
	kfree(f->terms);
	kfree(f->steps);
	kfree(f);
}

/* ---- At a hit ---- */

/* A number field's value, widened as its type says. */
uint64_t notrace filter_field_number(const struct filter_field *field, const struct filter_hit *hit)
{
	const uint8_t *at = (const uint8_t *)hit->body + field->offset;
	uint64_t v = 0;

	if (field->kind == FILTER_FIELD_CPU)
		return hit->cpu;
	if (field->kind == FILTER_FIELD_PID)
		return hit->pid;
	if ((size_t)field->offset + field->size > hit->len)
		return 0;
	memcpy(&v, at, field->size);
	if (field->is_signed && field->size < 8) {
		unsigned int shift = 64 - 8 * field->size;

		v = (uint64_t)((int64_t)(v << shift) >> shift);
	}
	return v;
}

/* A string field's text: the thread's name, or the bytes its __data_loc
 * word points at in the record; "" if they are not all there. */
const char *notrace filter_field_string(const struct filter_field *field, const struct filter_hit *hit)
{
	const char *str;

	if (field->kind == FILTER_FIELD_COMM)
		return hit->comm;
	if ((size_t)field->offset + 4 > hit->len)
		return "";
	str = probe_data_loc_string((const uint8_t *)hit->body + field->offset, hit->body, hit->len);
	return str ? str : "";
}

static bool notrace term_matches(const struct filter_term *t, const struct filter_hit *hit)
{
	uint64_t v;
	bool s = t->field.is_signed || t->field.kind != FILTER_FIELD_NUMBER;

	if (is_string_field(&t->field)) {
		const char *str = filter_field_string(&t->field, hit);
		bool same = t->op == OP_GLOB ? glob_match(t->text, str) : !strcmp(t->text, str);

		return t->op == OP_NE ? !same : same;
	}
	v = filter_field_number(&t->field, hit);
	switch (t->op) {
	case OP_EQ:
		return v == t->value;
	case OP_NE:
		return v != t->value;
	case OP_BAND:
		return (v & t->value) != 0;
	case OP_LT:
		return s ? (int64_t)v < (int64_t)t->value : v < t->value;
	case OP_LE:
		return s ? (int64_t)v <= (int64_t)t->value : v <= t->value;
	case OP_GT:
		return s ? (int64_t)v > (int64_t)t->value : v > t->value;
	case OP_GE:
		return s ? (int64_t)v >= (int64_t)t->value : v >= t->value;
	default:
		return false;
	}
}

bool notrace event_filter_match(const struct event_filter *f, const struct filter_hit *hit)
{
	uint64_t stack[FILTER_TERMS_MAX / 64 + 1] = { 0 };
	unsigned int depth = 0;

#define BIT(i) (stack[(i) / 64] >> ((i) % 64) & 1)
#define SET(i, b) (stack[(i) / 64] = (stack[(i) / 64] & ~(1ULL << ((i) % 64))) | \
				      ((uint64_t)(b) << ((i) % 64)))
	for (unsigned int i = 0; i < f->nr_steps; i++) {
		uint16_t what = f->steps[i].what;

		if (what == FILTER_STEP_NOT) {
			SET(depth - 1, !BIT(depth - 1));
		} else if (what == FILTER_STEP_AND || what == FILTER_STEP_OR) {
			bool b = BIT(depth - 1), a = BIT(depth - 2);

			depth--;
			SET(depth - 1, what == FILTER_STEP_AND ? a && b : a || b);
		} else {
			SET(depth, term_matches(&f->terms[what], hit));
			depth++;
		}
	}
#undef BIT
#undef SET
	return depth == 1 && (stack[0] & 1);
}
