/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Asynchronous collection: the host never waits for an instrumented kernel.
 * A module's counters accumulate on the device for one owner (the kernel
 * that launched last); launches of the owner make no CUDA call here (kernel
 * time comes from CUPTI activity records, gputime.c), only a note that
 * their stream has work of the module. When another kernel of the module
 * launches, the counters are flushed in stream order on its stream: record
 * an event on every other stream with such work and wait for it, copy to
 * pinned memory, zero, record an event; later launches on other streams
 * wait for that event once. A per-thread default stream (which another
 * thread cannot name) records a pooled event at each launch instead, as a
 * stream does when it is destroyed. A collector thread waits for the
 * flushes' events off the launch path and folds the counters into the
 * per-kernel totals. At the end (exit, fatal signal, context destruction, an explicit
 * report flush) every module is flushed and everything waited for.
 * Per-kernel totals stay exact: a flush separates owners; graph launches
 * own all modules of their context as "[CUDA graph]". A module whose sites
 * all lie in kernels (kpart.c) has one owner for the launches of all its
 * kernels: its counts are split by site when folded, so launches of
 * different kernels need no flush between them.
 * Depends on the CUDA driver API (gm_cu) and the runtime state; no LLVM.
 */
#include "rt.h"
#include "gm_grow.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* ---- pooled events -------------------------------------------------------- */

struct gm_ev {
    CUevent ev;
    CUcontext ctx;
    int refs;
    struct gm_ev *next;     /* in the free list */
};
static pthread_mutex_t g_evlock = PTHREAD_MUTEX_INITIALIZER;
static struct gm_ev *g_evfree;

/* An event of ctx (current) with one reference, or NULL. */
static struct gm_ev *ev_get(CUcontext ctx)
{
    struct gm_ev *e = NULL, **p;
    pthread_mutex_lock(&g_evlock);
    for (p = &g_evfree; *p; p = &(*p)->next)
        if ((*p)->ctx == ctx) {
            e = *p;
            *p = e->next;
            break;
        }
    pthread_mutex_unlock(&g_evlock);
    if (!e) {
        if (!(e = calloc(1, sizeof *e))) return NULL;
        e->ctx = ctx;
        if (gm_cu.cuEventCreate(&e->ev, CU_EVENT_BLOCKING_SYNC | CU_EVENT_DISABLE_TIMING) != CUDA_SUCCESS) {
            free(e);
            return NULL;
        }
    }
    e->refs = 1;
    e->next = NULL;
    return e;
}

static struct gm_ev *ev_ref(struct gm_ev *e)
{
    pthread_mutex_lock(&g_evlock);
    e->refs++;
    pthread_mutex_unlock(&g_evlock);
    return e;
}

static void ev_put(struct gm_ev *e)
{
    if (!e) return;
    pthread_mutex_lock(&g_evlock);
    if (--e->refs == 0) {
        e->next = g_evfree;
        g_evfree = e;
    }
    pthread_mutex_unlock(&g_evlock);
}

/* Records a fresh event on s; NULL if that failed. */
static struct gm_ev *ev_record(CUcontext ctx, CUstream s)
{
    struct gm_ev *e = ev_get(ctx);
    if (e && gm_cu.cuEventRecord(e->ev, s) != CUDA_SUCCESS) {
        ev_put(e);
        e = NULL;
    }
    return e;
}

void gm_col_forget_ctx(CUcontext ctx)
{
    pthread_mutex_lock(&g_evlock);
    for (struct gm_ev **p = &g_evfree; *p;) {
        struct gm_ev *e = *p;
        if (e->ctx != ctx) {
            p = &e->next;
            continue;
        }
        *p = e->next;
        gm_cu.cuEventDestroy(e->ev);
        free(e);
    }
    pthread_mutex_unlock(&g_evlock);
}

/* ---- the collector's queue ----------------------------------------------- */

/* A flush in flight: its counters land in pin once done fires. */
struct job {
    struct job *next;
    CUcontext ctx;
    struct gm_ev *done;         /* end of the copies */
    const char *name;           /* the owner */
    int graph;
    int check;                  /* launches that ran copies; counts must be zero */
    struct gm_modinst *m;
    uint64_t launches;
    struct gm_ktally tally;     /* owner KERNELS: launches per kernel */
    struct gm_pin *pin;
};

