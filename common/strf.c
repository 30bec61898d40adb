/* SPDX-License-Identifier: Apache-2.0 */
/* Formatted strings in memory of their own (gm_strf.h). Depends on libc only. */
#include "gm_strf.h"

#include <stdio.h>
#include <stdlib.h>

char *gm_vstrf(const char *fmt, va_list ap)
{
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s)
        vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

char *gm_strf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = gm_vstrf(fmt, ap);
    va_end(ap);
    return s;
}
