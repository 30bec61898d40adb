/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal: an index over a report's timeline for the object-level pattern
 * detectors: events in seq order, work-event prefix counts, and for each
 * allocation the events that used it. Depends on gm_report.h and libc.
 */
#ifndef GM_REPORT_TIMELINE_H
#define GM_REPORT_TIMELINE_H

#include "gm_report.h"

struct gm_tl_use {
    const struct gm_report_event *e;
    const struct gm_report_use *u;
    size_t ix;                  /* e's index in gm_tl.ev */
};

struct gm_tl_alloc {
    const struct gm_report_alloc *a;
    uint64_t alloc_seq, free_seq; /* the allocation's, or else from its alloc/free
                                     events (free_seq 0: not freed) */
    size_t nuses;
    struct gm_tl_use *uses;     /* copy/set/launch uses, in seq order */
};

struct gm_tl {
    size_t nev;
    const struct gm_report_event **ev; /* sorted by seq */
    uint64_t *work;             /* work[i]: work events among ev[0..i-1] */
    size_t nallocs;
    struct gm_tl_alloc *allocs; /* same order as report->allocs */
};

/* The report's events in seq order: a malloc'd array of nevents + 1
 * pointers (sorted only when they are not in order already, as a reader's
 * report always is), or NULL when out of memory. */
const struct gm_report_event **gm_events_by_seq(const struct gm_report *r);

int gm_tl_build(const struct gm_report *r, struct gm_tl *t);
void gm_tl_free(struct gm_tl *t);
/* Work events (memcpy/memset/launch) with a < seq < b; b = UINT64_MAX: end. */
uint64_t gm_tl_work_between(const struct gm_tl *t, uint64_t a, uint64_t b);
/* The same between the events ev[i] and ev[j] (i < j), without a search. */
uint64_t gm_tl_work_between_ix(const struct gm_tl *t, size_t i, size_t j);
/* The tl entry of allocation id, or NULL. */
const struct gm_tl_alloc *gm_tl_find(const struct gm_tl *t, uint64_t id);

#endif
