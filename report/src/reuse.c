/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Redundant-allocation matching (see reuse.h): a sweep over alloc seqs.
 * Candidates enter a rank set (ranked by device, size, index) once their
 * last use is behind the sweep, and leave it when matched or freed; each
 * query is the first member at or after (device, size). Depends on
 * timeline.h, rankset.h and libc.
 */
#include "reuse.h"
#include "rankset.h"

#include <stdint.h>
#include <stdlib.h>

struct cand {
    size_t idx;             /* into t->allocs */
    int32_t device;
    uint64_t size;
    uint64_t ready;         /* allocated and last used before any seq > ready */
    uint64_t end;           /* freed at this seq (UINT64_MAX: never) */
};

static int cmp_rank(const void *pa, const void *pb)
{
    const struct cand *a = pa, *b = pb;
    if (a->device != b->device)
        return a->device < b->device ? -1 : 1;
    if (a->size != b->size)
        return a->size < b->size ? -1 : 1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static int cmp_ready(const void *pa, const void *pb)
{
    const struct cand *const *a = pa, *const *b = pb;
    if ((*a)->ready != (*b)->ready)
        return (*a)->ready < (*b)->ready ? -1 : 1;
    return (*a)->idx < (*b)->idx ? -1 : (*a)->idx > (*b)->idx;
}

struct at { uint64_t seq; size_t idx; };

static int cmp_at(const void *pa, const void *pb)
{
    const struct at *a = pa, *b = pb;
    if (a->seq != b->seq)
        return a->seq < b->seq ? -1 : 1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* Fills the candidates (ranked) and returns their number. */
static size_t candidates(const struct gm_tl *t, struct cand *c)
{
    size_t n = 0;
    for (size_t i = 0; i < t->nallocs; i++) {
        const struct gm_tl_alloc *A = &t->allocs[i];
        if (!A->nuses || (!A->free_seq && A->a->freed))
            continue; /* unused, or freed at an unknown time: cannot tell */
        uint64_t last = A->uses[A->nuses - 1].e->seq;
        c[n++] = (struct cand){i, A->a->device, A->a->size,
                               last > A->alloc_seq ? last : A->alloc_seq,
                               A->free_seq ? A->free_seq : UINT64_MAX};
    }
    qsort(c, n, sizeof *c, cmp_rank);
    return n;
}

/* First rank whose (device, size) is >= (dev, size). */
static size_t lower_bound(const struct cand *c, size_t n, int32_t dev, uint64_t size)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c[mid].device < dev || (c[mid].device == dev && c[mid].size < size))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static size_t match_one(const struct gm_tl_alloc *B, struct cand *c, size_t nc,
                        struct gm_rankset *live)
{
    uint64_t t = B->alloc_seq;
    size_t r = gm_rankset_next(live, lower_bound(c, nc, B->a->device, B->a->size));
    while (r < nc && c[r].device == B->a->device) {
        gm_rankset_remove(live, r); /* matched now, or freed for every later B */
        if (c[r].end > t)
            return c[r].idx;
        r = gm_rankset_next(live, r);
    }
    return SIZE_MAX;
}

int gm_reuse_match(const struct gm_tl *t, size_t *other)
{
    size_t n = t->nallocs;
    struct cand *c = calloc(n + 1, sizeof *c);
    struct cand **byready = calloc(n + 1, sizeof *byready);
    struct at *order = calloc(n + 1, sizeof *order);
    struct gm_rankset live = {0};
    int rc = -1;
    if (!c || !byready || !order)
        goto out;
    size_t nc = candidates(t, c);
    if (gm_rankset_init(&live, nc))
        goto out;
    for (size_t i = 0; i < nc; i++)
        byready[i] = &c[i]; /* rank i is c[i] */
    qsort(byready, nc, sizeof *byready, cmp_ready);
    for (size_t j = 0; j < n; j++) {
        order[j] = (struct at){t->allocs[j].alloc_seq, j};
        other[j] = n;
    }
    qsort(order, n, sizeof *order, cmp_at);
    for (size_t k = 0, next = 0; k < n; k++) {
        const struct gm_tl_alloc *B = &t->allocs[order[k].idx];
        for (; next < nc && byready[next]->ready < B->alloc_seq; next++)
            gm_rankset_insert(&live, (size_t)(byready[next] - c));
        size_t a = match_one(B, c, nc, &live);
        if (a != SIZE_MAX)
            other[order[k].idx] = a;
    }
    rc = 0;
out:
    gm_rankset_free(&live);
    free(c);
    free(byready);
    free(order);
    return rc;
}
