/* Host tests for lib/fdt.c.
 *
 * Device trees are built in the test by a small writer below, so each
 * test says exactly which bytes it feeds the reader, broken ones
 * included, and the tests need no device tree compiler. Every blob is
 * handed to the reader in a heap block of exactly its size, so
 * AddressSanitizer reports any read past the end.
 *
 * One test also reads the device tree QEMU builds for the machine the
 * kernel runs on (qemu-system-aarch64 -M virt,dumpdtb=FILE), and is
 * skipped when QEMU is not installed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

/* ---- A device tree writer, using the host's C library ---- */

struct writer {
	uint8_t structs[8192];
	size_t nstructs;
	char strings[1024];
	size_t nstrings;
};

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static void emit(struct writer *w, const void *data, size_t len)
{
	assert_true(w->nstructs + len + 4 <= sizeof(w->structs));
	memcpy(w->structs + w->nstructs, data, len);
	w->nstructs += len;
	while (w->nstructs % 4)
		w->structs[w->nstructs++] = 0;
}

static void emit32(struct writer *w, uint32_t v)
{
	uint8_t b[4];

	put_be32(b, v);
	emit(w, b, 4);
}

static uint32_t string_offset(struct writer *w, const char *name)
{
	for (size_t off = 0; off < w->nstrings; off += strlen(w->strings + off) + 1)
		if (strcmp(w->strings + off, name) == 0)
			return (uint32_t)off;
	assert_true(w->nstrings + strlen(name) + 1 <= sizeof(w->strings));
	strcpy(w->strings + w->nstrings, name);
	w->nstrings += strlen(name) + 1;
	return (uint32_t)(w->nstrings - strlen(name) - 1);
}

static void begin_node(struct writer *w, const char *name)
{
	emit32(w, 1);
	emit(w, name, strlen(name) + 1);
}

static void end_node(struct writer *w)
{
	emit32(w, 2);
}

static void nop(struct writer *w)
{
	emit32(w, 4);
}

static void prop(struct writer *w, const char *name, const void *value, size_t len)
{
	emit32(w, 3);
	emit32(w, (uint32_t)len);
	emit32(w, string_offset(w, name));
	if (len)
		emit(w, value, len);
}

/* A property of n 32-bit cells. */
static void prop_cells(struct writer *w, const char *name, int n, ...)
{
	uint8_t buf[64];
	va_list ap;

	assert_true(n * 4 <= (int)sizeof(buf));
	va_start(ap, n);
	for (int i = 0; i < n; i++)
		put_be32(buf + 4 * i, va_arg(ap, uint32_t));
	va_end(ap);
	prop(w, name, buf, (size_t)n * 4);
}

static void prop_str(struct writer *w, const char *name, const char *s)
{
	prop(w, name, s, strlen(s) + 1);
}

struct blob {
	uint8_t *data;
	size_t size;
};

/* Header, an empty reserved-memory map, the structure block ending in
 * FDT_END, then the strings. */
static struct blob finish(struct writer *w)
{
	size_t off_rsv = 40, off_struct = off_rsv + 16;
	size_t struct_size, off_strings, total;
	struct blob b;

	emit32(w, 9);
	struct_size = w->nstructs;
	off_strings = off_struct + struct_size;
	total = off_strings + w->nstrings;
	b.data = calloc(1, total);
	b.size = total;
	assert_non_null(b.data);
	put_be32(b.data + 0, 0xd00dfeed);
	put_be32(b.data + 4, (uint32_t)total);
	put_be32(b.data + 8, (uint32_t)off_struct);
	put_be32(b.data + 12, (uint32_t)off_strings);
	put_be32(b.data + 16, (uint32_t)off_rsv);
	put_be32(b.data + 20, 17);
	put_be32(b.data + 24, 16);
	put_be32(b.data + 32, (uint32_t)w->nstrings);
	put_be32(b.data + 36, (uint32_t)struct_size);
	memcpy(b.data + off_struct, w->structs, struct_size);
	memcpy(b.data + off_strings, w->strings, w->nstrings);
	return b;
}

