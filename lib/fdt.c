/* A flattened device tree reader (see fdt.h).
 *
 * Everything is found by walking the tokens of the structure block from
 * the start: a DTB is a few kilobytes, read a handful of times at boot, so
 * no index is worth building. */
#include "lib/fdt.h"
#include "lib/errno.h"
#include "lib/string.h"

#define FDT_BEGIN_NODE 1
#define FDT_END_NODE   2
#define FDT_PROP       3
#define FDT_NOP        4
#define FDT_END        9

#define FDT_VERSION 17
#define FDT_MAX_DEPTH 32

/* Header fields, by byte offset. */
#define HDR_MAGIC          0
#define HDR_TOTALSIZE      4
#define HDR_OFF_STRUCT     8
#define HDR_OFF_STRINGS   12
#define HDR_VERSION       20
#define HDR_LAST_COMP     24
#define HDR_SIZE_STRINGS  32
#define HDR_SIZE_STRUCT   36

static uint32_t be32(const void *p)
{
	const uint8_t *b = p;

	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static uint32_t header(const void *fdt, int field)
{
	return be32((const uint8_t *)fdt + field);
}

static const uint8_t *struct_block(const void *fdt)
{
	return (const uint8_t *)fdt + header(fdt, HDR_OFF_STRUCT);
}

static uint32_t struct_size(const void *fdt)
{
	return header(fdt, HDR_SIZE_STRUCT);
}

int fdt_check(const void *fdt, size_t max_size)
{
	uint64_t total, off_struct, off_strings;

	if (max_size < FDT_HEADER_SIZE || header(fdt, HDR_MAGIC) != FDT_MAGIC)
		return -EINVAL;
	total = header(fdt, HDR_TOTALSIZE);
	off_struct = header(fdt, HDR_OFF_STRUCT);
	off_strings = header(fdt, HDR_OFF_STRINGS);
	if (total < FDT_HEADER_SIZE || total > max_size)
		return -EINVAL;
	/* Version 17 added the structure block size that the bounds checks
	 * below rely on; a blob that older readers can parse is fine. */
	if (header(fdt, HDR_VERSION) < FDT_VERSION || header(fdt, HDR_LAST_COMP) > FDT_VERSION)
		return -EINVAL;
	if (off_struct % 4 || struct_size(fdt) > 0x7ffffff0 ||
	    off_struct + struct_size(fdt) > total ||
	    off_strings + header(fdt, HDR_SIZE_STRINGS) > total)
		return -EINVAL;
	return 0;
}

size_t fdt_total_size(const void *fdt)
{
	return header(fdt, HDR_TOTALSIZE);
}

/*
 * Decode the token at offset off of the structure block: return it, and
 * set *next to the offset just past it and its payload (a node's name, a
 * property's header and value, padded to 4 bytes). Anything that does not
 * fit in the block is -EINVAL.
 */
static int token_at(const void *fdt, int off, int *next)
{
	const uint8_t *base = struct_block(fdt);
	uint32_t size = struct_size(fdt);
	uint32_t p, len;
	int tok;

	if (off < 0 || off % 4 || size < 4 || (uint32_t)off > size - 4)
		return -EINVAL;
	tok = (int)be32(base + off);
	p = (uint32_t)off + 4;
	switch (tok) {
	case FDT_BEGIN_NODE:
		len = (uint32_t)strnlen((const char *)base + p, size - p);
		if (len == size - p)
			return -EINVAL;	/* name not terminated */
		p += len + 1;
		break;
	case FDT_PROP:
		if (size - p < 8)
			return -EINVAL;
		len = be32(base + p);
		p += 8;
		if (len > size - p)
			return -EINVAL;
		p += len;
		break;
	case FDT_END_NODE:
	case FDT_NOP:
	case FDT_END:
		break;
	default:
		return -EINVAL;
	}
	p = ALIGN_UP(p, 4);
	if (p > size)
		return -EINVAL;
	*next = (int)p;
	return tok;
}

int fdt_next_node(const void *fdt, int node, int *depth)
{
	int off = 0, next, tok;
	int d = depth ? *depth : 0;
	int level = 0;	/* depth of a node found next, relative to d */

	if (node >= 0) {
		if (token_at(fdt, node, &off) != FDT_BEGIN_NODE)
			return -EINVAL;
		level = 1;	/* we are inside node: a node found now is a child */
	}
	for (;;) {
		tok = token_at(fdt, off, &next);
		if (tok < 0)
			return tok;
		if (tok == FDT_BEGIN_NODE) {
			if (depth)
				*depth = d + level;
			return off;
		}
		if (tok == FDT_END_NODE)
			level--;
		else if (tok == FDT_END)
			return -ENOENT;
		off = next;
	}
}

int fdt_root(const void *fdt)
{
	return fdt_next_node(fdt, -1, NULL);
}

int fdt_first_child(const void *fdt, int node)
{
	int depth = 0;
	int n = fdt_next_node(fdt, node, &depth);

	if (n < 0)
		return n;
	return depth == 1 ? n : -ENOENT;
}

int fdt_next_sibling(const void *fdt, int node)
{
	int depth = 0;
	int n = node;

	do {
		n = fdt_next_node(fdt, n, &depth);
	} while (n >= 0 && depth > 0);
	if (n < 0)
		return n;
	return depth == 0 ? n : -ENOENT;
}

/* Walk from the root, remembering the latest node seen at each depth:
 * when node turns up, the one a level above it is its parent. */
int fdt_parent(const void *fdt, int node)
{
	int stack[FDT_MAX_DEPTH];
	int depth = 0;

	for (int n = fdt_root(fdt); n >= 0; n = fdt_next_node(fdt, n, &depth)) {
		if (depth < 0 || depth >= FDT_MAX_DEPTH)
			return -EINVAL;
		stack[depth] = n;
		if (n == node)
			return depth > 0 ? stack[depth - 1] : -ENOENT;
	}
	return -ENOENT;
}

const char *fdt_node_name(const void *fdt, int node)
{
	int next;

	if (token_at(fdt, node, &next) != FDT_BEGIN_NODE)
		return NULL;
	return (const char *)struct_block(fdt) + node + 4;
}

/* Property name nameoff from the strings block, or NULL if it is not a
 * string that ends inside the block. */
static const char *string_at(const void *fdt, uint32_t nameoff)
{
	const char *strings = (const char *)fdt + header(fdt, HDR_OFF_STRINGS);
	uint32_t size = header(fdt, HDR_SIZE_STRINGS);

	if (nameoff >= size || strnlen(strings + nameoff, size - nameoff) == size - nameoff)
		return NULL;
	return strings + nameoff;
}

const void *fdt_getprop(const void *fdt, int node, const char *name, int *len)
{
	const uint8_t *base = struct_block(fdt);
	int off, next, tok;

	if (token_at(fdt, node, &off) != FDT_BEGIN_NODE)
		return NULL;
	/* A node's properties come before its children. */
	while ((tok = token_at(fdt, off, &next)) == FDT_PROP || tok == FDT_NOP) {
		if (tok == FDT_PROP) {
			const char *pname = string_at(fdt, be32(base + off + 8));

			if (pname && strcmp(pname, name) == 0) {
				if (len)
					*len = (int)be32(base + off + 4);
				return base + off + 12;
			}
		}
		off = next;
	}
	return NULL;
}

int fdt_read_u32(const void *fdt, int node, const char *name, uint32_t *out)
{
	int len;
	const void *p = fdt_getprop(fdt, node, name, &len);

	if (!p)
		return -ENOENT;
	if (len != 4)
		return -EINVAL;
	*out = be32(p);
	return 0;
}

bool fdt_prop_has_string(const void *fdt, int node, const char *name, const char *s)
{
	int len;
	const char *p = fdt_getprop(fdt, node, name, &len);

	while (p && len > 0) {
		size_t n = strnlen(p, (size_t)len);

		if (n == (size_t)len)
			return false;	/* not terminated: not a string list */
		if (strcmp(p, s) == 0)
			return true;
		p += n + 1;
		len -= (int)n + 1;
	}
	return false;
}

uint64_t fdt_cells(const void *p, int n)
{
	const uint8_t *b = p;
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v = v << 32 | be32(b + 4 * i);
	return v;
}

/* Does node name cname match a path component of len bytes? */
static bool name_matches(const char *cname, const char *comp, size_t len)
{
	bool comp_has_unit = false;

	for (size_t i = 0; i < len; i++)
		comp_has_unit |= comp[i] == '@';
	if (strncmp(cname, comp, len) != 0)
		return false;
	return cname[len] == '\0' || (cname[len] == '@' && !comp_has_unit);
}

static int subnode_len(const void *fdt, int parent, const char *name, size_t len)
{
	int child;

	for (child = fdt_first_child(fdt, parent); child >= 0;
	     child = fdt_next_sibling(fdt, child))
		if (name_matches(fdt_node_name(fdt, child), name, len))
			return child;
	return child == -EINVAL ? -EINVAL : -ENOENT;
}

int fdt_subnode(const void *fdt, int parent, const char *name)
{
	return subnode_len(fdt, parent, name, strlen(name));
}

int fdt_path(const void *fdt, const char *path)
{
	int node = fdt_root(fdt);

	if (path[0] != '/')
		return -EINVAL;
	while (node >= 0 && *path) {
		size_t len = 0;

		while (*path == '/')
			path++;
		while (path[len] && path[len] != '/')
			len++;
		if (len)
			node = subnode_len(fdt, node, path, len);
		path += len;
	}
	return node;
}

bool fdt_is_compatible(const void *fdt, int node, const char *compat)
{
	return fdt_prop_has_string(fdt, node, "compatible", compat);
}

int fdt_find_compatible(const void *fdt, int node, const char *compat)
{
	int n = node;

	for (;;) {
		n = fdt_next_node(fdt, n, NULL);
		if (n < 0)
			return n;
		if (fdt_is_compatible(fdt, n, compat))
			return n;
	}
}

static int cells_prop(const void *fdt, int node, const char *name, int dflt)
{
	uint32_t v;
	int err = fdt_read_u32(fdt, node, name, &v);

	if (err == -ENOENT)
		return dflt;
	if (err < 0 || v > 4)
		return -EINVAL;
	return (int)v;
}

int fdt_address_cells(const void *fdt, int node)
{
	return cells_prop(fdt, node, "#address-cells", 2);
}

int fdt_size_cells(const void *fdt, int node)
{
	return cells_prop(fdt, node, "#size-cells", 1);
}

int fdt_read_reg(const void *fdt, int node, int index, uint64_t *base, uint64_t *size)
{
	int parent = fdt_parent(fdt, node);
	int ac, sc, len, entry;
	const uint8_t *p;

	if (parent < 0)
		return parent == -ENOENT ? -EINVAL : parent;	/* the root has no reg */
	ac = fdt_address_cells(fdt, parent);
	sc = fdt_size_cells(fdt, parent);
	if (ac < 1 || ac > 2 || sc < 0 || sc > 2)
		return -EINVAL;	/* does not fit in 64 bits */
	p = fdt_getprop(fdt, node, "reg", &len);
	if (!p || index < 0)
		return -ENOENT;
	entry = (ac + sc) * 4;
	if (len / entry <= index)
		return -ENOENT;
	p += index * entry;
	*base = fdt_cells(p, ac);
	*size = sc ? fdt_cells(p + ac * 4, sc) : 0;
	return 0;
}

/* A /chosen number: boot loaders write 32 or 64 bits. */
static int chosen_number(const void *fdt, int chosen, const char *name, uint64_t *out)
{
	int len;
	const void *p = fdt_getprop(fdt, chosen, name, &len);

	if (!p)
		return -ENOENT;
	if (len != 4 && len != 8)
		return -EINVAL;
	*out = fdt_cells(p, len / 4);
	return 0;
}

int fdt_initrd(const void *fdt, uint64_t *start, uint64_t *end)
{
	int chosen = fdt_path(fdt, "/chosen");
	int err;

	if (chosen < 0)
		return chosen;
	err = chosen_number(fdt, chosen, "linux,initrd-start", start);
	if (!err)
		err = chosen_number(fdt, chosen, "linux,initrd-end", end);
	if (!err && *end < *start)
		err = -EINVAL;
	return err;
}

const char *fdt_bootargs(const void *fdt)
{
	int chosen = fdt_path(fdt, "/chosen");
	int len;
	const char *s;

	if (chosen < 0)
		return NULL;
	s = fdt_getprop(fdt, chosen, "bootargs", &len);
	if (!s || len < 1 || strnlen(s, (size_t)len) == (size_t)len)
		return NULL;
	return s;
}
