/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kernel launches (every driver launch path; runtime launches end up here
 * too). At entry: resolve the launch handle (CUfunction or CUkernel) to the
 * instrumented modules behind it, set up their counters once per context
 * (zeroed), record the launch, and hand it to collect.c, which orders it
 * after earlier flushes and times it; the host does not wait for the
 * kernel. Launches with the allocations analysis wait for their kernel at
 * exit and read its per-launch allocation counters (one at a time).
 * A launch that run-time selection does not measure runs the kernel's
 * uninstrumented copy where the module has one (native.c).
 * Depends on the CUDA driver API (via gm_cu) and CUPTI; never on LLVM.
 */
#include "rt.h"
#include "trace_session.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "gpumem/alloctab.h"
#include "gpumem/trace.h"
#include "gm_grow.h"

struct launch_desc {
    void *fn;
    CUgraphExec exec;       /* a graph launch's graph */
    CUstream stream;
    uint32_t grid[3], block[3], shmem;
};

int gm_is_launch_cbid(CUpti_CallbackId cbid)
{
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch:
    case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz:
        return 1;
    default:
        return 0;
    }
}

static int is_graph(CUpti_CallbackId cbid)
{
    return cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch ||
           cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz;
}

static int is_ptsz(CUpti_CallbackId cbid)
{
    return cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz ||
           cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz ||
           cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz ||
           cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz;
}

/* cuLaunchKernel and cuLaunchCooperativeKernel share the layout up to kernelParams. */
static void decode(CUpti_CallbackId cbid, const CUpti_CallbackData *cb, struct launch_desc *d)
{
    memset(d, 0, sizeof *d);
    if (is_graph(cbid)) {
        const cuGraphLaunch_params *p = cb->functionParams;
        d->stream = p ? p->hStream : NULL;
        d->exec = p ? p->hGraph : NULL;
    } else if (cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx ||
        cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz) {
        const cuLaunchKernelEx_params *p = cb->functionParams;
        const CUlaunchConfig *c = p->config;
        d->fn = p->f;
        if (c) {
            d->stream = c->hStream;
            d->grid[0] = c->gridDimX, d->grid[1] = c->gridDimY, d->grid[2] = c->gridDimZ;
            d->block[0] = c->blockDimX, d->block[1] = c->blockDimY, d->block[2] = c->blockDimZ;
            d->shmem = c->sharedMemBytes;
        }
    } else {
        const cuLaunchKernel_params *p = cb->functionParams;
        d->fn = p->f;
        d->stream = p->hStream;
        d->grid[0] = p->gridDimX, d->grid[1] = p->gridDimY, d->grid[2] = p->gridDimZ;
        d->block[0] = p->blockDimX, d->block[1] = p->blockDimY, d->block[2] = p->blockDimZ;
        d->shmem = p->sharedMemBytes;
    }
    if (!d->stream && is_ptsz(cbid)) d->stream = CU_STREAM_PER_THREAD;
}

/* ---- resolving a launch handle to modules and globals ----------------- */

static CUresult get_global(const struct gm_modinst *m, const char *name, CUdeviceptr *dp,
                           size_t *sz)
{
    if (m->mod) return gm_cu.cuModuleGetGlobal(dp, sz, m->mod, name);
    return gm_cu.cuLibraryGetGlobal(dp, sz, m->lib, name);
}

/* A CUfunction's module, or a CUkernel's module in this context / library. */
static int find_container(void *fn, CUmodule *mod, CUlibrary *lib)
{
    CUfunction f;
    *mod = NULL;
    *lib = NULL;
    if (gm_cu.cuFuncGetModule(mod, (CUfunction)fn) == CUDA_SUCCESS) return 0;
    if (gm_cu.cuKernelGetFunction(&f, (CUkernel)fn) == CUDA_SUCCESS &&
        gm_cu.cuFuncGetModule(mod, f) == CUDA_SUCCESS)
        return 0;
    *mod = NULL;
    return gm_cu.cuKernelGetLibrary(lib, (CUkernel)fn) == CUDA_SUCCESS ? 0 : -1;
}

static const char *kernel_name(void *fn, const char *symname)
{
    const char *name = NULL;
    if (symname && *symname) return gm_intern(symname);
    if (gm_cu.cuFuncGetName(&name, (CUfunction)fn) != CUDA_SUCCESS &&
        gm_cu.cuKernelGetName(&name, (CUkernel)fn) != CUDA_SUCCESS)
        name = NULL;
    return gm_intern(name ? name : "<unknown kernel>");
}

