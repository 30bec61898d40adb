/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Notes on the model (docs/sim.md has the full statement):
 * - Global (and unresolved generic) and local accesses go through the SM's
 *   L1; shared accesses are counted only; constant/param are not simulated.
 * - L1: sectored, write-through. A load looks up each requested sector: a hit
 *   needs every requested byte valid; missing sectors (or, with line fetch
 *   and an absent line, the whole line) are read from L2 as full sectors.
 *   A store is written through to L2 per sector with its byte mask; the L1
 *   allocates / updates / invalidates per policy. Atomics bypass L1.
 * - L2: sectored, write-back, write-allocate without fetch (byte masks). A
 *   read or atomic hits only a fully valid sector, else reads DRAM. Dirty
 *   sectors are written to DRAM when their line is evicted.
 * - L2 requests are ordered by record, then line of first appearance, then
 *   sector; both drivers and the reference keep this order, so the counts
 *   are exact and identical. No I/O here.
 */
#include <stdlib.h>
#include "gpumem/abi.h"
#include "model.h"

uint32_t gm_alloc_lookup(const struct gm_sim *s, uint64_t addr)
{
    uint32_t lo = 0, hi = s->nlive;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (s->live[mid].base <= addr) lo = mid + 1;
        else hi = mid;
    }
    if (lo && addr < s->live[lo - 1].end) return s->live[lo - 1].id;
    return 0;
}

static uint32_t site_index(const struct gm_sim *s, const struct gm_access *a)
{
    if (a->module >= s->nmods || a->site >= s->mod_n[a->module]) return 0;
    return s->mod_base[a->module] + a->site;
}

static void evict(struct gm_worker *w, const struct gm_line *v)
{
    if (!v->dirty) return;
    uint32_t n = (uint32_t)__builtin_popcount(v->dirty);
    w->allocs[v->owner_alloc].dram_wr += n;
    w->sites[v->owner_site].dram_wr += n;
}

void gm_model_l2(struct gm_sim *s, struct gm_worker *w, const struct gm_l2req *q)
{
    struct gm_counts *A = &w->allocs[q->alloc], *S = &w->sites[q->site];
    struct gm_cache *c = &s->l2;
    struct gm_line *e = gm_cache_find(c, q->set, q->line + 1), victim;
    uint32_t sec = q->sector, full = e && e->valid[sec] == GM_FULL;
    if (q->op == GM_OP_READ) { A->l2_rd++; S->l2_rd++; A->l2_rd_hit += full; S->l2_rd_hit += full; }
    else if (q->op == GM_OP_WRITE) { A->l2_wr++; S->l2_wr++; A->l2_wr_hit += !!e; S->l2_wr_hit += !!e; }
    else { A->l2_atom++; S->l2_atom++; A->l2_atom_hit += full; S->l2_atom_hit += full; }
    if (s->cfg.l2_partitions > 1 && gm_partition(s, q->set) != q->smid % s->cfg.l2_partitions) {
        A->l2_far++;
        S->l2_far++;
    }
    if (!e) {
        victim.dirty = 0;
        e = gm_cache_insert(c, q->set, q->line + 1, &victim);
        evict(w, &victim);
    }
    if (q->op != GM_OP_WRITE && !full) { A->dram_rd++; S->dram_rd++; e->valid[sec] = GM_FULL; }
    if (q->op != GM_OP_READ) {
        e->valid[sec] |= q->bytes;
        e->dirty |= 1u << sec;
        e->owner_alloc = q->alloc;
        e->owner_site = q->site;
    }
}

static void push(struct gm_worker *w, const struct gm_l2req *q, uint32_t groups)
{
    struct gm_reqvec *v = &w->out[q->set % groups];
    if (v->n == v->cap) {
        size_t cap = v->cap ? 2 * v->cap : 1024;
        struct gm_l2req *p = realloc(v->v, cap * sizeof *p);
        if (!p) { w->oom = 1; return; }
        v->v = p;
        v->cap = cap;
    }
    v->v[v->n++] = *q;
}

static void emit(struct gm_sim *s, struct gm_worker *w, struct gm_l2req *q, uint32_t sec, int par)
{
    q->sector = (uint8_t)sec;
    if (par) push(w, q, s->cfg.threads);
    else gm_model_l2(s, w, q);
}

/* Issues L2 requests for the sectors in mask, ascending. */
static void emit_mask(struct gm_sim *s, struct gm_worker *w, struct gm_l2req *q, uint32_t mask,
                      const uint32_t *bytes, int par)
{
    for (uint32_t sec = 0; sec < 4; sec++) {
        if (!(mask >> sec & 1)) continue;
        q->bytes = bytes ? bytes[sec] : GM_FULL;
        emit(s, w, q, sec, par);
    }
}

static void l1_load(struct gm_sim *s, struct gm_worker *w, struct gm_cache *l1,
                    const struct gm_lent *le, struct gm_l2req *q, int par)
{
    struct gm_counts *A = &w->allocs[q->alloc], *S = &w->sites[q->site];
    uint32_t set = gm_cache_set(l1, le->line), miss = 0, fetch;
    struct gm_line *e = gm_cache_find(l1, set, le->line + 1), victim;
    int absent = !e;
    if (!e) e = gm_cache_insert(l1, set, le->line + 1, &victim);
    for (uint32_t sec = 0; sec < 4; sec++)
        if ((le->smask >> sec & 1) && (e->valid[sec] & le->bytes[sec]) != le->bytes[sec])
            miss |= 1u << sec;
    uint32_t n = (uint32_t)__builtin_popcount(le->smask), h = n - (uint32_t)__builtin_popcount(miss);
    A->l1_ld += n; S->l1_ld += n; A->l1_ld_hit += h; S->l1_ld_hit += h;
    fetch = (absent && s->cfg.l1_fetch == GM_FETCH_LINE) ? 0xf : miss;
    for (uint32_t sec = 0; sec < 4; sec++)
        if (fetch >> sec & 1) e->valid[sec] = GM_FULL;
    emit_mask(s, w, q, fetch, NULL, par);
}

