/*
 * Registering, enabling and disabling kprobes: the generic core.
 *
 * Every registered kprobe belongs to a probe point (probe_point.h), found
 * by address in a hash table. A point is armed - its breakpoint written
 * into the text - exactly when the global knob is on and at least one of
 * its probes is enabled; point_update() recomputes that after every
 * change, so the rule lives in one place.
 *
 * Locking. Everything here runs under kprobe_mutex, a sleeping lock, so
 * registration may allocate, decode and patch text while holding it. A
 * probe hit takes no lock at all: it reads the hash table and a point's
 * probe list as RCU readers (kernel/rcu.h), which is why both are
 * changed with release stores, and why nothing unlinked is freed or
 * reused before a grace period has passed. A hit therefore never waits
 * for code it interrupted, whatever that code holds.
 */
#include "kernel/code_in_use.h"
#include "kernel/probes/kprobes_internal.h"
#include "kernel/probes/optimizer.h"
#include "kernel/code_range.h"
#include "lib/export.h"
#include "kernel/mm/execmem.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/insn_slot.h"
#include "kernel/mm/text_patch.h"
#include "kernel/nokprobe.h"
#include "kernel/panic.h"
#include "kernel/sched.h"
#include "kernel/symtab.h"
#include "kernel/trap.h"
#include "kernel/trace/ftrace_sites.h"
#include "lib/errno.h"
#include "lib/string.h"
#include <asm/ftrace.h>

struct mutex kprobe_mutex = MUTEX_INIT(kprobe_mutex, "kprobes");
struct probe_point *point_hash[POINT_HASH_SIZE];
struct probe_point *point_blocks[POINT_HASH_SIZE];
LIST_HEAD(all_kprobes);
LIST_HEAD(all_points);
static bool globally_armed = true;
/* The number the last registered probe got. Numbers are never reused,
 * so an old number names no probe rather than a newer one. */
static unsigned int last_probe_id;

/* The bucket of point_blocks that holds the points of addr's block. */
static struct probe_point __kprobes **point_block_bucket(uintptr_t addr)
{
	uint32_t block = (uint32_t)(addr >> POINT_BLOCK_SHIFT);

	return &point_blocks[(block * 0x9e3779b9u) >> (32 - POINT_HASH_BITS)];
}

/* Make pp visible to hits: filled in first, then published. The fence
 * keeps the publishing store before every later store, the text's
 * breakpoint among them: a CPU that reads the breakpoint from memory
 * then finds the point (no_point_hit in kprobe_trap.c counts on it).
 * (The block buckets and all_points are the mutex holder's own: plain
 * stores.) */
static void __kprobes point_publish_locked(struct probe_point *pp)
{
	struct probe_point **bucket = point_hash_bucket((uintptr_t)pp->addr);
	struct probe_point **block = point_block_bucket((uintptr_t)pp->addr);

	pp->hash_next = *bucket;
	rcu_assign_pointer(*bucket, pp);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	pp->block_next = *block;
	*block = pp;
	list_add_tail(&pp->all_node, &all_points);
}

/* The link that points to pp in the chain starting at *link, which
 * holds pp: a hash chain, or (by_block) a block bucket's chain. */
static struct probe_point __kprobes **
chain_link_to(struct probe_point **link, struct probe_point *pp, bool by_block)
{
	while (*link != pp)
		link = by_block ? &(*link)->block_next : &(*link)->hash_next;
	return link;
}

/* Hide pp from new hits. Its hash_next stays as it was, so a hit that is
 * on pp right now walks on to the rest of the chain. */
static void __kprobes point_unpublish_locked(struct probe_point *pp)
{
	struct probe_point **link = chain_link_to(point_hash_bucket((uintptr_t)pp->addr), pp, false);

	rcu_assign_pointer(*link, pp->hash_next);
	link = chain_link_to(point_block_bucket((uintptr_t)pp->addr), pp, true);
	*link = pp->block_next;
	list_del(&pp->all_node);
}

void __kprobes for_each_point_locked(void (*fn)(struct probe_point *pp, void *ctx), void *ctx)
{
	struct probe_point *pp, *next;

	list_for_each_entry_safe(pp, next, &all_points, all_node)
		fn(pp, ctx);
}

