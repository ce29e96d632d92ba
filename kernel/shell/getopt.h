/* A command's options, read as Linux's tools read theirs (getopt(3),
 * with GNU's ordering):
 *
 *	head -n 3 FILE     head -n3 FILE     head FILE -n 3
 *	grep -vc PATTERN   grep -v -c PATTERN
 *
 * - A word that starts with '-' (and is not "-" alone) holds option
 *   letters; several may share a word (-vc).
 * - A letter that takes a value takes the rest of its word (-n3) or,
 *   if that is empty, the next word (-n 3).
 * - Other words are operands, wherever they stand: they are gathered,
 *   in order, at argv[1] onwards, as GNU's getopt gathers them.
 * - "--" ends the options: every word after it is an operand.
 *
 * Plain code with no kernel calls, so that the host tests run it. */
#ifndef KERNEL_SHELL_GETOPT_H
#define KERNEL_SHELL_GETOPT_H

#include "lib/types.h"

struct getopt {
	int argc;
	char **argv;
	const char *spec;	/* the letters; one followed by ':' takes a value */
	int next;		/* the next word to read */
	const char *letters;	/* the rest of a word of letters; NULL if none */
	bool options_ended;	/* "--" was read */
	char *value;		/* the value of the letter just returned */
	char bad;		/* the letter refused: unknown, or its value missing */
	int operands;		/* operands gathered so far, at argv[1] onwards */
};

/* Start reading argv[1..argc-1] against spec, e.g. "cEivw" or "n:". */
void getopt_init(struct getopt *g, int argc, char **argv, const char *spec);

/* The next option letter (its value, if it takes one, in g->value);
 * -1 when the words are used up, the operands then being
 * g->argv[1 .. g->operands]; '?' for a letter spec does not name, or a
 * word of the form --NAME (no long options here), with the letter in
 * g->bad; ':' for a letter whose value is missing. */
int getopt_next(struct getopt *g);

#endif
