/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Host side of the trace ring buffer protocol (gpumem/trace.h): consumes
 * committed slots in order, advances read_index, and totals what was saved,
 * dropped and capped. The device memory is reached only through the ops
 * table, so this file is pure C17 (no CUDA) and is tested with a ring that
 * CPU threads fill (tests/lit/trace/ring.test).
 */
#ifndef GM_TRACE_RING_H
#define GM_TRACE_RING_H

#include <stddef.h>
#include <stdint.h>
#include "gpumem/trace.h"

/* Access to the device buffer. Positions are ring positions (slot index %
 * capacity) and never wrap inside one call. Each returns 0 or -1. */
struct gm_trace_dev_ops {
    int (*read_header)(void *dev, struct gm_trace_buf *out);
    int (*read_commits)(void *dev, uint64_t pos, uint64_t n, uint32_t *out);
    int (*read_slots)(void *dev, uint64_t pos, uint64_t n, void *out);
    int (*write_read_index)(void *dev, uint64_t read_index);
};

/* Called once per record in slot order; ext is the continuation slot when
 * rec->flags has GM_TRACE_F_EXT, else NULL. Nonzero stops the drain. */
typedef int (*gm_trace_consume_fn)(void *ctx, const struct gm_trace_rec *rec,
                                   const struct gm_trace_ext *ext);

struct gm_trace_ring {
    const struct gm_trace_dev_ops *ops;
    void *dev;
    uint64_t capacity;      /* slots */
    uint64_t batch;         /* slots staged per step */
    uint64_t read;          /* next slot to consume */
    uint64_t saved;         /* records consumed */
    unsigned char *stage;   /* batch slots */
    uint32_t *commits;      /* batch commit words */
    gm_trace_consume_fn consume;
    void *consume_ctx;
};

/* What became of a launch's records. records = saved + dropped + capped + lost. */
struct gm_trace_totals {
    uint64_t records;       /* attempted (gm_trace_buf.records) */
    uint64_t saved;         /* consumed by the host */
    uint64_t dropped;       /* full ring, no back-pressure (gm_trace_buf.dropped) */
    uint64_t capped;        /* over max_records */
    uint64_t lost;          /* reserved but never committed (should stay 0) */
};

/* 0, or -1 when out of memory or the sizes are zero. */
int gm_trace_ring_init(struct gm_trace_ring *r, const struct gm_trace_dev_ops *ops, void *dev,
                       uint64_t capacity, uint64_t batch, gm_trace_consume_fn consume, void *ctx);
void gm_trace_ring_free(struct gm_trace_ring *r);
/* Start of a launch: the device header was reset to zero indices. */
void gm_trace_ring_rewind(struct gm_trace_ring *r);
/* One step while writers may still run: consumes the committed prefix.
 * Returns records consumed (0: nothing ready), or -1 on an error. */
long gm_trace_ring_poll(struct gm_trace_ring *r);
/* After the writers stopped: drains everything and fills *t. 0 or -1. */
int gm_trace_ring_finish(struct gm_trace_ring *r, struct gm_trace_totals *t);

#endif /* GM_TRACE_RING_H */