void __kprobes for_each_point_in_locked(uintptr_t start, uintptr_t end,
			      void (*fn)(struct probe_point *pp, void *ctx), void *ctx)
{
	if (start >= end)
		return;
	for (uintptr_t block = start >> POINT_BLOCK_SHIFT; block <= (end - 1) >> POINT_BLOCK_SHIFT;
	     block++) {
		struct probe_point *pp = *point_block_bucket(block << POINT_BLOCK_SHIFT);

		/* A bucket also holds the points of other blocks that hash
		 * to it: each point is taken in its own block only, so a
		 * range over two such blocks sees it once. */
		for (; pp; pp = pp->block_next) {
			uintptr_t a = (uintptr_t)pp->addr;

			if (a >> POINT_BLOCK_SHIFT == block && a >= start && a < end)
				fn(pp, ctx);
		}
	}
}

static void __kprobes note_found(struct probe_point *pp, void *found)
{
	(void)pp;
	*(bool *)found = true;
}

bool __kprobes point_inside_locked(uintptr_t start, uintptr_t end)
{
	bool found = false;

	for_each_point_in_locked(start + 1, end, note_found, &found);
	return found;
}

struct text_copy {
	uint8_t *buf;
	uintptr_t addr;
	size_t len;
};

/* The bytes of a call site turned off, into the copy. */
static void __kprobes unpatch_site(uintptr_t site, struct text_copy *c)
{
	static const uint8_t nop[ARCH_FTRACE_SITE_SIZE] = FTRACE_SITE_OFF;

	for (size_t i = 0; i < sizeof(nop); i++)
		if (site + i >= c->addr && site + i < c->addr + c->len)
			c->buf[site + i - c->addr] = nop[i];
}

static void __kprobes unpatch_copy(struct probe_point *pp, void *ctx)
{
	struct text_copy *c = ctx;

	if (pp->armed && pp->on_ftrace)
		unpatch_site((uintptr_t)pp->addr, c);
	else if (pp->armed)
		arch_unpatched_bytes(pp, c->buf, c->addr, c->len);
}

void __kprobes kprobes_read_text(uintptr_t addr, uint8_t *buf, size_t len)
{
	struct text_copy copy = { buf, addr, len };

	if (!mutex_is_held(&kprobe_mutex))
		panic("kprobes_read_text called without kprobe_mutex");
	text_read(buf, (const void *)addr, len);
	/* A point patches at most ARCH_MAX_PATCH_LEN bytes from its
	 * address, so one that far before addr may reach into the copy. */
	for_each_point_in_locked(addr - ARCH_MAX_PATCH_LEN + 1, addr + len, unpatch_copy, &copy);
}

/* Arm or disarm pp to match the rule above, refresh has_post_handler and
 * sole, and let the optimizer follow. A jump is always taken out before the
 * breakpoint, so the text goes jump -> breakpoint -> original. */
static void __kprobes point_update_locked(struct probe_point *pp)
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
	rcu_assign_pointer(pp->sole, enabled == 1 ? sole : NULL);
	want = enabled && globally_armed;
	if (want && !pp->armed) {
		if (pp->on_ftrace)
			kprobe_ftrace_arm_locked(pp, true);
		else
			arch_arm_kprobe(pp);
		pp->armed = true;
		optimizer_update_locked(pp);
	} else if (!want && pp->armed) {
		pp->armed = false;
		optimizer_update_locked(pp);
		if (pp->on_ftrace)
			kprobe_ftrace_arm_locked(pp, false);
		else
			arch_disarm_kprobe(pp);
	} else {
		optimizer_update_locked(pp);
	}
}

/* Work out the address a probe asks for. */
static int __kprobes resolve_address(struct kprobe *p, uintptr_t *addr)
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

/* Whether addr lies inside a call site, past its first byte: the bytes
 * the function tracer rewrites (aarch64's second NOP is an instruction
 * of its own, which a breakpoint could sit on). */
static bool __kprobes inside_site(uintptr_t addr, const struct symbol *func)
{
	return addr > func->addr && addr < func->addr + ARCH_FTRACE_SITE_SIZE &&
	       ftrace_is_site(func->addr);
}

