/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The drain (see trace_drain.h). Each step looks at the oldest launch in
 * flight: once its mark has completed, its records are the slots below
 * the write_index the mark recorded (and later launches of the same
 * context that also ended are fetched in the same copy); while it runs,
 * the slots below the write_index just read are its own, since a later
 * launch of the ring's context starts only after this one's mark. Records
 * go to the pipe in chunks of at most GM_TRACE_BLOCK_RECORDS that point
 * into a pinned staging buffer, released when coded. Depends on
 * trace_cuda, trace_ring, trace_pipe and pthreads.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gm_grow.h"
#include "trace_drain.h"

#define STALL_STEPS 50000u  /* steps an ended launch may show uncommitted slots */

static void nap(unsigned us)
{
    struct timespec ts = { 0, (long)us * 1000 };
    nanosleep(&ts, NULL);
}

int gm_trace_flight_pre(struct gm_trace_flight *f, const struct gm_pipe_item *it)
{
    if (GM_GROW_TO(f->pre, f->cappre, f->npre + 1)) return -1;
    f->pre[f->npre++] = *it;
    return 0;
}

static struct gm_trace_flight *at(struct gm_trace_drain *d, uint64_t i)
{
    return &d->v[i % GM_TRACE_MARKS];
}

static void bind(struct gm_trace_drain *d, struct gm_trace_rctx *x)
{
    if (d->bound != x && gm_trace_dev_bind(&x->dev) == 0) d->bound = x;
}

/* Preamble and LAUNCH into the pipe. */
static void start(struct gm_trace_drain *d, struct gm_trace_flight *f)
{
    if (f->started) return;
    for (size_t i = 0; i < f->npre; i++) gm_trace_pipe_push(d->pipe, &f->pre[i]);
    free(f->pre);
    f->pre = NULL;
    f->npre = f->cappre = 0;
    struct gm_pipe_item it = { .kind = GM_PIPE_LAUNCH, .u.launch = f->desc };
    gm_trace_pipe_push(d->pipe, &it);
    f->started = 1;
}

/* 1 once the launch's mark completed (end and counts known). */
static int ended(struct gm_trace_drain *d, struct gm_trace_flight *f)
{
    struct gm_trace_buf h;
    if (f->done) return 1;
    int m = atomic_load(&f->marked);    /* an event never recorded reads as complete */
    int rc = m == 0 ? 0 : m < 0 ? -1 : gm_trace_dev_marked(&f->x->dev, f->mark, &h);
    if (rc == 0) return 0;
    f->done = 1;
    if (rc < 0) {           /* the launch failed: whatever it wrote is given up */
        f->failed = 1;
        d->errors++;
        return 1;
    }
    f->end = h.write_index;
    f->records = h.records;
    f->dropped = h.dropped;
    return 1;
}

/* END into the pipe, totals to the report, the entry freed. */
static void close_flight(struct gm_trace_drain *d, struct gm_trace_flight *f)
{
    struct gm_trace_totals t = { .records = f->records, .saved = f->saved, .dropped = f->dropped,
                                 .lost = f->lost };
    if (f->records < t.saved + t.dropped + t.lost) t.records = t.saved + t.dropped + t.lost;
    t.capped = t.records - t.saved - t.dropped - t.lost;
    start(d, f);
    struct gm_pipe_item it = { .kind = GM_PIPE_END,
                               .u.end = { .nrecords = t.saved, .dropped = t.records - t.saved } };
    gm_trace_pipe_push(d->pipe, &it);
    if (d->report) d->report(d->report_ctx, f, &t);
    atomic_fetch_add(&d->progress, 1);
    pthread_mutex_lock(&d->m);
    d->head++;
    pthread_cond_broadcast(&d->cv);
    pthread_mutex_unlock(&d->m);
}

static void release(void *arg) { atomic_fetch_sub((atomic_int *)arg, 1); }

static void chunk(struct gm_trace_drain *d, struct gm_trace_rctx *x, int s, uint64_t first,
                  uint64_t last, uint32_t nrecs)
{
    if (!nrecs) return;
    atomic_fetch_add(&x->refs[s], 1);
    struct gm_pipe_item it = { .kind = GM_PIPE_CHUNK };
    it.u.chunk.slots = x->dev.stage[s] + first * GM_TRACE_REC_SIZE;
    it.u.chunk.nslots = (uint32_t)(last - first);
    it.u.chunk.nrecs = nrecs;
    it.u.chunk.release = release;
    it.u.chunk.arg = &x->refs[s];
    gm_trace_pipe_push(d->pipe, &it);
}