static uint32_t replicas_for_ctx(void)
{
    CUdevice dev;
    int sms = 1;
    if (gm_cu.cuCtxGetDevice(&dev) != CUDA_SUCCESS ||
        gm_cu.cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev) != CUDA_SUCCESS)
        sms = 1;
    return gm_replicas_for((uint32_t)(sms > 0 ? sms : 1));
}

/* Write replicas-1 into __gm_replica_mask__<modid>; 0 if written. */
static int write_mask(struct gm_modinst *m, uint32_t replicas)
{
    char sym[64];
    CUdeviceptr dp;
    size_t sz;
    uint32_t mask = replicas - 1;
    snprintf(sym, sizeof sym, "%s__%016llx", GM_REPLICA_MASK_SYM, (unsigned long long)m->tab->modid);
    if (get_global(m, sym, &dp, &sz) != CUDA_SUCCESS || sz != sizeof mask) return -1;
    return gm_cu.cuMemcpyHtoD(dp, &mask, sizeof mask) == CUDA_SUCCESS ? 0 : -1;
}

static int setup_set(struct gm_modinst *m, struct gm_modinst_set *s, uint32_t replicas)
{
    const struct gm_rt_sitetab *t = m->tab;
    const char *sym = gm_sitetab_str(t, s->g->sym_str);
    CUdeviceptr gp;
    size_t gsz;
    CUresult r = get_global(m, sym, &gp, &gsz);
    if (r != CUDA_SUCCESS || gsz != sizeof(CUdeviceptr)) {
        gm_warn("module %016llx: counter pointer %s not found (%s); its counters are off",
                (unsigned long long)t->modid, sym, r != CUDA_SUCCESS ? gm_cu_err(r) : "wrong size");
        return -1;
    }
    s->replicas = (s->g->flags & GM_GLOBAL_SINGLE) ? 1 : replicas;
    size_t bytes = (size_t)s->replicas * t->hdr->nsites * s->g->slots * sizeof(uint64_t);
    if ((r = gm_cu.cuMemAlloc(&s->dev, bytes)) != CUDA_SUCCESS ||
        (r = gm_cu.cuMemcpyHtoD(gp, &s->dev, sizeof s->dev)) != CUDA_SUCCESS) {
        gm_warn("module %016llx: cannot allocate %zu bytes of %s counters (%s); they are off",
                (unsigned long long)t->modid, bytes, sym, gm_cu_err(r));
        s->dev = 0;
        return -1;
    }
    /* zeroed once: from here on they are zeroed by flushes, in stream order */
    if ((r = gm_cu.cuMemsetD8Async(s->dev, 0, bytes, NULL)) == CUDA_SUCCESS)
        r = gm_cu.cuStreamSynchronize(NULL);
    if (r != CUDA_SUCCESS) gm_warn("module %016llx: cannot zero %s counters (%s)",
                                   (unsigned long long)t->modid, sym, gm_cu_err(r));
    return 0;
}

/* The allocations analysis' table global, if the module has one. */
static void find_alloctab(struct gm_modinst *m)
{
    const struct gm_rt_sitetab *t = m->tab;
    for (uint32_t i = 0; i < t->hdr->nglobals; i++) {
        if (!strcmp(gm_sitetab_str(t, t->globals[i].name_str), GM_TRACE_BUF_SYM)) m->traced = 1;
        if (strcmp(gm_sitetab_str(t, t->globals[i].name_str), GM_ALLOCTAB_SYM) != 0) continue;
        const char *sym = gm_sitetab_str(t, t->globals[i].sym_str);
        size_t sz = 0;
        if (get_global(m, sym, &m->alloctab_global, &sz) != CUDA_SUCCESS ||
            sz != sizeof(struct gm_alloctab)) {
            gm_warn("module %016llx: %s missing or of the wrong size; allocations not measured",
                    (unsigned long long)t->modid, sym);
            m->alloctab_global = 0;
        }
    }
}

