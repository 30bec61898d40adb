/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tracing in the runtime (see trace_session.h). Per launch, on the
 * program's thread: find the handler's globals of the launched function
 * (cached), decide (filter, sampling), point its modules at the context's
 * ring (once, or again after an untraced launch cleared them, on the
 * launch's stream), reserve an entry in the drain (trace_drain.h) with the
 * launch's description and what the file needs before it (modules,
 * allocations, copies), zero the ring's per-launch counters on the launch's
 * stream, and after the launch enqueue its mark there. Nothing waits for
 * the kernel (drop mode excepted: its ring is read only after each kernel,
 * so the launch waits for that). Traced launches of one context are kept
 * apart: a launch on another stream than the previous traced one waits
 * (on the GPU) for that one's mark. The lock is held from a traced begin to
 * its end. Depends on trace_*.c, the runtime core (rt_core.h) and libgmsim;
 * never on CUPTI.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>
#include "gm_grow.h"
#include "trace_cuda.h"
#include "trace_drain.h"
#include "trace_meta.h"
#include "trace_opts.h"
#include "trace_pipe.h"
#include "trace_session.h"

#define MAX_CTX 16
#define MAX_MODGLOBALS 64
#define STAGE_SLOTS 32768u      /* slots per staging buffer (5.25 MiB) */

/* Handler globals of one site table found in the launched module. */
struct modglobals {
    const struct gm_rt_sitetab *tab;
    CUdeviceptr buf, module;
};

/* A launched function's globals, looked up once per (handle, context) and
 * again when new site tables were registered. */
struct fnkey { CUfunction func; CUcontext ctx; };
struct fnglobals {
    struct fnkey key;
    unsigned reg_count;
    int n;
    struct modglobals *g;
    /* the last launch's shape and what the driver said of it */
    int described;
    uint32_t block[3], dyn_shared, static_shared, carveout;
    UT_hash_handle hh;
};

/* Whether a module's buffer global points at the ring (armed). */
struct armed {
    CUdeviceptr buf;
    int on;
    UT_hash_handle hh;
};

static struct {
    pthread_mutex_t lock;       /* held from a traced begin to its end */
    int state;                  /* 0 not started, 1 on, -1 off */
    struct gm_trace_opts opts;
    int opts_ok;                /* opts parsed (to be freed) */
    struct gm_trace_sink sink;
    int sink_open;
    struct gm_trace_pipe pipe;
    struct gm_trace_drain drain;
    struct gm_trace_meta meta;
    struct gm_trace_rctx ctx[MAX_CTX];
    int nctx;
    struct fnglobals *fns;
    struct armed *armed;
    /* the launch in progress and the last one */
    struct gm_trace_flight *cur;
    uint64_t cur_no;
    CUstream cur_stream;
    int have_last;
    uint64_t last_no;
    struct gm_trace_rctx *last_x;
    CUstream last_stream;
    uint64_t seq;               /* traced launches */
    uint64_t saved, dropped, capped, lost;  /* drain thread, read after it stopped */
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
    uint64_t kept, lost;        /* lost: over the bound, counted in the summary */
} Q = { .m = PTHREAD_MUTEX_INITIALIZER };

int gm_trace_internal(void) { return gm_trace_cu_internal(); }

static const char *env(const char *name) { return getenv(name); }

static void turn_off(const char *why)
{
    fprintf(stderr, "gpumem: %s; tracing off\n", why);
    S.state = -1;
    atomic_store(&g_off, 1);
    for (int i = 0; i < S.nctx; i++) gm_trace_dev_quiesce(&S.ctx[i].dev);
}

/* Driver entry points first (silently: a program without the trace handler
 * never hears of tracing); options once a launch of a trace-instrumented
 * module is seen. */
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
    if (Q.n == Q.cap && Q.cap < max) GM_GROW_TO(Q.v, Q.cap, Q.n + 1);
    if (Q.n < Q.cap) Q.v[Q.n++] = (struct gm_trace_copy){ .dst = dst, .src = src, .bytes = bytes,
                                                          .kind = (uint8_t)kind };
    else Q.lost++;
    pthread_mutex_unlock(&Q.m);
}