/* The owner of a module's counters when launches of all its kernels share
 * them (its sites all lie in kernels): counts are split by site. */
static const char KERNELS[] = "[kernels of the module]";

static struct {
    pthread_mutex_t lock;       /* guards head, tail */
    pthread_cond_t cv;
    struct job *head, **tail;
    pthread_mutex_t reap;       /* one reaper at a time (thread, drain) */
    pthread_once_t once;
    int started;
    int asleep;                 /* the collector waits for a signal, not a timeout */
} Q = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, &Q.head,
       PTHREAD_MUTEX_INITIALIZER, PTHREAD_ONCE_INIT, 0, 0};

/* Waking the collector costs the launching thread a system call: it is
 * woken only from a long sleep; while launches come it polls every ms. */
static void push_job(struct job *j)
{
    pthread_mutex_lock(&Q.lock);
    j->next = NULL;
    *Q.tail = j;
    Q.tail = &j->next;
    if (Q.asleep) {
        Q.asleep = 0;
        pthread_cond_signal(&Q.cv);
    }
    pthread_mutex_unlock(&Q.lock);
}

/* ---- pinned staging blocks, one per flush in flight ------------------------ */

struct gm_pin {
    struct gm_pin *next;
    uint64_t *data;         /* every counter set of the module, one after another */
};

static size_t set_words(const struct gm_modinst *m, const struct gm_modinst_set *s)
{
    return (size_t)s->replicas * m->tab->hdr->nsites * s->g->slots;
}

static size_t module_words(const struct gm_modinst *m)
{
    size_t n = 0;
    for (uint32_t i = 0; i < m->nsets; i++) n += set_words(m, &m->sets[i]);
    return n;
}

/* Staging blocks per module at most: flushes that outrun the GPU by more
 * wait for the oldest to be folded (back-pressure, like a full launch queue). */
#define GM_MAX_PINS 8u

static int reap_one(int block);

static struct gm_pin *pin_take(struct gm_modinst *m, int *may_alloc)
{
    pthread_mutex_lock(&m->mu);
    struct gm_pin *p = m->pins;
    if (p) m->pins = p->next;
    *may_alloc = !p && m->npins < GM_MAX_PINS;
    if (*may_alloc) m->npins++;
    pthread_mutex_unlock(&m->mu);
    return p;
}

static struct gm_pin *pin_get(struct gm_modinst *m)
{
    int may_alloc = 0, more = 1;
    struct gm_pin *p = pin_take(m, &may_alloc);
    while (!p && !may_alloc && more) { /* every block in flight: fold the oldest work */
        pthread_mutex_lock(&Q.reap);
        more = reap_one(1);
        pthread_mutex_unlock(&Q.reap);
        p = pin_take(m, &may_alloc);
    }
    if (p || !may_alloc) return p;
    void *mem = NULL;
    if (!(p = calloc(1, sizeof *p)) || gm_cu.cuMemAllocHost(&mem, module_words(m) * 8 + 8) != CUDA_SUCCESS) {
        free(p);
        pthread_mutex_lock(&m->mu);
        m->npins--;
        pthread_mutex_unlock(&m->mu);
        return NULL;
    }
    p->data = mem;
    return p;
}

static void pin_put(struct gm_modinst *m, struct gm_pin *p)
{
    if (!p) return;
    pthread_mutex_lock(&m->mu);
    p->next = m->pins;
    m->pins = p;
    pthread_mutex_unlock(&m->mu);
}

/* ---- folding into the per-kernel totals -------------------------------- */

static int all_zero(const uint64_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (v[i]) return 0;
    return 1;
}

/* data: the module's sets one after another, as copied from the device.
 * A graph's launches count only for the modules its kernels used. */
