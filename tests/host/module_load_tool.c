/*
 * module_load_tool_ARCH FILE [PARAM=VALUE...]: run the module loader's
 * load steps (module_host.h) on FILE with those parameters, and print
 * what insmod would print before the module's init runs; then
 * "result: 0" or "result: -ERRNO". Used by test_module_refusals.py.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tests/host/module_host.h"

int main(int argc, char **argv)
{
	FILE *f;
	char *image;
	long size;
	int err;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE [PARAM=VALUE...]\n", argv[0]);
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) != 0) {
		perror(argv[1]);
		return 2;
	}
	image = malloc(size ? size : 1);
	if (!image || fread(image, 1, size, f) != (size_t)size) {
		perror(argv[1]);
		return 2;
	}
	fclose(f);
	module_host_log_to(stdout);
	err = module_host_prepare(image, size, argc - 2, argv + 2);
	printf("result: %d\n", err);
	free(image);
	return 0;
}