/*
 * The tree most tests use:
 *
 * / { #address-cells = <2>; #size-cells = <2>; compatible = "test,board";
 *     chosen { bootargs = "console=ttyAMA0 quiet";
 *              linux,initrd-start = <0x48000000>;            (32 bits)
 *              linux,initrd-end = <0x0 0x48001000>; };       (64 bits)
 *     memory@40000000 { device_type = "memory";
 *                       reg = <0x0 0x40000000 0x0 0x10000000>; };
 *     memory@100000000 { device_type = "memory";
 *                        reg = <0x1 0x0 0x0 0x1000
 *                               0x1 0x10000 0x0 0x2000>; };
 *     soc { #address-cells = <1>; #size-cells = <1>;
 *           uart@9000000 { compatible = "vendor,uart", "arm,pl011";
 *                          reg = <0x9000000 0x1000>;
 *                          interrupts = <0 1 4>; };
 *           (a NOP token)
 *           timer { compatible = "arm,armv8-timer"; }; };
 *     intc@8000000 { compatible = "arm,cortex-a15-gic";
 *                    reg = <0x0 0x8000000 0x0 0x10000
 *                           0x0 0x8010000 0x0 0x10000>; }; };
 */
static struct blob sample_tree(void)
{
	static const char uart_compat[] = "vendor,uart\0arm,pl011";
	struct writer w = { .nstructs = 0 };

	begin_node(&w, "");
	prop_cells(&w, "#address-cells", 1, 2);
	prop_cells(&w, "#size-cells", 1, 2);
	prop_str(&w, "compatible", "test,board");
	begin_node(&w, "chosen");
	prop_str(&w, "bootargs", "console=ttyAMA0 quiet");
	prop_cells(&w, "linux,initrd-start", 1, 0x48000000);
	prop_cells(&w, "linux,initrd-end", 2, 0, 0x48001000);
	end_node(&w);
	begin_node(&w, "memory@40000000");
	prop_str(&w, "device_type", "memory");
	prop_cells(&w, "reg", 4, 0, 0x40000000, 0, 0x10000000);
	end_node(&w);
	begin_node(&w, "memory@100000000");
	prop_str(&w, "device_type", "memory");
	prop_cells(&w, "reg", 8, 1, 0, 0, 0x1000, 1, 0x10000, 0, 0x2000);
	end_node(&w);
	begin_node(&w, "soc");
	prop_cells(&w, "#address-cells", 1, 1);
	prop_cells(&w, "#size-cells", 1, 1);
	begin_node(&w, "uart@9000000");
	prop(&w, "compatible", uart_compat, sizeof(uart_compat));
	prop_cells(&w, "reg", 2, 0x9000000, 0x1000);
	prop_cells(&w, "interrupts", 3, 0, 1, 4);
	end_node(&w);
	nop(&w);
	begin_node(&w, "timer");
	prop_str(&w, "compatible", "arm,armv8-timer");
	end_node(&w);
	end_node(&w);
	begin_node(&w, "intc@8000000");
	prop_str(&w, "compatible", "arm,cortex-a15-gic");
	prop_cells(&w, "reg", 8, 0, 0x8000000, 0, 0x10000, 0, 0x8010000, 0, 0x10000);
	end_node(&w);
	end_node(&w);
	return finish(&w);
}

static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* ---- The code under test ---- */

#include "tests/host/rename.h"
#include "lib/errno.h"
#include "lib/fdt.h"
#include "lib/format.h"
#include "lib/string.h"

static void test_check(void **state)
{
	struct blob b = sample_tree();

	(void)state;
	assert_int_equal(fdt_check(b.data, b.size), 0);
	assert_int_equal(fdt_total_size(b.data), b.size);
	/* More room than the blob needs is fine, less is not. */
	assert_int_equal(fdt_check(b.data, b.size + 100), 0);
	assert_int_equal(fdt_check(b.data, b.size - 1), -EINVAL);
	assert_int_equal(fdt_check(b.data, 39), -EINVAL);

	b.data[0] ^= 1;			/* magic */
	assert_int_equal(fdt_check(b.data, b.size), -EINVAL);
	b.data[0] ^= 1;
	put_be32(b.data + 20, 16);	/* too old: no structure block size */
	assert_int_equal(fdt_check(b.data, b.size), -EINVAL);
	put_be32(b.data + 20, 17);
	put_be32(b.data + 36, (uint32_t)b.size);	/* structure block too big */
	assert_int_equal(fdt_check(b.data, b.size), -EINVAL);
	free(b.data);
}

