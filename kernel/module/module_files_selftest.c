/* Selftests of a module's pseudo files (module_files.c, sysfs.c), on a
 * real module: tests/modules/mod_debugfs.ko from the boot archive, whose
 * files are in debugfs and whose parameters are in /sys/module. */
#include "kernel/fs/vfs.h"
#include "kernel/mm/heap.h"
#include "kernel/module/module.h"
#include "kernel/selftest.h"
#include "lib/errno.h"
#include "lib/string.h"

#define MOD_DIR "/sys/kernel/debug/mod_debugfs"

/* Load tests/modules/mod_debugfs.ko, with the parameter arg if any. */
static int load_mod_debugfs(char *arg)
{
	void *image;
	size_t size;
	int err = vfs_read_all("/lib/modules/mod_debugfs.ko", &image, &size);

	if (err)
		return err;
	err = module_load(image, size, arg ? 1 : 0, &arg);
	kfree(image);
	return err;
}

/* A module's debugfs files are written and read like any; one still
 * open when the module goes reads -EIO (its code is gone), and files a
 * module leaves behind are removed with it. Its parameters are in
 * /sys/module while it is loaded. */
static void test_module_files(void)
{
	static char leave[] = "leave=1";	/* the loader writes in it */
	struct file *file = NULL;
	char buf[64];

	EXPECT_EQ(load_mod_debugfs(NULL), 0);
	EXPECT_EQ(vfs_write_text(MOD_DIR "/message", O_CREAT | O_TRUNC, "written\n"), 0);
	EXPECT_EQ(vfs_read_text(MOD_DIR "/message", buf, sizeof(buf)), 0);
	EXPECT_STREQ(buf, "written\n");
	EXPECT_EQ(vfs_read_text(MOD_DIR "/stats", buf, sizeof(buf)), 0);
	EXPECT_STREQ(buf, "writes 1\nmessage 8 bytes\n");
	EXPECT_EQ(vfs_read_text("/sys/module/mod_debugfs/parameters/leave", buf, sizeof(buf)), 0);
	EXPECT_STREQ(buf, "N\n");
	EXPECT_EQ(vfs_open(MOD_DIR "/stats", O_RDONLY, &file), 0);
	EXPECT_EQ(module_unload("mod_debugfs"), 0);
	EXPECT_EQ(vfs_read_text(MOD_DIR "/message", buf, sizeof(buf)), -ENOENT);
	if (file) {
		EXPECT_EQ(vfs_read(file, buf, sizeof(buf), &file->pos), -EIO);
		vfs_close(file);
	}

	EXPECT_EQ(load_mod_debugfs(leave), 0);
	EXPECT_EQ(vfs_read_text("/sys/module/mod_debugfs/parameters/leave", buf, sizeof(buf)), 0);
	EXPECT_STREQ(buf, "Y\n");
	EXPECT_EQ(module_unload("mod_debugfs"), 0);
	EXPECT_EQ(vfs_read_text(MOD_DIR "/message", buf, sizeof(buf)), -ENOENT);
	EXPECT_EQ(vfs_read_text("/sys/module/mod_debugfs/parameters/leave", buf, sizeof(buf)),
		  -ENOENT);
}

static const struct selftest_case module_files_cases[] = {
	SELFTEST_CASE(test_module_files),
};
SELFTEST_SUITE("module_files", module_files_cases);
