/* The `sym` shell command: look up a kernel symbol by name or address.
 *
 *	> sym vfs_read
 *	vfs_read 0xffffffff80105a20 size 0x9a text
 *	> sym 0xffffffff80105a25
 *	vfs_read+0x5/0x9a
 */
#include "kernel/cmd_output.h"
#include "kernel/shell/shell.h"
#include "kernel/symtab.h"
#include "lib/errno.h"
#include "lib/string.h"

static int sym_show_name(const char *name)
{
	struct symbol sym;

	if (sym_by_name(name, &sym) < 0) {
		cmd_eprintf("sym: no symbol '%s'\n", name);
		return -ENOENT;
	}
	cmd_printf("%s 0x%016lx size 0x%lx %s%s%s%s\n", sym.name,
		(unsigned long)sym.addr, (unsigned long)sym.size,
		sym_type_is_text(sym.type) ? "text" : "data", sym.module ? " [" : "",
		sym.module ? sym.module : "", sym.module ? "]" : "");
	return 0;
}

static int sym_show_addr(const char *arg, uint64_t addr)
{
	struct symbol sym;
	char buf[256];

	if (sym_by_addr(addr, &sym) < 0) {
		cmd_eprintf("sym: no symbol at %s\n", arg);
		return -ENOENT;
	}
	sym_format(addr, buf, sizeof(buf));
	cmd_printf("%s\n", buf);
	return 0;
}

static int sym_cmd(int argc, char **argv)
{
	uint64_t addr;
	int err;

	if (argc != 2)
		return shell_usage("sym");
	/* C identifiers cannot start with a digit, so "0x" means address. */
	if (strncmp(argv[1], "0x", 2) != 0)
		return sym_show_name(argv[1]);
	err = shell_parse_number("sym", "address", argv[1], 0, UINT64_MAX, &addr);
	if (err == -EINVAL)
		return shell_usage("sym");
	return err ? err : sym_show_addr(argv[1], addr);
}

SHELL_COMMAND("sym", "NAME|ADDRESS",
	      "look up a kernel symbol by name or address", sym_cmd);