static struct gm_modinst *modinst_create(CUcontext ctx, CUmodule mod, CUlibrary lib,
                                         const struct gm_rt_sitetab *t)
{
    struct gm_modinst *m = calloc(1, sizeof *m);
    if (!m || !(m->sets = calloc(t->hdr->nglobals + 1, sizeof *m->sets))) {
        free(m);
        return NULL;
    }
    m->ctx = ctx, m->mod = mod, m->lib = lib, m->tab = t;
    gm_col_modinst_init(m);
    uint32_t replicas = replicas_for_ctx();
    if (write_mask(m, replicas) != 0) replicas = 1; /* mask stays 0: replica 0 only */
    m->replicas = replicas;
    find_alloctab(m);
    for (uint32_t i = 0; i < t->hdr->nglobals && t->hdr->nsites; i++) {
        if (!(t->globals[i].flags & GM_GLOBAL_COUNTERS)) continue;
        struct gm_modinst_set *s = &m->sets[m->nsets];
        s->g = &t->globals[i];
        if (setup_set(m, s, replicas) == 0) m->nsets++;
    }
    gm_col_modinst_ready(m);
    gm_debug("module %016llx in context %p: %u counter sets, %u replicas",
             (unsigned long long)t->modid, (void *)ctx, m->nsets, replicas);
    return m;
}

static struct gm_modinst *modinst_get(CUcontext ctx, CUmodule mod, CUlibrary lib,
                                      const struct gm_rt_sitetab *t)
{
    for (struct gm_modinst *m = gm_st.mods; m; m = m->next)
        if (m->ctx == ctx && m->mod == mod && m->lib == lib && m->tab == t) return m;
    struct gm_modinst *m = modinst_create(ctx, mod, lib, t);
    if (m) {
        m->next = gm_st.mods;
        gm_st.mods = m;
    }
    return m;
}

/* Instrumented modules reachable from the container (probe each known table). */
static void attach_modules(struct gm_fninfo *fi, CUmodule mod, CUlibrary lib)
{
    struct gm_modinst probe = {.ctx = fi->key.ctx, .mod = mod, .lib = lib};
    const struct gm_rt_sitetab *t = NULL;
    pthread_mutex_lock(&gm_st.lock);
    unsigned n = gm_st.reg.count;
    const struct gm_rt_sitetab **tabs = calloc(n + 1, sizeof *tabs);
    for (unsigned i = 0; tabs && (t = gm_modreg_next(&gm_st.reg, t)) && i < n; i++) tabs[i] = t;
    pthread_mutex_unlock(&gm_st.lock);
    fi->mods = calloc(n + 1, sizeof *fi->mods);
    for (unsigned i = 0; tabs && fi->mods && i < n && tabs[i]; i++) {
        char sym[64];
        CUdeviceptr dp;
        size_t sz;
        snprintf(sym, sizeof sym, "%s%016llx", GM_SITETAB_SYM_PREFIX,
                 (unsigned long long)tabs[i]->modid);
        probe.tab = tabs[i];
        if (get_global(&probe, sym, &dp, &sz) != CUDA_SUCCESS) continue;
        struct gm_modinst *m = modinst_get(fi->key.ctx, mod, lib, tabs[i]);
        if (m) fi->mods[fi->nmods++] = m;
    }
    free(tabs);
}

static struct gm_fninfo *resolve(void *fn, CUcontext ctx, const char *symname)
{
    struct gm_fnkey key = {fn, ctx};
    struct gm_fninfo *fi;
    HASH_FIND(hh, gm_st.fns, &key, sizeof key, fi);
    if (fi && (fi->nmods || fi->reg_count == gm_st.reg.count)) return fi;
    if (fi) { /* tables appeared since (lazy module loading): look again */
        HASH_DEL(gm_st.fns, fi);
        free(fi->mods);
        free(fi);
    }
    if (!(fi = calloc(1, sizeof *fi))) return NULL;
    fi->key = key;
    fi->name = kernel_name(fn, symname);
    CUmodule mod;
    CUlibrary lib;
    int found = find_container(fn, &mod, &lib) == 0; /* may load the module (lazy loading) */
    pthread_mutex_lock(&gm_st.lock);
    fi->reg_count = gm_st.reg.count;
    pthread_mutex_unlock(&gm_st.lock);
    if (found) attach_modules(fi, mod, lib);
    else gm_debug("kernel %s: module not found; not instrumented", fi->name);
    HASH_ADD(hh, gm_st.fns, key, sizeof fi->key, fi);
    return fi;
}

/* ---- CUDA graphs ---------------------------------------------------------- */

/* Kernels captured into graphs, resolved at the next graph launch (during
 * capture no CUDA call may be made). Guarded by gm_st.lock. */
