/* The interactive shell: read a line, split it into commands and their
 * words, run them (pipeline.c). Commands register themselves with
 * SHELL_COMMAND() (see shell.h), so this file knows none of them except
 * `help`. */
#include "kernel/shell/shell.h"
#include "kernel/shell/cmdline.h"
#include "kernel/shell/line_editor.h"
#include "kernel/shell/pipeline.h"
#include "kernel/cmd_output.h"
#include "lib/format.h"
#include "lib/errno.h"
#include "lib/string.h"

#define SHELL_PROMPT "probeos> "

void shell_execute(const char *line)
{
	/* The line's words fit in a copy of it (cmdline.h). */
	static char store[SHELL_MAX_LINE + 1];
	static char *words[SHELL_MAX_LINE + 1];
	static struct cmdline cmds[SHELL_MAX_COMMANDS];
	struct cmdline_list list = {
		.cmds = cmds, .max_cmds = SHELL_MAX_COMMANDS,
		.words = words, .max_words = ARRAY_SIZE(words),
		.store = store, .store_size = sizeof(store),
	};

	if (cmdline_parse(line, &list) < 0) {
		cmd_eprintf("shell: %s\n", list.error);
		return;
	}
	pipeline_run_line(cmds, list.count);
}

/* `help` lists the commands sorted by name, so that its output does not
 * depend on the order in which the linker placed them. The table is
 * read-only and small, so rather than sort a copy we pick the next
 * command in order on each pass. Ties (the same name twice) are broken
 * by address so every command is still listed exactly once. */
static bool cmd_before(const struct shell_command *a,
		       const struct shell_command *b)
{
	int order = strcmp(a->name, b->name);

	return order < 0 || (order == 0 && a < b);
}

/* The first command after prev in sorted order (prev NULL: the first of
 * all), or NULL when prev was the last. */
static const struct shell_command *
next_command(const struct shell_command *prev)
{
	const struct shell_command *cmd, *best = NULL;

	for (cmd = __start_shell_cmds; cmd < __stop_shell_cmds; cmd++) {
		if (prev && !cmd_before(prev, cmd))
			continue;
		if (!best || cmd_before(cmd, best))
			best = cmd;
	}
	return best;
}

static const char *or_empty(const char *s)
{
	return s ? s : "";
}

/* The longest synopsis of a command of several forms; first words that
 * would not fit are left out. */
#define SYNOPSIS_MAX 80

/* What `help` shows of a command's usage, into buf: its one form, or
 * for a command of several the first word of each, "add|list ...". */
static const char *synopsis(const struct shell_command *cmd, char *buf, size_t size)
{
	const char *form = or_empty(cmd->usage);
	size_t n = 0;

	if (!strchr(form, '\n'))
		return form;
	for (;;) {
		const char *end = strchr(form, '\n');
		size_t word = 0;

		while (form[word] && form[word] != ' ' && form[word] != '\n')
			word++;
		/* Room for a '|', the word, and " ..." with its NUL. */
		if (n + 1 + word + sizeof(" ...") > size)
			break;
		if (n)
			buf[n++] = '|';
		memcpy(buf + n, form, word);
		n += word;
		if (!end)
			break;
		form = end + 1;
	}
	memcpy(buf + n, " ...", sizeof(" ..."));
	return buf;
}

/* Width of the "name usage" column of a command. */
static size_t synopsis_width(const struct shell_command *cmd)
{
	char buf[SYNOPSIS_MAX];
	size_t usage = strlen(synopsis(cmd, buf, sizeof(buf)));

	return strlen(cmd->name) + (usage ? 1 + usage : 0);
}

/* `help CMD`: every form of the command and what it does, in bash's
 * `help` layout ("NAME: NAME FORM", the other forms lined up under the
 * first, then the description indented). -ENOENT if there is none. */
static int help_one(const char *name)
{
	const struct shell_command *cmd = shell_find_command(name);
	char lead[40];

	if (!cmd) {
		cmd_eprintf("help: no such command: %s\n", name);
		return -ENOENT;
	}
	snprintf(lead, sizeof(lead), "%s: ", cmd->name);
	shell_print_forms(cmd_printf, cmd, lead);
	cmd_printf("    %s\n", or_empty(cmd->help));
	return 0;
}

/* `help`: every command, one line each, "name usage" padded to the
 * widest. */
static void help_all(void)
{
	const struct shell_command *cmd;
	char buf[SYNOPSIS_MAX];
	size_t width = 0;

	for (cmd = __start_shell_cmds; cmd < __stop_shell_cmds; cmd++)
		width = MAX(width, synopsis_width(cmd));

	for (cmd = next_command(NULL); cmd; cmd = next_command(cmd)) {
		const char *usage = synopsis(cmd, buf, sizeof(buf));
		int pad = (int)(width - synopsis_width(cmd));

		cmd_printf("%s%s%s%*s  %s\n", cmd->name, *usage ? " " : "",
			   usage, pad, "", or_empty(cmd->help));
	}
}

static int help_cmd(int argc, char **argv)
{
	int status = 0;

	if (argc == 1)
		help_all();
	for (int i = 1; i < argc; i++) {
		int err = help_one(argv[i]);

		if (err)
			status = err;
	}
	return status;
}
SHELL_COMMAND("help", "[CMD...]", "list the commands, or say what each CMD does", help_cmd);

/* Kept out of the thread's stack: the history alone is about 4 KiB. */
static struct line_editor shell_editor;

void shell_main(void *unused)
{
	(void)unused;
	line_editor_init(&shell_editor, line_editor_echo_console, NULL);
	for (;;) {
		cmd_printf(SHELL_PROMPT);
		switch (line_editor_read(&shell_editor)) {
		case LINE_DONE:
			shell_execute(line_editor_line(&shell_editor));
			break;
		case LINE_TOO_LONG:
			cmd_eprintf("shell: line too long (max %d characters)\n",
				SHELL_MAX_LINE);
			break;
		case LINE_CANCELLED:
		case LINE_CONTINUE:
			break;	/* the editor already ended the line */
		}
	}
}