/* ---- what the file needs before a launch: into its preamble ---- */

static int pre_module(void *ctx, uint64_t modid, const char *name, uint32_t nsites,
                      const struct gm_trace_site *sites)
{
    struct gm_pipe_item it = { .kind = GM_PIPE_MODULE };
    it.u.module.modid = modid;
    it.u.module.nsites = nsites;
    it.u.module.name = strdup(name ? name : "");
    it.u.module.sites = sites ? malloc((nsites ? nsites : 1) * sizeof *sites) : NULL;
    if (!it.u.module.name || (sites && !it.u.module.sites)) {
        free(it.u.module.name);
        free(it.u.module.sites);
        return -1;
    }
    if (sites) memcpy(it.u.module.sites, sites, nsites * sizeof *sites);
    return gm_trace_flight_pre(ctx, &it);
}

static int pre_alloc(void *ctx, const struct gm_trace_alloc *a)
{
    struct gm_pipe_item it = { .kind = GM_PIPE_ALLOC, .u.alloc = *a };
    return gm_trace_flight_pre(ctx, &it);
}

static int pre_free(void *ctx, uint64_t base, uint64_t seq)
{
    struct gm_pipe_item it = { .kind = GM_PIPE_FREE, .u.free = { base, seq } };
    return gm_trace_flight_pre(ctx, &it);
}

/* Moves the queued copies into f's preamble, or (f NULL) into the pipe. */
static void take_copies(struct gm_trace_flight *f)
{
    pthread_mutex_lock(&Q.m);
    for (size_t i = 0; i < Q.n; i++) {
        struct gm_pipe_item it = { .kind = GM_PIPE_COPY, .u.copy = Q.v[i] };
        if (f) { if (gm_trace_flight_pre(f, &it)) Q.lost++; }
        else gm_trace_pipe_push(&S.pipe, &it);
    }
    Q.kept += Q.n;
    Q.n = 0;
    pthread_mutex_unlock(&Q.m);
}

/* ---- per-launch report (drain thread) ---- */

static void report_launch(void *ctx, const struct gm_trace_flight *f, const struct gm_trace_totals *t)
{
    (void)ctx;
    S.saved += t->saved;
    S.dropped += t->dropped;
    S.capped += t->capped;
    S.lost += t->lost;
    if (f->failed)
        fprintf(stderr, "gpumem: trace: launch %" PRIu64 " (%s) failed; its records are not saved\n",
                f->desc.seq, f->desc.name);
    else if (t->dropped || t->lost)
        fprintf(stderr, "gpumem: trace: launch %" PRIu64 " (%s): %" PRIu64 " of %" PRIu64
                " records not saved (%" PRIu64 " dropped, %" PRIu64 " lost)\n", f->desc.seq,
                f->desc.name, t->dropped + t->lost, t->records, t->dropped, t->lost);
}

/* ---- set-up ---- */

static int start_tracing(void)
{
    char err[256];
    if (S.opts_ok) return 0;
    if (gm_trace_opts_parse(&S.opts, env, err, sizeof err)) {
        turn_off(err);
        return -1;
    }
    S.opts_ok = 1;
    return 0;
}

static void at_exit(int status, void *arg)
{
    (void)status, (void)arg;
    gm_trace_shutdown();
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
    int workers = S.opts.threads ? S.opts.threads : gm_trace_pipe_default_workers();
    if (gm_trace_pipe_start(&S.pipe, &S.sink, workers) ||
        gm_trace_drain_start(&S.drain, &S.pipe, S.opts.mode == GM_TRACE_MODE_DROP, 20)) {
        gm_trace_pipe_stop(&S.pipe);
        gm_trace_sink_close(&S.sink, NULL, 0);
        turn_off("trace: cannot start the drain threads");
        return -1;
    }
    S.drain.report = report_launch;
    S.sink_open = 1;
    /* registered after CUDA's runtime set up its exit handlers: runs before
     * them, while the contexts still exist to drain */
    on_exit(at_exit, NULL);
    atomic_store(&g_open, 1);
    return 0;
}