static void l1_store(struct gm_sim *s, struct gm_worker *w, struct gm_cache *l1,
                     const struct gm_lent *le, struct gm_l2req *q, int par)
{
    struct gm_counts *A = &w->allocs[q->alloc], *S = &w->sites[q->site];
    uint32_t set = gm_cache_set(l1, le->line);
    struct gm_line *e = gm_cache_find(l1, set, le->line + 1), victim;
    uint32_t n = (uint32_t)__builtin_popcount(le->smask), h = e ? n : 0;
    A->l1_st += n; S->l1_st += n; A->l1_st_hit += h; S->l1_st_hit += h;
    enum gm_wpol p = s->cfg.l1_write;
    if (!e && p == GM_WPOL_ALLOCATE) e = gm_cache_insert(l1, set, le->line + 1, &victim);
    if (e && p == GM_WPOL_INVALIDATE) gm_cache_drop(l1, set, e);
    else if (e)
        for (uint32_t sec = 0; sec < 4; sec++) e->valid[sec] |= le->bytes[sec];
    emit_mask(s, w, q, le->smask, le->bytes, par);
}

static void do_line(struct gm_sim *s, struct gm_worker *w, struct gm_cache *l1,
                    const struct gm_lent *le, struct gm_l2req *q, uint32_t kind, int local, int par)
{
    q->alloc = local ? 0 : gm_alloc_lookup(s, (le->line << 7) + le->first);
    q->line = le->line;
    q->set = gm_cache_set(&s->l2, le->line);
    uint32_t n = (uint32_t)__builtin_popcount(le->smask);
    w->allocs[q->alloc].sectors += n;
    w->sites[q->site].sectors += n;
    if (kind & GM_TRACE_ATOMIC) {
        q->op = GM_OP_ATOM;
        emit_mask(s, w, q, le->smask, le->bytes, par);
    } else if (kind & GM_TRACE_STORE) {
        q->op = GM_OP_WRITE;
        l1_store(s, w, l1, le, q, par);
    } else {
        q->op = GM_OP_READ;
        l1_load(s, w, l1, le, q, par);
    }
}

static struct gm_cache *sm_l1(struct gm_sim *s, uint32_t sm)
{
    struct gm_cache *c = &s->l1[sm];
    if (s->l1_gen[sm] != s->gen) {   /* first access of this launch: empty L1 */
        gm_cache_init_at(c, s->l1_arena + sm * s->l1_stride, s->l1_bytes, s->cfg.l1_ways,
                         s->cfg.l1_repl, GM_HASH_MOD);
        s->l1_gen[sm] = s->gen;
    }
    return c;
}

void gm_model_prefetch(const struct gm_sim *s, const struct gm_access *a)
{
    if (!a->active || (a->space != GM_SPACE_GLOBAL && a->space != GM_SPACE_GENERIC)) return;
    uint64_t line = a->addr[__builtin_ctz(a->active)] >> 7;
    uint32_t sm = a->smid % s->cfg.sm_count;
    if (s->l1_gen[sm] == s->gen && s->l1[sm].tags) gm_cache_prefetch(&s->l1[sm], gm_cache_set(&s->l1[sm], line));
    gm_cache_prefetch(&s->l2, gm_cache_set(&s->l2, line));
}

void gm_model_record(struct gm_sim *s, struct gm_worker *w, const struct gm_access *a,
                     uint32_t rec, int par)
{
    struct gm_l2req q = {.rec = rec, .smid = (uint16_t)(a->smid % s->cfg.sm_count)};
    q.site = site_index(s, a);
    struct gm_counts *S = &w->sites[q.site];
    if (!a->active) return;
    if (a->space == GM_SPACE_SHARED) { S->shared_req++; return; }
    if (a->space != GM_SPACE_GLOBAL && a->space != GM_SPACE_GENERIC && a->space != GM_SPACE_LOCAL) {
        S->other_req++;
        return;
    }
    int local = a->space == GM_SPACE_LOCAL;
    uint32_t width = a->width ? a->width : 1, nact = (uint32_t)__builtin_popcount(a->active);
    struct gm_cache *l1 = sm_l1(s, a->smid % s->cfg.sm_count);
    S->requests++;
    S->ideal_sectors += ((uint64_t)nact * width + 31) / 32;
    for (uint32_t j = 0; 16 * j < width; j++) {
        gm_coalesce(&w->coal, a, width, j, local);
        if (j == 0) {   /* the request belongs to the allocation of its first line */
            uint32_t id = local ? 0 : gm_alloc_lookup(s, (w->coal.e[0].line << 7) + w->coal.e[0].first);
            w->allocs[id].requests++;
            w->allocs[id].ideal_sectors += ((uint64_t)nact * width + 31) / 32;
        }
        for (uint32_t i = 0; i < w->coal.n; i++)
            do_line(s, w, l1, &w->coal.e[i], &q, a->kind, local, par);
    }
}
