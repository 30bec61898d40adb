/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Live allocation ranges (live.h): insert into the block that covers the
 * base (split in two when full), remove from it (drop it when empty), keep
 * the index of first bases in step. No I/O.
 */
#include <stdlib.h>
#include <string.h>
#include "gm_grow.h"
#include "live.h"

/* Makes room for block b in the index (blocks b.. move up); 0 or -1. */
static int add_block(struct gm_liveset *t, uint32_t b, struct gm_liveblk *k)
{
    if (GM_GROW_TO(t->blk, t->cap_blk, (size_t)t->nblk + 1) ||
        GM_GROW_TO(t->first, t->cap_first, (size_t)t->nblk + 1))
        return -1;
    memmove(t->blk + b + 1, t->blk + b, (t->nblk - b) * sizeof *t->blk);
    memmove(t->first + b + 1, t->first + b, (t->nblk - b) * sizeof *t->first);
    t->blk[b] = k;
    t->first[b] = k->base[0];
    t->nblk++;
    return 0;
}

static void drop_block(struct gm_liveset *t, uint32_t b)
{
    free(t->blk[b]);
    memmove(t->blk + b, t->blk + b + 1, (t->nblk - b - 1) * sizeof *t->blk);
    memmove(t->first + b, t->first + b + 1, (t->nblk - b - 1) * sizeof *t->first);
    t->nblk--;
}

/* Moves entries [from, n) of k to shift places later (shift 1) or
 * earlier (shift -1). */
static void shift(struct gm_liveblk *k, uint32_t from, int shift)
{
    uint32_t to = (uint32_t)((int)from + shift), cnt = k->n - from;
    memmove(k->base + to, k->base + from, cnt * sizeof *k->base);
    memmove(k->end + to, k->end + from, cnt * sizeof *k->end);
    memmove(k->id + to, k->id + from, cnt * sizeof *k->id);
}

/* Splits full block b: its upper half becomes block b + 1. 0 or -1. */
static int split(struct gm_liveset *t, uint32_t b)
{
    struct gm_liveblk *k = t->blk[b], *h = malloc(sizeof *h);
    if (!h) return -1;
    uint32_t keep = k->n / 2;
    h->n = k->n - keep;
    memcpy(h->base, k->base + keep, h->n * sizeof *h->base);
    memcpy(h->end, k->end + keep, h->n * sizeof *h->end);
    memcpy(h->id, k->id + keep, h->n * sizeof *h->id);
    if (add_block(t, b + 1, h)) { free(h); return -1; }
    k->n = keep;
    return 0;
}

int gm_live_insert(struct gm_liveset *t, uint64_t base, uint64_t end, uint32_t id)
{
    /* the range with the largest base below end is the only one that can overlap */
    int32_t b = gm_live_floor(t->first, t->nblk, end - 1);
    if (b >= 0) {
        const struct gm_liveblk *k = t->blk[b];
        int32_t i = gm_live_floor(k->base, k->n, end - 1);
        if (k->end[i] > base) return 1;
    }
    if (!t->nblk) {
        struct gm_liveblk *k = malloc(sizeof *k);
        if (!k) return -1;
        k->n = 1;
        k->base[0] = base, k->end[0] = end, k->id[0] = id;
        if (add_block(t, 0, k)) { free(k); return -1; }
        t->count++;
        return 0;
    }
    b = gm_live_floor(t->first, t->nblk, base);
    if (b < 0) b = 0;   /* below every range: the first block */
    if (t->blk[b]->n == GM_LIVE_BLOCK) {
        if (split(t, (uint32_t)b)) return -1;
        if (base >= t->first[b + 1]) b++;
    }
    struct gm_liveblk *k = t->blk[b];
    uint32_t p = (uint32_t)(gm_live_floor(k->base, k->n, base) + 1);
    shift(k, p, 1);
    k->base[p] = base, k->end[p] = end, k->id[p] = id;
    k->n++;
    t->first[b] = k->base[0];
    t->count++;
    return 0;
}

int gm_live_remove(struct gm_liveset *t, uint64_t base)
{
    int32_t b = gm_live_floor(t->first, t->nblk, base);
    if (b < 0) return -1;
    struct gm_liveblk *k = t->blk[b];
    int32_t i = gm_live_floor(k->base, k->n, base);
    if (k->base[i] != base) return -1;
    shift(k, (uint32_t)i + 1, -1);
    k->n--;
    t->count--;
    if (!k->n) drop_block(t, (uint32_t)b);
    else t->first[b] = k->base[0];
    return 0;
}

void gm_live_destroy(struct gm_liveset *t)
{
    for (uint32_t b = 0; b < t->nblk; b++) free(t->blk[b]);
    free(t->blk);
    free(t->first);
    memset(t, 0, sizeof *t);
}
