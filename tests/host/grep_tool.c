/* grep_tool FILE [OPTION]... -e PATTERN: ProbeOS's grep
 * (kernel/shell/grep_cmd.c and lib/regex.c, through text_cmds_host.c)
 * on the host, with FILE's text piped into it, printing on stdout what
 * it prints at the shell. tests/host/grep_differential.py runs it
 * beside GNU grep on the same pattern, options and text.
 *
 * grep_tool --batch runs many such cases in one process (starting a
 * sanitized program costs more than a grep): each is read from stdin
 * as "N\n" and N arguments (FILE, then grep's) each ended by a NUL, and
 * answered on stdout with the output's length in bytes, a newline and
 * the output.
 *
 * ProbeOS's commands have no exit status, so none is made up here: the
 * tool exits with 0 once grep has run, and 2 only when it could not
 * run grep at all (no such FILE, too few arguments). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Read all of path into a malloc'd buffer; NULL if it cannot. */
static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *text = NULL;
	size_t size = 0, got;
	char chunk[4096];

	if (!f)
		return NULL;
	while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		char *bigger = realloc(text, size + got);

		if (!bigger) {
			free(text);
			fclose(f);
			return NULL;
		}
		text = bigger;
		memcpy(text + size, chunk, got);
		size += got;
	}
	fclose(f);
	*len = size;
	return text ? text : calloc(1, 1);
}

/* Read one case of --batch from stdin into args (at most max of them,
 * in buf): "N\n", then N arguments each ended by a NUL. Returns N, 0 at
 * the end of the input, or -1 for a malformed case. */
static int read_case(char **args, int max, char *buf, size_t size)
{
	size_t used = 0;
	int n, ch;

	if (scanf("%d", &n) != 1)
		return feof(stdin) ? 0 : -1;
	if (getchar() != '\n' || n < 2 || n > max)
		return -1;
	for (int i = 0; i < n; i++) {
		args[i] = buf + used;
		while ((ch = getchar()) != EOF && ch != '\0') {
			if (used == size - 1)
				return -1;
			buf[used++] = (char)ch;
		}
		if (ch == EOF)
			return -1;
		buf[used++] = '\0';
	}
	return n;
}

#include "tests/host/rename.h"
#include "tests/host/text_cmds_host.h"
#include "lib/string.h"

/* Run grep with argv[1]... on the text of the file argv[0]; returns
 * what it printed (a C string), or NULL if the file cannot be read. */
static const char *run_grep(int argc, char **argv)
{
	const char *output;
	char *file = argv[0];
	size_t len;
	char *text = read_file(file, &len);

	if (!text) {
		perror(file);
		return NULL;
	}
	argv[0] = "grep";
	text_cmds_run(text, len, argc, argv, &output);
	argv[0] = file;
	free(text);
	return output;
}

int main(int argc, char **argv)
{
	static char buf[1 << 16];
	char *args[64];
	const char *output;
	int n;

	if (argc == 2 && strcmp(argv[1], "--batch") == 0) {
		while ((n = read_case(args, ARRAY_SIZE(args), buf, sizeof(buf))) > 0) {
			output = run_grep(n, args);
			if (!output)
				return 2;
			printf("%zu\n%s", strlen(output), output);
		}
		fflush(stdout);
		return n < 0 ? 2 : 0;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: grep_tool FILE [OPTION]... -e PATTERN\n"
				"       grep_tool --batch < CASES\n");
		return 2;
	}
	output = run_grep(argc - 1, argv + 1);
	if (!output)
		return 2;
	fputs(output, stdout);
	return 0;
}
