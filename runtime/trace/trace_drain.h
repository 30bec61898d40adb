/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The drain: traced launches in flight, in launch order, and the thread
 * that consumes their records. The program's thread only enqueues a launch
 * (reserve at its entry, publish at its exit, after its mark was enqueued
 * on the launch's stream) and never waits for a kernel; the drain thread
 * copies each context's ring, splits the slots among the launches by the
 * write_index each mark recorded, and pushes the file's items in order
 * (the launch's preamble, LAUNCH, record chunks, END) into the pipe.
 * Depends on trace_cuda (the device side), trace_ring and trace_pipe.
 */
#ifndef GM_TRACE_DRAIN_H
#define GM_TRACE_DRAIN_H

#include <pthread.h>
#include <stdatomic.h>
#include "trace_cuda.h"
#include "trace_pipe.h"
#include "trace_ring.h"

/* One context's ring and its staging buffers' users (chunks not yet coded). */
struct gm_trace_rctx {
    struct gm_trace_dev dev;
    struct gm_trace_ring ring;
    atomic_int refs[GM_TRACE_STAGES];
};

/* What became of a launch's records. records = saved + dropped + capped + lost. */
struct gm_trace_totals {
    uint64_t records;       /* attempted (gm_trace_buf.records) */
    uint64_t saved;         /* consumed by the host */
    uint64_t dropped;       /* full ring, no back-pressure (gm_trace_buf.dropped) */
    uint64_t capped;        /* over max_records */
    uint64_t lost;          /* reserved but never committed (should stay 0) */
};

/* A traced launch from its entry to its END in the pipe. */
struct gm_trace_flight {
    struct gm_trace_launch desc;    /* LAUNCH section */
    struct gm_trace_rctx *x;
    unsigned mark;                  /* its mark in x->dev */
    struct gm_pipe_item *pre;       /* items before its LAUNCH (modules, allocations, copies) */
    size_t npre, cappre;
    atomic_int marked;              /* its mark was enqueued (1), could not be (-1) */
    int started, done, failed;
    uint64_t end, records, dropped; /* from the mark */
    uint64_t saved, lost, stalls;
};

struct gm_trace_drain {
    pthread_t thread;
    pthread_mutex_t m;
    pthread_cond_t cv;
    struct gm_trace_flight v[GM_TRACE_MARKS];
    uint64_t head, tail;            /* closed, published */
    int quit, started, hold;        /* hold: consume a launch only after it ended (drop mode) */
    struct gm_trace_pipe *pipe;
    struct gm_trace_rctx *bound;    /* context current on the drain thread */
    unsigned idle_us;
    uint64_t errors;                /* device errors seen (launches closed as failed) */
    atomic_ulong progress;          /* fetches that consumed slots, launches closed */
    /* called on the drain thread as each launch closes */
    void (*report)(void *ctx, const struct gm_trace_flight *f, const struct gm_trace_totals *t);
    void *report_ctx;
};

int gm_trace_drain_start(struct gm_trace_drain *d, struct gm_trace_pipe *pipe, int hold,
                         unsigned idle_us);
/* The next launch's entry (waits while GM_TRACE_MARKS are in flight);
 * filled by the caller, then published (at the launch's entry: its
 * records are drained while it runs), then marked (gm_trace_flight_mark,
 * at its exit). Only one caller at a time. */
struct gm_trace_flight *gm_trace_drain_reserve(struct gm_trace_drain *d, uint64_t *no);
void gm_trace_drain_publish(struct gm_trace_drain *d);
/* 1 when launch number no was published and has not closed yet. */
int gm_trace_drain_open(struct gm_trace_drain *d, uint64_t no);
/* Waits until launch number no closed. */
void gm_trace_drain_wait(struct gm_trace_drain *d, uint64_t no);
/* Waits until every launch published before the call is closed, or until
 * the drain made no progress for idle_ms (a kernel that does not run yet,
 * or waits for the host): 0 closed, -1 gave up. */
int gm_trace_drain_wait_all(struct gm_trace_drain *d, unsigned idle_ms);
/* The same for at most ms milliseconds: 0 closed, -1 not yet. */
int gm_trace_drain_wait_ms(struct gm_trace_drain *d, uint64_t no, unsigned ms);
/* Waits until every published launch closed, then ends the thread. */
void gm_trace_drain_stop(struct gm_trace_drain *d);
/* Appends an item to a flight's preamble. 0 or -1 (out of memory). */
int gm_trace_flight_pre(struct gm_trace_flight *f, const struct gm_pipe_item *it);
/* The launch's mark is enqueued (ok) or could not be (!ok: closed as failed). */
void gm_trace_flight_mark(struct gm_trace_drain *d, struct gm_trace_flight *f, int ok);

#endif /* GM_TRACE_DRAIN_H */
