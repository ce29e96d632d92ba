/* The character classes by name (ctype.h), for the [:name:] of a set in
 * a regular expression (lib/regex.c) or a glob (lib/glob.c). */
#include "lib/ctype.h"
#include "lib/string.h"

static const struct {
	const char *name;
	char_class_fn in;
} classes[] = {
	{ "alpha", is_alpha }, { "digit", is_digit }, { "alnum", is_alnum },
	{ "upper", is_upper }, { "lower", is_lower }, { "space", is_space },
	{ "blank", is_blank }, { "punct", is_punct }, { "print", is_print },
	{ "graph", is_graph }, { "cntrl", is_cntrl }, { "xdigit", is_xdigit },
};

char_class_fn char_class(const char *name, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(classes); i++) {
		if (strlen(classes[i].name) == len && memcmp(classes[i].name, name, len) == 0)
			return classes[i].in;
	}
	return NULL;
}
