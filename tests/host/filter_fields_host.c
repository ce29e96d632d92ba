/* A made-up event's fields, for event filters on the host
 * (filter_fields_host.h). */
#include "tests/host/rename.h"
#include "tests/host/filter_fields_host.h"
#include "lib/string.h"

bool filter_host_lookup(void *ctx, const char *name, size_t len, struct filter_field *f)
{
	static const struct {
		const char *name;
		struct filter_field field;
	} fields[] = {
		{ "count", { FILTER_FIELD_NUMBER, 0, 8, false } },
		{ "ret", { FILTER_FIELD_NUMBER, 8, 4, true } },
		{ "flags", { FILTER_FIELD_NUMBER, 12, 1, false } },
		{ "path", { FILTER_FIELD_STRING, 16, 4, false } },
		{ "comm", { FILTER_FIELD_COMM, 0, 0, false } },
		{ "cpu", { FILTER_FIELD_CPU, 0, 0, false } },
		{ "common_pid", { FILTER_FIELD_PID, 0, 0, true } },
	};

	(void)ctx;
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++)
		if (strlen(fields[i].name) == len && !strncmp(fields[i].name, name, len)) {
			*f = fields[i].field;
			return true;
		}
	return false;
}
