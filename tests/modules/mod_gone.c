/* Exports gone_value for mod_needs_gone. The boot test deletes
 * /lib/modules/mod_gone.ko, leaving modules.dep stale: `modprobe
 * mod_needs_gone` must then say the module is not found, and remove
 * mod_exporter, which it loaded first. */
#include <linux/kernel.h>
#include <linux/module.h>

int gone_value = 7;
EXPORT_SYMBOL(gone_value);

static int __init gone_init(void)
{
	return 0;
}

static void __exit gone_exit(void)
{
}

module_init(gone_init);
module_exit(gone_exit);
MODULE_LICENSE("GPL");