/* The function the address lies in, and whether probing there is allowed:
 * not in the blacklist, not inside a call site, and jprobes and
 * kretprobes only at an entry. */
static int __kprobes check_address(uintptr_t addr, enum kprobe_kind kind, struct symbol *func)
{
	int err;

	if (sym_by_addr(addr, func) < 0 || !sym_type_is_text(func->type) ||
	    addr >= func->addr + func->size)
		return -ENOENT;
	if (within_nokprobe_text(addr))
		return -EINVAL;
	err = kprobes_check_module_address(addr);
	if (err)
		return err;
	if (kind != KPROBE_KIND_K && addr != func->addr)
		return -EINVAL;
	if (inside_site(addr, func))
		return -EILSEQ;
	return 0;
}

/* A new point for addr, with its instruction prepared. */
static struct insn_slot_cache kprobe_slots =
	INSN_SLOT_CACHE_INIT(kprobe_slots, "kprobe slots", ARCH_PROBE_SLOT_SIZE);

uint8_t __kprobes *kprobe_alloc_slot(void)
{
	return insn_slot_alloc(&kprobe_slots);
}

unsigned long __kprobes kprobe_slots_in_use(void)
{
	return kprobe_slots.slots_in_use;
}

/* For backtraces through a hit that runs in a slot (kernel/code_range.h). */
static bool __kprobes in_kprobe_slot(uintptr_t addr)
{
	return insn_slot_cache_holds(&kprobe_slots, addr);
}
CODE_RANGE("probe code: an instruction slot", in_kprobe_slot);

static void __kprobes point_destroy(struct probe_point *pp)
{
	kfree(pp->gone);
	point_counts_free(pp);
	if (pp->slot)
		insn_slot_free(&kprobe_slots, pp->slot);
	if (pp->detour)
		optimizer_free_detour(pp->detour);
	kfree(pp);
}

/* May pp's out-of-line code - its slot or its detour buffer, which jump
 * back into the text - still be running: a thread stopped (preempted)
 * there, or another CPU, interrupts on, in the middle of it? */
static bool __kprobes point_code_in_use(const struct probe_point *pp)
{
	return (pp->slot && code_in_use((uintptr_t)pp->slot, ARCH_PROBE_SLOT_SIZE)) ||
	       (pp->detour && code_in_use((uintptr_t)pp->detour, ARCH_DETOUR_SIZE));
}

/* The deferred free of an unregistered point, after a grace period: no
 * hit can be using it any more. A thread preempted inside its slot or
 * detour buffer is another matter: it is in no read-side section there,
 * so it can stay across any number of grace periods; so can a CPU that
 * runs the slot's copy with interrupts on (the tick there counts as a
 * quiescent state). The free waits one more grace period while either
 * exists (Linux's RCU-tasks idea). */
static void __kprobes point_free_rcu(struct rcu_head *head)
{
	struct probe_point *pp = container_of(head, struct probe_point, rcu);

	if (point_code_in_use(pp))
		call_rcu(head, point_free_rcu);
	else
		point_destroy(pp);
}

/* pp is unpublished and has no probe left: free it once no hit can be
 * using it, and give its room in the armed sites back now. */
static void __kprobes point_retire_locked(struct probe_point *pp)
{
	if (pp->on_ftrace)
		kprobe_ftrace_unreserve_locked();
	call_rcu(&pp->rcu, point_free_rcu);
}

static int __kprobes
point_create(uintptr_t addr, const struct symbol *func, struct probe_point **out)
{
	struct probe_point *pp = kzalloc(sizeof(*pp));
	bool site = ftrace_is_site(addr);
	int err;

	if (!pp)
		return -ENOMEM;
	pp->addr = (uint8_t *)addr;
	pp->func_start = func->addr;
	pp->func_size = func->size;
	pp->has_fixup = extable_search(addr) != 0;
	list_init(&pp->probes);
	list_init(&pp->opt_node);
	err = point_counts_alloc(pp);
	if (!err && site)
		err = kprobe_ftrace_reserve_locked();
	else if (!err)
		err = arch_prepare_kprobe(pp, func->addr, func->size);
	pp->on_ftrace = site && !err;	/* from here on, destroying gives the room back */
	if (err < 0) {
		point_destroy(pp);
		return err;
	}
	*out = pp;
	return 0;
}

