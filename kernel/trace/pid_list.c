/* Reading thread ids: see pid_list.h. */
#include "kernel/trace/pid_list.h"
#include "kernel/trace/tracefs_words.h"
#include "lib/errno.h"
#include "lib/string.h"

/* As Linux reads the word (kstrtoul with base 0, less its octal):
 * decimal, or hex after 0x. */
static int parse_id(const char *word, size_t len, uintptr_t *id)
{
	char text[TRACEFS_WORD_MAX + 1];
	uint64_t n;

	if (len > TRACEFS_WORD_MAX || memchr(word, '\0', len))
		return -EINVAL;
	memcpy(text, word, len);
	text[len] = '\0';
	if (parse_unsigned(text, PID_LIST_MAX_ID, &n))
		return -EINVAL;
	*id = (uintptr_t)n;
	return 0;
}

int pid_list_add_word(struct sorted_set *ids, const char *word, size_t len)
{
	uintptr_t id;

	return parse_id(word, len, &id) ?: sorted_set_add(ids, id);
}
