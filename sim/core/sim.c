/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Simulator API (gpumem/sim.h): lifetime, allocations, modules, launches,
 * and merging of per-thread counters. The per-record model is in model.c,
 * the parallel driver in parallel.c. No I/O.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "model.h"
#include "gm_grow.h"

static void write_back(struct gm_sim *s, struct gm_counts *sum);

/* Sets the sticky error when a counter page could not be allocated. */
static void check_tables(struct gm_sim *s)
{
    int oom = s->allocs.oom || s->sites.oom;
    for (uint32_t t = 0; t < s->cfg.threads; t++) oom |= s->w[t].allocs.oom || s->w[t].sites.oom;
    if (oom && !s->err) s->err = "out of memory for the counters: counts would be wrong";
}

struct gm_sim *gm_sim_new(const struct gm_sim_config *c, const char **err)
{
    if ((*err = gm_sim_config_check(c, 0))) return NULL;
    struct gm_sim *s = calloc(1, sizeof *s);
    if (!s) { *err = "out of memory"; return NULL; }
    s->cfg = *c;
    s->l1 = calloc(c->sm_count, sizeof *s->l1);
    s->l1_gen = calloc(c->sm_count, sizeof *s->l1_gen);
    s->l1_geo = calloc(c->sm_count, sizeof *s->l1_geo);
    s->w = calloc(c->threads, sizeof *s->w);
    s->near = malloc(c->sm_count);
    if (!s->l1 || !s->l1_gen || !s->l1_geo || !s->w || !s->near ||
        gm_cache_init(&s->l2, c->l2_bytes, c->l2_ways, c->l2_repl, c->l2_hash) ||
        (c->threads > 1 && gm_parallel_start(s))) {
        gm_sim_free(s);
        *err = "out of memory";
        return NULL;
    }
    s->l2.fill = c->l2_fill;
    s->l2.parts = c->l2_partitions;
    s->nsites = 1;   /* index 0: unknown site */
    for (uint32_t sm = 0; sm < c->sm_count; sm++) s->near[sm] = (uint8_t)(sm % c->l2_partitions);
    uint64_t per = s->l2.sets / c->l2_partitions;
    s->part_fm = per > 1 ? UINT64_MAX / per + 1 : 0;
    s->grp_fm = UINT64_MAX / c->threads + 1;
    return s;
}

void gm_sim_free(struct gm_sim *s)
{
    if (!s) return;
    if (s->tid) gm_parallel_stop(s);
    gm_big_free(s->l1_arena);
    gm_cache_destroy(&s->l2);
    for (uint32_t t = 0; s->w && t < s->cfg.threads; t++) {
        gm_ct_destroy(&s->w[t].allocs);
        gm_ct_destroy(&s->w[t].sites);
        free(s->w[t].cnt);
        free(s->w[t].sm_cnt);
        free(s->w[t].merged);
        for (uint32_t g = 0; s->w[t].out && g < s->cfg.threads; g++) free(s->w[t].out[g].v);
        free(s->w[t].out);
    }
    free(s->w);
    free(s->l1);
    free(s->l1_gen);
    free(s->l1_geo);
    free(s->l1_touched);
    free(s->near);
    gm_live_destroy(&s->live);
    free(s->mod_base);
    free(s->mod_n);
    gm_ct_destroy(&s->allocs);
    gm_ct_destroy(&s->sites);
    free(s->idx);
    free(s->own);
    free(s->jb);
    free(s->sm_owner);
    free(s->sm_key);
    free(s);
}

