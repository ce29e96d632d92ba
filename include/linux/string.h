/* memcpy, strlen and the others the kernel exports (lib/string.h). */
#ifndef _LINUX_STRING_H
#define _LINUX_STRING_H

#include "lib/string.h"

#endif
