/* Why and where a probe event's definition was refused (probe_log.h). */
#include "kernel/trace/probe_log.h"
#include "lib/string.h"

#define PROBE_ERROR_TEXT(name, text) [PROBE_ERR_##name] = text,
static const char *const error_text[] = {
	[PROBE_ERR_NONE] = "",
	PROBE_ERRORS(PROBE_ERROR_TEXT)
};
#undef PROBE_ERROR_TEXT

const char *probe_error_text(enum probe_error err)
{
	if ((unsigned int)err >= sizeof(error_text) / sizeof(error_text[0]))
		return "";
	return error_text[err];
}

void probe_log_init(struct probe_log *log, int argc, const char *const *argv)
{
	*log = (struct probe_log){ .argc = argc, .argv = argv };
}

void probe_log_set_index(struct probe_log *log, int index)
{
	log->index = index;
}

void probe_log_err(struct probe_log *log, int offset, enum probe_error err)
{
	if (log->err != PROBE_ERR_NONE)
		return;
	log->err = err;
	log->err_index = log->index;
	log->err_offset = offset;
}

/* Append c to the line at buf (of size bytes) that is *len long. */
static void put_char(char *buf, size_t size, size_t *len, char c)
{
	if (*len + 1 < size)
		buf[*len] = c;
	(*len)++;
}

size_t probe_log_command(const struct probe_log *log, char *buf, size_t size)
{
	size_t len = 0;

	for (int i = 0; i < log->argc; i++) {
		if (i > 0)
			put_char(buf, size, &len, ' ');
		for (const char *p = log->argv[i]; *p; p++)
			put_char(buf, size, &len, *p);
	}
	if (size > 0)
		buf[MIN(len, size - 1)] = '\0';
	return len;
}

int probe_log_pos(const struct probe_log *log)
{
	int pos = 0;

	if (log->err_index >= log->argc) {
		for (int i = 0; i < log->argc; i++)
			pos += (int)strlen(log->argv[i]) + 1;
		return pos;
	}
	for (int i = 0; i < log->err_index; i++)
		pos += (int)strlen(log->argv[i]) + 1;
	return pos + log->err_offset;
}
