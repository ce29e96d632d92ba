/*
 * The x86_64 back end of the jump optimizer (the generic part is
 * kernel/probes/optimizer.c).
 *
 * An optimized probe replaces the instructions at the probed address -
 * the "region", whole instructions covering at least 5 bytes - with a
 * 5-byte `jmp rel32` to a detour buffer. The buffer is the template of
 * optprobe_template.S (save registers, call the handlers, restore),
 * followed by copies of the region's instructions and a jump back to the
 * first instruction after the region.
 *
 * That is only safe if nothing else can arrive in the middle of the
 * region, where the jump's bytes now are, and if the copies behave like
 * the originals. arch_check_optprobe decodes the whole function to make
 * sure:
 *   - the region lies wholly inside the function;
 *   - the function has no indirect jump (its targets are unknown);
 *   - no relative jump or call anywhere in the function lands inside the
 *     region, except on its first byte;
 *   - no instruction of the function has an exception fix-up (its fix-up
 *     could resume inside the region);
 *   - every region instruction can run elsewhere: no branch, call or
 *     return, nothing privileged, and rip-relative operands can be
 *     re-aimed from the buffer (which lies within 2 GiB of the text).
 * Another probe inside the region is the generic optimizer's check.
 */
#include "kernel/mm/heap.h"
#include "kernel/nokprobe.h"
#include "kernel/probes/optimizer.h"
#include "kernel/mm/text_patch.h"
#include "kernel/trap.h"
#include "lib/errno.h"
#include "lib/string.h"

#define JMP_REL32 0xe9
#define INT3 0xcc

extern const uint8_t optprobe_template[], optprobe_template_rip[], optprobe_template_pp[];
extern const uint8_t optprobe_template_callback[], optprobe_template_end[];

static bool __kprobes
lands_inside(const struct insn *in, uintptr_t at, uintptr_t start, uintptr_t end)
{
	uintptr_t target;

	if (in->flow != INSN_FLOW_JMP_REL && in->flow != INSN_FLOW_JCC_REL &&
	    in->flow != INSN_FLOW_CALL_REL)
		return false;
	target = insn_branch_target(in, at);
	return target > start && target < end;
}

/* Why the region's instruction in cannot run from the detour, or NULL. */
static const char __kprobes *region_refusal(const struct insn *in)
{
	if (in->flow == INSN_FLOW_CALL_REL || in->flow == INSN_FLOW_CALL_INDIRECT)
		return "call in region at";
	if (in->flow != INSN_FLOW_NONE)
		return "branch in region at";
	if (in->privileged || in->modifies_flags_if)
		return "privileged instruction in region at";
	return NULL;
}

/* Measure the region: whole instructions from the probed one, at least a
 * jump's worth. Returns its length or 0 (*why set). */
static size_t __kprobes measure_region(const uint8_t *code, size_t off, size_t size,
			     uintptr_t func, const char **why, uintptr_t *where)
{
	size_t len = 0;

	while (len < JMP_REL32_SIZE) {
		struct insn in;

		if (off + len >= size) {
			*why = "region crosses the end of the function at";
			*where = func + size;
			return 0;
		}
		if (insn_decode(&in, code + off + len, size - off - len) < 0) {
			*why = "undecodable instruction at";
			*where = func + off + len;
			return 0;
		}
		*why = region_refusal(&in);
		if (*why) {
			*where = func + off + len;
			return 0;
		}
		len += in.length;
	}
	return len;
}

/* Decode the whole function; why is set at the first thing that makes a
 * jump into [start, end) possible. */
static void __kprobes scan_function(const uint8_t *code, size_t size, uintptr_t func,
			  uintptr_t start, uintptr_t end, const char **why, uintptr_t *where)
{
	for (size_t off = 0; off < size && !*why;) {
		uintptr_t at = func + off;
		struct insn in;

		if (insn_decode(&in, code + off, size - off) < 0) {
			*why = "undecodable instruction at";
		} else if (in.flow == INSN_FLOW_JMP_INDIRECT) {
			*why = "indirect jump at";
		} else if (lands_inside(&in, at, start, end)) {
			*why = "jump into region from";
		} else if (extable_search(at)) {
			*why = "exception fix-up at";
		}
		if (*why)
			*where = at;
		else
			off += in.length;
	}
}

int __kprobes
arch_check_optprobe(struct probe_point *pp, size_t *len, const char **why, uintptr_t *where)
{
	size_t off = (uintptr_t)pp->addr - pp->func_start;
	uint8_t *code = kmalloc(pp->func_size);

	*why = NULL;
	if (!code) {
		*why = "no memory to decode the function at";
		*where = pp->func_start;
		return -ENOMEM;
	}
	kprobes_read_text(pp->func_start, code, pp->func_size);
	*len = measure_region(code, off, pp->func_size, pp->func_start, why, where);
	if (*len) {
		scan_function(code, pp->func_size, pp->func_start, (uintptr_t)pp->addr,
			      (uintptr_t)pp->addr + *len, why, where);
		/* Not memcpy: these bytes go back into the text when the
		 * point is unoptimized, and memcpy may itself be probed. */
		text_read(pp->opt.orig, code + off, *len);
	}
	kfree(code);
	return *why ? -EINVAL : 0;
}

