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
 * Depends on rt.h (gm_cu, gm_st, kstats); not on collect.c.
 */
#include "rt.h"

#include <stdlib.h>
#include <string.h>

#define GM_ACT_BUF (4u << 20)
#define GM_PEND_TABS 4u         /* modules kept inline per launch */

/* One launch under one correlation id, in an open-addressed table (linear
 * probing, backward-shift deletion): a launch costs no allocation, since
 * records arrive only when CUPTI hands over a full buffer (~10^4 launches). */
struct pending {
    uint32_t corr;              /* 0: empty */
    uint32_t twin;              /* the same launch's other id, or 0 */
    uint32_t ntabs;
    int graph;                  /* a graph launch: several kernels, kept to the end */
    size_t rec;                 /* index in gm_st.launch_recs, or SIZE_MAX */
    const char *name;           /* kernel (interned) */
    const struct gm_rt_sitetab *tab[GM_PEND_TABS];
    const struct gm_rt_sitetab **more;  /* ntabs > GM_PEND_TABS: its own copy */
};

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER; /* guards the table */
static struct pending *g_tab;
static uint32_t g_bits, g_used;
static int g_on;

static void CUPTIAPI buf_requested(uint8_t **buf, size_t *size, size_t *max_records)
{
    *buf = aligned_alloc(8, GM_ACT_BUF);
    *size = *buf ? GM_ACT_BUF : 0;
    *max_records = 0;
}

static uint32_t mask(void) { return (1u << g_bits) - 1; }
/* Correlation ids grow by one per API call, so the ids in flight fill a
 * window of consecutive slots: no hashing, for locality (a multiplicative
 * hash the bookkeeping measured 0.75 us per launch on the H100 host). */
static uint32_t home(uint32_t corr) { return corr & mask(); }

static struct pending *find(uint32_t corr)
{
    if (!g_tab || !corr) return NULL;
    for (uint32_t i = home(corr);; i = (i + 1) & mask()) {
        if (g_tab[i].corr == corr) return &g_tab[i];
        if (!g_tab[i].corr) return NULL;
    }
}

static const struct gm_rt_sitetab *const *tabs_of(const struct pending *p)
{
    return p->ntabs > GM_PEND_TABS ? p->more : p->tab;
}

/* Removes p, shifting later entries of its probe run back (no tombstones). */
static void erase(struct pending *p)
{
    free(p->more);
    uint32_t i = (uint32_t)(p - g_tab), j = i;
    for (;;) {
        j = (j + 1) & mask();
        if (!g_tab[j].corr) break;
        uint32_t k = home(g_tab[j].corr);
        int stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
        if (!stays) {
            g_tab[i] = g_tab[j];
            i = j;
        }
    }
    g_tab[i].corr = 0;
    g_tab[i].more = NULL;
    g_used--;
}

static void unlink_pending(struct pending *p)
{
    uint32_t twin = p->twin;
    erase(p);
    struct pending *q = twin ? find(twin) : NULL;
    if (q) erase(q);
}

static int put(const struct pending *v);

/* Doubles the table (or makes the first one); 0 on success. */
static int grow(void)
{
    uint32_t ob = g_bits, nb = g_bits ? g_bits + 1 : 12;
    if (nb > 30) return -1;
    struct pending *old = g_tab, *nt = calloc((size_t)1 << nb, sizeof *nt);
    if (!nt) return -1;
    g_tab = nt, g_bits = nb, g_used = 0;
    for (size_t i = 0; ob && i < ((size_t)1 << ob); i++)
        if (old[i].corr) put(&old[i]);
    free(old);
    return 0;
}

/* Inserts v (replacing an entry under the same id); 0 on success. */
static int put(const struct pending *v)
{
    if ((g_used + 1) * 2 > (1u << g_bits) && grow()) return -1;
    struct pending *old = find(v->corr);
    if (old) unlink_pending(old);
    uint32_t i = home(v->corr);
    while (g_tab[i].corr) i = (i + 1) & mask();
    g_tab[i] = *v;
    g_used++;
    return 0;
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
    if (!p->graph) unlink_pending(p);
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

/* The launch under id corr (twin: its other id, or 0); 0 on success. */
static int put_launch(uint32_t corr, uint32_t twin, size_t rec, const char *name, int graph,
                      const struct gm_rt_sitetab *const *tabs, uint32_t ntabs)
{
    struct pending v = {.corr = corr, .twin = twin, .rec = rec, .name = name, .graph = graph,
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

void gm_gputime_launch(uint32_t corr, uint32_t outer_corr, size_t rec, const char *name,
                       int graph, const struct gm_rt_sitetab *const *tabs, uint32_t ntabs)
{
    if (!g_on || !corr) return;
    uint32_t twin = outer_corr != corr ? outer_corr : 0;
    pthread_mutex_lock(&g_lock);
    if (put_launch(corr, twin, rec, name, graph, tabs, ntabs) == 0 && twin &&
        put_launch(twin, corr, rec, name, graph, tabs, ntabs) != 0) {
        struct pending *p = find(corr);     /* no half-registered launch */
        if (p) erase(p);
    }
    pthread_mutex_unlock(&g_lock);
}

void gm_gputime_flush(void)
{
    if (g_on) gm_cu.cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
}