int gm_sim_add_module(struct gm_sim *s, uint32_t module, uint32_t nsites)
{
    if (module >= s->nmods) {
        if (GM_GROW_TO(s->mod_base, s->cap_mod_base, (size_t)module + 1) ||
            GM_GROW_TO(s->mod_n, s->cap_mod_n, (size_t)module + 1))
            return -1;
        for (uint32_t m = s->nmods; m <= module; m++) s->mod_base[m] = s->mod_n[m] = 0;
        s->nmods = module + 1;
    }
    if (s->mod_n[module]) return -1;   /* already known */
    if (nsites >= (1u << 28) - s->nsites) return -1;   /* site indexes fit 28 bits (struct gm_line) */
    s->mod_base[module] = s->nsites;
    s->mod_n[module] = nsites;
    s->nsites += nsites;
    return 0;
}

static void forget_hits(struct gm_sim *s)
{
    for (uint32_t t = 0; t < s->cfg.threads; t++) s->w[t].hit_base = s->w[t].hit_end = 0;
}

int gm_sim_alloc(struct gm_sim *s, uint64_t base, uint64_t size)
{
    if (!size || base + size < base || s->nallocs >= INT32_MAX) return -1;
    if (gm_live_insert(&s->live, base, base + size, s->nallocs + 1)) return -1;   /* overlap or no memory */
    forget_hits(s);
    return (int)++s->nallocs;
}

void gm_sim_release(struct gm_sim *s, uint64_t base)
{
    if (gm_live_remove(&s->live, base) == 0) forget_hits(s);
}

const char *gm_sim_begin(struct gm_sim *s, uint32_t carveout)
{
    const char *m = gm_sim_config_check(&s->cfg, carveout);
    if (m) return m;
    uint64_t l1 = gm_sim_l1_bytes(&s->cfg, carveout);
    size_t stride = gm_cache_arena_size(l1, s->cfg.l1_ways, s->cfg.l1_repl);
    if (!s->l1_arena || stride != s->l1_stride) {
        gm_big_free(s->l1_arena);
        s->l1_arena = gm_big_alloc(stride * s->cfg.sm_count);
        if (!s->l1_arena) return "out of memory for L1 state";
        s->l1_stride = stride;
    }
    if (!s->geo || l1 != s->l1_bytes) {   /* a new L1 geometry: each SM's state laid out anew */
        /* whole 64 B cache lines per SM: SMs of different threads never share one */
        uint32_t words = (uint32_t)((l1 / GM_LINE_BYTES / s->cfg.l1_ways + 63) / 64 * 8);   /* a byte per set */
        uint64_t *t = aligned_alloc(64, (size_t)s->cfg.sm_count * words * sizeof *t);
        if (!t) return "out of memory for L1 state";
        free(s->l1_touched);
        s->l1_touched = t;
        s->l1_words = words;
        s->geo++;
    }
    s->l1_bytes = l1;
    s->gen++;
    if (s->cfg.l2_launch == GM_L2_COLD) {   /* written back (no launch's traffic), then empty */
        write_back(s, &s->between);
        gm_cache_reset(&s->l2);
    }
    return NULL;
}

/* Serial: coalesce records into the line buffer until it is nearly full,
 * then run the buffer through the caches (both passes timed). */
void gm_sim_feed(struct gm_sim *s, const struct gm_access *recs, size_t n)
{
    if (s->err) return;
    if (s->cfg.threads > 1) { gm_parallel_feed(s, recs, n); return; }
    struct gm_worker *w = &s->w[0];
    for (size_t i = 0; i < n;) {
        double t0 = gm_mono();
        i = gm_model_coalesce_run(s, w, recs, i, n);
        double t1 = gm_mono();
        gm_model_lines(s, w, 0);
        s->t_coal += t1 - t0;
        s->t_model += gm_mono() - t1;
    }
    check_tables(s);
}

size_t gm_sim_window_blocks(const struct gm_sim *s) { return s->cfg.threads > 1 ? s->jb_max : 1; }