static struct gm_trace_rctx *context(void)
{
    CUcontext c;
    CUdevice dev;
    char err[256];
    if (gm_trace_cu_current(&c, &dev)) return NULL;
    for (int i = 0; i < S.nctx; i++)
        if (S.ctx[i].dev.ctx == c) return &S.ctx[i];
    if (S.nctx == MAX_CTX) { turn_off("trace: too many CUDA contexts"); return NULL; }
    struct gm_trace_rctx *x = &S.ctx[S.nctx];
    memset(x, 0, sizeof *x);
    uint64_t cap = gm_trace_opts_capacity(&S.opts);
    if (gm_trace_dev_open(&x->dev, c, cap, STAGE_SLOTS, S.opts.mode, S.opts.spin_limit,
                          S.opts.max_records, err, sizeof err)) {
        turn_off(err);
        return NULL;
    }
    gm_trace_ring_init(&x->ring, &gm_trace_cuda_ops, &x->dev, cap);
    S.nctx++;
    return x;
}

/* ---- the launched function's globals (cached) ---- */

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

static struct fnglobals *globals_of(const struct gm_trace_launch_args *a)
{
    CUcontext c;
    CUdevice dev;
    if (gm_trace_cu_current(&c, &dev)) return NULL;
    struct fnkey key = { a->func, c };
    struct fnglobals *f;
    unsigned count = a->modules ? a->modules->count : 0;
    HASH_FIND(hh, S.fns, &key, sizeof key, f);
    if (f && f->reg_count == count) return f;
    struct modglobals g[MAX_MODGLOBALS];
    int n = find_globals(a, g);
    if (!f) {
        if (!(f = calloc(1, sizeof *f))) return NULL;
        f->key = key;
        HASH_ADD(hh, S.fns, key, sizeof f->key, f);
    }
    free(f->g);
    f->g = n ? malloc(n * sizeof *g) : NULL;
    f->n = f->g ? n : 0;
    if (f->g) memcpy(f->g, g, n * sizeof *g);
    f->reg_count = count;
    return f;
}

static struct armed *armed_of(CUdeviceptr buf)
{
    struct armed *e;
    HASH_FIND(hh, S.armed, &buf, sizeof buf, e);
    if (!e && (e = calloc(1, sizeof *e))) {
        e->buf = buf;
        e->on = -1;     /* unknown: a module's own zero, or a stale value */
        HASH_ADD(hh, S.armed, buf, sizeof e->buf, e);
    }
    return e;
}

/* The mark a launch on `stream` of x must wait for: the last traced launch,
 * if it ran on another stream of x and may still run; else -1. */
static int wait_for(struct gm_trace_rctx *x, CUstream stream)
{
    return S.have_last && S.last_x == x && S.last_stream != stream &&
           gm_trace_drain_open(&S.drain, S.last_no) ? (int)(S.last_no % GM_TRACE_MARKS) : -1;
}

/* Untraced launch: make sure its modules do not write into a ring (after
 * the last traced launch, which may use the same modules, has ended). */
static void disarm(const struct fnglobals *fg, struct gm_trace_rctx *x, CUstream stream)
{
    int waited = 0;
    for (int i = 0; x && i < fg->n; i++) {
        struct armed *e = armed_of(fg->g[i].buf);
        if (!e || e->on == 0) continue;
        int after = waited ? -1 : wait_for(x, stream);
        waited = 1;
        if ((after < 0 || gm_trace_dev_after(&x->dev, stream, (unsigned)after) == 0) &&
            gm_trace_dev_point(&x->dev, fg->g[i].buf, 0, stream) == 0) e->on = 0;
    }
}

