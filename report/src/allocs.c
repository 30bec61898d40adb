/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Report model: allocations, their bitmaps and bitmap summaries.
 * Depends on libc only.
 */
#include "gm_report.h"
#include "grow.h"
#include "strpool.h"

#include <stdlib.h>
#include <string.h>

struct gm_report_alloc *gm_report_add_alloc(struct gm_report *r, uint64_t id,
                                            uint64_t dev_ptr, uint64_t size,
                                            const char *api)
{
    struct gm_report_alloc *a = GM_GROW(r->allocs, r->nallocs, r->cap_allocs);
    int oom = 0;
    if (!a || (a->api = gm_report_intern(r, api, &oom), oom))
        return NULL;
    a->id = id;
    a->dev_ptr = dev_ptr;
    a->size = size;
    a->granularity = 4;
    a->units = (size + 3) / 4;
    r->nallocs++;
    return a;
}

struct gm_report_alloc *gm_report_find_alloc(const struct gm_report *r, uint64_t id)
{
    for (size_t i = 0; i < r->nallocs; i++)
        if (r->allocs[i].id == id)
            return &r->allocs[i];
    return NULL;
}

static size_t words(uint64_t units) { return (size_t)(units / 64 + (units % 64 != 0)); }

/* Bits of word w that are inside the bitmap. */
static uint64_t valid_mask(uint64_t units, size_t w)
{
    uint64_t left = units - (uint64_t)w * 64;
    return left >= 64 ? ~0ull : ((1ull << left) - 1);
}

uint64_t gm_bitmap_count(const uint64_t *bm, uint64_t units)
{
    uint64_t n = 0;
    for (size_t w = 0; w < words(units); w++)
        n += (uint64_t)__builtin_popcountll(bm[w] & valid_mask(units, w));
    return n;
}

uint64_t gm_bitmap_largest_zero_run(const uint64_t *bm, uint64_t units, uint64_t *nruns)
{
    uint64_t best = 0, run = 0, runs = 0;
    for (uint64_t i = 0; i < units; i++) {
        if (bm[i / 64] == 0 && i % 64 == 0 && units - i >= 64) {
            runs += run == 0;
            run += 64;
            i += 63;
        } else if (!((bm[i / 64] >> (i % 64)) & 1)) {
            runs += run == 0;
            run++;
        } else {
            run = 0;
        }
        if (run > best)
            best = run;
    }
    if (nruns)
        *nruns = runs;
    return best;
}

int gm_report_alloc_set_bitmap(struct gm_report_alloc *a, uint32_t granularity,
                               const uint64_t *bitmap)
{
    if (granularity == 0)
        return -1;
    uint64_t units = a->size / granularity + (a->size % granularity != 0);
    uint64_t *c = malloc(words(units) ? words(units) * 8 : 8);
    if (!c)
        return -1;
    memcpy(c, bitmap, words(units) * 8);
    free(a->bitmap);
    a->bitmap = c;
    a->granularity = granularity;
    a->units = units;
    a->has_access = 1;
    a->touched_units = gm_bitmap_count(c, units);
    a->largest_untouched_units = gm_bitmap_largest_zero_run(c, units, &a->untouched_runs);
    return 0;
}

struct gm_report_alloc_launch *gm_report_alloc_add_launch(struct gm_report_alloc *a,
                                                          uint64_t launch_seq,
                                                          const uint64_t *bitmap)
{
    size_t cap = a->nlaunches;
    struct gm_report_alloc_launch *l = GM_GROW(a->launches, a->nlaunches, cap);
    if (!l)
        return NULL;
    if (bitmap) {
        l->bitmap = malloc(words(a->units) ? words(a->units) * 8 : 8);
        if (!l->bitmap)
            return NULL;
        memcpy(l->bitmap, bitmap, words(a->units) * 8);
        l->touched_units = gm_bitmap_count(bitmap, a->units);
    }
    l->launch_seq = launch_seq;
    a->nlaunches++;
    return l;
}
