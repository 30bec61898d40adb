/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Parallel driver, exact: per window of records (pieces of up to GM_JBLK),
 * (0) bucket records by the thread owning their SM (order kept), (1) each thread runs its SMs' L1s and
 * queues L2 requests per L2 set group (set % threads), (2) each thread runs
 * one set group, taking requests in global record order. An L1 depends only
 * on its SM's records in order and an L2 set only on its own requests in
 * order, so the counts equal the serial driver's. No shared mutable state
 * between threads inside a phase. No I/O.
 */
#include <stdlib.h>
#include <string.h>
#include "model.h"
#include "gm_grow.h"

struct arg { struct gm_sim *s; uint32_t t; };

static uint32_t sm_of(const struct gm_sim *s, const struct gm_access *a)
{
    return a->smid < s->cfg.sm_count ? a->smid : a->smid % s->cfg.sm_count;
}

/* Thread t's share of the window's blocks: [*lo, *hi). */
static void share(const struct gm_sim *s, uint32_t t, uint32_t *lo, uint32_t *hi)
{
    uint32_t T = s->cfg.threads;
    *lo = (uint32_t)((uint64_t)s->njb * t / T);
    *hi = (uint32_t)((uint64_t)s->njb * (t + 1) / T);
}

static void bucket(struct gm_sim *s, uint32_t t)
{
    uint32_t T = s->cfg.threads, lo, hi;
    size_t *cnt = s->w[t].cnt;
    uint32_t *per_sm = s->w[t].sm_cnt;
    memset(cnt, 0, T * sizeof *cnt);
    memset(per_sm, 0, s->cfg.sm_count * sizeof *per_sm);
    share(s, t, &lo, &hi);
    for (uint32_t b = lo; b < hi; b++) {
        const struct gm_access *r = s->jb[b].recs;
        uint8_t *own = s->own + ((size_t)b << GM_JBLK_SHIFT);
        for (long i = 0; i < s->jb[b].n; i++) {
            uint32_t sm = sm_of(s, &r[i]), o = s->sm_owner[sm];
            own[i] = (uint8_t)o;
            cnt[o]++;
            per_sm[sm]++;
        }
    }
}

/* Scatters thread t's blocks into idx, owner by owner (order kept). */
static void scatter(struct gm_sim *s, uint32_t t)
{
    uint32_t T = s->cfg.threads, lo, hi;
    size_t pos[256], base = 0;
    for (uint32_t o = 0; o < T; o++) {
        size_t before = 0, total = 0;
        for (uint32_t u = 0; u < T; u++) {
            if (u < t) before += s->w[u].cnt[o];
            total += s->w[u].cnt[o];
        }
        pos[o] = base + before;
        if (o == t) s->w[t].cnt_base = base;
        base += total;
    }
    share(s, t, &lo, &hi);
    for (uint32_t b = lo; b < hi; b++) {
        size_t first = (size_t)b << GM_JBLK_SHIFT;
        for (long i = 0; i < s->jb[b].n; i++) s->idx[pos[s->own[first + i]]++] = (uint32_t)(first + i);
    }
}

static const struct gm_access *rec_at(const struct gm_sim *s, uint32_t i)
{
    return &s->jb[i >> GM_JBLK_SHIFT].recs[i & (GM_JBLK - 1)];
}

static void l1_phase(struct gm_sim *s, uint32_t t)
{
    struct gm_worker *w = &s->w[t];
    size_t n = 0;
    for (uint32_t u = 0; u < s->cfg.threads; u++) n += s->w[u].cnt[t];
    for (uint32_t g = 0; g < s->cfg.threads; g++) w->out[g].n = 0;
    for (size_t k = w->cnt_base; k < w->cnt_base + n; k++) {
        if (k + 4 < w->cnt_base + n) __builtin_prefetch(rec_at(s, s->idx[k + 4]));
        gm_model_coalesce(s, w, rec_at(s, s->idx[k]), s->idx[k]);
        if (w->nbuf > GM_LBUF) gm_model_lines(s, w, 1);
    }
    gm_model_lines(s, w, 1);
}

/* Queue heads ordered by the record of their next request (a binary
 * min-heap of queue indices). */
struct heads { uint32_t n, u[256]; uint32_t rec[256]; };

static void sift_down(struct heads *h, uint32_t i)
{
    for (;;) {
        uint32_t l = 2 * i + 1, m = i;
        if (l < h->n && h->rec[l] < h->rec[m]) m = l;
        if (l + 1 < h->n && h->rec[l + 1] < h->rec[m]) m = l + 1;
        if (m == i) return;
        uint32_t tu = h->u[i], tr = h->rec[i];
        h->u[i] = h->u[m]; h->rec[i] = h->rec[m];
        h->u[m] = tu; h->rec[m] = tr;
        i = m;
    }
}

