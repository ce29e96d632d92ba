/* wc [-l] [-w] [-c] [FILE]...: count the newlines, words and bytes of
 * each FILE, or of standard input with no FILE, in GNU wc's layout:
 *
 *	probeos> wc /etc/motd /etc/hostname
 *	  3  33 204 /etc/motd
 *	  1   1   8 /etc/hostname
 *	  4  34 212 total
 *
 * The counts asked for (all three with no option) in that order, each
 * right-aligned in a column as wide as the digits of the files' sizes
 * added up, or 7 wide when a pipe is among the inputs, whose size is not
 * known beforehand; then the file's name. One count of one input is
 * printed alone, with no padding: `seq 10 | wc -l` prints 10. A word is
 * a run of characters between white space that holds at least one
 * printable character (so a control character alone is no word), as in
 * GNU wc 9. */
#include "kernel/cmd_output.h"
#include "kernel/command.h"
#include "kernel/fs/vfs.h"
#include "kernel/shell/getopt.h"
#include "kernel/shell/input.h"
#include "lib/ctype.h"
#include "lib/errno.h"
#include "lib/string.h"

#define WC_USAGE "[-clw] [FILE]..."

enum { WC_LINES, WC_WORDS, WC_BYTES, WC_COUNTS };

struct wc {
	bool shown[WC_COUNTS];	/* which counts to print */
	int width;		/* of each column */
	uint64_t total[WC_COUNTS];
};

/* How many bytes wc counts between two looks for a Ctrl-C: a fraction
 * of a millisecond's work, even under emulation. */
#define WC_STOP_EVERY 4096

/* Add the newlines, words and bytes of len more bytes at text to
 * counts; *in_word says whether the bytes before ended inside a word.
 * Returns false if a Ctrl-C stopped it. */
static bool wc_count(const char *text, size_t len, uint64_t counts[WC_COUNTS], bool *in_word)
{
	counts[WC_BYTES] += len;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		if (i % WC_STOP_EVERY == 0 && cmd_should_stop())
			return false;

		if (c == '\n')
			counts[WC_LINES]++;
		if (is_space(c)) {
			*in_word = false;
		} else if (is_print(c) && !*in_word) {
			*in_word = true;
			counts[WC_WORDS]++;
		}
	}
	return true;
}

static int decimal_width(uint64_t n)
{
	int width = 1;

	for (; n >= 10; n /= 10)
		width++;
	return width;
}

/* The columns' width for these inputs (none: the pipe), as GNU's. */
static int wc_width(const struct wc *wc, int files, char **paths)
{
	uint64_t sizes = 0;
	struct kstat st;
	int shown = 0;

	for (int i = 0; i < WC_COUNTS; i++)
		shown += wc->shown[i];
	if (shown == 1 && files <= 1)
		return 1;
	if (files == 0)
		return 7;
	for (int i = 0; i < files; i++) {
		if (vfs_stat(paths[i], &st) == 0)
			sizes += st.size;
	}
	return decimal_width(sizes);
}

/* One line: the counts shown, then name if not NULL. */
static int wc_print(const struct wc *wc, const uint64_t counts[WC_COUNTS], const char *name)
{
	const char *sep = "";
	int err = 0;

	for (int i = 0; i < WC_COUNTS && err >= 0; i++) {
		if (!wc->shown[i])
			continue;
		err = cmd_printf("%s%*lu", sep, wc->width, (unsigned long)counts[i]);
		sep = " ";
	}
	if (err >= 0)
		err = name ? cmd_printf(" %s\n", name) : cmd_printf("\n");
	return err;
}

/* Count one input (path NULL: standard input) as it is read, print
 * its line and add it to the totals. Returns the output's error if it
 * refused the line, or -EINTR after a Ctrl-C (which prints nothing, as
 * GNU's wc, which the signal ends). */
static int wc_input(struct input *in, const char *path, void *arg)
{
	struct wc *wc = arg;
	uint64_t counts[WC_COUNTS] = { 0 };
	bool in_word = false;
	const char *bytes;
	ssize_t n;

	while ((n = input_bytes(in, &bytes)) > 0) {
		if (!wc_count(bytes, (size_t)n, counts, &in_word))
			return -EINTR;
	}
	if (n == -EINTR)
		return -EINTR;
	if (n < 0)
		return 0;	/* input_each says why */
	for (int i = 0; i < WC_COUNTS; i++)
		wc->total[i] += counts[i];
	n = wc_print(wc, counts, path);
	return n < 0 ? (int)n : 0;
}

static int cmd_wc(int argc, char **argv)
{
	struct wc wc = { 0 };
	struct getopt opt;
	int c, err;

	getopt_init(&opt, argc, argv, "lwc");
	while ((c = getopt_next(&opt)) != -1) {
		if (c == '?' || c == ':')
			return shell_usage("wc");
		wc.shown[c == 'l' ? WC_LINES : c == 'w' ? WC_WORDS : WC_BYTES] = true;
	}
	if (!wc.shown[WC_LINES] && !wc.shown[WC_WORDS] && !wc.shown[WC_BYTES])
		wc.shown[WC_LINES] = wc.shown[WC_WORDS] = wc.shown[WC_BYTES] = true;
	wc.width = wc_width(&wc, opt.operands, argv + 1);
	err = input_each("wc", opt.operands, argv + 1, false, NULL, wc_input, &wc);
	if (err && cmd_should_stop())
		return err;
	if (opt.operands > 1) {
		int printed = wc_print(&wc, wc.total, "total");

		if (printed < 0)
			err = printed;
	}
	return err;
}
SHELL_COMMAND("wc", WC_USAGE, "count the lines, words and bytes of files or of a pipe", cmd_wc);
