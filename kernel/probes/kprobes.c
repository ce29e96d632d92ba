/*
 * Registering, enabling and disabling kprobes: the generic core.
 *
 * Every registered kprobe belongs to a probe point (probe_point.h), found
 * by address in a hash table. A point is armed - its breakpoint written
 * into the text - exactly when the global knob is on and at least one of
 * its probes is enabled; point_update() recomputes that after every
 * change, so the rule lives in one place.
 *
 * kprobe_lock guards the hash table, the list of all probes, every
 * point's probe list and every probe's flags. It is a spinlock taken with
 * interrupts off, and nothing probe-able runs while it is held (only the
 * back end's arm/disarm and text_poke, which are blacklisted), so the trap
 * handler may take it too without ever deadlocking against itself. Memory
 * is allocated and instructions are decoded before taking it.
 */
#include "kernel/probes/kprobes_internal.h"
#include "kernel/probes/optimizer.h"
#include "kernel/execmem.h"
#include "kernel/heap.h"
#include "kernel/insn_slot.h"
#include "kernel/nokprobe.h"
#include "kernel/symtab.h"
#include "kernel/text_patch.h"
#include "kernel/trap.h"
#include "lib/errno.h"


struct spinlock kprobe_lock = SPINLOCK_INIT("kprobes");
struct probe_point *point_hash[POINT_HASH_SIZE];
LIST_HEAD(all_kprobes);
static bool globally_armed = true;

static void hash_insert_locked(struct probe_point *pp)
{
	struct probe_point **bucket = point_hash_bucket((uintptr_t)pp->addr);

	pp->hash_next = *bucket;
	*bucket = pp;
}

static void hash_remove_locked(struct probe_point *pp)
{
	struct probe_point **link = point_hash_bucket((uintptr_t)pp->addr);

	while (*link != pp)
		link = &(*link)->hash_next;
	*link = pp->hash_next;
}

void for_each_point_locked(void (*fn)(struct probe_point *pp, void *ctx), void *ctx)
{
	for (size_t b = 0; b < POINT_HASH_SIZE; b++)
		for (struct probe_point *pp = point_hash[b], *next; pp; pp = next) {
			next = pp->hash_next;
			fn(pp, ctx);
		}
}

struct range {
	uintptr_t start, end;
	bool found;
};

static void note_inside(struct probe_point *pp, void *ctx)
{
	struct range *r = ctx;

	r->found |= (uintptr_t)pp->addr > r->start && (uintptr_t)pp->addr < r->end;
}

bool point_inside_locked(uintptr_t start, uintptr_t end)
{
	struct range r = { start, end, false };

	for_each_point_locked(note_inside, &r);
	return r.found;
}

struct text_copy {
	uint8_t *buf;
	uintptr_t addr;
	size_t len;
};

static void unpatch_copy(struct probe_point *pp, void *ctx)
{
	struct text_copy *c = ctx;

	if (pp->armed)
		arch_unpatched_bytes(pp, c->buf, c->addr, c->len);
}

void kprobes_read_text(uintptr_t addr, uint8_t *buf, size_t len)
{
	unsigned long flags = spin_lock_irqsave(&kprobe_lock);
	struct text_copy copy = { buf, addr, len };

	text_read(buf, (const void *)addr, len);
	for_each_point_locked(unpatch_copy, &copy);
	spin_unlock_irqrestore(&kprobe_lock, flags);
}

/* Arm or disarm pp to match the rule above, refresh has_post_handler and
 * sole, and let the optimizer follow. A jump is always taken out before the
 * breakpoint, so the text goes jump -> breakpoint -> original. */
static void point_update_locked(struct probe_point *pp)
{
	struct kprobe *p, *sole = NULL;
	int enabled = 0;
	bool want;

	pp->has_post_handler = false;
	list_for_each_entry(p, &pp->probes, point_node) {
		if (!kprobe_is_enabled(p))
			continue;
		enabled++;
		sole = p;
		pp->has_post_handler |= p->post_handler != NULL;
	}
	pp->sole = enabled == 1 ? sole : NULL;
	want = enabled && globally_armed;
	if (want && !pp->armed) {
		arch_arm_kprobe(pp);
		pp->armed = true;
		optimizer_update_locked(pp);
	} else if (!want && pp->armed) {
		pp->armed = false;
		optimizer_update_locked(pp);
		arch_disarm_kprobe(pp);
	} else {
		optimizer_update_locked(pp);
	}
}

