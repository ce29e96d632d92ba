/* ERR_PTR, PTR_ERR, IS_ERR, IS_ERR_OR_NULL and PTR_ERR_OR_ZERO: an
 * errno carried in a pointer (lib/err.h), as Linux's debugfs and others
 * return one. */
#ifndef _LINUX_ERR_H
#define _LINUX_ERR_H

#include "lib/err.h"

#endif
