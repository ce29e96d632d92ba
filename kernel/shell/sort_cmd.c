/* sort [-n] [-r] [FILE]...: print the lines of the FILEs (or of the
 * pipe's text, with no FILE) in order, as GNU sort does in the C locale:
 *
 * - Lines compare byte by byte; a line that is the start of another
 *   comes first.
 * - -n compares the numbers the lines start with: blanks, an optional
 *   '-', digits and an optional '.' and fraction, of any length. A line
 *   with no number counts as 0 (so does "+5": GNU takes no '+'). Lines
 *   whose numbers are equal are then compared byte by byte, as GNU's
 *   last resort does.
 * - -r reverses the order, last resort included.
 *
 * A merge sort, n log n comparisons whatever the input: 100,000 lines
 * are a few million comparisons. Whether it is stable does not matter:
 * the byte comparison is every order's last resort, so two lines tie
 * only when they are the same bytes, and no order of equal lines can be
 * told from another in the output. It needs two arrays of lines as long
 * as the input, taken from the heap and given back. */
#include "kernel/cmd_output.h"
#include "kernel/command.h"
#include "kernel/mm/heap.h"
#include "kernel/shell/getopt.h"
#include "kernel/shell/input.h"
#include "lib/ctype.h"
#include "lib/errno.h"
#include "lib/string.h"

#define SORT_USAGE "[-nr] [FILE]..."

struct sort_order {
	bool numeric;
	bool reverse;
};

static int compare_bytes(const struct line *a, const struct line *b)
{
	int order = memcmp(a->text, b->text, MIN(a->len, b->len));

	if (order)
		return order;
	return (a->len > b->len) - (a->len < b->len);
}

/* The number a line starts with, as sort -n reads it: the digits before
 * and after the point, without the zeros that do not count. */
struct number {
	bool negative;
	const char *whole, *fraction;
	size_t whole_len, fraction_len;
};

static void read_number(const struct line *l, struct number *n)
{
	size_t i = 0, start;

	while (i < l->len && is_blank(l->text[i]))
		i++;
	n->negative = i < l->len && l->text[i] == '-';
	i += n->negative;
	while (i < l->len && l->text[i] == '0')
		i++;
	for (start = i; i < l->len && is_digit(l->text[i]); i++)
		;
	n->whole = l->text + start;
	n->whole_len = i - start;
	n->fraction = l->text + i;
	n->fraction_len = 0;
	if (i < l->len && l->text[i] == '.') {
		for (start = ++i; i < l->len && is_digit(l->text[i]); i++)
			;
		n->fraction = l->text + start;
		n->fraction_len = i - start;
		while (n->fraction_len && n->fraction[n->fraction_len - 1] == '0')
			n->fraction_len--;
	}
	/* -0 is 0. */
	if (!n->whole_len && !n->fraction_len)
		n->negative = false;
}

/* Compare two numbers' sizes, signs aside. */
static int compare_magnitudes(const struct number *a, const struct number *b)
{
	int order;

	if (a->whole_len != b->whole_len)
		return a->whole_len < b->whole_len ? -1 : 1;
	order = memcmp(a->whole, b->whole, a->whole_len);
	if (order)
		return order;
	order = memcmp(a->fraction, b->fraction, MIN(a->fraction_len, b->fraction_len));
	if (order)
		return order;
	return (a->fraction_len > b->fraction_len) - (a->fraction_len < b->fraction_len);
}

static int compare_numbers(const struct line *la, const struct line *lb)
{
	struct number a, b;
	int order;

	read_number(la, &a);
	read_number(lb, &b);
	if (a.negative != b.negative)
		return a.negative ? -1 : 1;
	order = compare_magnitudes(&a, &b);
	return a.negative ? -order : order;
}

static int compare_lines(const struct sort_order *o, const struct line *a, const struct line *b)
{
	int order = o->numeric ? compare_numbers(a, b) : 0;

	if (!order)
		order = compare_bytes(a, b);
	return o->reverse ? -order : order;
}

/* A pass places every line once; it looks for a Ctrl-C at every
 * SORT_STOP_EVERY-th place, since one pass over a big input (and its
 * last merge alone) is a long loop. */
#define SORT_STOP_EVERY 1024

/* Merge the sorted runs from[lo..mid) and from[mid..hi) into to[lo..hi);
 * on a tie the left run's line goes first (the lines are then the same
 * bytes, so either would do).
 * Returns false if a Ctrl-C stopped it. */
