/* SPDX-License-Identifier: Apache-2.0 */
/* Readable C++ names (gm_demangle.h). Depends on libc only. */
#include "gm_demangle.h"

#include <stdlib.h>
#include <string.h>

/* From the C++ ABI (libstdc++/libc++abi); weak: absent in pure C programs. */
extern char *__cxa_demangle(const char *mangled, char *out, size_t *len, int *status)
    __attribute__((weak));

char *gm_demangle_dup(const char *name)
{
    if (!name || name[0] != '_' || name[1] != 'Z' || !__cxa_demangle)
        return NULL;
    int st = -1;
    char *d = __cxa_demangle(name, NULL, NULL, &st);
    if (st == 0)
        return d;
    free(d);
    return NULL;
}

const char *gm_demangle(const char *name, char *buf, size_t len)
{
    char *d = gm_demangle_dup(name);
    const char *s = d ? d : (name ? name : "?");
    size_t n = strlen(s);
    if (n < len) {
        memcpy(buf, s, n + 1);
    } else if (len > 4) {
        memcpy(buf, s, len - 4);
        memcpy(buf + len - 4, "...", 4);
    } else if (len) {
        buf[0] = 0;
    }
    free(d);
    return buf;
}
