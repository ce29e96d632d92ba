/* Renames for compiling ProbeOS's lib/ on the host.
 *
 * lib/ implements functions with the names and signatures of C library
 * functions (memcpy, strlen, snprintf...). In a host test program those
 * would clash with the host's C library, and calls could silently go to
 * the wrong one. So every such name is renamed with a probeos_ prefix:
 *
 *   - lib/ sources are compiled with "-include tests/host/rename.h", so
 *     the code under test is unchanged but defines probeos_memcpy etc.;
 *   - a test includes its system headers first, then this file, then the
 *     lib/ headers. From there on, memcpy means ProbeOS's memcpy. Code
 *     placed above the #include of this file still reaches the host's
 *     functions (the tests use that for reference results).
 *
 * A header with #defines was chosen over "objcopy --prefix-symbols"
 * because it works with the plain compiler, keeps debug information
 * readable and renames nothing but the names listed here. -fno-builtin
 * keeps the compiler from treating the renamed functions as builtins.
 *
 * loff_t is renamed because glibc's <sys/types.h> also defines it, with
 * a different type from lib/types.h.
 */
#ifndef TESTS_HOST_RENAME_H
#define TESTS_HOST_RENAME_H

#define memcpy		probeos_memcpy
#define memmove		probeos_memmove
#define memset		probeos_memset
#define memcmp		probeos_memcmp
#define memchr		probeos_memchr
#define strlen		probeos_strlen
#define strnlen		probeos_strnlen
#define strcmp		probeos_strcmp
#define strncmp		probeos_strncmp
#define strchr		probeos_strchr
#define strrchr		probeos_strrchr
#define strlcpy		probeos_strlcpy
#define strerror	probeos_strerror
#define vsnprintf	probeos_vsnprintf
#define snprintf	probeos_snprintf
#define loff_t		probeos_loff_t

#endif
