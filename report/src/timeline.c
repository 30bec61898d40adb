/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Timeline index for the object-level pattern detectors (see timeline.h).
 * Depends on gm_report.h and libc only.
 */
#include "timeline.h"

#include <stdlib.h>
#include <string.h>

static int is_work(const struct gm_report_event *e)
{
    return e->op == GM_OP_MEMCPY || e->op == GM_OP_MEMSET || e->op == GM_OP_LAUNCH;
}

static int cmp_seq(const void *pa, const void *pb)
{
    const struct gm_report_event *a = *(const struct gm_report_event *const *)pa;
    const struct gm_report_event *b = *(const struct gm_report_event *const *)pb;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

const struct gm_report_event **gm_events_by_seq(const struct gm_report *r)
{
    const struct gm_report_event **ev = calloc(r->nevents + 1, sizeof *ev);
    if (!ev)
        return NULL;
    int sorted = 1;
    for (size_t i = 0; i < r->nevents; i++) {
        ev[i] = &r->events[i];
        sorted &= !i || r->events[i - 1].seq <= r->events[i].seq;
    }
    if (!sorted)
        qsort(ev, r->nevents, sizeof *ev, cmp_seq);
    return ev;
}

struct idmap { uint64_t id; size_t idx; };

static int cmp_id(const void *pa, const void *pb)
{
    const struct idmap *a = pa, *b = pb;
    return a->id < b->id ? -1 : a->id > b->id;
}

static struct gm_tl_alloc *by_id(struct gm_tl *t, const struct idmap *map, uint64_t id)
{
    struct idmap key = {id, 0};
    const struct idmap *m = bsearch(&key, map, t->nallocs, sizeof *map, cmp_id);
    return m ? &t->allocs[m->idx] : NULL;
}

/* Fills alloc_seq/free_seq the report left 0 from the alloc/free events. */
static void alloc_free_seqs(struct gm_tl *t, const struct idmap *map)
{
    for (size_t i = 0; i < t->nev; i++) {
        const struct gm_report_event *e = t->ev[i];
        if (e->op != GM_OP_ALLOC && e->op != GM_OP_FREE)
            continue;
        for (size_t j = 0; j < e->nuses; j++) {
            struct gm_tl_alloc *ta = by_id(t, map, e->uses[j].alloc);
            if (ta && e->op == GM_OP_ALLOC && !ta->alloc_seq)
                ta->alloc_seq = e->seq;
            if (ta && e->op == GM_OP_FREE && !ta->free_seq)
                ta->free_seq = e->seq;
        }
    }
}

/* Appends every work event's uses to its allocations' lists (two passes:
 * count, then fill). */
static int collect_uses(struct gm_tl *t, const struct idmap *map)
{
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < t->nev; i++) {
            const struct gm_report_event *e = t->ev[i];
            for (size_t j = 0; is_work(e) && j < e->nuses; j++) {
                struct gm_tl_alloc *ta = by_id(t, map, e->uses[j].alloc);
                if (!ta)
                    continue;
                if (pass == 1)
                    ta->uses[ta->nuses] = (struct gm_tl_use){e, &e->uses[j], i};
                ta->nuses++;
            }
        }
        for (size_t k = 0; pass == 0 && k < t->nallocs; k++) {
            t->allocs[k].uses = calloc(t->allocs[k].nuses ? t->allocs[k].nuses : 1,
                                       sizeof *t->allocs[k].uses);
            if (!t->allocs[k].uses)
                return -1;
            t->allocs[k].nuses = 0;
        }
    }
    return 0;
}

int gm_tl_build(const struct gm_report *r, struct gm_tl *t)
{
    memset(t, 0, sizeof *t);
    t->nev = r->nevents;
    t->nallocs = r->nallocs;
    t->ev = gm_events_by_seq(r);
    t->work = calloc(t->nev + 1, sizeof *t->work);
    t->allocs = calloc(t->nallocs + 1, sizeof *t->allocs);
    struct idmap *map = calloc(t->nallocs + 1, sizeof *map);
    int rc = -1;
    if (!t->ev || !t->work || !t->allocs || !map)
        goto out;
    for (size_t i = 0; i < t->nev; i++)
        t->work[i + 1] = t->work[i] + (uint64_t)is_work(t->ev[i]);
    for (size_t k = 0; k < t->nallocs; k++) {
        t->allocs[k].a = &r->allocs[k];
        t->allocs[k].alloc_seq = r->allocs[k].alloc_seq;
        t->allocs[k].free_seq = r->allocs[k].free_seq;
        map[k] = (struct idmap){r->allocs[k].id, k};
    }
    qsort(map, t->nallocs, sizeof *map, cmp_id);
    alloc_free_seqs(t, map);
    rc = collect_uses(t, map);
out:
    free(map);
    if (rc)
        gm_tl_free(t);
    return rc;
}

void gm_tl_free(struct gm_tl *t)
{
    for (size_t k = 0; t->allocs && k < t->nallocs; k++)
        free(t->allocs[k].uses);
    free(t->allocs);
    free(t->ev);
    free(t->work);
    memset(t, 0, sizeof *t);
}

/* Index of the first event with seq > s. */
static size_t upper(const struct gm_tl *t, uint64_t s)
{
    size_t lo = 0, hi = t->nev;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->ev[mid]->seq <= s)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

uint64_t gm_tl_work_between(const struct gm_tl *t, uint64_t a, uint64_t b)
{
    if (b <= a + 1)
        return 0;
    size_t i = upper(t, a);         /* first seq > a */
    size_t j = upper(t, b - 1);     /* first seq >= b */
    return j > i ? t->work[j] - t->work[i] : 0;
}

uint64_t gm_tl_work_between_ix(const struct gm_tl *t, size_t i, size_t j)
{
    return j > i + 1 ? t->work[j] - t->work[i + 1] : 0;
}

const struct gm_tl_alloc *gm_tl_find(const struct gm_tl *t, uint64_t id)
{
    for (size_t k = 0; k < t->nallocs; k++)
        if (t->allocs[k].a->id == id)
            return &t->allocs[k];
    return NULL;
}
