/* A kprobe_events line read into a definition (kprobe_event_parse.h).
 * The checks come in Linux's order, so that a line with several faults
 * is refused for the same one: the MAXACTIVE, the probe point, the
 * names, then each argument. */
#include "kernel/trace/kprobe_event_parse.h"
#include "lib/ctype.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"

int kprobe_event_nr_args(int argc)
{
	return argc <= 2 ? 0 : MIN(argc - 2, MAX_TRACE_ARGS);
}

/* "r16": the MAXACTIVE after the 'r', up to the ':' (or the end). */
static int parse_maxactive(const char *word, struct kprobe_event_def *def, struct probe_log *log)
{
	char digits[MAX_EVENT_NAME_LEN];
	const char *colon = strchr(word, ':');
	size_t len = colon ? (size_t)(colon - word - 1) : strlen(word + 1);
	uint64_t n;

	if (!def->is_return) {
		probe_log_err(log, 1, PROBE_ERR_MAXACT_NO_KPROBE);
		return -EINVAL;
	}
	if (len >= sizeof(digits)) {
		probe_log_err(log, 1, PROBE_ERR_BAD_MAXACT);
		return -EINVAL;
	}
	memcpy(digits, word + 1, len);
	digits[len] = '\0';
	if (parse_unsigned(digits, UINT32_MAX, &n) < 0 || n == 0) {
		probe_log_err(log, 1, PROBE_ERR_BAD_MAXACT);
		return -EINVAL;
	}
	if (n > KRETPROBE_MAXACTIVE_MAX) {
		probe_log_err(log, 1, PROBE_ERR_MAXACT_TOO_BIG);
		return -EINVAL;
	}
	def->maxactive = (unsigned int)n;
	return 0;
}

/* "[MOD:]SYM[+OFFS][%return]" or an address, in word 1. */
static int parse_probe_point(const char *word, struct kprobe_event_def *def,
			     const struct kprobe_parse_env *env, struct probe_log *log)
{
	char *suffix, *sign;
	int64_t offset = 0;

	probe_log_set_index(log, 1);
	if (parse_unsigned(word, UINT64_MAX, &def->addr) == 0)
		return 0;
	/* "PATH:OFFSET" is an uprobe's. */
	if (strchr(word, '/') && strchr(word, ':'))
		return -ECANCELED;
	if (strlcpy(def->symbol, word, sizeof(def->symbol)) >= sizeof(def->symbol)) {
		probe_log_err(log, 0, PROBE_ERR_BAD_PROBE_ADDR);
		return -EINVAL;
	}
	suffix = strchr(def->symbol, '%');
	if (suffix) {
		if (strcmp(suffix, "%return")) {
			probe_log_err(log, (int)(suffix - def->symbol), PROBE_ERR_BAD_ADDR_SUFFIX);
			return -EINVAL;
		}
		*suffix = '\0';
		def->is_return = true;
	}
	for (sign = def->symbol; *sign && *sign != '+' && *sign != '-'; sign++)
		;
	if (*sign) {
		if (parse_signed(sign + (*sign == '+'), INT64_MAX, &offset) < 0 ||
		    (*sign == '+' && sign[1] == '-') || offset < 0 || offset > UINT32_MAX) {
			probe_log_err(log, 0, PROBE_ERR_BAD_PROBE_ADDR);
			return -EINVAL;
		}
		*sign = '\0';
	}
	def->offset = (uint64_t)offset;
	if (def->is_return)
		def->flags |= TPARG_FL_RETURN;
	if (offset == 0)
		def->flags |= TPARG_FL_FENTRY;
	else if (def->is_return) {
		probe_log_err(log, 0, PROBE_ERR_BAD_RETPROBE);
		return -EINVAL;
	}
	/* A module's symbol may be named before the module is loaded: it is
	 * looked up when the probe is placed. */
	if (!strchr(def->symbol, ':')) {
		int n = env->count_symbol(def->symbol);

		if (n > 1) {
			probe_log_err(log, 0, PROBE_ERR_NON_UNIQ_SYMBOL);
			return -EADDRNOTAVAIL;
		}
		if (n == 0) {
			probe_log_err(log, 0, PROBE_ERR_BAD_PROBE_ADDR);
			return -ENOENT;
		}
	}
	return 0;
}

/* The name Linux makes for an event none was given to: "p_vfs_read_0",
 * every character that may not be in a name made a '_'. */
static void make_event_name(struct kprobe_event_def *def)
{
	char *c;

	if (def->symbol[0])
		snprintf(def->event, sizeof(def->event), "%c_%s_%llu", def->is_return ? 'r' : 'p',
			 def->symbol, (unsigned long long)def->offset);
	else
		snprintf(def->event, sizeof(def->event), "%c_0x%llx", def->is_return ? 'r' : 'p',
			 (unsigned long long)def->addr);
	for (c = def->event; *c; c++)
		if (!is_alnum(*c))
			*c = '_';
}

int kprobe_event_parse(int argc, const char *const *argv, struct kprobe_event_def *def,
		       const struct kprobe_parse_env *env, struct probe_log *log)
{
	struct probe_arg *args = def->args;
	const char *head = argc > 0 ? argv[0] : "", *event;
	int err;

	*def = (struct kprobe_event_def){ .args = args, .group = KPROBE_EVENT_SYSTEM };
	if ((head[0] != 'p' && head[0] != 'r') || argc < 2)
		return -ECANCELED;
	def->is_return = head[0] == 'r';
	probe_log_init(log, argc, argv);
	event = strchr(head + 1, ':');
	if (is_digit(head[1])) {
		err = parse_maxactive(head, def, log);
		if (err)
			return err;
	} else if (head[1] != '\0' && head[1] != ':') {
		return -ECANCELED;
	}
	err = parse_probe_point(argv[1], def, env, log);
	if (err)
		return err;
	probe_log_set_index(log, 0);
	if (event) {
		event++;
		err = trace_probe_parse_event_name(event, def->group, def->event,
						   (int)(event - head), log);
		if (err)
			return err;
	}
	if (!def->event[0])
		make_event_name(def);
	for (int i = 0; i < kprobe_event_nr_args(argc); i++) {
		probe_log_set_index(log, i + 2);
		err = trace_probe_parse_arg(args, i, argv[i + 2], def->flags, &def->size,
					    &env->fetch, log);
		if (err)
			return err;
		def->nr_args = i + 1;
	}
	return 0;
}

size_t kprobe_event_show(const struct kprobe_event_def *def, char *buf, size_t size)
{
	size_t n = 0;

#define SHOW(...) n += (size_t)snprintf(buf + MIN(n, size), size - MIN(n, size), __VA_ARGS__)
	SHOW("%c", def->is_return ? 'r' : 'p');
	if (def->is_return && def->maxactive)
		SHOW("%u", def->maxactive);
	SHOW(":%s/%s", def->group, def->event);
	if (!def->symbol[0])
		SHOW(" 0x%llx", (unsigned long long)def->addr);
	else if (def->offset)
		SHOW(" %s+%llu", def->symbol, (unsigned long long)def->offset);
	else
		SHOW(" %s", def->symbol);
	for (int i = 0; i < def->nr_args; i++)
		SHOW(" %s=%s", def->args[i].name, def->args[i].comm);
#undef SHOW
	return n;
}