static void test_walk(void **state)
{
	static const char *const order[] = {
		"", "chosen", "memory@40000000", "memory@100000000", "soc",
		"uart@9000000", "timer", "intc@8000000",
	};
	static const int depths[] = { 0, 1, 1, 1, 1, 2, 2, 1 };
	struct blob b = sample_tree();
	const void *fdt = b.data;
	int n, depth = 0, i = 0, root, soc, uart, timer;

	(void)state;
	for (n = fdt_root(fdt); n >= 0; n = fdt_next_node(fdt, n, &depth), i++) {
		assert_true(i < 8);
		assert_string_equal(fdt_node_name(fdt, n), order[i]);
		assert_int_equal(depth, depths[i]);
	}
	assert_int_equal(n, -ENOENT);
	assert_int_equal(i, 8);

	root = fdt_root(fdt);
	soc = fdt_path(fdt, "/soc");
	uart = fdt_first_child(fdt, soc);
	assert_string_equal(fdt_node_name(fdt, uart), "uart@9000000");
	timer = fdt_next_sibling(fdt, uart);	/* across the NOP */
	assert_string_equal(fdt_node_name(fdt, timer), "timer");
	assert_int_equal(fdt_next_sibling(fdt, timer), -ENOENT);
	assert_int_equal(fdt_first_child(fdt, timer), -ENOENT);
	assert_string_equal(fdt_node_name(fdt, fdt_next_sibling(fdt, soc)), "intc@8000000");
	assert_int_equal(fdt_parent(fdt, timer), soc);
	assert_int_equal(fdt_parent(fdt, soc), root);
	assert_int_equal(fdt_parent(fdt, root), -ENOENT);
	/* Not the offset of a node. */
	assert_null(fdt_node_name(fdt, uart + 4));
	assert_int_equal(fdt_first_child(fdt, uart + 4), -EINVAL);
	free(b.data);
}

static void test_paths(void **state)
{
	struct blob b = sample_tree();
	const void *fdt = b.data;

	(void)state;
	assert_int_equal(fdt_path(fdt, "/"), fdt_root(fdt));
	assert_string_equal(fdt_node_name(fdt, fdt_path(fdt, "/chosen")), "chosen");
	/* Without a unit address, the first node of that name. */
	assert_string_equal(fdt_node_name(fdt, fdt_path(fdt, "/memory")), "memory@40000000");
	assert_string_equal(fdt_node_name(fdt, fdt_path(fdt, "/memory@100000000")),
			    "memory@100000000");
	assert_string_equal(fdt_node_name(fdt, fdt_path(fdt, "/soc/uart")), "uart@9000000");
	assert_string_equal(fdt_node_name(fdt, fdt_path(fdt, "//soc//timer/")), "timer");
	assert_int_equal(fdt_path(fdt, "/memory@4"), -ENOENT);
	assert_int_equal(fdt_path(fdt, "/mem"), -ENOENT);
	assert_int_equal(fdt_path(fdt, "/soc/nope"), -ENOENT);
	assert_int_equal(fdt_path(fdt, "/chosen/uart"), -ENOENT);
	assert_int_equal(fdt_path(fdt, "chosen"), -EINVAL);
	assert_int_equal(fdt_subnode(fdt, fdt_root(fdt), "intc"), fdt_path(fdt, "/intc@8000000"));
	free(b.data);
}

