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
 * A launch's entry goes once its kernels' records arrived: one for a
 * kernel, one per kernel node for a graph (counted when the graph is
 * instantiated). A graph whose kernels cannot be counted (conditional
 * nodes) keeps its entry to the end.
 * Launches wait in an open-addressed table (idtab.h; no allocation per
 * launch: records arrive only when CUPTI hands over a full buffer, ~10^4
 * launches); graph executables in a uthash map.
 * Depends on rt.h (gm_cu, gm_st, kstats), idtab.h and uthash; not on
 * collect.c.
 */
#include "idtab.h"
#include "rt.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#define GM_ACT_BUF (4u << 20)
#define GM_PEND_TABS 4u         /* modules kept inline per launch */

/* One launch under one correlation id (the table's key: first). */
struct pending {
    uint32_t corr;
    uint32_t twin;              /* the same launch's other id, or 0 */
    uint32_t left;              /* kernel records still to come; 0: not known, kept to the end */
    uint32_t ntabs;
    size_t rec;                 /* index in gm_st.launch_recs, or SIZE_MAX */
    const char *name;           /* kernel (interned) */
    const struct gm_rt_sitetab *tab[GM_PEND_TABS];
    const struct gm_rt_sitetab **more;  /* ntabs > GM_PEND_TABS: its own copy */
};

/* Kernel nodes of an instantiated graph (-1: not known). */
struct gexec {
    UT_hash_handle hh;
    CUgraphExec exec;
    int64_t kernels;
};

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER; /* guards g_tab, g_execs */
static struct gm_idtab g_tab = GM_IDTAB_INIT(struct pending);
static struct gexec *g_execs;
static atomic_size_t g_waiting;  /* launches (twins once) with records still to come */
static int g_on;

static void CUPTIAPI buf_requested(uint8_t **buf, size_t *size, size_t *max_records)
{
    *buf = aligned_alloc(8, GM_ACT_BUF);
    *size = *buf ? GM_ACT_BUF : 0;
    *max_records = 0;
}

static struct pending *find(uint32_t corr) { return gm_idtab_find(&g_tab, corr); }

static const struct gm_rt_sitetab *const *tabs_of(const struct pending *p)
{
    return p->ntabs > GM_PEND_TABS ? p->more : p->tab;
}

static void erase(struct pending *p)
{
    free(p->more);
    gm_idtab_del(&g_tab, p);
}

static void unlink_pending(struct pending *p)
{
    if (p->left) atomic_fetch_sub(&g_waiting, 1);
    uint32_t twin = p->twin;
    erase(p);
    struct pending *q = twin ? find(twin) : NULL;
    if (q) erase(q);
}

/* Inserts v (replacing an entry under the same id); 0 on success. */
static int put(const struct pending *v)
{
    struct pending *old = find(v->corr);
    if (old) unlink_pending(old);
    return gm_idtab_add(&g_tab, v) ? 0 : -1;
}

/* Under g_lock: the kernel record's time goes to its launch and kernel. */
static void fold(uint32_t corr, uint64_t start, uint64_t end)
{
    struct pending *p = find(corr);
    if (!p) return;                     /* not a launch the runtime saw */
    int64_t ns = end > start ? (int64_t)(end - start) : 0;
    const struct gm_rt_sitetab *const *tabs = tabs_of(p);
    pthread_mutex_lock(&gm_st.lock);
    if (p->rec < gm_st.nlaunch_recs) {
        struct gm_launch_rec *l = &gm_st.launch_recs[p->rec];
        l->gpu_ns = (l->gpu_ns < 0 ? 0 : l->gpu_ns) + ns;
    }
    for (uint32_t i = 0; i < p->ntabs; i++) {
        struct gm_kstat *k = gm_kstat_get(p->name, tabs[i]);
        if (k) k->gpu_ns = (k->gpu_ns < 0 ? 0 : k->gpu_ns) + ns;
    }
    pthread_mutex_unlock(&gm_st.lock);
    if (!p->left) return;               /* a graph of unknown kernels: kept to the end */
    struct pending *q = p->twin ? find(p->twin) : NULL;
    if (q) q->left = p->left - 1;
    if (--p->left == 0) {
        atomic_fetch_sub(&g_waiting, 1);
        unlink_pending(p);
    }
}

static void CUPTIAPI buf_completed(CUcontext ctx, uint32_t stream, uint8_t *buf, size_t size,
                                   size_t valid)
{
    (void)ctx, (void)stream, (void)size;
    CUpti_Activity *rec = NULL;
    /* the lock per record: a launching thread never waits for a whole buffer */
    while (gm_cu.cuptiActivityGetNextRecord(buf, valid, &rec) == CUPTI_SUCCESS) {
        if (rec->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) continue;
        const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)rec;
        pthread_mutex_lock(&g_lock);
        fold(k->correlationId, k->start, k->end);
        pthread_mutex_unlock(&g_lock);
    }
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

