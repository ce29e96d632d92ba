/* Error numbers (EIO, ENOMEM...): return them negated, as in Linux. */
#ifndef _LINUX_ERRNO_H
#define _LINUX_ERRNO_H

#include "lib/errno.h"

#endif