static void test_properties(void **state)
{
	struct blob b = sample_tree();
	const void *fdt = b.data;
	int root = fdt_root(fdt), soc = fdt_path(fdt, "/soc");
	const char *s;
	uint32_t v;
	int len;

	(void)state;
	s = fdt_getprop(fdt, root, "compatible", &len);
	assert_non_null(s);
	assert_int_equal(len, 11);
	assert_string_equal(s, "test,board");
	assert_null(fdt_getprop(fdt, root, "missing", &len));
	/* A child's properties are not its parent's. */
	assert_null(fdt_getprop(fdt, root, "bootargs", NULL));
	assert_int_equal(fdt_read_u32(fdt, soc, "#size-cells", &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(fdt_read_u32(fdt, soc, "nope", &v), -ENOENT);
	assert_int_equal(fdt_read_u32(fdt, fdt_path(fdt, "/soc/uart"), "reg", &v), -EINVAL);
	assert_int_equal(fdt_address_cells(fdt, root), 2);
	assert_int_equal(fdt_size_cells(fdt, soc), 1);
	/* Defaults when the property is absent. */
	assert_int_equal(fdt_address_cells(fdt, fdt_path(fdt, "/chosen")), 2);
	assert_int_equal(fdt_size_cells(fdt, fdt_path(fdt, "/chosen")), 1);
	free(b.data);
}

static void test_compatible(void **state)
{
	struct blob b = sample_tree();
	const void *fdt = b.data;
	int uart;

	(void)state;
	uart = fdt_find_compatible(fdt, -1, "arm,pl011");
	assert_string_equal(fdt_node_name(fdt, uart), "uart@9000000");
	assert_true(fdt_is_compatible(fdt, uart, "vendor,uart"));
	assert_false(fdt_is_compatible(fdt, uart, "arm,pl01"));
	assert_false(fdt_is_compatible(fdt, uart, "arm,pl0111"));
	assert_int_equal(fdt_find_compatible(fdt, uart, "arm,pl011"), -ENOENT);
	assert_string_equal(fdt_node_name(fdt, fdt_find_compatible(fdt, -1, "arm,cortex-a15-gic")),
			    "intc@8000000");
	assert_int_equal(fdt_find_compatible(fdt, -1, "arm,gic-400"), -ENOENT);
	assert_true(fdt_prop_has_string(fdt, fdt_path(fdt, "/memory"), "device_type", "memory"));
	free(b.data);
}

static void test_reg(void **state)
{
	struct blob b = sample_tree();
	const void *fdt = b.data;
	int mem2 = fdt_path(fdt, "/memory@100000000");
	uint64_t base, size;

	(void)state;
	/* Two address and two size cells, from the root. */
	assert_int_equal(fdt_read_reg(fdt, fdt_path(fdt, "/memory"), 0, &base, &size), 0);
	assert_int_equal(base, 0x40000000);
	assert_int_equal(size, 0x10000000);
	assert_int_equal(fdt_read_reg(fdt, mem2, 0, &base, &size), 0);
	assert_int_equal(base, 0x100000000ULL);
	assert_int_equal(size, 0x1000);
	assert_int_equal(fdt_read_reg(fdt, mem2, 1, &base, &size), 0);
	assert_int_equal(base, 0x100010000ULL);
	assert_int_equal(size, 0x2000);
	assert_int_equal(fdt_read_reg(fdt, mem2, 2, &base, &size), -ENOENT);
	assert_int_equal(fdt_read_reg(fdt, mem2, -1, &base, &size), -ENOENT);
	/* One and one, from /soc. */
	assert_int_equal(fdt_read_reg(fdt, fdt_path(fdt, "/soc/uart"), 0, &base, &size), 0);
	assert_int_equal(base, 0x9000000);
	assert_int_equal(size, 0x1000);
	assert_int_equal(fdt_read_reg(fdt, fdt_path(fdt, "/intc"), 1, &base, &size), 0);
	assert_int_equal(base, 0x8010000);
	assert_int_equal(fdt_read_reg(fdt, fdt_path(fdt, "/soc/timer"), 0, &base, &size), -ENOENT);
	assert_int_equal(fdt_read_reg(fdt, fdt_root(fdt), 0, &base, &size), -EINVAL);
	free(b.data);
}

static void test_chosen(void **state)
{
	struct blob b = sample_tree();
	struct writer w = { .nstructs = 0 };
	struct blob empty, bad;
	uint64_t start, end;

	(void)state;
	assert_int_equal(fdt_initrd(b.data, &start, &end), 0);
	assert_int_equal(start, 0x48000000);
	assert_int_equal(end, 0x48001000);
	assert_string_equal(fdt_bootargs(b.data), "console=ttyAMA0 quiet");
	free(b.data);

	/* No /chosen at all. */
	begin_node(&w, "");
	end_node(&w);
	empty = finish(&w);
	assert_int_equal(fdt_initrd(empty.data, &start, &end), -ENOENT);
	assert_null(fdt_bootargs(empty.data));
	free(empty.data);

	/* An initrd that ends before it starts, a 3-byte number and an
	 * unterminated command line. */
	memset(&w, 0, sizeof(w));
	begin_node(&w, "");
	begin_node(&w, "chosen");
	prop(&w, "bootargs", "abc", 3);
	prop_cells(&w, "linux,initrd-start", 1, 0x2000);
	prop_cells(&w, "linux,initrd-end", 1, 0x1000);
	end_node(&w);
	end_node(&w);
	bad = finish(&w);
	assert_int_equal(fdt_initrd(bad.data, &start, &end), -EINVAL);
	assert_null(fdt_bootargs(bad.data));
	free(bad.data);

	memset(&w, 0, sizeof(w));
	begin_node(&w, "");
	begin_node(&w, "chosen");
	prop(&w, "linux,initrd-start", "abc", 3);
	prop_cells(&w, "linux,initrd-end", 1, 0x1000);
	end_node(&w);
	end_node(&w);
	bad = finish(&w);
	assert_int_equal(fdt_initrd(bad.data, &start, &end), -EINVAL);
	free(bad.data);
}

/* Everything a caller might do with a tree; results are not checked,
 * only that nothing reads outside the blob (ASan) or loops forever. */
static void exercise(const void *fdt)
{
	uint64_t a, b;
	int depth = 0, steps = 0;

	for (int n = fdt_root(fdt); n >= 0 && steps < 1000; n = fdt_next_node(fdt, n, &depth), steps++) {
		fdt_node_name(fdt, n);
		fdt_getprop(fdt, n, "compatible", NULL);
		fdt_read_reg(fdt, n, 0, &a, &b);
		fdt_parent(fdt, n);
		fdt_first_child(fdt, n);
		fdt_next_sibling(fdt, n);
		fdt_is_compatible(fdt, n, "arm,pl011");
	}
	fdt_path(fdt, "/soc/uart");
	fdt_find_compatible(fdt, -1, "arm,cortex-a15-gic");
	fdt_initrd(fdt, &a, &b);
	fdt_bootargs(fdt);
}

/* Damage every byte of the structure and strings blocks in turn. */
static void test_corrupt_blobs(void **state)
{
	struct blob good = sample_tree();
	uint32_t off_struct = get_be32(good.data + 8);

	(void)state;
	for (size_t i = off_struct; i < good.size; i++) {
		static const uint8_t values[] = { 0x00, 0xff, 0x7f, 0x01, 0x09 };

		for (size_t v = 0; v < sizeof(values); v++) {
			uint8_t *copy = malloc(good.size);

			assert_non_null(copy);
			memcpy(copy, good.data, good.size);
			copy[i] = values[v];
			if (fdt_check(copy, good.size) == 0)
				exercise(copy);
			free(copy);
		}
	}
	/* A structure block cut short in the middle of a node. */
	put_be32(good.data + 36, get_be32(good.data + 36) / 2);
	assert_int_equal(fdt_check(good.data, good.size), 0);
	exercise(good.data);
	free(good.data);
}

/*
 * CPU nodes, as the aarch64 boot code reads them (boot/aarch64/fdt_boot.c):
 * under /cpus, reg holds an MPIDR affinity in one or two address cells and
 * no size at all (#size-cells = <0>).
 *
 * / { cpus { #address-cells = <1>; #size-cells = <0>;
 *            cpu@0 { device_type = "cpu"; enable-method = "psci"; reg = <0x0>; };
 *            cpu-map { };
 *            cpu@100 { device_type = "cpu"; enable-method = "psci"; reg = <0x100>; }; };
 *     cpus2 { #address-cells = <2>; #size-cells = <0>;
 *             cpu@100000002 { device_type = "cpu"; reg = <0x1 0x2>; }; };
 *     psci { compatible = "arm,psci-1.0", "arm,psci-0.2", "arm,psci";
 *            method = "hvc"; cpu_on = <0xc4000003>; }; }
 */
static void test_cpus(void **state)
{
	static const char psci_compat[] = "arm,psci-1.0\0arm,psci-0.2\0arm,psci";
	struct writer w = { .nstructs = 0 };
	struct blob b;
	uint64_t base, size;
	uint32_t fn;
	int cpus, n;

	(void)state;
	begin_node(&w, "");
	begin_node(&w, "cpus");
	prop_cells(&w, "#address-cells", 1, 1);
	prop_cells(&w, "#size-cells", 1, 0);
	begin_node(&w, "cpu@0");
	prop_str(&w, "device_type", "cpu");
	prop_str(&w, "enable-method", "psci");
	prop_cells(&w, "reg", 1, 0);
	end_node(&w);
	begin_node(&w, "cpu-map");
	end_node(&w);
	begin_node(&w, "cpu@100");
	prop_str(&w, "device_type", "cpu");
	prop_str(&w, "enable-method", "psci");
	prop_cells(&w, "reg", 1, 0x100);
	end_node(&w);
	end_node(&w);
	begin_node(&w, "cpus2");
	prop_cells(&w, "#address-cells", 1, 2);
	prop_cells(&w, "#size-cells", 1, 0);
	begin_node(&w, "cpu@100000002");
	prop_str(&w, "device_type", "cpu");
	prop_cells(&w, "reg", 2, 1, 2);
	end_node(&w);
	end_node(&w);
	begin_node(&w, "psci");
	prop(&w, "compatible", psci_compat, sizeof(psci_compat));
	prop_str(&w, "method", "hvc");
	prop_cells(&w, "cpu_on", 1, 0xc4000003);
	end_node(&w);
	end_node(&w);
	b = finish(&w);

	/* The children of /cpus in order; cpu-map is no CPU. */
	cpus = fdt_path(b.data, "/cpus");
	n = fdt_first_child(b.data, cpus);
	assert_string_equal(fdt_node_name(b.data, n), "cpu@0");
	assert_true(fdt_prop_has_string(b.data, n, "enable-method", "psci"));
	assert_int_equal(fdt_read_reg(b.data, n, 0, &base, &size), 0);
	assert_int_equal(base, 0);
	assert_int_equal(size, 0);	/* no size cells: size 0 */
	assert_int_equal(fdt_read_reg(b.data, n, 1, &base, &size), -ENOENT);
	n = fdt_next_sibling(b.data, n);
	assert_string_equal(fdt_node_name(b.data, n), "cpu-map");
	assert_false(fdt_prop_has_string(b.data, n, "device_type", "cpu"));
	n = fdt_next_sibling(b.data, n);
	assert_true(fdt_prop_has_string(b.data, n, "device_type", "cpu"));
	assert_int_equal(fdt_read_reg(b.data, n, 0, &base, &size), 0);
	assert_int_equal(base, 0x100);
	assert_int_equal(fdt_next_sibling(b.data, n), -ENOENT);
	/* Two address cells (an affinity with Aff3). */
	n = fdt_path(b.data, "/cpus2/cpu");
	assert_int_equal(fdt_read_reg(b.data, n, 0, &base, &size), 0);
	assert_int_equal(base, 0x100000002ULL);
	assert_int_equal(size, 0);
	assert_false(fdt_prop_has_string(b.data, n, "enable-method", "psci"));
	/* PSCI: a later version is listed first; each one is found. */
	n = fdt_path(b.data, "/psci");
	assert_true(fdt_is_compatible(b.data, n, "arm,psci-0.2"));
	assert_true(fdt_is_compatible(b.data, n, "arm,psci"));
	assert_false(fdt_is_compatible(b.data, n, "arm,psci-1.1"));
	assert_int_equal(fdt_read_u32(b.data, n, "cpu_on", &fn), 0);
	assert_int_equal(fn, 0xc4000003);
	free(b.data);
}

/* The tree of the machine ProbeOS runs on, as QEMU builds it. */
static void test_qemu_virt_tree(void **state)
{
	char path[] = "/tmp/probeos-virt-XXXXXX";
	char cmd[512];
	struct blob b;
	FILE *f;
	int fd, node, len, cpus;
	uint64_t base, size;
	const uint8_t *irq;

	(void)state;
	if (system("command -v qemu-system-aarch64 >/dev/null 2>&1") != 0)
		skip();
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	snprintf(cmd, sizeof(cmd), "qemu-system-aarch64 -M virt,dumpdtb=%s -cpu cortex-a72 "
		 "-smp 4 -m 256M -display none >/dev/null 2>&1", path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	b.size = (size_t)ftell(f);
	rewind(f);
	b.data = malloc(b.size);
	assert_non_null(b.data);
	assert_int_equal(fread(b.data, 1, b.size, f), b.size);
	fclose(f);
	unlink(path);

	assert_int_equal(fdt_check(b.data, b.size), 0);
	node = fdt_path(b.data, "/memory");
	assert_true(fdt_prop_has_string(b.data, node, "device_type", "memory"));
	assert_int_equal(fdt_read_reg(b.data, node, 0, &base, &size), 0);
	assert_int_equal(base, 0x40000000);
	assert_int_equal(size, 256 << 20);

	node = fdt_find_compatible(b.data, -1, "arm,pl011");
	assert_int_equal(fdt_read_reg(b.data, node, 0, &base, &size), 0);
	assert_int_equal(base, 0x09000000);
	irq = fdt_getprop(b.data, node, "interrupts", &len);
	assert_int_equal(len, 12);
	assert_int_equal(get_be32(irq), 0);		/* SPI */
	assert_int_equal(get_be32(irq + 4), 1);		/* INTID 33 */

	node = fdt_find_compatible(b.data, -1, "arm,cortex-a15-gic");
	assert_int_equal(fdt_read_reg(b.data, node, 0, &base, &size), 0);
	assert_int_equal(base, 0x08000000);
	assert_int_equal(fdt_read_reg(b.data, node, 1, &base, &size), 0);
	assert_int_equal(base, 0x08010000);

	node = fdt_find_compatible(b.data, -1, "arm,armv8-timer");
	irq = fdt_getprop(b.data, node, "interrupts", &len);
	assert_int_equal(len, 48);
	assert_int_equal(get_be32(irq + 24), 1);	/* the virtual timer: PPI 11 */
	assert_int_equal(get_be32(irq + 28), 11);

	node = fdt_path(b.data, "/psci");
	assert_true(fdt_prop_has_string(b.data, node, "method", "hvc"));
	assert_true(fdt_is_compatible(b.data, node, "arm,psci-0.2"));

	/* With -smp 4: four cpu nodes PSCI starts, MPIDR affinities 0-3
	 * (in whatever order QEMU lists them). */
	cpus = 0;
	node = fdt_path(b.data, "/cpus");
	assert_true(node >= 0);
	for (node = fdt_first_child(b.data, node); node >= 0;
	     node = fdt_next_sibling(b.data, node)) {
		if (!fdt_prop_has_string(b.data, node, "device_type", "cpu"))
			continue;
		assert_true(fdt_prop_has_string(b.data, node, "enable-method", "psci"));
		assert_int_equal(fdt_read_reg(b.data, node, 0, &base, &size), 0);
		assert_true(base < 4);
		assert_int_equal(cpus & (1 << base), 0);
		cpus |= 1 << base;
	}
	assert_int_equal(cpus, 0xf);
	free(b.data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_walk),
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_properties),
		cmocka_unit_test(test_compatible),
		cmocka_unit_test(test_reg),
		cmocka_unit_test(test_chosen),
		cmocka_unit_test(test_cpus),
		cmocka_unit_test(test_corrupt_blobs),
		cmocka_unit_test(test_qemu_virt_tree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