/* Points every found module at the ring (its module index written once). */
static int arm(const struct fnglobals *fg, struct gm_trace_rctx *x, CUstream stream,
               const struct gm_trace_emit *em)
{
    for (int i = 0; i < fg->n; i++) {
        const struct modglobals *g = &fg->g[i];
        struct armed *e = armed_of(g->buf);
        long idx = gm_trace_meta_module(&S.meta, em, g->tab);
        if (!e || idx < 0) return -1;
        if (e->on == 1) continue;
        uint32_t m = (uint32_t)idx;
        if ((g->module && gm_trace_dev_write(&x->dev, g->module, &m, sizeof m)) ||
            gm_trace_dev_point(&x->dev, g->buf, 1, stream)) return -1;
        e->on = 1;
    }
    return 0;
}

/* The launch's description; the attributes are asked once per shape. */
static void describe(const struct gm_trace_launch_args *a, struct gm_trace_rctx *x,
                     struct fnglobals *fg, struct gm_trace_launch *l)
{
    memset(l, 0, sizeof *l);
    l->seq = S.seq;
    snprintf(l->name, sizeof l->name, "%s", a->name ? a->name : "?");
    memcpy(l->grid, a->grid, sizeof l->grid);
    memcpy(l->block, a->block, sizeof l->block);
    l->dyn_shared = a->dyn_shared;
    l->device = (uint32_t)x->dev.device;
    l->stream = (uint64_t)(uintptr_t)a->stream;
    if (fg->described && fg->dyn_shared == a->dyn_shared &&
        !memcmp(fg->block, a->block, sizeof fg->block)) {
        l->static_shared = fg->static_shared;
        l->carveout = fg->carveout;
        return;
    }
    fg->described = gm_trace_cu_launch(a->func, x->dev.device, l) == 0;
    memcpy(fg->block, a->block, sizeof fg->block);
    fg->dyn_shared = a->dyn_shared;
    fg->static_shared = l->static_shared;
    fg->carveout = l->carveout;
}

static int begin_traced(const struct gm_trace_launch_args *a, struct fnglobals *fg,
                        struct gm_trace_rctx *x)
{
    uint64_t no;
    if (open_sink(x->dev.device)) return -1;
    struct gm_trace_flight *f = gm_trace_drain_reserve(&S.drain, &no);
    struct gm_trace_emit em = { .ctx = f, .module = pre_module, .alloc = pre_alloc, .free = pre_free };
    f->x = x;
    describe(a, x, fg, &f->desc);
    /* the launch waits on the GPU for the last traced one if that ran elsewhere */
    int after = wait_for(x, a->stream);
    if (gm_trace_meta_allocs(&S.meta, &em, a->allocs, (int)x->dev.device, S.seq) ||
        arm(fg, x, a->stream, &em) || gm_trace_dev_begin(&x->dev, a->stream, after)) {
        for (size_t i = 0; i < f->npre; i++)
            if (f->pre[i].kind == GM_PIPE_MODULE) {
                free(f->pre[i].u.module.name);
                free(f->pre[i].u.module.sites);
            }
        free(f->pre);
        f->pre = NULL;
        f->npre = 0;
        disarm(fg, x, a->stream);    /* no module may write into a ring nobody drains */
        turn_off("trace: cannot arm the trace buffer");
        return -1;
    }
    take_copies(f);     /* after the allocations they may touch, before the launch */
    gm_trace_drain_publish(&S.drain);   /* drained while it runs, ended by its mark */
    S.cur = f;
    S.cur_no = no;
    S.cur_stream = a->stream;
    t_holding = 1;
    return 0;
}

int gm_trace_launch_begin(const struct gm_trace_launch_args *a)
{
    pthread_mutex_lock(&S.lock);
    if (S.state == 0) start_driver();
    struct fnglobals *fg = S.state > 0 ? globals_of(a) : NULL;
    if (!fg || fg->n == 0 || start_tracing() || S.state < 0) goto untraced;
    uint64_t no;
    int sel = gm_trace_opts_select(&S.opts, a->name ? a->name : "?", &no);
    struct gm_trace_rctx *x = context();
    if (sel != 1 || !x) {
        disarm(fg, x, a->stream);
        goto untraced;
    }
    if (begin_traced(a, fg, x)) goto untraced;
    return 1;   /* the lock stays held until gm_trace_launch_end */
untraced:
    pthread_mutex_unlock(&S.lock);
    return 0;
}