/* Work out the address a probe asks for. */
static int resolve_address(struct kprobe *p, uintptr_t *addr)
{
	struct symbol sym;

	if (p->symbol_name && p->addr)
		return -EINVAL;
	if (p->symbol_name) {
		if (sym_by_name(p->symbol_name, &sym) < 0)
			return -ENOENT;
		/* Past the end would be some other function's code. */
		if (p->offset >= sym.size)
			return -ERANGE;
		*addr = sym.addr + p->offset;
	} else if (p->addr) {
		*addr = (uintptr_t)p->addr + p->offset;
	} else {
		return -EINVAL;
	}
	return 0;
}

/* The function the address lies in, and whether probing there is allowed:
 * not in the blacklist, and jprobes and kretprobes only at an entry. */
static int check_address(uintptr_t addr, enum kprobe_kind kind, struct symbol *func)
{
	if (sym_by_addr(addr, func) < 0 || func->type != SYM_TEXT ||
	    addr >= func->addr + func->size)
		return -ENOENT;
	if (within_nokprobe_text(addr))
		return -EINVAL;
	if (kind != KPROBE_KIND_K && addr != func->addr)
		return -EINVAL;
	return 0;
}

/* A new point for addr, with its instruction prepared. */
static struct insn_slot_cache kprobe_slots =
	INSN_SLOT_CACHE_INIT(kprobe_slots, "kprobe slots", ARCH_PROBE_SLOT_SIZE);

uint8_t *kprobe_alloc_slot(void)
{
	return insn_slot_alloc(&kprobe_slots);
}

unsigned long kprobe_slots_in_use(void)
{
	return kprobe_slots.slots_in_use;
}

/* Instruction slots and detour buffers are the only code in the
 * executable region. */
bool kprobes_code_address(uintptr_t addr)
{
	return execmem_contains(addr);
}
NOKPROBE_SYMBOL(kprobes_code_address);

static void point_destroy(struct probe_point *pp)
{
	if (pp->slot)
		insn_slot_free(&kprobe_slots, pp->slot);
	kfree(pp);
}

static int point_create(uintptr_t addr, const struct symbol *func, struct probe_point **out)
{
	struct probe_point *pp = kzalloc(sizeof(*pp));
	int err;

	if (!pp)
		return -ENOMEM;
	pp->addr = (uint8_t *)addr;
	pp->func_start = func->addr;
	pp->func_size = func->size;
	pp->has_fixup = extable_search(addr) != 0;
	list_init(&pp->probes);
	list_init(&pp->opt_node);
	err = arch_prepare_kprobe(pp, func->addr, func->size);
	if (err < 0) {
		point_destroy(pp);
		return err;
	}
	*out = pp;
	return 0;
}


static struct kprobe *point_jprobe_locked(struct probe_point *pp)
{
	struct kprobe *q;

	list_for_each_entry(q, &pp->probes, point_node)
		if (q->kind == KPROBE_KIND_J)
			return q;
	return NULL;
}

/* A jprobe goes last on its point, so the kprobes sharing the point run
 * their pre-handlers before the jprobe diverts execution to its entry. */
static int point_add_locked(struct probe_point *pp, struct kprobe *p)
{
	struct kprobe *jp = point_jprobe_locked(pp);

	if (jp && p->kind == KPROBE_KIND_J)
		return -EBUSY;
	if (jp)
		list_insert_between(&p->point_node, jp->point_node.prev, &jp->point_node);
	else
		list_add_tail(&p->point_node, &pp->probes);
	p->point = pp;
	list_add_tail(&p->all_node, &all_kprobes);
	/* First take out any jump whose bytes cover this address (a probe
	 * inside it would be overwritten), then arm this one. */
	optimizer_update_around_locked((uintptr_t)pp->addr);
	point_update_locked(pp);
	return 0;
}

int register_kprobe_kind(struct kprobe *p, enum kprobe_kind kind)
{
	struct probe_point *pp, *fresh = NULL;
	uint8_t *asked_addr = p->addr;
	struct symbol func;
	unsigned long flags;
	uintptr_t addr;
	int err;

	if (p->point)
		return -EEXIST;
	err = resolve_address(p, &addr);
	if (!err)
		err = check_address(addr, kind, &func);
	if (err)
		return err;

	p->kind = kind;
	p->addr = (uint8_t *)addr;
	p->flags &= KPROBE_FLAG_DISABLED;	/* the only flag a caller sets */
	p->nmissed = 0;
	p->nhit = 0;
	list_init(&p->point_node);
	list_init(&p->all_node);

	/* A new point is created outside the lock (it allocates and decodes),
	 * then the address is looked up again: another thread may have added
	 * a point there meanwhile (ours is dropped), or removed the one we saw
	 * (we create one after all). */
	flags = spin_lock_irqsave(&kprobe_lock);
	while (!(pp = point_lookup_locked(addr)) && !fresh) {
		spin_unlock_irqrestore(&kprobe_lock, flags);
		err = point_create(addr, &func, &fresh);
		if (err)
			goto out;
		flags = spin_lock_irqsave(&kprobe_lock);
	}
	if (!pp) {
		pp = fresh;
		fresh = NULL;
		hash_insert_locked(pp);
	}
	err = point_add_locked(pp, p);
	spin_unlock_irqrestore(&kprobe_lock, flags);
	if (fresh)
		point_destroy(fresh);
out:
	if (err) {
		p->point = NULL;
		p->addr = asked_addr;	/* as the caller left it */
	}
	return err;
}

