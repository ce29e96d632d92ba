/* Generated files as Linux writes them: struct seq_file, struct
 * seq_operations, seq_printf, seq_puts, seq_putc, seq_write, seq_open,
 * seq_read, seq_lseek, seq_release, single_open, single_release,
 * DEFINE_SHOW_ATTRIBUTE and DEFINE_SEQ_ATTRIBUTE, the kernel's own (kernel/fs/seq_file.h,
 * docs/files.md). */
#ifndef _LINUX_SEQ_FILE_H
#define _LINUX_SEQ_FILE_H

#include <linux/fs.h>
#include <linux/types.h>
#include "kernel/fs/seq_file.h"

#endif