static void fold_counts(struct gm_modinst *m, const char *owner, int graph, uint64_t launches,
                        const uint64_t *data)
{
    struct gm_kstat *k = NULL;
    int used = !graph;
    pthread_mutex_lock(&gm_st.lock);
    for (uint32_t j = 0; j < m->nsets; j++) {
        const struct gm_modinst_set *s = &m->sets[j];
        size_t n = set_words(m, s);
        const uint64_t *h = data;
        data += n;
        if (graph && all_zero(h, n)) continue;
        used = 1;
        if (!k) k = gm_kstat_get(owner, m->tab);
        if (k) gm_kstat_add(k, s->g, h, s->replicas);
    }
    if (used && (k || (k = gm_kstat_get(owner, m->tab)))) k->launches += launches;
    pthread_mutex_unlock(&gm_st.lock);
}

/* Sites [lo, hi) of every replica of one set all zero. */
static int sites_zero(const struct gm_modinst *m, const struct gm_modinst_set *s, const uint64_t *h,
                      uint32_t lo, uint32_t hi)
{
    size_t row = (size_t)m->tab->hdr->nsites * s->g->slots;
    for (uint32_t r = 0; r < s->replicas; r++)
        if (!all_zero(h + r * row + (size_t)lo * s->g->slots, (size_t)(hi - lo) * s->g->slots)) return 0;
    return 1;
}

static int tallied(const struct gm_ktally *t, const char *name)
{
    for (uint32_t i = 0; i < t->n; i++)
        if (t->v[i].name == name) return 1;
    return 0;
}

/* Owner KERNELS: each kernel's sites go to that kernel (when it launched,
 * or counted: a launch from the device), launches to the kernels tallied. */
static void fold_kernels(struct gm_modinst *m, const struct gm_ktally *t, const uint64_t *data)
{
    pthread_mutex_lock(&gm_st.lock);
    for (uint32_t j = 0; j < m->nsets; j++) {
        const struct gm_modinst_set *s = &m->sets[j];
        for (uint32_t i = 0; i < m->nparts; i++) {
            const struct gm_kpart *p = &m->parts[i];
            if (!tallied(t, p->name) && sites_zero(m, s, data, p->lo, p->hi)) continue;
            struct gm_kstat *k = gm_kstat_get(p->name, m->tab);
            if (k) gm_kstat_add_sites(k, s->g, data, s->replicas, p->lo, p->hi);
        }
        data += set_words(m, s);
    }
    for (uint32_t i = 0; i < t->n; i++) {
        struct gm_kstat *k = gm_kstat_get(t->v[i].name, m->tab);
        if (k) k->launches += t->v[i].launches;
    }
    pthread_mutex_unlock(&gm_st.lock);
}

static void fold_owner(struct gm_modinst *m, const char *owner, int graph, uint64_t launches,
                       const struct gm_ktally *t, const uint64_t *data)
{
    if (owner == KERNELS) fold_kernels(m, t, data);
    else fold_counts(m, owner, graph, launches, data);
}

static void fold_job(struct job *j, CUresult r)
{
    if (r == CUDA_SUCCESS && j->check) gm_select_check(all_zero(j->pin->data, module_words(j->m)));
    else if (r == CUDA_SUCCESS) fold_owner(j->m, j->name, j->graph, j->launches, &j->tally, j->pin->data);
    else gm_warn("cannot read counters of %s (%s): %llu launches not counted", j->name,
                 gm_cu_err(r), (unsigned long long)j->launches);
    gm_ktally_free(&j->tally);
    pin_put(j->m, j->pin);
}

/* Waits for the oldest job (or, !block, checks it), folds and frees it.
 * Caller holds Q.reap. 1 if a job was reaped. */
static int reap_one(int block)
{
    pthread_mutex_lock(&Q.lock);
    struct job *j = Q.head;
    pthread_mutex_unlock(&Q.lock);
    if (!j) return 0;
    CUcontext dummy;
    int pushed = gm_cu.cuCtxPushCurrent(j->ctx) == CUDA_SUCCESS;
    CUresult r = block ? gm_cu.cuEventSynchronize(j->done->ev) : gm_cu.cuEventQuery(j->done->ev);
    if (!block && r == CUDA_ERROR_NOT_READY) {
        if (pushed) gm_cu.cuCtxPopCurrent(&dummy);
        return 0;
    }
    fold_job(j, r);
    if (pushed) gm_cu.cuCtxPopCurrent(&dummy);
    pthread_mutex_lock(&Q.lock);
    Q.head = j->next;
    if (!Q.head) Q.tail = &Q.head;
    pthread_mutex_unlock(&Q.lock);
    ev_put(j->done);
    free(j);
    return 1;
}