/* Group g's requests in record order: each thread's queue for g is in
 * record order already. Few requests for the records of the window (a
 * coalesced warp touches one group in T): merged by a heap of the queues'
 * heads, a record's adjacent requests at a time, O(log T) each; many (a
 * gather touches most groups): by walking the records and taking each
 * one's requests from its owner's queue, O(1) per record. The read
 * positions are this thread's (at[]): the queues' descriptors of two
 * groups share cache lines, and are only read here. */
static size_t merge_queues(struct gm_sim *s, uint32_t g, struct gm_worker *w, size_t nreq)
{
    uint32_t T = s->cfg.threads;
    size_t k = 0, nrec = 0, at[256] = {0};
    for (uint32_t b = 0; b < s->njb; b++) nrec += (size_t)s->jb[b].n;
    if (4 * nreq < nrec) {
        struct heads h = {0};
        for (uint32_t u = 0; u < T; u++) {
            const struct gm_reqvec *v = &s->w[u].out[g];
            if (v->n) { h.u[h.n] = u; h.rec[h.n++] = v->v[0].rec; }
        }
        for (uint32_t i = h.n / 2; i-- > 0;) sift_down(&h, i);
        while (h.n) {
            uint32_t u = h.u[0], rec = h.rec[0];
            const struct gm_l2req *q = s->w[u].out[g].v;
            size_t n = s->w[u].out[g].n, i = at[u];
            do w->merged[k++] = &q[i++];
            while (i < n && q[i].rec == rec);
            at[u] = i;
            if (i < n) h.rec[0] = q[i].rec;
            else { h.n--; h.u[0] = h.u[h.n]; h.rec[0] = h.rec[h.n]; }
            sift_down(&h, 0);
        }
        return k;
    }
    for (uint32_t b = 0; b < s->njb; b++) {   /* record by record: its owner's queue */
        size_t first = (size_t)b << GM_JBLK_SHIFT;
        for (long i = 0; i < s->jb[b].n; i++) {
            uint32_t u = s->own[first + i];
            const struct gm_reqvec *v = &s->w[u].out[g];
            size_t j = at[u];
            while (j < v->n && v->v[j].rec == first + i) w->merged[k++] = &v->v[j++];
            at[u] = j;
        }
    }
    return k;
}

/* Group g's requests in record order (merged from every thread's queue),
 * run through the L2 (gm_model_l2_run). */
static void l2_phase(struct gm_sim *s, uint32_t g)
{
    struct gm_worker *w = &s->w[g];
    size_t n = 0;
    for (uint32_t u = 0; u < s->cfg.threads; u++) n += s->w[u].out[g].n;
    if (GM_GROW_TO(w->merged, w->nmerged_cap, n)) { w->oom = 1; return; }
    size_t k = merge_queues(s, g, w, n);
    gm_model_l2_run(s, w, w->merged, k);
}

/* Thread t's part of a window, each phase's work timed (w->ph). */
static void phases(struct gm_sim *s, uint32_t t)
{
    double *ph = s->w[t].ph, t0 = gm_mono(), t1;
    if (s->run_fn) {   /* gm_sim_run_workers */
        s->run_fn(s->run_ctx, t, s->cfg.threads);
        ph[GM_PH_DECODE] = gm_mono() - t0;
        return;
    }
    bucket(s, t);
    ph[GM_PH_BUCKET] = gm_mono() - t0;
    gm_bar_wait(&s->bar);
    t0 = gm_mono();
    scatter(s, t);
    t1 = gm_mono();
    ph[GM_PH_BUCKET] += t1 - t0;
    gm_bar_wait(&s->bar);
    t0 = gm_mono();
    l1_phase(s, t);
    t1 = gm_mono();
    ph[GM_PH_L1] = t1 - t0;
    gm_bar_wait(&s->bar);
    t0 = gm_mono();
    l2_phase(s, t);
    ph[GM_PH_L2] = gm_mono() - t0;
}

/* After a window (every thread past its last barrier): its phase times
 * into s->pt; wall: when the window started. */
static void account(struct gm_sim *s, double wall)
{
    s->pt.wall += gm_mono() - wall;
    for (uint32_t p = 0; p < GM_PH_N; p++) {
        double most = 0;
        for (uint32_t t = 0; t < s->cfg.threads; t++) {
            double x = s->w[t].ph[p];
            s->pt.busy[p] += x;
            most = x > most ? x : most;
            s->w[t].ph[p] = 0;
        }
        s->pt.slowest[p] += most;
    }
}

static void *worker(void *p)
{
    struct arg *a = p;
    struct gm_sim *s = a->s;
    uint32_t t = a->t;
    free(a);
    for (;;) {
        gm_bar_wait(&s->bar);
        if (s->stop) break;
        phases(s, t);
        gm_bar_wait(&s->bar);
    }
    return NULL;
}

