/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Test helpers: build synthetic timelines by hand (allocations with their
 * alloc/free events, copies, sets and launches using them). Each helper
 * takes the seq explicitly so expectations can be computed from the test.
 * Depends on the report model only.
 */
#ifndef GM_REPORT_TL_BUILD_H
#define GM_REPORT_TL_BUILD_H

#include "gm_report.h"

/* Allocation `id` of `size` bytes allocated at seq, at test.cu:line. */
static struct gm_report_alloc *tl_alloc(struct gm_report *r, uint64_t id, uint64_t size,
                                        uint64_t seq, uint32_t line)
{
    struct gm_report_alloc *a = gm_report_add_alloc(r, id, 0x1000 * id, size, "cudaMalloc");
    gm_report_set_hostsite(&a->alloc_site, "test.cu", line, "main");
    a->alloc_seq = seq;
    struct gm_report_event *e = gm_report_add_event(r, seq, GM_OP_ALLOC, size);
    gm_report_set_hostsite(&e->site, "test.cu", line, "main");
    gm_report_event_add_use(e, id, 0, 0, 0);
    return gm_report_find_alloc(r, id);
}

static void tl_free(struct gm_report *r, uint64_t id, uint64_t seq, uint32_t line)
{
    struct gm_report_alloc *a = gm_report_find_alloc(r, id);
    a->freed = 1;
    a->free_seq = seq;
    gm_report_set_hostsite(&a->free_site, "test.cu", line, "main");
    struct gm_report_event *e = gm_report_add_event(r, seq, GM_OP_FREE, a->size);
    gm_report_set_hostsite(&e->site, "test.cu", line, "main");
    gm_report_event_add_use(e, id, 0, 0, 0);
}

/* A work event (memcpy/memset/launch) at seq using `id` as `how` over
 * [off, off+bytes) (bytes 0: whole); id 0: uses nothing. */
static struct gm_report_event *tl_op(struct gm_report *r, enum gm_report_op op, uint64_t seq,
                                     uint64_t id, uint32_t how, uint64_t off, uint64_t bytes,
                                     uint32_t line)
{
    struct gm_report_event *e = gm_report_add_event(r, seq, op, bytes);
    gm_report_set_hostsite(&e->site, "test.cu", line, "main");
    if (id)
        gm_report_event_add_use(e, id, how, off, bytes);
    return e;
}

#endif