/* The launch under id corr (twin: its other id, or 0); under g_lock; 0 on success. */
static int put_launch(uint32_t corr, uint32_t twin, size_t rec, const char *name, uint32_t left,
                      const struct gm_rt_sitetab *const *tabs, uint32_t ntabs)
{
    struct pending v = {.corr = corr, .twin = twin, .rec = rec, .name = name, .left = left,
                        .ntabs = ntabs};
    if (ntabs > GM_PEND_TABS) {
        if (!(v.more = malloc(ntabs * sizeof *v.more))) return -1;
        memcpy(v.more, tabs, ntabs * sizeof *v.more);
    } else if (ntabs) {
        memcpy(v.tab, tabs, ntabs * sizeof *v.tab);
    }
    if (put(&v) == 0) return 0;
    free(v.more);
    return -1;
}

/* Kernel records a launch makes: 1 for a kernel, a graph's kernel nodes,
 * or -1 when not known (a graph instantiated unseen). */
static int64_t records_of(CUgraphExec exec)
{
    if (!exec) return 1;
    pthread_mutex_lock(&g_lock);
    struct gexec *e;
    HASH_FIND(hh, g_execs, &exec, sizeof exec, e);
    int64_t k = e ? e->kernels : -1;
    pthread_mutex_unlock(&g_lock);
    return k;
}

void gm_gputime_launch(uint32_t corr, uint32_t outer_corr, size_t rec, const char *name,
                       CUgraphExec exec, const struct gm_rt_sitetab *const *tabs, uint32_t ntabs)
{
    if (!g_on || !corr) return;
    int64_t k = records_of(exec);
    if (k == 0) return;                 /* a graph without kernels: nothing to time */
    uint32_t left = k > 0 && k <= UINT32_MAX ? (uint32_t)k : 0;
    uint32_t twin = outer_corr != corr ? outer_corr : 0;
    pthread_mutex_lock(&g_lock);
    if (put_launch(corr, twin, rec, name, left, tabs, ntabs) == 0) {
        if (left) atomic_fetch_add(&g_waiting, 1);
        if (twin && put_launch(twin, corr, rec, name, left, tabs, ntabs) != 0) {
            struct pending *p = find(corr);     /* no half-registered launch */
            if (p) unlink_pending(p);
        }
    }
    pthread_mutex_unlock(&g_lock);
}

void gm_gputime_flush(void)
{
    if (g_on) gm_cu.cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
}

/* Kernel nodes of graph g, its child graphs' included; -1 when not known
 * (a conditional node runs its body a data-dependent number of times). */
static int64_t count_kernels(CUgraph g, int depth)
{
    size_t n = 0;
    if (depth > 16 || gm_cu.cuGraphGetNodes(g, NULL, &n) != CUDA_SUCCESS) return -1;
    CUgraphNode *v = n ? malloc(n * sizeof *v) : NULL;
    if (n && (!v || gm_cu.cuGraphGetNodes(g, v, &n) != CUDA_SUCCESS)) {
        free(v);
        return -1;
    }
    int64_t k = 0;
    for (size_t i = 0; i < n && k >= 0; i++) {
        CUgraphNodeType t;
        CUgraph child;
        if (gm_cu.cuGraphNodeGetType(v[i], &t) != CUDA_SUCCESS) k = -1;
        else if (t == CU_GRAPH_NODE_TYPE_KERNEL) k++;
        else if (t == CU_GRAPH_NODE_TYPE_GRAPH) {
            int64_t c = gm_cu.cuGraphChildGraphNodeGetGraph(v[i], &child) == CUDA_SUCCESS
                        ? count_kernels(child, depth + 1) : -1;
            k = c < 0 ? -1 : k + c;
        }
#if CUDA_VERSION >= 12030
        else if (t == CU_GRAPH_NODE_TYPE_CONDITIONAL) k = -1;
#endif
    }
    free(v);
    return k;
}

static void set_exec(CUgraphExec exec, int64_t kernels)
{
    pthread_mutex_lock(&g_lock);
    struct gexec *e;
    HASH_FIND(hh, g_execs, &exec, sizeof exec, e);
    if (!e && kernels != -1 && (e = calloc(1, sizeof *e))) {
        e->exec = exec;
        HASH_ADD(hh, g_execs, exec, sizeof e->exec, e);
    }
    if (e && kernels == -1) { /* destroyed, or not known: launches keep to the end */
        HASH_DEL(g_execs, e);
        free(e);
    } else if (e) {
        e->kernels = kernels;
    }
    pthread_mutex_unlock(&g_lock);
}

void gm_gputime_graph_instantiated(CUgraphExec exec, CUgraph graph)
{
    if (!g_on || !exec) return;
    GM_GUARD_BEGIN();
    int64_t k = count_kernels(graph, 0);
    GM_GUARD_END();
    set_exec(exec, k);
}

void gm_gputime_graph_destroyed(CUgraphExec exec)
{
    if (g_on && exec) set_exec(exec, -1);
}

size_t gm_gputime_waiting(void)
{
    return atomic_load(&g_waiting);
}