struct pending { struct gm_fnkey key; const char *sym; UT_hash_handle hh; };
static struct pending *g_pending;
static char g_graph_tag; /* key of the per-context "[CUDA graph]" entry */

static void remember_captured(void *fn, CUcontext ctx, const char *sym)
{
    struct gm_fnkey key = {fn, ctx};
    struct pending *p;
    HASH_FIND(hh, g_pending, &key, sizeof key, p);
    if (p || !(p = calloc(1, sizeof *p))) return;
    p->key = key;
    p->sym = sym ? gm_intern(sym) : NULL;
    HASH_ADD(hh, g_pending, key, sizeof p->key, p);
}

/* All instrumented modules in use in ctx, as one pseudo-kernel: a graph's
 * kernels are counted together, per module, as "[CUDA graph]". */
static struct gm_fninfo *graph_fninfo(CUcontext ctx)
{
    for (;;) { /* resolve what was captured in this context */
        struct pending *p, *tmp, *hit = NULL;
        pthread_mutex_lock(&gm_st.lock);
        HASH_ITER(hh, g_pending, p, tmp) if (p->key.ctx == ctx) { hit = p; break; }
        if (hit) HASH_DEL(g_pending, hit);
        pthread_mutex_unlock(&gm_st.lock);
        if (!hit) break;
        resolve(hit->key.fn, ctx, hit->sym);
        free(hit);
    }
    struct gm_fnkey key = {&g_graph_tag, ctx};
    struct gm_fninfo *fi;
    HASH_FIND(hh, gm_st.fns, &key, sizeof key, fi);
    if (!fi) {
        if (!(fi = calloc(1, sizeof *fi))) return NULL;
        fi->key = key;
        fi->name = gm_intern("[CUDA graph]");
        HASH_ADD(hh, gm_st.fns, key, sizeof fi->key, fi);
    }
    uint32_t n = 0;
    for (struct gm_modinst *m = gm_st.mods; m; m = m->next) n += m->ctx == ctx;
    free(fi->mods);
    fi->nmods = 0;
    if ((fi->mods = calloc(n + 1, sizeof *fi->mods)))
        for (struct gm_modinst *m = gm_st.mods; m; m = m->next)
            if (m->ctx == ctx) fi->mods[fi->nmods++] = m;
    return fi;
}

/* ---- entry and exit ----------------------------------------------------- */

static int device_known(CUdevice dev)
{
    pthread_mutex_lock(&gm_st.lock);
    int known = dev < 0 || gm_st.ndevices >= sizeof gm_st.devices / sizeof gm_st.devices[0];
    for (unsigned i = 0; !known && i < gm_st.ndevices; i++) known = gm_st.devices[i].ordinal == (int)dev;
    pthread_mutex_unlock(&gm_st.lock);
    return known;
}