static void *collector(void *arg)
{
    (void)arg;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL); /* signals are the program's threads' business */
    gm_tls()->in_runtime = 1;               /* its CUDA calls are the runtime's own */
    int idle = 0;
    for (;;) {
        pthread_mutex_lock(&Q.lock);
        while (!Q.head) {
            if (idle < 100) { /* poll for 100 ms, then sleep until signalled */
                struct timespec ts;
                clock_gettime(CLOCK_REALTIME, &ts);
                ts.tv_nsec += 1000000;
                if (ts.tv_nsec >= 1000000000) ts.tv_sec++, ts.tv_nsec -= 1000000000;
                pthread_cond_timedwait(&Q.cv, &Q.lock, &ts);
                idle++;
            } else {
                Q.asleep = 1;
                pthread_cond_wait(&Q.cv, &Q.lock);
            }
        }
        idle = 0;
        /* wait without holding Q.reap (a launch short of staging blocks or
         * the end of the program may reap meanwhile), then fold what is done */
        struct gm_ev *ev = ev_ref(Q.head->done);
        CUcontext ctx = Q.head->ctx, dummy;
        pthread_mutex_unlock(&Q.lock);
        int pushed = gm_cu.cuCtxPushCurrent(ctx) == CUDA_SUCCESS;
        gm_cu.cuEventSynchronize(ev->ev);
        if (pushed) gm_cu.cuCtxPopCurrent(&dummy);
        ev_put(ev);
        pthread_mutex_lock(&Q.reap);
        while (reap_one(0)) {}
        pthread_mutex_unlock(&Q.reap);
    }
    return NULL;
}

/* Registered at the first instrumented launch, after CUDA's runtime set up
 * its own exit handlers: runs before them, while contexts are alive. */
static void at_exit(int status, void *arg)
{
    (void)status, (void)arg;
    gm_col_drain(NULL, 0);
}

static void start(void)
{
    pthread_t t;
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&t, &a, collector, NULL) != 0)
        gm_warn("cannot start the collector thread; launches are collected at the end only");
    pthread_attr_destroy(&a);
    on_exit(at_exit, NULL);
    Q.started = 1;
}

/* ---- streams a module ran on --------------------------------------------- */

static uint32_t my_tid(void)
{
    static _Thread_local uint32_t tid;
    if (!tid) tid = (uint32_t)syscall(SYS_gettid);
    return tid;
}

/* Entry for stream s (per-thread default streams: per thread); under m->mu. */
static struct gm_mstream *mstream(struct gm_modinst *m, CUstream s)
{
    uint32_t tid = s == CU_STREAM_PER_THREAD ? my_tid() : 0;
    for (uint32_t i = 0; i < m->nstreams; i++)
        if (m->streams[i].s == s && m->streams[i].tid == tid) return &m->streams[i];
    if (GM_GROW_TO(m->streams, m->capstreams, (size_t)m->nstreams + 1)) return NULL;
    struct gm_mstream *e = &m->streams[m->nstreams++];
    *e = (struct gm_mstream){.s = s, .tid = tid};
    return e;
}

static void sync_fallback(struct gm_modinst *m, CUstream s, struct gm_pin *pin)
{
    size_t words = module_words(m), off = 0;
    uint64_t *buf = pin ? pin->data : malloc(words * 8 + 8);
    CUresult r = gm_cu.cuStreamSynchronize(s);
    for (uint32_t i = 0; buf && r == CUDA_SUCCESS && i < m->nsets; i++) {
        size_t n = set_words(m, &m->sets[i]);
        r = gm_cu.cuMemcpyDtoH(buf + off, m->sets[i].dev, n * 8);
        off += n;
    }
    if (buf && r == CUDA_SUCCESS) fold_owner(m, m->owner, m->owner_graph, m->owned, &m->tally, buf);
    else gm_warn("cannot read counters of %s (%s)", m->owner, buf ? gm_cu_err(r) : "host memory");
    if (pin) pin_put(m, pin);
    else free(buf);
}

