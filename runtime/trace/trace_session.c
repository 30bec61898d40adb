/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tracing in the runtime (see trace_session.h): per launch, find the
 * handler's globals in the launched module, decide (filter, sampling), arm
 * the ring, point the module at it, drain while the kernel runs and after
 * it ends, and pass the launch to the sinks. One traced launch at a time
 * (a mutex is held from begin to end). Depends on trace_*.c, the runtime
 * core (rt_core.h) and libgmsim; never on CUPTI.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "trace_cuda.h"
#include "trace_drain.h"
#include "trace_meta.h"
#include "trace_opts.h"
#include "trace_session.h"

#define MAX_CTX 16
#define MAX_MODGLOBALS 64
#define DRAIN_BATCH 16384u

struct trace_ctx {
    struct gm_trace_dev dev;
    struct gm_trace_ring ring;
};

/* Handler globals of one site table found in the launched module. */
struct modglobals {
    const struct gm_rt_sitetab *tab;
    CUdeviceptr buf, module;
};

static struct {
    pthread_mutex_t lock;       /* held from a traced begin to its end */
    int state;                  /* 0 not started, 1 on, -1 off */
    struct gm_trace_opts opts;
    int opts_ok;                /* opts parsed (to be freed) */
    struct gm_trace_sink sink;
    int sink_open;
    struct gm_trace_meta meta;
    struct gm_trace_drain drain;
    struct trace_ctx ctx[MAX_CTX];
    int nctx;
    struct trace_ctx *cur;      /* context of the launch in progress */
    CUstream cur_stream;
    int active;
    uint64_t seq;               /* traced launches */
    uint64_t saved, dropped, capped, lost;
} S = { .lock = PTHREAD_MUTEX_INITIALIZER };

static _Thread_local int t_holding;  /* this thread began the traced launch */
static atomic_int g_off;            /* tracing is off for good: copies are not kept */

/* Copies and memsets issued since the last traced launch began, in program
 * order (their own lock: a copy never waits for a traced launch). */
#define COPIES_MAX (1u << 20)
#define COPIES_EARLY (1u << 16)     /* before any traced launch (the program may trace nothing) */
static atomic_int g_open;           /* the sink is open (a launch was traced) */
static struct {
    pthread_mutex_t m;
    struct gm_trace_copy *v;
    size_t n, cap;
    uint64_t kept, lost;        /* lost: over COPIES_MAX, counted in the summary */
} Q = { .m = PTHREAD_MUTEX_INITIALIZER };

int gm_trace_internal(void) { return gm_trace_cu_internal(); }

static int bind_dev(void *dev) { return gm_trace_dev_bind(dev); }

static const char *env(const char *name) { return getenv(name); }

static void turn_off(const char *why)
{
    fprintf(stderr, "gpumem: %s; tracing off\n", why);
    S.state = -1;
    atomic_store(&g_off, 1);
    for (int i = 0; i < S.nctx; i++) gm_trace_dev_quiesce(&S.ctx[i].dev);
}

/* Driver entry points first (silently: a program without the trace handler
 * never hears of tracing); options and the drain thread once a launch of a
 * trace-instrumented module is seen. */
static void start_driver(void)
{
    char err[256];
    S.state = gm_trace_cu_load(err, sizeof err) ? -1 : 1;
    if (S.state < 0) atomic_store(&g_off, 1);
}

void gm_trace_copy(int kind, uint64_t dst, uint64_t src, uint64_t bytes)
{
    if (!bytes || atomic_load_explicit(&g_off, memory_order_relaxed)) return;
    size_t max = atomic_load_explicit(&g_open, memory_order_relaxed) ? COPIES_MAX : COPIES_EARLY;
    pthread_mutex_lock(&Q.m);
    if (Q.n == Q.cap && Q.cap < max) {
        size_t cap = Q.cap ? 2 * Q.cap : 256;
        void *v = realloc(Q.v, cap * sizeof *Q.v);
        if (v) Q.v = v, Q.cap = cap;
    }
    if (Q.n < Q.cap) Q.v[Q.n++] = (struct gm_trace_copy){ .dst = dst, .src = src, .bytes = bytes,
                                                          .kind = (uint8_t)kind };
    else Q.lost++;
    pthread_mutex_unlock(&Q.m);
}

