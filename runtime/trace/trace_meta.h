/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What a trace needs besides records: the module of each record's module
 * index (with its sites) and the allocations live at each traced launch,
 * taken from the runtime core (rt_core.h) and handed on (to the sink, or
 * queued for it) in the order the file and the simulator expect. Pure
 * C17 + uthash; no CUDA.
 */
#ifndef GM_TRACE_META_H
#define GM_TRACE_META_H

#include <stddef.h>
#include <stdint.h>
#include "rt_core.h"
#include "trace_sink.h"

/* Where modules, allocations and frees go (each returns 0 or -1). */
struct gm_trace_emit {
    void *ctx;
    int (*module)(void *ctx, uint64_t modid, const char *name, uint32_t nsites,
                  const struct gm_trace_site *sites);
    int (*alloc)(void *ctx, const struct gm_trace_alloc *a);
    int (*free)(void *ctx, uint64_t base, uint64_t seq);
};

struct gm_trace_modidx;     /* modid -> module index (uthash) */

struct gm_trace_meta {
    struct gm_trace_modidx *mods;
    uint32_t nmods;
    struct gm_alloc **live; /* allocations emitted and not yet freed */
    size_t nlive, cap;
    size_t seen;            /* entries of gm_alloc_table.all already looked at */
};

/* Module index of a site table, registered with the sink the first time.
 * Returns the index, or -1 on error. */
long gm_trace_meta_module(struct gm_trace_meta *m, const struct gm_trace_emit *e,
                          const struct gm_rt_sitetab *t);
/* Emits the allocations of `device` made and freed since the last call,
 * for the launch numbered seq. 0 or -1. */
int gm_trace_meta_allocs(struct gm_trace_meta *m, const struct gm_trace_emit *e,
                         const struct gm_alloc_table *t, int device, uint64_t seq);
void gm_trace_meta_free(struct gm_trace_meta *m);

#endif /* GM_TRACE_META_H */
