/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The trace's ordered output: one producer (the drain) pushes items in file
 * order; worker threads decode and code record chunks in parallel (each a
 * RECORDS section, sim/trace's coder); one writer thread hands the items to
 * the sink (file and online simulator) in push order. Bounded: a push
 * waits while GM_PIPE_DEPTH items are in flight. Pure C17 + pthreads +
 * libgmsim; no CUDA.
 */
#ifndef GM_TRACE_PIPE_H
#define GM_TRACE_PIPE_H

#include <pthread.h>
#include <stdint.h>
#include "trace_sink.h"

#define GM_PIPE_DEPTH 512u
#define GM_PIPE_MAX_WORKERS 32

enum gm_pipe_kind { GM_PIPE_MODULE = 1, GM_PIPE_ALLOC, GM_PIPE_FREE, GM_PIPE_COPY,
                    GM_PIPE_LAUNCH, GM_PIPE_END, GM_PIPE_CHUNK };

/* One item. A chunk is nrecs whole records in nslots device slots (a
 * pointer into a staging buffer the producer keeps until release(arg) is
 * called, once the chunk is coded). */
struct gm_pipe_item {
    enum gm_pipe_kind kind;
    union {
        struct { uint64_t modid; char *name; uint32_t nsites; struct gm_trace_site *sites; } module;
        struct gm_trace_alloc alloc;
        struct { uint64_t base, seq; } free;
        struct gm_trace_copy copy;
        struct gm_trace_launch launch;
        struct { uint64_t nrecords, dropped; } end;
        struct {
            const unsigned char *slots;
            uint32_t nslots, nrecs;
            void (*release)(void *);
            void *arg;
        } chunk;
    } u;
    /* filled by a worker for a chunk */
    int state;                  /* 0 queued, 1 being coded, 2 ready */
    void *sec;                  /* coded RECORDS section */
    size_t len;
    struct gm_access *acc;      /* decoded records, when the sink simulates */
    const char *err;
};

struct gm_trace_pipe {
    pthread_mutex_t m;
    pthread_cond_t work, ready, space;
    struct gm_pipe_item *q;     /* GM_PIPE_DEPTH items, index % depth */
    uint64_t head, next, tail;  /* written up to head, handed to workers up to next, pushed */
    int quit, nworkers, started;
    int writer_waits;           /* the writer sleeps until the head item is ready */
    pthread_t writer, workers[GM_PIPE_MAX_WORKERS];
    struct gm_trace_sink *sink;
};

/* nworkers coding threads (>= 1). 0, or -1 when a thread cannot start. */
int gm_trace_pipe_start(struct gm_trace_pipe *p, struct gm_trace_sink *sink, int nworkers);
/* Pushes a copy of *it (ownership of module name/sites passes to the pipe). */
void gm_trace_pipe_push(struct gm_trace_pipe *p, const struct gm_pipe_item *it);
/* Waits until every pushed item was handed to the sink. */
void gm_trace_pipe_flush(struct gm_trace_pipe *p);
/* Flushes, then ends and joins the threads. */
void gm_trace_pipe_stop(struct gm_trace_pipe *p);
/* Worker threads for this machine: cores - 2 (at least 1, at most GM_PIPE_MAX_WORKERS). */
int gm_trace_pipe_default_workers(void);

#endif /* GM_TRACE_PIPE_H */
