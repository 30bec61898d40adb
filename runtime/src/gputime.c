/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kernel time without touching the launch path: CUPTI's activity API
 * (CONCURRENT_KERNEL records, timestamps taken by the driver and the GPU)
 * delivers each kernel's start and end in buffers, off the program's
 * threads. A launch registers its correlation ids here (the driver call's
 * and the runtime call's around it); a record that arrives with one of
 * them gives that launch's gpu_ns and adds to its kernel's total. CUDA
 * events around every launch cost about 5 us of host time per launch on
 * an H100 (bench/results/launch-2026-11-27.md) and are gone.
 * Depends on rt.h (gm_cu, gm_st, kstats) and uthash; not on collect.c.
 */
#include "rt.h"

#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#define GM_ACT_BUF (4u << 20)

struct pending {
    UT_hash_handle hh;
    uint32_t corr;
    struct pending *twin;       /* the same launch under its other id, or NULL */
    size_t rec;                 /* index in gm_st.launch_recs, or SIZE_MAX */
    const char *name;           /* kernel (interned) */
    int graph;                  /* a graph launch: several kernels, kept to the end */
    uint32_t ntabs;
    const struct gm_rt_sitetab *tabs[];
};

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER; /* guards g_pending */
static struct pending *g_pending;
static int g_on;

static void CUPTIAPI buf_requested(uint8_t **buf, size_t *size, size_t *max_records)
{
    *buf = aligned_alloc(8, GM_ACT_BUF);
    *size = *buf ? GM_ACT_BUF : 0;
    *max_records = 0;
}

static void unlink_pending(struct pending *p)
{
    HASH_DEL(g_pending, p);
    if (p->twin) {
        HASH_DEL(g_pending, p->twin);
        free(p->twin);
    }
    free(p);
}

/* Under g_lock: the kernel record's time goes to its launch and kernel. */
static void fold(uint32_t corr, uint64_t start, uint64_t end)
{
    struct pending *p;
    HASH_FIND(hh, g_pending, &corr, sizeof corr, p);
    if (!p) return;                     /* not a launch the runtime saw */
    int64_t ns = end > start ? (int64_t)(end - start) : 0;
    pthread_mutex_lock(&gm_st.lock);
    if (p->rec < gm_st.nlaunch_recs) {
        struct gm_launch_rec *l = &gm_st.launch_recs[p->rec];
        l->gpu_ns = (l->gpu_ns < 0 ? 0 : l->gpu_ns) + ns;
    }
    for (uint32_t i = 0; i < p->ntabs; i++) {
        struct gm_kstat *k = gm_kstat_get(p->name, p->tabs[i]);
        if (k) k->gpu_ns = (k->gpu_ns < 0 ? 0 : k->gpu_ns) + ns;
    }
    pthread_mutex_unlock(&gm_st.lock);
    if (!p->graph) unlink_pending(p);
}

static void CUPTIAPI buf_completed(CUcontext ctx, uint32_t stream, uint8_t *buf, size_t size,
                                   size_t valid)
{
    (void)ctx, (void)stream, (void)size;
    CUpti_Activity *rec = NULL;
    pthread_mutex_lock(&g_lock);
    while (gm_cu.cuptiActivityGetNextRecord(buf, valid, &rec) == CUPTI_SUCCESS) {
        if (rec->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) continue;
        const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)rec;
        fold(k->correlationId, k->start, k->end);
    }
    pthread_mutex_unlock(&g_lock);
    free(buf);
}

int gm_gputime_start(void)
{
    const char *inj = getenv("CUDA_INJECTION64_PATH");
    if (inj && *inj) { /* GPUMEM_FORCE beside a tool: the activity API is that tool's */
        gm_warn("kernel times are not measured: the injected tool %s may own CUPTI's activity API", inj);
        return -1;
    }
    if (!gm_cu.cuptiActivityRegisterCallbacks || !gm_cu.cuptiActivityEnable ||
        !gm_cu.cuptiActivityGetNextRecord || !gm_cu.cuptiActivityFlushAll) {
        gm_warn("CUPTI has no activity API; kernel times are not measured");
        return -1;
    }
    CUptiResult r = gm_cu.cuptiActivityRegisterCallbacks(buf_requested, buf_completed);
    if (r == CUPTI_SUCCESS) r = gm_cu.cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    if (r != CUPTI_SUCCESS) {
        const char *s = NULL;
        gm_cu.cuptiGetResultString(r, &s);
        gm_warn("cannot enable CUPTI kernel activity (%s); kernel times are not measured",
                s ? s : "unknown CUPTI error");
        return -1;
    }
    g_on = 1;
    return 0;
}

static struct pending *new_pending(uint32_t corr, size_t rec, const char *name, int graph,
                                   const struct gm_rt_sitetab *const *tabs, uint32_t ntabs)
{
    struct pending *p = malloc(sizeof *p + ntabs * sizeof p->tabs[0]);
    if (!p) return NULL;
    *p = (struct pending){.corr = corr, .rec = rec, .name = name, .graph = graph, .ntabs = ntabs};
    if (ntabs) memcpy(p->tabs, tabs, ntabs * sizeof p->tabs[0]);
    return p;
}

void gm_gputime_launch(uint32_t corr, uint32_t outer_corr, size_t rec, const char *name,
                       int graph, const struct gm_rt_sitetab *const *tabs, uint32_t ntabs)
{
    if (!g_on || !corr) return;
    struct pending *p = new_pending(corr, rec, name, graph, tabs, ntabs), *q = NULL;
    if (p && outer_corr && outer_corr != corr &&
        (q = new_pending(outer_corr, rec, name, graph, tabs, ntabs)))
        p->twin = q, q->twin = p;
    if (!p) return;
    pthread_mutex_lock(&g_lock);
    struct pending *old;
    HASH_FIND(hh, g_pending, &p->corr, sizeof p->corr, old);
    if (old) unlink_pending(old);
    HASH_ADD(hh, g_pending, corr, sizeof p->corr, p);
    if (q) {
        HASH_FIND(hh, g_pending, &q->corr, sizeof q->corr, old);
        if (old) unlink_pending(old);
        HASH_ADD(hh, g_pending, corr, sizeof q->corr, q);
    }
    pthread_mutex_unlock(&g_lock);
}

void gm_gputime_flush(void)
{
    if (g_on) gm_cu.cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
}