/* A point's jprobe goes last (point_add_locked): no walk of its probes,
 * which may be thousands. */
struct kprobe __kprobes *point_jprobe_locked(const struct probe_point *pp)
{
	struct kprobe *q;

	if (list_empty(&pp->probes))
		return NULL;
	q = list_entry(pp->probes.prev, struct kprobe, point_node);
	return q->type->kind == KPROBE_KIND_J ? q : NULL;
}

/* Add p to pp, as a probe of the given type. A jprobe goes last on its
 * point, so the kprobes sharing the point run their pre-handlers before
 * the jprobe diverts execution to its entry. p is filled in before the
 * store that links it, as a hit may walk the list meanwhile: its number
 * too, which a handler may record. */
static int __kprobes
point_add_locked(struct probe_point *pp, struct kprobe *p, const struct probe_type *type)
{
	struct kprobe *jp = point_jprobe_locked(pp);

	if (jp && type->kind == KPROBE_KIND_J)
		return -EBUSY;
	p->type = type;
	p->id = ++last_probe_id;
	p->owner = kprobes_owner(p);
	p->addr = pp->addr;
	p->flags &= KPROBE_FLAG_DISABLED;	/* the only flag a caller sets */
	if (pp->on_ftrace)
		p->flags |= KPROBE_FLAG_FTRACE;
	p->point = pp;
	if (jp)
		list_insert_between_rcu(&p->point_node, jp->point_node.prev, &jp->point_node);
	else
		list_add_tail_rcu(&p->point_node, &pp->probes);
	list_add_tail(&p->all_node, &all_kprobes);
	/* First take out any jump whose bytes cover this address (a probe
	 * inside it would be overwritten), then arm this one. */
	optimizer_update_around_locked((uintptr_t)pp->addr);
	point_update_locked(pp);
	return 0;
}

/* Register p at addr, in func, creating the point if it is the first. */
static int __kprobes register_at_locked(struct kprobe *p, const struct probe_type *type,
					uintptr_t addr, const struct symbol *func)
{
	struct probe_point *pp = point_lookup(addr);
	int err;

	if (!pp) {
		err = point_create(addr, func, &pp);
		if (err)
			return err;
		point_publish_locked(pp);
	}
	return point_add_locked(pp, p, type);
}

/* Where p asks to go, checked: its address and the function it is in. */
static int __kprobes locate_probe(struct kprobe *p, enum kprobe_kind kind, uintptr_t *addr,
				  struct symbol *func)
{
	int err = resolve_address(p, addr);

	return err ? err : check_address(*addr, kind, func);
}

int __kprobes register_kprobe_kind(struct kprobe *p, const struct probe_type *type)
{
	/* Inside register_probes this thread holds the lock already. */
	bool batch = mutex_is_held(&kprobe_mutex);
	struct symbol func;
	uintptr_t addr;
	int err;

	if (!batch)
		mutex_lock(&kprobe_mutex);
	err = p->point ? -EEXIST : locate_probe(p, type->kind, &addr, &func);
	if (!err)
		err = kprobe_counts_alloc(p);
	if (!err) {
		err = register_at_locked(p, type, addr, &func);
		if (err)
			kprobe_counts_fold(p);	/* never hit: frees them */
	}
	if (!batch) {
		kprobe_ftrace_update_locked();
		mutex_unlock(&kprobe_mutex);
	}
	return err;
}

static struct kprobe __kprobes *nth_kprobe(void *array, int i)
{
	return ((struct kprobe **)array)[i];
}

static const struct probe_type kprobe_type = {
	.kind = KPROBE_KIND_K,
	.nth = nth_kprobe,
	.register_one = register_kprobe,
};

int __kprobes register_kprobe(struct kprobe *p)
{
	return register_kprobe_kind(p, &kprobe_type);
}
EXPORT_SYMBOL(register_kprobe);