/* Remember a GPU the first time a launch runs on it (queried without locks). */
static void note_device(CUdevice dev)
{
    static _Thread_local CUdevice last = -2; /* this thread's last device, known */
    if (dev == last) return;
    if (device_known(dev)) {
        last = dev;
        return;
    }
    struct gm_device_info info, *d = &info;
    int l2 = 0;
    size_t mem = 0;
    memset(d, 0, sizeof *d);
    d->ordinal = (int)dev;
    gm_cu.cuDeviceGetName(d->name, sizeof d->name - 1, dev);
    gm_cu.cuDeviceGetAttribute(&d->cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
    gm_cu.cuDeviceGetAttribute(&d->cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
    gm_cu.cuDeviceGetAttribute(&d->sm_count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
    gm_cu.cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, dev);
    gm_cu.cuDeviceTotalMem(&mem, dev);
    d->l2_bytes = (uint64_t)l2;
    d->global_mem = mem;
    if (device_known(dev)) return;
    pthread_mutex_lock(&gm_st.lock);
    gm_st.devices[gm_st.ndevices++] = info;
    pthread_mutex_unlock(&gm_st.lock);
}

/* Bumped when a context is destroyed: its handle may come back for another device. */
static atomic_uint g_ctx_gen;

/* The current context's device; cached per thread (a context's device never changes). */
static CUdevice ctx_device(CUcontext ctx)
{
    static _Thread_local struct { CUcontext ctx; unsigned gen; CUdevice dev; } c = {NULL, 0, -1};
    unsigned gen = atomic_load(&g_ctx_gen);
    if (ctx && c.ctx == ctx && c.gen == gen) return c.dev;
    CUdevice dev = -1;
    if (gm_cu.cuCtxGetDevice(&dev) != CUDA_SUCCESS) return -1;
    c.ctx = ctx, c.gen = gen, c.dev = dev;
    return dev;
}

static uint64_t record_launch(const struct gm_fninfo *fi, const struct launch_desc *d, int inst,
                              CUcontext ctx, CUdevice *devp)
{
    struct gm_tls *t = gm_tls();
    struct gm_tl_event e = {.kind = GM_TL_LAUNCH, .stream = (uint64_t)(uintptr_t)d->stream,
                            .callsite = t->outer_site, .kernel = fi ? fi->name : NULL};
    static _Thread_local const char *api_raw, *api_interned; /* CUPTI's names are static */
    const char *api = t->outer_api ? t->outer_api : "?";
    if (api != api_raw) api_interned = gm_intern(api), api_raw = api;
    e.api = api_interned;
    e.t_ns = gm_now_ns() - gm_st.t0_ns;
    static _Thread_local uint32_t tid;
    if (!tid) tid = (uint32_t)syscall(SYS_gettid);
    e.tid = tid;
    CUdevice dev = ctx_device(ctx);
    e.device = (uint16_t)dev;
    note_device(dev);
    *devp = dev;
    pthread_mutex_lock(&gm_st.lock);
    if (!fi || fi->key.fn != &g_graph_tag) { /* graph launches are counted apart */
        gm_st.launches++;
        gm_st.inst_launches += inst;
    }
    t->launch_rec = SIZE_MAX;
    uint64_t seq = gm_timeline_append(&gm_st.tl, &e);
    if (seq && GM_GROW_TO(gm_st.launch_recs, gm_st.cap_launch_recs, gm_st.nlaunch_recs + 1) == 0) {
        t->launch_rec = gm_st.nlaunch_recs;
        struct gm_launch_rec *l = &gm_st.launch_recs[gm_st.nlaunch_recs++];
        *l = (struct gm_launch_rec){.seq = seq, .kernel = e.kernel, .shmem = d->shmem,
                                    .stream = e.stream, .device = (int)dev, .api = e.api,
                                    .callsite = e.callsite, .t_ns = e.t_ns, .instrumented = inst,
                                    .gpu_ns = -1,
                                    .tab = (fi && fi->nmods) ? fi->mods[0]->tab : NULL};
        memcpy(l->grid, d->grid, sizeof l->grid);
        memcpy(l->block, d->block, sizeof l->block);
    }
    pthread_mutex_unlock(&gm_st.lock);
    return seq;
}

/* Stream captures begun and not yet ended in this process: while there is
 * none, no stream can be capturing and a launch asks the driver nothing
 * (cuStreamIsCapturing is one driver call per launch; on the H100 it and
 * the remaining launch-entry steps measured 0.33 us together,
 * bench/results/launch-attribution-2026-11-27-late.md). An end
 * that fails for a stream not capturing does not count; a capture whose
 * stream is destroyed unended keeps the count up (the query stays on). */
static atomic_int g_captures;

void gm_on_capture(CUpti_CallbackId cbid, const CUpti_CallbackData *cb)
{
    const CUresult *ret = cb->functionReturnValue;
    if (!ret) return;
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture:
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2:
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph:
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph_ptsz:
        if (*ret == CUDA_SUCCESS) atomic_fetch_add(&g_captures, 1);
        break;
    case CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture:
    case CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture_ptsz:
        if ((*ret == CUDA_SUCCESS || *ret == CUDA_ERROR_STREAM_CAPTURE_INVALIDATED ||
             *ret == CUDA_ERROR_STREAM_CAPTURE_UNJOINED) && atomic_load(&g_captures) > 0)
            atomic_fetch_sub(&g_captures, 1);
        break;
    default:
        break;
    }
}

/* A launch into a capturing stream becomes a graph node: it must not be
 * touched (a memset would be captured, a synchronise would break capture). */
static int capturing(CUstream s)
{
    if (atomic_load(&g_captures) == 0) return 0;
    CUstreamCaptureStatus st = CU_STREAM_CAPTURE_STATUS_NONE;
    GM_GUARD_BEGIN();
    CUresult r = gm_cu.cuStreamIsCapturing(s, &st);
    GM_GUARD_END();
    return r == CUDA_SUCCESS && st != CU_STREAM_CAPTURE_STATUS_NONE;
}

static int by_address(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)*(struct gm_modinst *const *)a, y = (uintptr_t)*(struct gm_modinst *const *)b;
    return x < y ? -1 : x > y;
}