static bool merge(const struct sort_order *o, const struct line *from, struct line *to,
		  size_t lo, size_t mid, size_t hi)
{
	size_t i = lo, j = mid;

	for (size_t k = lo; k < hi; k++) {
		if (k % SORT_STOP_EVERY == 0 && cmd_should_stop())
			return false;
		if (j >= hi || (i < mid && compare_lines(o, &from[i], &from[j]) <= 0))
			to[k] = from[i++];
		else
			to[k] = from[j++];
	}
	return true;
}

/* Sort lines[0..n), with room for n more in spare: runs of 1, 2, 4...
 * lines merged pairwise, back and forth between the two arrays (no
 * recursion). Returns the array that holds the result, or NULL after a
 * Ctrl-C. */
static struct line *merge_sort(const struct sort_order *o, struct line *lines,
			       struct line *spare, size_t n)
{
	for (size_t run = 1; run < n; run *= 2) {
		struct line *swap;

		for (size_t lo = 0; lo < n; lo += 2 * run) {
			if (!merge(o, lines, spare, lo, MIN(lo + run, n), MIN(lo + 2 * run, n)))
				return NULL;
		}
		swap = lines;
		lines = spare;
		spare = swap;
	}
	return lines;
}

/* The inputs, all open at once: the lines point into their text. */
struct sort_inputs {
	struct input *in;
	int count;
	size_t lines;
};

/* Open every input (no FILE: standard input), each read whole, and
 * count their lines. Not input_each's loop: the lines of every input
 * are sorted together, so all are held at once. Returns 0, or the
 * negative errno after saying why one could not be read. */
static int open_inputs(struct sort_inputs *s, int files, char **paths)
{
	struct line line;

	s->count = 0;
	s->lines = 0;
	s->in = kmalloc(sizeof(*s->in) * (size_t)MAX(files, 1));
	if (!s->in) {
		cmd_eprintf("sort: %s\n", strerror(-ENOMEM));
		return -ENOMEM;
	}
	for (int i = 0; i < MAX(files, 1); i++) {
		int err = input_open_whole(&s->in[i], files ? paths[i] : NULL);

		if (err) {
			cmd_eprintf("sort: cannot read: %s: %s\n", files ? paths[i] : "-", strerror(err));
			return err;
		}
		s->count++;
		while (input_line(&s->in[i], &line))
			s->lines++;
		input_rewind(&s->in[i]);
	}
	return 0;
}

static void close_inputs(struct sort_inputs *s)
{
	for (int i = 0; i < s->count; i++)
		input_close(&s->in[i]);
	kfree(s->in);
}

/* Gather the lines, sort them and print them. Returns 0, the output's
 * error, -ENOMEM after saying so, or -EINTR after a Ctrl-C. */
static int sort_and_print(const struct sort_order *o, struct sort_inputs *s)
{
	struct line *lines = kmalloc(sizeof(*lines) * MAX(s->lines, (size_t)1));
	struct line *spare = kmalloc(sizeof(*spare) * MAX(s->lines, (size_t)1));
	struct line *sorted;
	size_t n = 0;
	int err = 0;

	if (!lines || !spare) {
		cmd_eprintf("sort: %s\n", strerror(-ENOMEM));
		err = -ENOMEM;
		goto out;
	}
	for (int i = 0; i < s->count; i++) {
		while (n < s->lines && input_line(&s->in[i], &lines[n]))
			n++;
	}
	sorted = merge_sort(o, lines, spare, n);
	for (size_t i = 0; sorted && i < n && !err && !cmd_should_stop(); i++)
		err = output_line(&sorted[i]);
	if (!err && cmd_should_stop())
		err = -EINTR;	/* merge_sort's NULL too */
out:
	kfree(lines);
	kfree(spare);
	return err;
}

static int cmd_sort(int argc, char **argv)
{
	struct sort_order o = { 0 };
	struct sort_inputs s;
	struct getopt opt;
	int c, err;

	getopt_init(&opt, argc, argv, "nr");
	while ((c = getopt_next(&opt)) != -1) {
		if (c == '?' || c == ':')
			return shell_usage("sort");
		if (c == 'n')
			o.numeric = true;
		else
			o.reverse = true;
	}
	err = open_inputs(&s, opt.operands, argv + 1);
	if (!err)
		err = sort_and_print(&o, &s);
	close_inputs(&s);
	return err;
}
SHELL_COMMAND("sort", SORT_USAGE, "print the lines of files or of a pipe in order", cmd_sort);
