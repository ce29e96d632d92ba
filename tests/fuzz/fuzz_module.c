/*
 * Fuzz target: the module loader's load steps (prepare_module, in
 * kernel/module/loader.c), on the host over tests/host/module_host.c.
 * Built once per architecture as module_x86_64 and module_aarch64, each
 * with its own relocations, headers and vermagic, and seeded with the
 * .ko files the build makes for it.
 *
 * The input is a module file. It is loaded with a parameter of every
 * type set, so that a mutated __param reaches the code that stores
 * through it. What counts as a finding is any read or write outside the
 * file or the module's memory (AddressSanitizer), undefined behaviour
 * (UBSan), a leak, or a crash; a refusal is the expected answer to most
 * inputs.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tests/host/module_host.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* set_module_params writes into its words (and puts them back), so
	 * each run gets fresh copies. */
	char words[][16] = { "p_int=-5", "p_uint=7", "p_long=-9", "p_ulong=0x10", "p_bool",
			     "p_charp=hello", "p_string=xyz" };
	char *args[sizeof(words) / sizeof(words[0])];

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		args[i] = words[i];
	module_host_prepare(data, size, sizeof(words) / sizeof(words[0]), args);
	return 0;
}