/* A driver call that may block in the driver (which then keeps the drain
 * thread's own driver calls waiting, while a traced kernel waits on the GPU
 * for the drain: tests/gpu/trace/stall.sh) first waits until the traced
 * launches in flight have ended and been drained, as long as the drain
 * makes progress: a kernel that has not started, or waits for the host,
 * moves nothing, and the call goes ahead after IDLE_MS. */
#define IDLE_MS 200u
void gm_trace_before_call(void)
{
    if (t_holding || !atomic_load_explicit(&g_open, memory_order_acquire)) return;
    (void)gm_trace_drain_wait_all(&S.drain, IDLE_MS);
}

void gm_trace_launch_end(void)
{
    if (!t_holding) return;     /* not traced: this thread does not hold the lock */
    t_holding = 0;
    struct gm_trace_flight *f = S.cur;
    int ok = gm_trace_dev_mark(&f->x->dev, S.cur_stream, f->mark) == 0;
    gm_trace_flight_mark(&S.drain, f, ok);
    if (!ok) turn_off("trace: cannot mark the end of a traced launch");
    S.have_last = 1;
    S.last_no = S.cur_no;
    S.last_x = f->x;
    S.last_stream = S.cur_stream;
    S.seq++;
    S.cur = NULL;
    if (S.opts.mode == GM_TRACE_MODE_DROP) gm_trace_drain_wait(&S.drain, S.last_no);
    pthread_mutex_unlock(&S.lock);
}

static void free_caches(void)
{
    struct fnglobals *f, *ft;
    HASH_ITER(hh, S.fns, f, ft) {
        HASH_DEL(S.fns, f);
        free(f->g);
        free(f);
    }
    struct armed *e, *et;
    HASH_ITER(hh, S.armed, e, et) {
        HASH_DEL(S.armed, e);
        free(e);
    }
}

void gm_trace_context_destroy(CUcontext ctx)
{
    pthread_mutex_lock(&S.lock);
    int i = 0;
    while (i < S.nctx && S.ctx[i].dev.ctx != ctx) i++;
    if (i < S.nctx && S.sink_open) {
        /* every launch in flight (bounded: the driver is inside the destruction) */
        if (S.have_last && gm_trace_drain_wait_ms(&S.drain, S.last_no, 5000))
            fprintf(stderr, "gpumem: trace: a context was destroyed before its traced launches"
                    " were drained; the trace may lack their records\n");
        gm_trace_pipe_flush(&S.pipe);   /* chunks in its staging buffers coded */
        S.have_last = 0;
        S.drain.bound = NULL;           /* the drain thread is idle: nothing in flight */
        S.ctx[i] = S.ctx[--S.nctx];     /* its memory goes with the context */
        S.ctx[i].ring.dev = &S.ctx[i].dev;
        free_caches();                  /* its globals' addresses may come back */
    }
    pthread_mutex_unlock(&S.lock);
}

/* GPUMEM_QUIET (docs/runtime.md): nothing on stderr at exit but losses. */
static int quiet(void)
{
    const char *v = getenv("GPUMEM_QUIET");
    return v && *v && strcmp(v, "0") != 0;
}

void gm_trace_shutdown(void)
{
    char err[256] = "";
    pthread_mutex_lock(&S.lock);
    if (S.sink_open) {
        atomic_store(&g_open, 0);           /* no new waits on the drain */
        gm_trace_drain_stop(&S.drain);      /* every traced launch ended and drained */
        take_copies(NULL);                  /* copies after the last traced launch */
        gm_trace_pipe_stop(&S.pipe);
        if (gm_trace_sink_close(&S.sink, err, sizeof err)) fprintf(stderr, "gpumem: %s\n", err);
        if (!quiet() || S.dropped || S.capped || S.lost || Q.lost) /* a loss is always said */
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
    free_caches();
    /* device buffers are left to the driver: the context may already be gone */
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