/* Marks the end of the work enqueued so far on e's stream with an event
 * that stays e's until the flush forgets the streams (under m->mu, m->ctx
 * current); without one, that work is waited for now. */
static void mark_end(struct gm_modinst *m, struct gm_mstream *e)
{
    struct gm_ev *x = ev_record(m->ctx, e->s);
    if (!x) gm_cu.cuStreamSynchronize(e->s);
    ev_put(e->last);
    e->last = x;
    e->dirty = 0;
}

/* Moves the owner's counts off the device, in the order of stream s (the
 * caller holds m->rw exclusively and has m->ctx current). */
static void flush_on(struct gm_modinst *m, CUstream s)
{
    if (!m->owner || !m->owned) return;
    gm_debug("flush: %s, %llu launches, module %016llx, on stream %p after %u other streams",
             m->owner, (unsigned long long)m->owned, (unsigned long long)m->tab->modid, (void *)s,
             m->nstreams);
    pthread_mutex_lock(&m->mu);
    struct gm_mstream *me = mstream(m, s);
    for (uint32_t i = 0; i < m->nstreams; i++) {
        struct gm_mstream *e = &m->streams[i];
        if (e == me) continue;
        if (e->dirty) mark_end(m, e);
        if (e->last) gm_cu.cuStreamWaitEvent(s, e->last->ev, 0);
    }
    if (m->flush_ev && (!me || me->gen < m->flush_gen)) gm_cu.cuStreamWaitEvent(s, m->flush_ev->ev, 0);
    pthread_mutex_unlock(&m->mu);
    /* unselected: only zeroed; read at first if they ran copies (select.c checks) */
    int check = m->owner_native && gm_select_check_wanted();
    struct gm_pin *pin = m->owner_discard && !check ? NULL : pin_get(m);
    CUresult r = CUDA_SUCCESS;
    for (uint32_t i = 0, off = 0; pin && r == CUDA_SUCCESS && i < m->nsets; i++) {
        size_t n = set_words(m, &m->sets[i]);
        r = gm_cu.cuMemcpyDtoHAsync(pin->data + off, m->sets[i].dev, n * 8, s);
        off += (uint32_t)n;
    }
    if (!m->owner_discard && (!pin || r != CUDA_SUCCESS)) { /* the host waits; counts stay exact */
        sync_fallback(m, s, pin);
        pin = NULL;
    } else if (check && pin && r != CUDA_SUCCESS) { /* no check this time */
        pin_put(m, pin);
        pin = NULL;
    }
    for (uint32_t i = 0; i < m->nsets; i++)
        gm_cu.cuMemsetD8Async(m->sets[i].dev, 0, set_words(m, &m->sets[i]) * 8, s);
    struct gm_ev *ev = ev_record(m->ctx, s); /* copies and zeroing done */
    struct job *j = pin && ev ? calloc(1, sizeof *j) : NULL;
    if (j) {
        *j = (struct job){.ctx = m->ctx, .done = ev_ref(ev), .name = m->owner,
                          .graph = m->owner_graph, .check = check, .m = m, .launches = m->owned,
                          .tally = m->tally, .pin = pin};
        m->tally = (struct gm_ktally){0}; /* the job's now */
        push_job(j);
    } else if (pin) {
        CUresult w = ev ? gm_cu.cuEventSynchronize(ev->ev) : gm_cu.cuStreamSynchronize(s);
        if (w == CUDA_SUCCESS && check) gm_select_check(all_zero(pin->data, module_words(m)));
        else if (w == CUDA_SUCCESS) fold_owner(m, m->owner, m->owner_graph, m->owned, &m->tally, pin->data);
        else gm_warn("cannot read counters of %s (%s)", m->owner, gm_cu_err(w));
        pin_put(m, pin);
    }
    pthread_mutex_lock(&m->mu);
    for (uint32_t i = 0; i < m->nstreams; i++) ev_put(m->streams[i].last);
    m->nstreams = 0;
    ev_put(m->flush_ev);
    m->flush_ev = ev;               /* our reference, or NULL: nothing to wait for */
    m->flush_gen++;
    if ((me = mstream(m, s))) me->gen = m->flush_gen;
    m->owned = 0;
    gm_ktally_free(&m->tally);
    pthread_mutex_unlock(&m->mu);
}

