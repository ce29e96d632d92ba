/* The fields of a made-up event's records, for the host tests and the
 * fuzzer of event filters (kernel/trace/event_filter.h):
 *
 *   offset 0   count   u64
 *   offset 8   ret     s32
 *   offset 12  flags   u8
 *   offset 16  path    a __data_loc string
 *
 * and comm, cpu and common_pid, the hit's. */
#ifndef TESTS_HOST_FILTER_FIELDS_HOST_H
#define TESTS_HOST_FILTER_FIELDS_HOST_H

#include "kernel/trace/event_filter.h"

/* A filter_field_lookup over those fields; ctx is unused. */
bool filter_host_lookup(void *ctx, const char *name, size_t len, struct filter_field *f);

#endif
