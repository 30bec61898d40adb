/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The drain thread: polls a trace ring while a traced kernel runs, so a full
 * ring never waits long (back-pressure) and records reach the sinks as they
 * are produced. Pure C17 + pthreads; the CUDA context binding is a callback.
 */
#ifndef GM_TRACE_DRAIN_H
#define GM_TRACE_DRAIN_H

#include <pthread.h>
#include "trace_ring.h"

enum gm_drain_state { GM_DRAIN_IDLE = 0, GM_DRAIN_RUN = 1, GM_DRAIN_QUIT = 2 };

struct gm_trace_drain {
    pthread_t thread;
    pthread_mutex_t m;
    pthread_cond_t cv;
    enum gm_drain_state state;
    int busy;                       /* the thread is between polls */
    int started;
    struct gm_trace_ring *ring;
    int (*bind)(void *);            /* makes the device usable on the drain thread */
    void *bind_arg;
    long errors;                    /* failed polls (the ring then waits for exit) */
    unsigned idle_us;               /* sleep after an empty poll */
};

/* 0, or -1 when the thread cannot start. */
int gm_trace_drain_start(struct gm_trace_drain *d, unsigned idle_us);
/* Starts polling ring (bind is called first on the drain thread). */
void gm_trace_drain_run(struct gm_trace_drain *d, struct gm_trace_ring *ring,
                        int (*bind)(void *), void *bind_arg);
/* Stops polling; returns once the thread no longer touches the ring. */
void gm_trace_drain_pause(struct gm_trace_drain *d);
/* Ends and joins the thread. */
void gm_trace_drain_stop(struct gm_trace_drain *d);

#endif /* GM_TRACE_DRAIN_H */
