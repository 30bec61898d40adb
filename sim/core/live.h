/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The live allocations of the simulator: disjoint address ranges, each with
 * its allocation id, in sorted blocks of at most GM_LIVE_BLOCK ranges plus a
 * sorted array of each block's first base. A lookup is two binary searches
 * (O(log n), over small arrays that stay in the CPU's caches); an insert or
 * release moves at most one block's entries and, when a block splits or
 * empties, the block index (n / GM_LIVE_BLOCK entries), whatever the order
 * of addresses. Memory: at most two slots per range seen live at once.
 * Internal to sim/core; no I/O.
 */
#ifndef GM_SIM_LIVE_H
#define GM_SIM_LIVE_H

#include <stddef.h>
#include <stdint.h>
#include "gm_search.h"

#define GM_LIVE_BLOCK 256

struct gm_liveblk {
    uint32_t n;
    uint32_t id[GM_LIVE_BLOCK];
    uint64_t base[GM_LIVE_BLOCK], end[GM_LIVE_BLOCK];
};

struct gm_liveset {
    struct gm_liveblk **blk;   /* nblk blocks in address order, none empty */
    uint64_t *first;           /* first[b] = blk[b]->base[0] */
    uint32_t nblk, count;
    size_t cap_blk, cap_first;
};

/* [base, end) with id: 0, 1 if it overlaps a live range (nothing added),
 * -1 out of memory. base < end. */
int gm_live_insert(struct gm_liveset *t, uint64_t base, uint64_t end, uint32_t id);
/* Removes the range starting at base: 0, or -1 if there is none. */
int gm_live_remove(struct gm_liveset *t, uint64_t base);
void gm_live_destroy(struct gm_liveset *t);

struct gm_live_key { const uint64_t *k; uint64_t x; };
static inline int gm_live_at_most(const void *ctx, size_t i)
{
    const struct gm_live_key *c = ctx;
    return c->k[i] <= c->x;
}

/* Index of the last of the n ascending keys k[] that is <= x, or -1. */
static inline int32_t gm_live_floor(const uint64_t *k, uint32_t n, uint64_t x)
{
    struct gm_live_key c = {k, x};
    return (int32_t)gm_partition_point(n, gm_live_at_most, &c) - 1;
}

/* The id of the live range containing addr (its bounds in *base, *end),
 * or 0. */
static inline uint32_t gm_live_find(const struct gm_liveset *t, uint64_t addr, uint64_t *base, uint64_t *end)
{
    int32_t b = gm_live_floor(t->first, t->nblk, addr);
    if (b < 0) return 0;
    const struct gm_liveblk *k = t->blk[b];
    int32_t i = gm_live_floor(k->base, k->n, addr);   /* >= 0: base[0] = first[b] <= addr */
    if (addr >= k->end[i]) return 0;
    *base = k->base[i];
    *end = k->end[i];
    return k->id[i];
}

#endif