/* Hands k fetched slots of stage s to the launches they belong to, from
 * launch number no on; closes launches whose last slot went by. */
static void distribute(struct gm_trace_drain *d, uint64_t no, struct gm_trace_rctx *x, int s,
                       uint64_t k)
{
    const unsigned char *base = x->dev.stage[s];
    uint64_t idx = x->ring.read, first = 0, i = 0;
    uint32_t nrecs = 0;
    struct gm_trace_flight *f = at(d, no);
    while (i < k) {
        while (f->done && idx + i >= f->end) {
            chunk(d, x, s, first, i, nrecs);
            first = i;
            nrecs = 0;
            close_flight(d, f);
            f = at(d, ++no);
            start(d, f);
        }
        const struct gm_trace_rec *r = (const void *)(base + i * GM_TRACE_REC_SIZE);
        i += (r->flags & GM_TRACE_F_EXT) ? 2 : 1;
        f->saved++;
        if (++nrecs == GM_TRACE_BLOCK_RECORDS) {
            chunk(d, x, s, first, i, nrecs);
            first = i;
            nrecs = 0;
        }
    }
    chunk(d, x, s, first, i, nrecs);
}

static int free_stage(struct gm_trace_rctx *x)
{
    for (int s = 0; s < (int)GM_TRACE_STAGES; s++)
        if (atomic_load(&x->refs[s]) == 0) return s;
    return -1;
}

/* The slot target of this step for the oldest launch (no), and the index
 * below which slots come from ended kernels; 0 when nothing to fetch yet. */
static int plan(struct gm_trace_drain *d, uint64_t no, uint64_t tail, uint64_t *target,
                uint64_t *complete)
{
    struct gm_trace_flight *f = at(d, no);
    struct gm_trace_rctx *x = f->x;
    if (ended(d, f)) {
        *target = *complete = f->end;
        for (uint64_t i = no + 1; i < tail; i++) {   /* later ended launches of this ring */
            struct gm_trace_flight *g = at(d, i);
            if (g->x != x || !ended(d, g) || g->failed) break;
            *target = *complete = g->end;
        }
        return 1;
    }
    struct gm_trace_buf h;
    if (d->hold || x->ring.ops->read_header(x->ring.dev, &h)) return 0;
    if (ended(d, f)) return 0;      /* ended meanwhile: the next step uses its mark */
    *target = h.write_index;
    *complete = 0;
    return 1;
}

/* One step: 1 progress, 0 nothing to do now, -1 no launch in flight. */
static int step(struct gm_trace_drain *d)
{
    pthread_mutex_lock(&d->m);
    uint64_t no = d->head, tail = d->tail;
    pthread_mutex_unlock(&d->m);
    if (no == tail) return -1;
    struct gm_trace_flight *f = at(d, no);
    struct gm_trace_rctx *x = f->x;
    bind(d, x);
    start(d, f);
    if (ended(d, f) && (f->failed || x->ring.read >= f->end)) {
        close_flight(d, f);
        return 1;
    }
    uint64_t target, complete;
    int s;
    if (!plan(d, no, tail, &target, &complete) || x->ring.read >= target || (s = free_stage(x)) < 0)
        return 0;
    atomic_store(&x->refs[s], 1);
    long k = gm_trace_ring_fetch(&x->ring, target, complete, x->dev.stage[s], x->dev.batch);
    if (k > 0) {
        atomic_fetch_add(&d->progress, 1);
        distribute(d, no, x, s, (uint64_t)k);
        f->stalls = 0;
        if (gm_trace_ring_advance(&x->ring, (uint64_t)k)) d->errors++;
    } else if (f->done && ++f->stalls > STALL_STEPS) {    /* reserved, never committed */
        f->lost = f->end - x->ring.read;
        gm_trace_ring_advance(&x->ring, f->lost);
    }
    release(&x->refs[s]);
    if (k < 0) d->errors++;
    return k > 0;
}

static void *drain_main(void *arg)
{
    struct gm_trace_drain *d = arg;
    for (;;) {
        int r = step(d);
        if (r > 0) continue;
        if (r == 0) {
            nap(d->idle_us);
            continue;
        }
        pthread_mutex_lock(&d->m);
        while (d->head == d->tail && !d->quit) pthread_cond_wait(&d->cv, &d->m);
        int quit = d->quit && d->head == d->tail;
        pthread_mutex_unlock(&d->m);
        if (quit) break;
    }
    return NULL;
}