/* Hands the queued copies to the sink (S.lock held, outside a launch). */
static void flush_copies(void)
{
    pthread_mutex_lock(&Q.m);
    for (size_t i = 0; i < Q.n; i++) gm_trace_sink_copy(&S.sink, &Q.v[i]);
    Q.kept += Q.n;
    Q.n = 0;
    pthread_mutex_unlock(&Q.m);
}

static int start_tracing(void)
{
    char err[256];
    if (S.opts_ok) return 0;
    if (gm_trace_opts_parse(&S.opts, env, err, sizeof err)) {
        turn_off(err);
        return -1;
    }
    S.opts_ok = 1;
    if (gm_trace_drain_start(&S.drain, 20)) {
        turn_off("trace: no drain thread");
        return -1;
    }
    return 0;
}

/* Site tables with a trace buffer global that the launched module holds. */
static int find_globals(const struct gm_trace_launch_args *a, struct modglobals *g)
{
    int n = 0;
    const struct gm_rt_sitetab *t = NULL;
    while (a->modules && n < MAX_MODGLOBALS && (t = gm_modreg_next(a->modules, t))) {
        const char *buf = NULL, *mod = NULL;
        for (uint32_t i = 0; i < t->hdr->nglobals; i++) {
            const char *name = gm_sitetab_str(t, t->globals[i].name_str);
            if (!strcmp(name, GM_TRACE_BUF_SYM)) buf = gm_sitetab_str(t, t->globals[i].sym_str);
            if (!strcmp(name, GM_TRACE_MODULE_SYM)) mod = gm_sitetab_str(t, t->globals[i].sym_str);
        }
        size_t sz;
        if (!buf || gm_trace_cu_global(a->func, buf, &g[n].buf, &sz) != 0) continue;
        g[n].module = 0;
        if (mod && gm_trace_cu_global(a->func, mod, &g[n].module, &sz) != 0) g[n].module = 0;
        g[n++].tab = t;
    }
    return n;
}

static struct trace_ctx *context(void)
{
    CUcontext c;
    CUdevice dev;
    char err[256];
    if (gm_trace_cu_current(&c, &dev)) return NULL;
    for (int i = 0; i < S.nctx; i++)
        if (S.ctx[i].dev.ctx == c) return &S.ctx[i];
    if (S.nctx == MAX_CTX) { turn_off("trace: too many CUDA contexts"); return NULL; }
    struct trace_ctx *x = &S.ctx[S.nctx];
    uint64_t cap = gm_trace_opts_capacity(&S.opts);
    if (gm_trace_dev_open(&x->dev, c, cap, DRAIN_BATCH, err, sizeof err)) { turn_off(err); return NULL; }
    if (gm_trace_ring_init(&x->ring, &gm_trace_cuda_ops, &x->dev, cap, x->dev.batch,
                           gm_trace_sink_record, &S.sink)) {
        turn_off("trace: out of memory");
        return NULL;
    }
    S.nctx++;
    return x;
}

static int open_sink(CUdevice dev)
{
    struct gm_trace_gpu gpu;
    char err[256];
    if (S.sink_open) return 0;
    if (gm_trace_cu_gpu(dev, &gpu)) memset(&gpu, 0, sizeof gpu);
    if (gm_trace_sink_open(&S.sink, S.opts.file, S.opts.online ? S.opts.sim_preset : NULL,
                           S.opts.sim_out, &gpu, err, sizeof err)) {
        turn_off(err);
        return -1;
    }
    S.sink_open = 1;
    atomic_store(&g_open, 1);
    return 0;
}