/* A retired entry keeps its last event (flushes still wait for it) but is
 * never taken for a live stream. */
#define RETIRED ((CUstream)(uintptr_t)-1)

void gm_col_stream_destroyed(CUstream s)
{
    if (!s || s == CU_STREAM_LEGACY || s == CU_STREAM_PER_THREAD) return;
    GM_GUARD_BEGIN();
    pthread_mutex_lock(&gm_st.launch_lock);
    for (struct gm_modinst *m = gm_st.mods; m; m = m->next) {
        pthread_mutex_lock(&m->mu);
        for (uint32_t i = 0; i < m->nstreams; i++) {
            struct gm_mstream *e = &m->streams[i];
            if (e->s != s) continue;
            if (e->dirty) { /* its end, while it can still be named */
                CUcontext dummy;
                int pushed = gm_cu.cuCtxPushCurrent(m->ctx) == CUDA_SUCCESS;
                mark_end(m, e);
                if (pushed) gm_cu.cuCtxPopCurrent(&dummy);
            }
            e->s = RETIRED;
        }
        pthread_mutex_unlock(&m->mu);
    }
    pthread_mutex_unlock(&gm_st.launch_lock);
    GM_GUARD_END();
}

/* ---- launches ------------------------------------------------------------ */

void gm_col_modinst_init(struct gm_modinst *m)
{
    pthread_rwlockattr_t a;
    pthread_rwlockattr_init(&a);
    /* a flush must not starve behind a stream of launches of the owner */
    pthread_rwlockattr_setkind_np(&a, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
    pthread_rwlock_init(&m->rw, &a);
    pthread_rwlockattr_destroy(&a);
    pthread_mutex_init(&m->mu, NULL);
}

void gm_col_modinst_ready(struct gm_modinst *m)
{
    if (m->nsets) pin_put(m, pin_get(m)); /* the first flush allocates nothing */
    if (gm_kpart_build(m->tab, &m->parts, &m->nparts) != 0)
        gm_debug("module %016llx: out of memory; its kernels' counts are read at each change of kernel",
                 (unsigned long long)m->tab->modid);
}

void gm_col_modinst_free(struct gm_modinst *m)
{
    for (uint32_t i = 0; i < m->nstreams; i++) ev_put(m->streams[i].last);
    free(m->streams);
    ev_put(m->flush_ev);
    free(m->parts);
    gm_ktally_free(&m->tally);
    for (struct gm_pin *p = m->pins, *n; p; p = n) {
        n = p->next;
        gm_cu.cuMemFreeHost(p->data);
        free(p);
    }
    pthread_rwlock_destroy(&m->rw);
    pthread_mutex_destroy(&m->mu);
}

/* Whose counts a launch of ls adds to m's counters. */
static const char *owner_of(const struct gm_modinst *m, const struct gm_launch_state *ls)
{
    return m->nparts && !ls->graph && !ls->discard ? KERNELS : ls->name;
}

void gm_col_enter(struct gm_launch_state *ls, CUstream s)
{
    pthread_once(&Q.once, start);
    for (uint32_t i = 0; i < ls->nmods; i++) {
        struct gm_modinst *m = ls->mods[i];
        const char *owner = owner_of(m, ls);
        if (ls->sync) pthread_rwlock_wrlock(&m->rw);
        else {
            pthread_rwlock_rdlock(&m->rw);
            if (m->owner != owner) { /* another kernel's counts are there */
                pthread_rwlock_unlock(&m->rw);
                pthread_rwlock_wrlock(&m->rw);
            }
        }
        if (m->owner != owner) {
            flush_on(m, s);
            m->owner = owner;
            m->owner_graph = ls->graph;
            m->owner_discard = ls->discard;
            m->owner_native = ls->native;
        }
        struct gm_ev *wait = NULL;
        pthread_mutex_lock(&m->mu);
        struct gm_mstream *e = mstream(m, s);
        if (e && e->gen < m->flush_gen) { /* the stream is not yet ordered after the last flush */
            if (m->flush_ev) wait = ev_ref(m->flush_ev);
            e->gen = m->flush_gen;
        }
        pthread_mutex_unlock(&m->mu);
        if (wait) gm_cu.cuStreamWaitEvent(s, wait->ev, 0);
        ev_put(wait);
    }
    if (ls->sync) pthread_mutex_lock(&gm_st.sync_lock);
}

void gm_col_end(struct gm_launch_state *ls, CUstream s, int ok)
{
    if (!ok || !ls->nmods) return;
    /* a per-thread default stream cannot be named by the thread that flushes */
    struct gm_ev *ev = s == CU_STREAM_PER_THREAD ? ev_record(ls->mods[0]->ctx, s) : NULL;
    if (s == CU_STREAM_PER_THREAD && !ev) gm_cu.cuStreamSynchronize(s); /* its end is now */
    for (uint32_t i = 0; i < ls->nmods; i++) {
        struct gm_modinst *m = ls->mods[i];
        pthread_mutex_lock(&m->mu);
        struct gm_mstream *e = mstream(m, s);
        if (e && ev) {
            ev_put(e->last);
            e->last = ev_ref(ev);
        } else if (e && s != CU_STREAM_PER_THREAD) {
            e->dirty = 1;
        }
        m->owned++;
        if (m->owner == KERNELS && gm_ktally_add(&m->tally, ls->name) != 0)
            gm_warn("kernel %s: out of memory; a launch is not counted", ls->name);
        pthread_mutex_unlock(&m->mu);
    }
    ev_put(ev);
}

void gm_col_release(struct gm_launch_state *ls)
{
    if (ls->sync) pthread_mutex_unlock(&gm_st.sync_lock);
    for (uint32_t i = ls->nmods; i-- > 0;) pthread_rwlock_unlock(&ls->mods[i]->rw);
}

/* ---- the end ---------------------------------------------------------- */

/* Bounded: try for up to 2 s, then go on without. */
static int lock_mutex(pthread_mutex_t *mu, int bounded)
{
    if (!bounded) return pthread_mutex_lock(mu) == 0;
    for (int i = 0; i < 2000; i++) {
        if (pthread_mutex_trylock(mu) == 0) return 1;
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    return 0;
}

static int lock_write(pthread_rwlock_t *rw, int bounded)
{
    if (!bounded) return pthread_rwlock_wrlock(rw) == 0;
    for (int i = 0; i < 2000; i++) {
        if (pthread_rwlock_trywrlock(rw) == 0) return 1;
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    return 0;
}

void gm_col_drain(CUcontext ctx, int bounded)
{
    if (!Q.started) return;
    gm_tls()->in_runtime++;
    if (lock_mutex(&gm_st.launch_lock, bounded)) {
        for (struct gm_modinst *m = gm_st.mods; m; m = m->next) {
            if ((ctx && m->ctx != ctx) || !m->owned) continue;
            if (!lock_write(&m->rw, bounded)) {
                gm_warn("kernel %s: counters not collected (a launch was in progress)", m->owner);
                continue;
            }
            CUcontext dummy;
            int pushed = gm_cu.cuCtxPushCurrent(m->ctx) == CUDA_SUCCESS;
            flush_on(m, NULL);
            if (pushed) gm_cu.cuCtxPopCurrent(&dummy);
            pthread_rwlock_unlock(&m->rw);
        }
        pthread_mutex_unlock(&gm_st.launch_lock);
    }
    if (lock_mutex(&Q.reap, bounded)) {
        while (reap_one(1)) {}
        pthread_mutex_unlock(&Q.reap);
    } else {
        gm_warn("counters still in flight were not collected (the collector was busy)");
    }
    if (!bounded) gm_gputime_flush(); /* kernel times CUPTI still holds */
    gm_tls()->in_runtime--;
}
