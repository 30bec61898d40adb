/* SPDX-License-Identifier: Apache-2.0 */
/* Allocation and reset of cache state (see cache.h). No I/O. */
#include <stdlib.h>
#include "cache.h"

int gm_cache_init(struct gm_cache *c, uint64_t bytes, uint32_t ways, enum gm_repl repl, enum gm_hash hash)
{
    memset(c, 0, sizeof *c);
    c->ways = ways;
    c->sets = (uint32_t)(bytes / GM_LINE_BYTES / ways);
    c->pow2 = !(c->sets & (c->sets - 1));
    c->fm = UINT64_MAX / c->sets + 1;
    c->repl = repl;
    c->hash = hash;
    c->lines = calloc((size_t)c->sets * ways, sizeof *c->lines);
    c->plru = calloc(c->sets, sizeof *c->plru);
    if (!c->lines || !c->plru) { gm_cache_destroy(c); return -1; }
    return 0;
}

void gm_cache_reset(struct gm_cache *c)
{
    memset(c->lines, 0, (size_t)c->sets * c->ways * sizeof *c->lines);
    memset(c->plru, 0, c->sets * sizeof *c->plru);
}

void gm_cache_destroy(struct gm_cache *c)
{
    free(c->lines);
    free(c->plru);
    c->lines = NULL;
    c->plru = NULL;
}
