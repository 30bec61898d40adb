/* SPDX-License-Identifier: Apache-2.0 */
/* Growable byte buffer for the trace writer and reader (see bytes.h). */
#include <stdlib.h>
#include "bytes.h"

int gm_buf_reserve(struct gm_buf *b, size_t extra)
{
    if (b->oom) return -1;
    if (b->n + extra <= b->cap) return 0;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->n + extra) cap *= 2;
    uint8_t *p = realloc(b->p, cap);
    if (!p) { b->oom = 1; return -1; }
    b->p = p;
    b->cap = cap;
    return 0;
}

void gm_buf_free(struct gm_buf *b)
{
    free(b->p);
    *b = (struct gm_buf){0};
}