/* Buffer-pointer globals known to hold NULL, so untraced launches of a
 * filtered-out kernel cost no copy. A fresh module at a reused address
 * holds NULL too, so a stale entry is harmless. */
#define NULLS 256
static CUdeviceptr g_nulls[NULLS];

static int is_null(CUdeviceptr a)
{
    for (int i = 0; i < NULLS; i++)
        if (g_nulls[i] == a) return 1;
    return 0;
}

static void set_null(CUdeviceptr a, int null)
{
    for (int i = 0; i < NULLS; i++) {
        if (null ? g_nulls[i] == 0 : g_nulls[i] == a) {
            g_nulls[i] = null ? a : 0;
            return;
        }
    }
}

/* Untraced launch: make sure its modules do not write into the ring. */
static void disarm(struct modglobals *g, int n, struct trace_ctx *x)
{
    uint64_t null = 0;
    for (int i = 0; x && i < n; i++)
        if (!is_null(g[i].buf) && gm_trace_dev_write(&x->dev, g[i].buf, &null, sizeof null) == 0)
            set_null(g[i].buf, 1);
}

static void describe(const struct gm_trace_launch_args *a, struct trace_ctx *x,
                     struct gm_trace_launch *l)
{
    memset(l, 0, sizeof *l);
    l->seq = S.seq;
    snprintf(l->name, sizeof l->name, "%s", a->name ? a->name : "?");
    memcpy(l->grid, a->grid, sizeof l->grid);
    memcpy(l->block, a->block, sizeof l->block);
    l->dyn_shared = a->dyn_shared;
    l->device = (uint32_t)x->dev.device;
    l->stream = (uint64_t)(uintptr_t)a->stream;
    gm_trace_cu_launch(a->func, x->dev.device, l);
}

/* Points every found module at the ring and tells it its module index. */
static int arm_modules(struct modglobals *g, int n, struct trace_ctx *x)
{
    for (int i = 0; i < n; i++) {
        long idx = gm_trace_meta_module(&S.meta, &S.sink, g[i].tab);
        uint32_t m = (uint32_t)idx;
        uint64_t p = (uint64_t)x->dev.buf;
        if (idx < 0 || (g[i].module && gm_trace_dev_write(&x->dev, g[i].module, &m, sizeof m)) ||
            gm_trace_dev_write(&x->dev, g[i].buf, &p, sizeof p)) return -1;
        set_null(g[i].buf, 0);
    }
    return 0;
}

static int begin_traced(const struct gm_trace_launch_args *a, struct modglobals *g, int n,
                        struct trace_ctx *x)
{
    struct gm_trace_launch l;
    if (open_sink(x->dev.device)) return -1;
    describe(a, x, &l);
    if (gm_trace_meta_allocs(&S.meta, &S.sink, a->allocs, (int)x->dev.device, S.seq) ||
        gm_trace_dev_arm(&x->dev, S.opts.mode, S.opts.spin_limit, S.opts.max_records) ||
        arm_modules(g, n, x)) {
        uint64_t null = 0;     /* no module may write into a ring nobody drains */
        for (int i = 0; i < n; i++) gm_trace_dev_write(&x->dev, g[i].buf, &null, sizeof null);
        turn_off("trace: cannot arm the trace buffer");
        return -1;
    }
    flush_copies();     /* after the allocations they may touch, before the launch */
    gm_trace_ring_rewind(&x->ring);
    gm_trace_sink_launch(&S.sink, &l);
    S.cur = x;
    S.cur_stream = a->stream;
    S.active = 1;
    t_holding = 1;
    if (S.opts.mode == GM_TRACE_MODE_BLOCK)
        gm_trace_drain_run(&S.drain, &x->ring, bind_dev, &x->dev);
    return 0;
}

