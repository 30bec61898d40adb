/* SPDX-License-Identifier: Apache-2.0 */
/* Growable byte buffer for the trace writer and reader (see bytes.h). */
#include <stdint.h>
#include <stdlib.h>
#include "bytes.h"
#include "gm_grow.h"

int gm_buf_reserve(struct gm_buf *b, size_t extra)
{
    if (b->oom) return -1;
    if (b->n + extra <= b->cap) return 0;
    if (extra > SIZE_MAX - b->n || GM_GROW_TO(b->p, b->cap, b->n + extra)) { b->oom = 1; return -1; }
    return 0;
}

void gm_buf_free(struct gm_buf *b)
{
    free(b->p);
    *b = (struct gm_buf){0};
}