static void __kprobes
put_imm(uint8_t *buf, const uint8_t *label, size_t prefix, const void *v, size_t n)
{
	memcpy(buf + (label - optprobe_template) + prefix, v, n);
}

/* Append the region's instructions, re-aimed where they use %rip, and the
 * jump back. Returns the bytes used, or 0 if an operand is out of reach. */
static size_t __kprobes copy_region(struct probe_point *pp, uint8_t *buf, uintptr_t buf_addr)
{
	uintptr_t from = (uintptr_t)pp->addr;
	size_t n = 0;
	int32_t rel;

	while (n < pp->opt_len) {
		struct insn in;

		insn_decode(&in, pp->opt.orig + n, pp->opt_len - n);
		memcpy(buf + n, pp->opt.orig + n, in.length);
		if (in.rip_relative) {
			int64_t disp = (int64_t)in.disp + (int64_t)(from + n) - (int64_t)(buf_addr + n);

			if (disp != (int32_t)disp)
				return 0;
			rel = (int32_t)disp;
			memcpy(buf + n + in.disp_offset, &rel, sizeof(rel));
		}
		n += in.length;
	}
	buf[n] = JMP_REL32;
	rel = (int32_t)((from + n) - (buf_addr + n + JMP_REL32_SIZE));
	memcpy(buf + n + 1, &rel, sizeof(rel));
	return n + JMP_REL32_SIZE;
}

int __kprobes arch_prepare_optprobe(struct probe_point *pp)
{
	size_t tsize = optprobe_template_end - optprobe_template;
	uint8_t buf[ARCH_DETOUR_SIZE];
	int32_t rip = (int32_t)((uintptr_t)pp->addr + 1);	/* top 2 GiB: sign-extends */
	uint64_t ppv = (uint64_t)pp;
	uint8_t *detour = optimizer_alloc_detour();
	size_t call_at = optprobe_template_callback - optprobe_template;
	int32_t call_rel;
	size_t used;

	if (!detour)
		return -ENOMEM;
	/* The buffer is within 2 GiB of kernel text (EXEC_REGION), so the
	 * call reaches optprobe_callback with a 32-bit displacement. */
	call_rel = (int32_t)((uintptr_t)optprobe_callback - ((uintptr_t)detour + call_at + 5));
	memcpy(buf, optprobe_template, tsize);
	put_imm(buf, optprobe_template_rip, 1, &rip, sizeof(rip));	/* 68 imm32 */
	put_imm(buf, optprobe_template_pp, 2, &ppv, sizeof(ppv));	/* 48 bf imm64 */
	put_imm(buf, optprobe_template_callback, 1, &call_rel, sizeof(call_rel)); /* e8 rel32 */
	used = copy_region(pp, buf + tsize, (uintptr_t)detour + tsize);
	if (!used) {
		optimizer_free_detour(detour);
		return -ERANGE;
	}
	text_poke(detour, buf, tsize + used);
	pp->detour = detour;
	pp->detour_copy = detour + tsize;
	return 0;
}

/*
 * Breakpoint first: the int3 already at the first byte keeps any CPU that
 * arrives there trapping (and then running the detour's copy) while the
 * jump's displacement is written behind it; the last write turns the int3
 * into the jmp opcode. Every intermediate state is a valid instruction at
 * the first byte.
 */
void __kprobes arch_optimize(struct probe_point *pp)
{
	uint32_t rel = (uint32_t)((uintptr_t)pp->detour - ((uintptr_t)pp->addr + JMP_REL32_SIZE));
	/* Spelled out rather than memcpy'd: this runs with the probes lock
	 * held, and memcpy may itself be probed. */
	const uint8_t jmp[JMP_REL32_SIZE] = {
		JMP_REL32, rel & 0xff, (rel >> 8) & 0xff, (rel >> 16) & 0xff, rel >> 24,
	};

	text_poke(pp->addr + 1, jmp + 1, JMP_REL32_SIZE - 1);
	text_poke_sync();	/* every CPU sees the tail before the jmp opcode */
	text_poke(pp->addr, jmp, 1);
}

/* The reverse, keeping the breakpoint: int3 first, then the original tail. */
void __kprobes arch_unoptimize(struct probe_point *pp)
{
	const uint8_t int3 = INT3;

	text_poke(pp->addr, &int3, 1);
	text_poke_sync();	/* no CPU runs the jmp once the tail changes */
	text_poke(pp->addr + 1, pp->opt.orig + 1, pp->opt_len - 1);
}