int register_kprobe(struct kprobe *p)
{
	return register_kprobe_kind(p, KPROBE_KIND_K);
}

void unregister_kprobe(struct kprobe *p)
{
	unsigned long flags = spin_lock_irqsave(&kprobe_lock);
	struct probe_point *pp = p->point;
	bool last;

	if (!pp) {
		/* Not registered: as the Kprobes guide says, forget the address. */
		spin_unlock_irqrestore(&kprobe_lock, flags);
		p->addr = NULL;
		return;
	}
	list_del(&p->point_node);
	list_del(&p->all_node);
	p->point = NULL;
	last = list_empty(&pp->probes);
	point_update_locked(pp);
	if (last) {
		hash_remove_locked(pp);
		optimizer_forget_locked(pp);
		/* Points whose jump it blocked may be optimized again. */
		optimizer_update_around_locked((uintptr_t)pp->addr);
	}
	spin_unlock_irqrestore(&kprobe_lock, flags);

	if (last) {
		/* The optimizer thread, another CPU, or a preempted thread may
		 * still be using this point's code: wait before freeing. */
		optimizer_release(pp);
		kprobes_wait_point_unused(pp);
		point_destroy(pp);
	}
}

int register_kprobes(struct kprobe **kps, int num)
{
	for (int i = 0; i < num; i++) {
		int err = register_kprobe(kps[i]);

		if (err) {
			unregister_kprobes(kps, i);
			return err;
		}
	}
	return 0;
}

void unregister_kprobes(struct kprobe **kps, int num)
{
	for (int i = 0; i < num; i++)
		unregister_kprobe(kps[i]);
}

static int set_disabled(struct kprobe *p, bool disabled)
{
	unsigned long flags = spin_lock_irqsave(&kprobe_lock);
	int err = 0;

	if (!p->point)
		err = -EINVAL;
	else {
		if (disabled)
			p->flags |= KPROBE_FLAG_DISABLED;
		else
			p->flags &= ~KPROBE_FLAG_DISABLED;
		point_update_locked(p->point);
	}
	spin_unlock_irqrestore(&kprobe_lock, flags);
	return err;
}

int disable_kprobe(struct kprobe *p)
{
	return set_disabled(p, true);
}

int enable_kprobe(struct kprobe *p)
{
	return set_disabled(p, false);
}

int kprobes_snapshot(struct kprobe_info *out, int max)
{
	unsigned long flags = spin_lock_irqsave(&kprobe_lock);
	struct kprobe *p;
	int n = 0;

	list_for_each_entry(p, &all_kprobes, all_node) {
		if (n < max) {
			struct kprobe_info *info = &out[n];

			info->addr = (uintptr_t)p->addr;
			info->kind = p->kind;
			info->flags = p->flags;
			info->nhit = p->nhit;
			info->nmissed = p->nmissed;
			if (p->kind == KPROBE_KIND_R)
				info->nmissed += container_of(p, struct kretprobe, kp)->nmissed;
			info->probe = p;
		}
		n++;
	}
	spin_unlock_irqrestore(&kprobe_lock, flags);
	return n;
}

static void set_global(bool armed)
{
	unsigned long flags = spin_lock_irqsave(&kprobe_lock);
	struct kprobe *p;

	globally_armed = armed;
	/* Each point is visited once per probe on it; point_update is
	 * idempotent, so that is harmless. */
	list_for_each_entry(p, &all_kprobes, all_node)
		point_update_locked(p->point);
	spin_unlock_irqrestore(&kprobe_lock, flags);
}

void kprobes_global_disarm(void)
{
	set_global(false);
}

void kprobes_global_arm(void)
{
	set_global(true);
}

bool kprobes_globally_armed(void)
{
	return globally_armed;
}