int gm_trace_drain_start(struct gm_trace_drain *d, struct gm_trace_pipe *pipe, int hold,
                         unsigned idle_us)
{
    memset(d, 0, sizeof *d);
    atomic_init(&d->progress, 0);
    d->pipe = pipe;
    d->hold = hold;
    d->idle_us = idle_us;
    pthread_mutex_init(&d->m, NULL);
    pthread_cond_init(&d->cv, NULL);
    if (pthread_create(&d->thread, NULL, drain_main, d)) return -1;
    d->started = 1;
    return 0;
}

struct gm_trace_flight *gm_trace_drain_reserve(struct gm_trace_drain *d, uint64_t *no)
{
    pthread_mutex_lock(&d->m);
    while (d->tail - d->head >= GM_TRACE_MARKS) pthread_cond_wait(&d->cv, &d->m);
    *no = d->tail;
    pthread_mutex_unlock(&d->m);
    struct gm_trace_flight *f = at(d, *no);
    memset(f, 0, sizeof *f);
    atomic_init(&f->marked, 0);
    f->mark = (unsigned)(*no % GM_TRACE_MARKS);
    return f;
}

void gm_trace_flight_mark(struct gm_trace_drain *d, struct gm_trace_flight *f, int ok)
{
    atomic_store(&f->marked, ok ? 1 : -1);
    pthread_mutex_lock(&d->m);
    pthread_cond_broadcast(&d->cv);
    pthread_mutex_unlock(&d->m);
}

void gm_trace_drain_publish(struct gm_trace_drain *d)
{
    pthread_mutex_lock(&d->m);
    d->tail++;
    pthread_cond_broadcast(&d->cv);
    pthread_mutex_unlock(&d->m);
}

int gm_trace_drain_open(struct gm_trace_drain *d, uint64_t no)
{
    pthread_mutex_lock(&d->m);
    int open = no >= d->head && no < d->tail;
    pthread_mutex_unlock(&d->m);
    return open;
}

void gm_trace_drain_wait(struct gm_trace_drain *d, uint64_t no)
{
    pthread_mutex_lock(&d->m);
    while (d->head <= no) pthread_cond_wait(&d->cv, &d->m);
    pthread_mutex_unlock(&d->m);
}

/* The CLOCK_REALTIME time ms milliseconds from now (pthread_cond_timedwait). */
static struct timespec after_ms(unsigned ms)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += ms / 1000;
    ts.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (ts.tv_nsec >= 1000000000L) ts.tv_sec++, ts.tv_nsec -= 1000000000L;
    return ts;
}

int gm_trace_drain_wait_all(struct gm_trace_drain *d, unsigned idle_ms)
{
    pthread_mutex_lock(&d->m);
    uint64_t tail = d->tail, seen = atomic_load(&d->progress);
    while (d->head < tail) {
        struct timespec ts = after_ms(idle_ms);
        if (pthread_cond_timedwait(&d->cv, &d->m, &ts) == 0 || d->head >= tail) continue;
        uint64_t now = atomic_load(&d->progress);
        if (now == seen) break;     /* idle_ms without progress */
        seen = now;
    }
    int closed = d->head >= tail;
    pthread_mutex_unlock(&d->m);
    return closed ? 0 : -1;
}

int gm_trace_drain_wait_ms(struct gm_trace_drain *d, uint64_t no, unsigned ms)
{
    struct timespec ts = after_ms(ms);
    pthread_mutex_lock(&d->m);
    int rc = 0;
    while (d->head <= no && rc == 0) rc = pthread_cond_timedwait(&d->cv, &d->m, &ts);
    int closed = d->head > no;
    pthread_mutex_unlock(&d->m);
    return closed ? 0 : -1;
}

void gm_trace_drain_stop(struct gm_trace_drain *d)
{
    if (!d->started) return;
    pthread_mutex_lock(&d->m);
    d->quit = 1;
    pthread_cond_broadcast(&d->cv);
    pthread_mutex_unlock(&d->m);
    pthread_join(d->thread, NULL);
    pthread_mutex_destroy(&d->m);
    pthread_cond_destroy(&d->cv);
    d->started = 0;
}
