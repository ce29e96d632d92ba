/* Gathering thread ids: see pid_list.h. */
#include "kernel/mm/heap.h"
#include "kernel/trace/pid_list.h"
#include "kernel/trace/tracefs_words.h"
#include "lib/errno.h"
#include "lib/string.h"

/* As Linux reads the word (kstrtoul with base 0, less its octal):
 * decimal, or hex after 0x. */
static int parse_id(const char *word, size_t len, unsigned int *id)
{
	char text[TRACEFS_WORD_MAX + 1];
	uint64_t n;

	if (len > TRACEFS_WORD_MAX || memchr(word, '\0', len))
		return -EINVAL;
	memcpy(text, word, len);
	text[len] = '\0';
	if (parse_unsigned(text, PID_LIST_MAX_ID, &n))
		return -EINVAL;
	*id = (unsigned int)n;
	return 0;
}

static int grow(struct pid_list *l)
{
	size_t room = l->room ? 2 * l->room : 16;
	unsigned int *bigger = kmalloc(room * sizeof(*bigger));

	if (!bigger)
		return -ENOMEM;
	memcpy(bigger, l->ids, l->count * sizeof(*bigger));
	kfree(l->ids);
	l->ids = bigger;
	l->room = room;
	return 0;
}

int pid_list_add(struct pid_list *l, unsigned int id)
{
	size_t at = pid_ids_place(l->ids, l->count, id);
	int err;

	if (at < l->count && l->ids[at] == id)
		return 0;
	if (l->count == l->room && (err = grow(l)))
		return err;
	memmove(&l->ids[at + 1], &l->ids[at], (l->count - at) * sizeof(*l->ids));
	l->ids[at] = id;
	l->count++;
	return 0;
}

int pid_list_add_word(struct pid_list *l, const char *word, size_t len)
{
	unsigned int id;

	return parse_id(word, len, &id) ?: pid_list_add(l, id);
}