void gm_sim_copy(struct gm_sim *s, const struct gm_trace_copy *c)
{
    if (s->err || !c->bytes) return;
    struct gm_worker *w = &s->w[0];
    int rd = c->kind == GM_COPY_D2H || c->kind == GM_COPY_D2D;
    int wr = c->kind == GM_COPY_H2D || c->kind == GM_COPY_D2D || c->kind == GM_COPY_SET;
    uint64_t rs = c->src, ws = c->dst, n = c->bytes;
    if ((rd && rs + n < rs) || (wr && ws + n < ws)) return;   /* wraps: not a device range */
    gm_model_copy(s, w, rd, rs, wr, ws, n);
    if (gm_ct_drain(&w->sites, &s->sites, &s->between) || gm_ct_drain(&w->allocs, &s->allocs, NULL))
        s->allocs.oom = 1;
    check_tables(s);
}

void gm_sim_times(const struct gm_sim *s, double *coalesce_s, double *model_s)
{
    *coalesce_s = s->t_coal;
    *model_s = s->t_model;
}

void gm_sim_thread_times(const struct gm_sim *s, struct gm_sim_ptimes *t) { *t = s->pt; }

/* Moves per-thread counters into the merged tables; adds their sum to *sum.
 * Only the pages the launch used are visited (and freed). */
static void merge(struct gm_sim *s, struct gm_counts *sum)
{
    for (uint32_t t = 0; t < s->cfg.threads; t++) {
        struct gm_worker *w = &s->w[t];
        if (gm_ct_drain(&w->sites, &s->sites, sum) || gm_ct_drain(&w->allocs, &s->allocs, NULL))
            s->allocs.oom = 1;
    }
}

const char *gm_sim_error(const struct gm_sim *s) { return s->err; }


/* A feed that failed half-way has no exact counts to give: return -1 and
 * add nothing, so no caller can print wrong numbers. */
int gm_sim_end(struct gm_sim *s, struct gm_counts *launch)
{
    check_tables(s);
    if (s->err) return -1;
    struct gm_counts sum = {0};
    merge(s, &sum);
    check_tables(s);
    if (s->err) return -1;
    if (launch) gm_counts_add(launch, &sum);
    return 0;
}

/* Writes back every dirty L2 sector: DRAM writes of the allocation and
 * site that dirtied it, summed into *sum. */
static void write_back(struct gm_sim *s, struct gm_counts *sum)
{
    struct gm_cache *c = &s->l2;
    for (uint32_t set = 0; set < c->sets; set++) {   /* set by set: no division per way */
        struct gm_line *row = c->data + (uint64_t)set * c->ways;
        /* the set's ways holding a line (digest not 0), from its header */
        uint64_t full = c->ways < 64 ? (1ull << c->ways) - 1 : ~0ull;
        for (uint64_t m = ~gm_dig_match(gm_digs(c, set), c->ways, 0) & full; m; m &= m - 1) {
            struct gm_line *e = &row[__builtin_ctzll(m)];
            if (!e->dirty) continue;
            uint32_t n = (uint32_t)__builtin_popcount(e->dirty);
            gm_ct(&s->allocs, e->owner_alloc)->dram_wr += n;
            gm_ct(&s->sites, e->owner_site)->dram_wr += n;
            sum->dram_wr += n;
            e->dirty = 0;
        }
    }
    check_tables(s);
}

void gm_sim_flush_l2(struct gm_sim *s, struct gm_counts *into)
{
    write_back(s, &s->between);
    if (into) gm_counts_add(into, &s->between);
    memset(&s->between, 0, sizeof s->between);
}

const struct gm_counts *gm_sim_alloc_counts(const struct gm_sim *s, uint32_t id)
{
    return id <= s->nallocs ? gm_ct_get(&s->allocs, id) : NULL;
}

uint32_t gm_sim_nallocs(const struct gm_sim *s) { return s->nallocs; }

const struct gm_counts *gm_sim_site_counts(const struct gm_sim *s, uint32_t module, uint32_t site)
{
    if (module == UINT32_MAX) return gm_ct_get(&s->sites, 0);
    if (module >= s->nmods || site >= s->mod_n[module]) return NULL;
    return gm_ct_get(&s->sites, s->mod_base[module] + site);
}