int gm_parallel_start(struct gm_sim *s)
{
    uint32_t T = s->cfg.threads;
    for (uint32_t t = 0; t < T; t++) {
        s->w[t].cnt = calloc(T, sizeof *s->w[t].cnt);
        s->w[t].out = calloc(T, sizeof *s->w[t].out);
        s->w[t].sm_cnt = calloc(s->cfg.sm_count, sizeof *s->w[t].sm_cnt);
        if (!s->w[t].cnt || !s->w[t].out || !s->w[t].sm_cnt) return -1;
    }
    uint32_t wb = (s->cfg.window + GM_JBLK - 1) / GM_JBLK;
    s->jb_max = wb > 2 * T ? wb : 2 * T;   /* at least two pieces per thread */
    s->jb = calloc(s->jb_max, sizeof *s->jb);
    s->idx = malloc((size_t)s->jb_max * GM_JBLK * sizeof *s->idx);
    s->own = malloc((size_t)s->jb_max * GM_JBLK);
    if (!s->jb) return -1;
    s->sm_owner = malloc(s->cfg.sm_count);
    s->sm_key = malloc(s->cfg.sm_count * sizeof *s->sm_key);
    if (!s->sm_owner || !s->sm_key) return -1;
    for (uint32_t sm = 0; sm < s->cfg.sm_count; sm++) s->sm_owner[sm] = (uint8_t)(sm % T);
    pthread_t *tid = calloc(T, sizeof *tid);
    if (!s->idx || !s->own || !tid) { free(tid); return -1; }
    if (gm_bar_init(&s->bar, T)) { free(tid); return -1; }
    s->tid = tid;   /* from here on gm_parallel_stop ends what was started */
    for (uint32_t t = 1; t < T; t++) {
        struct arg *a = malloc(sizeof *a);
        if (!a) return -1;
        *a = (struct arg){s, t};
        if (pthread_create(&s->tid[t], NULL, worker, a)) { free(a); return -1; }
        s->started++;
    }
    return 0;
}

/* Stops the workers, also after a start that could create only some of
 * them: the missing ones arrive at the barrier by proxy. */
void gm_parallel_stop(struct gm_sim *s)
{
    s->stop = 1;
    uint32_t g = atomic_load_explicit(&s->bar.gen, memory_order_acquire);
    for (uint32_t t = 1 + s->started; t < s->cfg.threads; t++) gm_bar_arrive(&s->bar, g);
    gm_bar_wait(&s->bar);
    for (uint32_t t = 1; t <= s->started; t++) pthread_join(s->tid[t], NULL);
    gm_bar_destroy(&s->bar);
    free(s->tid);
    s->tid = NULL;
}

static int by_load(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* SMs to threads for the next window, by this window's records per SM:
 * the busiest SM first, each to the least loaded thread (an SM's L1 is
 * run by one thread within a window, by any between windows; the counts
 * do not depend on it). sm % threads would leave 9 SMs to some of 16
 * threads and 8 to others (H100: 132 SMs). */
static void rebalance(struct gm_sim *s, uint64_t *key)
{
    uint32_t T = s->cfg.threads, n = s->cfg.sm_count;
    uint64_t load[256] = {0};
    for (uint32_t sm = 0; sm < n; sm++) {
        uint64_t c = 0;
        for (uint32_t t = 0; t < T; t++) c += s->w[t].sm_cnt[sm];
        key[sm] = c << 20 | (n - 1 - sm);   /* ties: lower SM first */
    }
    qsort(key, n, sizeof *key, by_load);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t sm = n - 1 - (uint32_t)(key[i] & 0xfffff), best = 0;
        for (uint32_t t = 1; t < T; t++) best = load[t] < load[best] ? t : best;
        s->sm_owner[sm] = (uint8_t)best;
        load[best] += (key[i] >> 20) + 1;
    }
}

/* Runs the window in s->jb (s->njb blocks) on all threads. */
static void run_window(struct gm_sim *s)
{
    double t0 = gm_mono();
    gm_bar_wait(&s->bar);
    phases(s, 0);
    gm_bar_wait(&s->bar);
    account(s, t0);
    for (uint32_t t = 0; t < s->cfg.threads; t++)
        if (s->w[t].oom) s->err = "out of memory for the L2 request queues: counts would be wrong";
}

void gm_parallel_feed(struct gm_sim *s, const struct gm_access *recs, size_t n)
{
    for (size_t off = 0; off < n && !s->err;) {
        for (s->njb = 0; s->njb < s->jb_max && off < n; s->njb++, off += GM_JBLK)
            s->jb[s->njb] = (struct gm_jblk){recs + off, n - off < GM_JBLK ? (long)(n - off) : (long)GM_JBLK};
        run_window(s);
        rebalance(s, s->sm_key);
    }
}

void gm_sim_run_workers(struct gm_sim *s, void (*fn)(void *ctx, uint32_t worker, uint32_t workers), void *ctx)
{
    if (s->cfg.threads == 1) { fn(ctx, 0, 1); return; }
    double t0 = gm_mono();
    s->run_fn = fn;
    s->run_ctx = ctx;
    gm_bar_wait(&s->bar);
    phases(s, 0);
    gm_bar_wait(&s->bar);
    s->run_fn = NULL;
    account(s, t0);
}