/*
 * Unregistering in two steps, so that a batch can write all its disarms
 * (text_poke_sync: on aarch64 one stop_machine for many) before any point
 * is unpublished: a point is never hidden from hits while its breakpoint
 * may still be in the text. The first step unlinks p and brings its
 * point up to date; a point left without probes moves to *emptied.
 */
static void __kprobes unlink_kprobe_locked(struct kprobe *p, struct list_node *emptied)
{
	struct probe_point *pp = p->point;

	if (!kprobe_registered_locked(p)) {
		/* Not registered: as the Kprobes guide says, forget the address. */
		p->addr = NULL;
		return;
	}
	/* p's own links stay as they are: a hit on p walks on. So does
	 * p->point, which a hit that found p may still read (a jprobe's
	 * return does): it is cleared only once no hit can be running
	 * (unregister_kprobe_finish). Until then p is off all_kprobes,
	 * which is what "registered" means to the mutex's holders. */
	list_del_rcu(&p->point_node);
	list_del(&p->all_node);
	list_init(&p->all_node);
	if (pp->gone) {
		/* Disarmed and unpublished when it went; its text is gone. */
		if (list_empty(&pp->probes))
			point_retire_locked(pp);
		return;
	}
	point_update_locked(pp);
	if (list_empty(&pp->probes)) {
		list_del(&pp->all_node);
		list_add_tail(&pp->all_node, emptied);
	}
}

/* The second step, once the disarms are written: the emptied points are
 * unpublished, and freed when no CPU can be using them. */
static void __kprobes release_points_locked(struct list_node *emptied)
{
	struct probe_point *pp, *next;

	list_for_each_entry_safe(pp, next, emptied, all_node) {
		point_unpublish_locked(pp);	/* takes it off emptied */
		optimizer_forget_locked(pp);
		/* Points whose jump it blocked may be optimized again. */
		optimizer_update_around_locked((uintptr_t)pp->addr);
		point_retire_locked(pp);
	}
}

/* unregister_kprobe_begin's work, with kprobe_mutex held. */
static void __kprobes unregister_kprobe_locked(struct kprobe *p)
{
	LIST_HEAD(emptied);

	unlink_kprobe_locked(p, &emptied);
	text_poke_sync();	/* inside a batch: write the disarm first */
	release_points_locked(&emptied);
}

void __kprobes unregister_kprobe_begin(struct kprobe *p)
{
	mutex_lock(&kprobe_mutex);
	unregister_kprobe_locked(p);
	kprobe_ftrace_update_locked();
	mutex_unlock(&kprobe_mutex);
}

void __kprobes unregister_kprobe_finish(struct kprobe *p)
{
	if (p->counts_offset)	/* it was registered */
		kprobe_counts_fold(p);
	p->point = NULL;
}

static void __kprobes kill_point(struct probe_point *pp, void *why)
{
	struct point_gone *gone = kzalloc(sizeof(*gone));
	struct kprobe *p;

	if (!gone)
		panic("kprobes: no memory to mark a probe gone");
	kprobes_name_place((uintptr_t)pp->addr, gone->where, sizeof(gone->where), gone->module);
	strlcpy(gone->why, why, sizeof(gone->why));
	list_for_each_entry(p, &pp->probes, point_node)
		p->flags |= KPROBE_FLAG_GONE;
	/* Gone probes are not enabled: this takes out the jump and the
	 * breakpoint, while the code is still there to restore. */
	point_update_locked(pp);
	point_unpublish_locked(pp);
	optimizer_forget_locked(pp);
	pp->gone = gone;
}

void __kprobes kprobes_kill_range_locked(uintptr_t start, uintptr_t end, const char *why)
{
	for_each_point_in_locked(start, end, kill_point, (void *)why);
}

void __kprobes unregister_kprobe(struct kprobe *p)
{
	unregister_kprobes(&p, 1);
}
EXPORT_SYMBOL(unregister_kprobe);

/* All of them armed in one batch of patches (one sync, or on aarch64 one
 * stop_machine for every 64 breakpoints), with kprobe_mutex held
 * throughout: register_kprobe_kind sees it held and does not take it. */
