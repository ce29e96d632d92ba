/* Reading a flattened device tree (DTB), the description of the machine
 * that the boot loader hands to the kernel on aarch64.
 *
 * A DTB is a header, a "structure block" of tokens (begin node, property,
 * end node) and a "strings block" holding property names. All numbers are
 * big-endian. A node is named here by the offset of its begin-node token
 * in the structure block (an int >= 0); functions that look for something
 * return that offset or a negative errno (-ENOENT: not there, -EINVAL: the
 * blob is malformed). Every read is bounds-checked against the sizes in
 * the header, so a corrupt blob gives errors, never a wild read, once
 * fdt_check has accepted its header.
 *
 * Only reading; no dependence on the kernel, so the host tests run it. */
#ifndef LIB_FDT_H
#define LIB_FDT_H

#include "lib/types.h"

#define FDT_MAGIC 0xd00dfeed
#define FDT_HEADER_SIZE 40

/* Check that fdt starts a DTB of version 17 that fits in max_size bytes.
 * Returns 0 or -EINVAL. */
int fdt_check(const void *fdt, size_t max_size);
/* The size of the whole blob, from its header. */
size_t fdt_total_size(const void *fdt);

/* Walking the tree. fdt_next_node returns the node after node in document
 * order (node < 0: the root) and adds to *depth the change in nesting
 * (+1 into a child, 0 to a sibling, -n out of n levels then to a
 * sibling); depth may be NULL. */
int fdt_next_node(const void *fdt, int node, int *depth);
int fdt_root(const void *fdt);
int fdt_first_child(const void *fdt, int node);
int fdt_next_sibling(const void *fdt, int node);
int fdt_parent(const void *fdt, int node);
/* The node's name with its unit address ("pl011@9000000"); "" for the root. */
const char *fdt_node_name(const void *fdt, int node);

/* The value of property name of node and its length in bytes, or NULL. */
const void *fdt_getprop(const void *fdt, int node, const char *name, int *len);
/* A 32-bit property. Returns 0, -ENOENT or -EINVAL (wrong length). */
int fdt_read_u32(const void *fdt, int node, const char *name, uint32_t *out);
/* True if the property is a string list that contains s. */
bool fdt_prop_has_string(const void *fdt, int node, const char *name, const char *s);
/* Big-endian number of n (1 or 2) 32-bit cells. */
uint64_t fdt_cells(const void *p, int n);

/* Finding nodes. A path component or a name without "@unit" matches a
 * node name with any unit address: fdt_path(fdt, "/memory") finds
 * "/memory@40000000". */
int fdt_subnode(const void *fdt, int parent, const char *name);
int fdt_path(const void *fdt, const char *path);
bool fdt_is_compatible(const void *fdt, int node, const char *compat);
/* The first node after node (node < 0: from the start) compatible with
 * compat. */
int fdt_find_compatible(const void *fdt, int node, const char *compat);

/* #address-cells and #size-cells of node (for its children): the
 * property's value, or the defaults 2 and 1. */
int fdt_address_cells(const void *fdt, int node);
int fdt_size_cells(const void *fdt, int node);
/* Entry index of node's "reg", sized by its parent's cells. Addresses are
 * not translated through the parents' "ranges". Returns 0, -ENOENT when
 * there is no such entry, or -EINVAL. */
int fdt_read_reg(const void *fdt, int node, int index, uint64_t *base, uint64_t *size);

/* From /chosen: the initrd's physical range [start, end) and the kernel
 * command line. fdt_initrd returns 0 or -ENOENT / -EINVAL; fdt_bootargs
 * returns NULL if there is no command line. */
int fdt_initrd(const void *fdt, uint64_t *start, uint64_t *end);
const char *fdt_bootargs(const void *fdt);

#endif