int gm_trace_launch_begin(const struct gm_trace_launch_args *a)
{
    struct modglobals g[MAX_MODGLOBALS];
    uint64_t no;
    pthread_mutex_lock(&S.lock);
    if (S.state == 0) start_driver();
    int n = S.state > 0 ? find_globals(a, g) : 0;
    if (n == 0 || start_tracing()) goto untraced;
    int sel = gm_trace_opts_select(&S.opts, a->name ? a->name : "?", &no);
    struct trace_ctx *x = context();
    if (sel != 1 || !x) {
        disarm(g, n, x);
        goto untraced;
    }
    if (begin_traced(a, g, n, x)) goto untraced;
    return 1;   /* the lock stays held until gm_trace_launch_end */
untraced:
    pthread_mutex_unlock(&S.lock);
    return 0;
}

static void report_launch(const struct gm_trace_totals *t)
{
    S.saved += t->saved;
    S.dropped += t->dropped;
    S.capped += t->capped;
    S.lost += t->lost;
    if (t->dropped || t->lost)
        fprintf(stderr, "gpumem: trace: launch %" PRIu64 " (%s): %" PRIu64 " of %" PRIu64
                " records not saved (%" PRIu64 " dropped, %" PRIu64 " lost)\n", S.seq,
                S.sink.cur.name, t->dropped + t->lost, t->records, t->dropped, t->lost);
}

void gm_trace_launch_end(void)
{
    struct gm_trace_totals t;
    if (!t_holding) return;     /* not traced: this thread does not hold the lock */
    t_holding = 0;
    struct trace_ctx *x = S.cur;
    int waited = gm_trace_dev_wait(&x->dev, S.cur_stream);
    gm_trace_drain_pause(&S.drain);
    if (waited || gm_trace_ring_finish(&x->ring, &t)) {
        turn_off("trace: the traced kernel or the final drain failed");
        memset(&t, 0, sizeof t);
    }
    report_launch(&t);
    gm_trace_sink_end_launch(&S.sink, t.saved, t.records - t.saved);
    S.seq++;
    S.active = 0;
    S.cur = NULL;
    pthread_mutex_unlock(&S.lock);
}

void gm_trace_shutdown(void)
{
    char err[256] = "";
    pthread_mutex_lock(&S.lock);
    gm_trace_drain_stop(&S.drain);
    if (S.sink_open) {
        flush_copies();
        if (gm_trace_sink_close(&S.sink, err, sizeof err)) fprintf(stderr, "gpumem: %s\n", err);
        fprintf(stderr, "gpumem: trace: %" PRIu64 " launches, %" PRIu64 " records saved, %" PRIu64
                " dropped, %" PRIu64 " over the cap, %" PRIu64 " lost, %" PRIu64 " copies%s%s\n",
                S.seq, S.saved, S.dropped, S.capped, S.lost, Q.kept, S.opts.file ? "; file " : "",
                S.opts.file ? S.opts.file : "");
        if (Q.lost)
            fprintf(stderr, "gpumem: trace: %" PRIu64 " copies and memsets not recorded (more than %u"
                    " before the first traced launch or %u between two)\n", Q.lost, COPIES_EARLY,
                    COPIES_MAX);
        S.sink_open = 0;
    }
    gm_trace_meta_free(&S.meta);
    /* device buffers are left to the driver: the context may already be gone */
    for (int i = 0; i < S.nctx; i++) gm_trace_ring_free(&S.ctx[i].ring);
    S.nctx = 0;
    if (S.opts_ok) gm_trace_opts_free(&S.opts);
    S.opts_ok = 0;
    S.state = -1;
    atomic_store(&g_off, 1);
    pthread_mutex_lock(&Q.m);
    free(Q.v);
    Q.v = NULL;
    Q.n = Q.cap = 0;
    pthread_mutex_unlock(&Q.m);
    pthread_mutex_unlock(&S.lock);
}