int __kprobes register_probes(void *array, int num, const struct probe_type *type)
{
	int err = 0, done = 0;

	mutex_lock(&kprobe_mutex);
	text_poke_batch_begin();
	while (done < num && !err) {
		err = type->register_one(type->nth(array, done));
		if (!err)
			done++;
	}
	text_poke_batch_end();
	kprobe_ftrace_update_locked();
	mutex_unlock(&kprobe_mutex);
	if (err)
		unregister_probes(array, done, type);
	return err;
}

/* All of them unlinked and disarmed first, then their points released,
 * then one grace period for the lot. */
void __kprobes unregister_probes(void *array, int num, const struct probe_type *type)
{
	LIST_HEAD(emptied);

	mutex_lock(&kprobe_mutex);
	text_poke_batch_begin();
	for (int i = 0; i < num; i++) {
		if (type->before_unlink_locked)
			type->before_unlink_locked(type->nth(array, i));
		unlink_kprobe_locked(type->nth(array, i), &emptied);
	}
	text_poke_sync();
	release_points_locked(&emptied);
	text_poke_batch_end();
	kprobe_ftrace_update_locked();
	mutex_unlock(&kprobe_mutex);
	synchronize_rcu();
	for (int i = 0; i < num; i++) {
		struct kprobe *p = type->nth(array, i);

		unregister_kprobe_finish(p);
		if (type->after_grace_period)
			type->after_grace_period(p);
	}
}

int __kprobes register_kprobes(struct kprobe **kps, int num)
{
	return register_probes(kps, num, &kprobe_type);
}
EXPORT_SYMBOL(register_kprobes);

void __kprobes unregister_kprobes(struct kprobe **kps, int num)
{
	unregister_probes(kps, num, &kprobe_type);
}
EXPORT_SYMBOL(unregister_kprobes);

static int __kprobes set_disabled(struct kprobe *p, bool disabled)
{
	int err = 0;

	mutex_lock(&kprobe_mutex);
	/* A gone probe's code no longer exists: it can never be armed. */
	if (!kprobe_registered_locked(p) || (p->point->gone && !disabled))
		err = -EINVAL;
	else {
		if (disabled)
			p->flags |= KPROBE_FLAG_DISABLED;
		else
			p->flags &= ~KPROBE_FLAG_DISABLED;
		if (!p->point->gone)
			point_update_locked(p->point);
	}
	kprobe_ftrace_update_locked();
	mutex_unlock(&kprobe_mutex);
	return err;
}

int __kprobes disable_kprobe(struct kprobe *p)
{
	return set_disabled(p, true);
}
EXPORT_SYMBOL(disable_kprobe);

int __kprobes enable_kprobe(struct kprobe *p)
{
	return set_disabled(p, false);
}
EXPORT_SYMBOL(enable_kprobe);

static void __kprobes set_global(bool armed)
{
	struct kprobe *p;

	mutex_lock(&kprobe_mutex);
	globally_armed = armed;
	/* Each point is visited once per probe on it; point_update is
	 * idempotent, so that is harmless. */
	text_poke_batch_begin();
	list_for_each_entry(p, &all_kprobes, all_node)
		point_update_locked(p->point);
	text_poke_batch_end();
	kprobe_ftrace_update_locked();
	mutex_unlock(&kprobe_mutex);
}

void __kprobes kprobes_global_disarm(void)
{
	set_global(false);
}

void __kprobes kprobes_global_arm(void)
{
	set_global(true);
}

bool __kprobes kprobes_globally_armed(void)
{
	return globally_armed;
}

/* At boot (kmain, once the scheduler and RCU are up): the optimizer
 * thread, the module notifier,
 * and the three trap hooks through which every hit arrives
 * (kprobe_trap.c). */
void __kprobes kprobes_init(void)
{
	optimizer_init();
	kprobes_modules_init();
	trap_set_hook(TRAP_HOOK_BREAKPOINT, kprobe_breakpoint_handler);
	trap_set_hook(TRAP_HOOK_SINGLESTEP, kprobe_singlestep_handler);
	trap_set_hook(TRAP_HOOK_FAULT, kprobe_fault_handler);
}
