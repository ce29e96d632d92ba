/* Reading a command's options: see getopt.h. Operands are moved down
 * to argv[1] onwards as they are met. Each goes to a slot whose word
 * has already been read (there are never more operands than words
 * read), so nothing still to be read is overwritten. */
#include "kernel/shell/getopt.h"
#include "lib/string.h"

void getopt_init(struct getopt *g, int argc, char **argv, const char *spec)
{
	*g = (struct getopt){ .argc = argc, .argv = argv, .spec = spec, .next = 1 };
}

/* The letter's entry in spec, or NULL if spec does not name it. */
static const char *find_letter(const char *spec, char c)
{
	if (c == ':')
		return NULL;
	return strchr(spec, c);
}

/* Read one letter of the current word of letters. */
static int next_letter(struct getopt *g)
{
	char c = *g->letters++;
	const char *entry = find_letter(g->spec, c);

	if (*g->letters == '\0')
		g->letters = NULL;
	if (!entry) {
		g->bad = c;
		return '?';
	}
	if (entry[1] != ':')
		return c;
	/* Its value: the rest of the word, or the next word. */
	if (g->letters) {
		g->value = (char *)g->letters;
		g->letters = NULL;
	} else if (g->next < g->argc) {
		g->value = g->argv[g->next++];
	} else {
		g->bad = c;
		return ':';
	}
	return c;
}

int getopt_next(struct getopt *g)
{
	while (!g->letters) {
		char *word;

		if (g->next >= g->argc)
			return -1;
		word = g->argv[g->next++];
		if (g->options_ended || word[0] != '-' || word[1] == '\0') {
			g->argv[++g->operands] = word;
			continue;
		}
		if (word[1] == '-') {
			if (word[2] == '\0') {
				g->options_ended = true;
				continue;
			}
			g->bad = '-';
			return '?';
		}
		g->letters = word + 1;
	}
	return next_letter(g);
}
