/* SPDX-License-Identifier: Apache-2.0 */
/* Growth of the report library's arrays (grow.h). Depends on libc only. */
#include "grow.h"

#include <stdlib.h>
#include <string.h>

void *gm_grow(void **arr, size_t n, size_t *cap, size_t elem)
{
    if (n >= *cap) {
        size_t nc = *cap ? *cap * 2 : 8;
        void *p = realloc(*arr, nc * elem);
        if (!p)
            return NULL;
        *arr = p;
        *cap = nc;
    }
    char *slot = (char *)*arr + n * elem;
    memset(slot, 0, elem);
    return slot;
}
