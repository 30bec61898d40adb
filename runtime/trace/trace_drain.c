/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Drain thread (see trace_drain.h). One poll at a time under a state
 * machine: IDLE waits on the condition variable, RUN polls (sleeping
 * idle_us after an empty poll), QUIT ends. pause() waits until the thread
 * is idle, so the caller may then use the ring alone. Pure C17 + pthreads.
 */
#include <time.h>
#include "trace_drain.h"

static void nap(unsigned us)
{
    struct timespec ts = { 0, (long)us * 1000 };
    nanosleep(&ts, NULL);
}

/* One activation: bind once, then poll until the state leaves RUN. */
static void run_polls(struct gm_trace_drain *d)
{
    int bound = d->bind ? d->bind(d->bind_arg) == 0 : 1;
    pthread_mutex_lock(&d->m);
    while (d->state == GM_DRAIN_RUN) {
        struct gm_trace_ring *ring = d->ring;
        pthread_mutex_unlock(&d->m);
        long got = bound ? gm_trace_ring_poll(ring) : -1;
        if (got <= 0) nap(d->idle_us);
        pthread_mutex_lock(&d->m);
        if (got < 0) {
            d->errors++;
            d->state = GM_DRAIN_IDLE;   /* the exit drain finishes the launch */
        }
    }
    pthread_mutex_unlock(&d->m);
}

static void *drain_main(void *arg)
{
    struct gm_trace_drain *d = arg;
    pthread_mutex_lock(&d->m);
    for (;;) {
        while (d->state == GM_DRAIN_IDLE) {
            d->busy = 0;
            pthread_cond_broadcast(&d->cv);
            pthread_cond_wait(&d->cv, &d->m);
        }
        if (d->state == GM_DRAIN_QUIT) break;
        d->busy = 1;
        pthread_mutex_unlock(&d->m);
        run_polls(d);
        pthread_mutex_lock(&d->m);
    }
    d->busy = 0;
    pthread_cond_broadcast(&d->cv);
    pthread_mutex_unlock(&d->m);
    return NULL;
}

int gm_trace_drain_start(struct gm_trace_drain *d, unsigned idle_us)
{
    *d = (struct gm_trace_drain){ .idle_us = idle_us };
    pthread_mutex_init(&d->m, NULL);
    pthread_cond_init(&d->cv, NULL);
    if (pthread_create(&d->thread, NULL, drain_main, d)) return -1;
    d->started = 1;
    return 0;
}

void gm_trace_drain_run(struct gm_trace_drain *d, struct gm_trace_ring *ring,
                        int (*bind)(void *), void *bind_arg)
{
    pthread_mutex_lock(&d->m);
    d->ring = ring;
    d->bind = bind;
    d->bind_arg = bind_arg;
    d->state = GM_DRAIN_RUN;
    d->busy = 1;
    pthread_cond_broadcast(&d->cv);
    pthread_mutex_unlock(&d->m);
}

void gm_trace_drain_pause(struct gm_trace_drain *d)
{
    if (!d->started) return;
    pthread_mutex_lock(&d->m);
    if (d->state == GM_DRAIN_RUN) d->state = GM_DRAIN_IDLE;
    while (d->busy) pthread_cond_wait(&d->cv, &d->m);
    pthread_mutex_unlock(&d->m);
}

void gm_trace_drain_stop(struct gm_trace_drain *d)
{
    if (!d->started) return;
    pthread_mutex_lock(&d->m);
    d->state = GM_DRAIN_QUIT;
    pthread_cond_broadcast(&d->cv);
    pthread_mutex_unlock(&d->m);
    pthread_join(d->thread, NULL);
    pthread_mutex_destroy(&d->m);
    pthread_cond_destroy(&d->cv);
    d->started = 0;
}