/* This launch's own copy of its modules (a graph launch on another thread
 * may rebuild fi->mods meanwhile), sorted: locks are taken in that order. */
static int take_mods(struct gm_launch_state *ls, const struct gm_fninfo *fi)
{
    ls->nmods = 0;
    if (fi->nmods > ls->cap) {
        void *p = realloc(ls->mods, fi->nmods * sizeof *ls->mods);
        if (!p) return -1;
        ls->mods = p, ls->cap = fi->nmods;
    }
    memcpy(ls->mods, fi->mods, fi->nmods * sizeof *ls->mods);
    ls->nmods = fi->nmods;
    if (ls->nmods > 1) qsort(ls->mods, ls->nmods, sizeof *ls->mods, by_address);
    ls->name = fi->name;
    ls->graph = fi->key.fn == &g_graph_tag;
    ls->sync = ls->traced = 0;
    for (uint32_t i = 0; i < ls->nmods; i++) {
        ls->sync |= ls->mods[i]->alloctab_global != 0;
        ls->traced |= ls->mods[i]->traced;
    }
    return 0;
}

/* Its kernel time, from CUPTI activity: per launch, and per kernel for the
 * modules whose counts it makes (none when it is not measured). */
static void time_launch(const CUpti_CallbackData *cb, const struct gm_launch_state *ls, int inst,
                        CUgraphExec exec)
{
    const struct gm_rt_sitetab *tabs[ls->nmods + 1];
    uint32_t n = 0;
    for (uint32_t i = 0; inst && !ls->discard && i < ls->nmods; i++) tabs[n++] = ls->mods[i]->tab;
    struct gm_tls *t = gm_tls();
    gm_gputime_launch(cb->correlationId, t->api_depth > 1 ? t->outer_corr : 0, ls->rec,
                      inst ? ls->name : NULL, exec, tabs, n);
}

/* Not measured: run K's uninstrumented copy if the module has one (1 if
 * switched). Its launch still owns the counters as not measured (they are
 * zeroed, read only to check that the copies counted nothing), so counts
 * stay exact whatever ran. */
static int run_native(CUpti_CallbackId cbid, const CUpti_CallbackData *cb, struct gm_fninfo *fi,
                      const struct launch_desc *d, int graph)
{
    int switched = 0;
    if (!graph) {
        pthread_mutex_lock(&gm_st.launch_lock);
        if (!fi->native.known) gm_native_lookup(&fi->native, d->fn, fi->name);
        switched = gm_native_switch(&fi->native, cbid, cb);
        pthread_mutex_unlock(&gm_st.launch_lock);
    }
    gm_select_unmeasured(switched);
    return switched;
}

static void launch_enter(CUpti_CallbackId cbid, const CUpti_CallbackData *cb,
                         const struct launch_desc *d, int graph)
{
    static _Thread_local struct gm_launch_state ls;
    if (capturing(d->stream)) {
        pthread_mutex_lock(&gm_st.lock);
        if (graph) gm_st.graph_launches++;
        else gm_st.captured_launches++;
        if (!graph) remember_captured(d->fn, cb->context, cb->symbolName);
        pthread_mutex_unlock(&gm_st.lock);
        return;
    }
    GM_GUARD_BEGIN();
    if (graph) {
        pthread_mutex_lock(&gm_st.lock);
        gm_st.graph_launches++;
        pthread_mutex_unlock(&gm_st.lock);
    }
    pthread_mutex_lock(&gm_st.launch_lock);
    struct gm_fninfo *fi = graph ? graph_fninfo(cb->context) : resolve(d->fn, cb->context, cb->symbolName);
    int inst = fi && fi->nmods > 0 && take_mods(&ls, fi) == 0;
    pthread_mutex_unlock(&gm_st.launch_lock);
    ls.discard = inst && !gm_select_launch(ls.name);
    /* a module with a trace buffer keeps its kernel: the trace's own
     * selection (GPUMEM_TRACE_*) may want this launch's records */
    ls.native = ls.discard && !ls.traced && run_native(cbid, cb, fi, d, graph);
    if (ls.discard) { /* not selected: its counts are thrown away */
        static const char *unmeasured, *copies; /* owners apart: the copies' counts are checked */
        if (!unmeasured) unmeasured = gm_intern("[not measured]"), copies = gm_intern("[not measured, copy]");
        ls.name = ls.native ? copies : unmeasured;
        ls.graph = 0;
    }
    CUdevice dev = -1;
    ls.seq = record_launch(fi, d, inst, cb->context, &dev);
    ls.rec = gm_tls()->launch_rec;
    time_launch(cb, &ls, inst, d->exec);
    if (inst) {
        gm_col_enter(&ls, d->stream);
        for (uint32_t i = 0; ls.sync && i < ls.nmods; i++) {
            if (ls.discard) gm_alloctab_off(ls.mods[i]);
            else gm_alloctab_enter(ls.mods[i], d->stream, (int)dev);
        }
        struct gm_trace_launch_args ta = {
            .func = (CUfunction)d->fn, .name = fi->name, .dyn_shared = d->shmem,
            .stream = d->stream, .modules = &gm_st.reg, .allocs = &gm_st.allocs };
        memcpy(ta.grid, d->grid, sizeof ta.grid);
        memcpy(ta.block, d->block, sizeof ta.block);
        if (ls.traced) { /* some module has a trace buffer */
            pthread_mutex_lock(&gm_st.lock);
            gm_trace_launch_begin(&ta);
            pthread_mutex_unlock(&gm_st.lock);
        }
    }
    GM_GUARD_END();
    gm_tls()->launch = inst ? &ls : NULL;
}

