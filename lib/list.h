/* Intrusive circular doubly linked lists: a struct list_node is embedded
 * in each element, and container_of() recovers the element. An empty list
 * is a head that points to itself. */
#ifndef LIB_LIST_H
#define LIB_LIST_H

#include "lib/types.h"

struct list_node {
	struct list_node *next, *prev;
};

#define LIST_HEAD_INIT(name) { &(name), &(name) }
#define LIST_HEAD(name) struct list_node name = LIST_HEAD_INIT(name)

static inline void list_init(struct list_node *head)
{
	head->next = head->prev = head;
}

static inline bool list_empty(const struct list_node *head)
{
	return head->next == head;
}

static inline void list_insert_between(struct list_node *node,
				       struct list_node *prev,
				       struct list_node *next)
{
	node->prev = prev;
	node->next = next;
	prev->next = node;
	next->prev = node;
}

/* Add node at the front of the list. */
static inline void list_add(struct list_node *node, struct list_node *head)
{
	list_insert_between(node, head, head->next);
}

/* Add node at the back of the list. */
static inline void list_add_tail(struct list_node *node, struct list_node *head)
{
	list_insert_between(node, head->prev, head);
}

/* Unlink node; it points to itself afterwards so a second delete is safe. */
static inline void list_del(struct list_node *node)
{
	node->prev->next = node->next;
	node->next->prev = node->prev;
	list_init(node);
}

#define list_entry(node, type, member) container_of(node, type, member)
#define list_first_entry(head, type, member) list_entry((head)->next, type, member)

#define list_for_each(pos, head) \
	for (pos = (head)->next; pos != (head); pos = pos->next)

/* Iterate over entries; safe against removal of the current entry. */
#define list_for_each_entry_safe(pos, tmp, head, member)                      \
	for (pos = list_entry((head)->next, __typeof__(*pos), member),        \
	     tmp = list_entry(pos->member.next, __typeof__(*pos), member);    \
	     &pos->member != (head);                                          \
	     pos = tmp, tmp = list_entry(tmp->member.next, __typeof__(*tmp), member))

#define list_for_each_entry(pos, head, member)                                \
	for (pos = list_entry((head)->next, __typeof__(*pos), member);        \
	     &pos->member != (head);                                          \
	     pos = list_entry(pos->member.next, __typeof__(*pos), member))

/*
 * The same lists shared with lock-free readers (kernel/rcu.h). Writers
 * still exclude each other with a lock; a reader walking the list with
 * list_for_each_entry_rcu sees each node either linked or not, never half
 * linked: a node is filled in before the release store that publishes it,
 * and a removed node keeps its next pointer, so a reader standing on it
 * walks on. A removed node may be reused only after a grace period.
 */
static inline void list_insert_between_rcu(struct list_node *node,
					   struct list_node *prev,
					   struct list_node *next)
{
	node->prev = prev;
	node->next = next;
	__atomic_store_n(&prev->next, node, __ATOMIC_RELEASE);
	next->prev = node;
}

static inline void list_add_rcu(struct list_node *node, struct list_node *head)
{
	list_insert_between_rcu(node, head, head->next);
}

static inline void list_add_tail_rcu(struct list_node *node, struct list_node *head)
{
	list_insert_between_rcu(node, head->prev, head);
}

/* Unlink node, leaving its own pointers as they were for readers on it. */
static inline void list_del_rcu(struct list_node *node)
{
	__atomic_store_n(&node->prev->next, node->next, __ATOMIC_RELAXED);
	node->next->prev = node->prev;
}

#define list_for_each_entry_rcu(pos, head, member)                            \
	for (pos = list_entry(__atomic_load_n(&(head)->next, __ATOMIC_RELAXED),  \
			      __typeof__(*pos), member);                      \
	     &pos->member != (head);                                          \
	     pos = list_entry(__atomic_load_n(&pos->member.next, __ATOMIC_RELAXED), \
			      __typeof__(*pos), member))

#endif
