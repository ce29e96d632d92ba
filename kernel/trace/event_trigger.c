/* The text of an event trigger, read (event_trigger.h). */
#include "kernel/trace/event_trigger.h"
#include "lib/ctype.h"
#include "lib/errno.h"
#include "lib/string.h"

static const char *const names[] = {
	[TRIGGER_TRACEON] = "traceon",
	[TRIGGER_TRACEOFF] = "traceoff",
	[TRIGGER_STACKTRACE] = "stacktrace",
	[TRIGGER_ENABLE_EVENT] = "enable_event",
	[TRIGGER_DISABLE_EVENT] = "disable_event",
	[TRIGGER_HIST] = "hist",
};

const char *trigger_cmd_name(enum trigger_cmd cmd)
{
	return (unsigned int)cmd < ARRAY_SIZE(names) ? names[cmd] : "";
}

/* The word at *p up to a ':', a blank or the end, into buf (size
 * bytes); false if it is empty or too long. */
static bool take_word(const char **p, char *buf, size_t size)
{
	size_t n = 0;

	while ((*p)[n] && (*p)[n] != ':' && !is_space((*p)[n]))
		n++;
	if (n == 0 || n >= size)
		return false;
	memcpy(buf, *p, n);
	buf[n] = '\0';
	*p += n;
	return true;
}

/* ":N", the count, if there is one. */
static bool take_count(const char **p, long *count)
{
	char digits[24];
	uint64_t n;

	*count = -1;
	if (**p != ':')
		return true;
	(*p)++;
	if (!take_word(p, digits, sizeof(digits)) || parse_unsigned(digits, INT32_MAX, &n) < 0)
		return false;
	*count = (long)n;
	return true;
}

int trigger_parse(const char *text, struct trigger_spec *spec)
{
	const char *p = text;
	char cmd[24];
	size_t i;

	*spec = (struct trigger_spec){ .count = -1 };
	while (is_space(*p))
		p++;
	if (*p == '!') {
		spec->remove = true;
		p++;
	}
	if (!take_word(&p, cmd, sizeof(cmd)))
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(cmd, names[i]))
			break;
	if (i == ARRAY_SIZE(names))
		return -EINVAL;
	spec->cmd = (enum trigger_cmd)i;
	if (spec->cmd == TRIGGER_ENABLE_EVENT || spec->cmd == TRIGGER_DISABLE_EVENT) {
		if (*p++ != ':' || !take_word(&p, spec->system, sizeof(spec->system)) ||
		    *p++ != ':' || !take_word(&p, spec->event, sizeof(spec->event)))
			return -EINVAL;
	}
	if (spec->cmd == TRIGGER_HIST) {
		if (*p++ != ':')
			return -EINVAL;
		spec->param = p;
		while (*p && !is_space(*p))
			p++;
		spec->param_len = (size_t)(p - spec->param);
		if (!spec->param_len)
			return -EINVAL;
	} else if (!take_count(&p, &spec->count))
		return -EINVAL;
	while (is_space(*p))
		p++;
	if (!*p)
		return 0;
	if (strncmp(p, "if", 2) || !is_space(p[2]))
		return -EINVAL;
	p += 3;
	while (is_space(*p))
		p++;
	if (!*p)
		return -EINVAL;
	spec->filter = p;
	return 0;
}
