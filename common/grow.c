/* SPDX-License-Identifier: Apache-2.0 */
/* Growth of dynamic arrays (gm_grow.h). Depends on libc only. */
#include "gm_grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int gm_grow_to(void **arr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t nc = *cap > 8 ? *cap : 8;
    while (nc < need)
        nc = nc > SIZE_MAX / 2 ? need : 2 * nc;
    if (elem && nc > SIZE_MAX / elem)
        return -1;
    void *p = realloc(*arr, nc * elem);
    if (!p)
        return -1;
    *arr = p;
    *cap = nc;
    return 0;
}

void *gm_grow(void **arr, size_t n, size_t *cap, size_t elem)
{
    if (n == SIZE_MAX || gm_grow_to(arr, cap, n + 1, elem))
        return NULL;
    char *slot = (char *)*arr + n * elem;
    memset(slot, 0, elem);
    return slot;
}