static void launch_exit(const CUpti_CallbackData *cb, const struct launch_desc *d)
{
    struct gm_tls *t = gm_tls();
    struct gm_launch_state *ls = t->launch;
    if (!ls) return;
    t->launch = NULL;
    GM_GUARD_BEGIN();
    const CUresult *ret = cb->functionReturnValue;
    int ok = ret && *ret == CUDA_SUCCESS;
    gm_col_end(ls, d->stream, ok);
    if (ls->sync) { /* per-launch allocation counters: wait for the kernel */
        CUresult r = ok ? gm_cu.cuStreamSynchronize(d->stream) : CUDA_SUCCESS;
        for (uint32_t i = 0; i < ls->nmods; i++) {
            if (ok && r == CUDA_SUCCESS) gm_alloctab_exit(ls->mods[i], ls->seq);
            else ls->mods[i]->up.active = 0;
        }
        if (r != CUDA_SUCCESS) gm_warn("kernel %s failed (%s); its counters are not read",
                                       ls->name, gm_cu_err(r));
    }
    if (ls->traced) gm_trace_launch_end();
    gm_col_release(ls);
    GM_GUARD_END();
}

void gm_on_launch(CUpti_CallbackId cbid, const CUpti_CallbackData *cb)
{
    struct launch_desc d;
    decode(cbid, cb, &d);
    if (cb->callbackSite == CUPTI_API_ENTER) launch_enter(cbid, cb, &d, is_graph(cbid));
    else launch_exit(cb, &d);
}

void gm_on_context_destroy(CUcontext ctx)
{
    atomic_fetch_add(&g_ctx_gen, 1);
    /* what its launches counted, while it still exists (bounded waits: the
     * driver is inside the destruction) */
    gm_col_drain(ctx, 1);
    gm_trace_context_destroy(ctx); /* its traced launches, drained while it exists */
    /* the context frees its memory; forget what pointed into it */
    pthread_mutex_lock(&gm_st.launch_lock);
    struct gm_fninfo *fi, *tmp;
    HASH_ITER(hh, gm_st.fns, fi, tmp) {
        if (fi->key.ctx != ctx) continue;
        HASH_DEL(gm_st.fns, fi);
        free(fi->mods);
        free(fi);
    }
    for (struct gm_modinst **pm = &gm_st.mods; *pm;) {
        struct gm_modinst *m = *pm;
        if (m->ctx != ctx) {
            pm = &m->next;
            continue;
        }
        *pm = m->next;
        pthread_rwlock_wrlock(&m->rw); /* no launch of it in progress */
        pthread_rwlock_unlock(&m->rw);
        gm_col_modinst_free(m);
        free(m->sets);
        free(m->up.ids), free(m->up.sizes), free(m->up.ranges);
        free(m);
    }
    pthread_mutex_lock(&gm_st.sync_lock);
    gm_alloctab_forget_ctx(ctx);
    pthread_mutex_unlock(&gm_st.sync_lock);
    gm_col_forget_ctx(ctx);
    pthread_mutex_unlock(&gm_st.launch_lock);
}
