/* Sets of words being made: see sorted_set.h. */
#include "kernel/mm/heap.h"
#include "kernel/trace/sorted_set.h"
#include "lib/errno.h"
#include "lib/sorted.h"
#include "lib/string.h"

/* Twice the room, so that n additions copy O(n) words in all. */
static int grow(struct sorted_set *s)
{
	size_t room = s->room ? 2 * s->room : 16;
	uintptr_t *bigger = kmalloc(room * sizeof(*bigger));

	if (!bigger)
		return -ENOMEM;
	memcpy(bigger, s->v, s->count * sizeof(*bigger));
	kfree(s->v);
	s->v = bigger;
	s->room = room;
	return 0;
}

int sorted_set_add(struct sorted_set *s, uintptr_t v)
{
	size_t at = sorted_place(s->v, s->count, v);
	int err;

	if (at < s->count && s->v[at] == v)
		return 0;
	if (s->count == s->room && (err = grow(s)))
		return err;
	memmove(&s->v[at + 1], &s->v[at], (s->count - at) * sizeof(*s->v));
	s->v[at] = v;
	s->count++;
	return 0;
}

void sorted_set_drop(struct sorted_set *s, uintptr_t v)
{
	size_t at = sorted_place(s->v, s->count, v);

	if (at < s->count && s->v[at] == v) {
		memmove(&s->v[at], &s->v[at + 1], (s->count - at - 1) * sizeof(*s->v));
		s->count--;
	}
}
