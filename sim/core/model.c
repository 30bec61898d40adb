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
 *   are exact and identical.
 * - Two passes over a small buffer: (1) coalesce records into line accesses
 *   (struct gm_lacc), (2) run those through L1 and L2, prefetching the cache
 *   sets of the line GM_AHEAD entries ahead. Each line's L2 sectors are done
 *   with one tag lookup (the line is most recent after the first sector, so
 *   looking it up again would change nothing). No I/O here.
 */
#include <stddef.h>
#include <stdlib.h>
#include "gpumem/abi.h"
#include "model.h"
#include "gm_grow.h"

/* Allocation of addr, remembering the last one found (exact: ranges of
 * live allocations do not change during a feed). */
static uint32_t alloc_of(const struct gm_sim *s, struct gm_worker *w, uint64_t addr)
{
    if (addr - w->hit_base < w->hit_end - w->hit_base) return w->hit_id;
    uint64_t base, end;
    uint32_t id = gm_live_find(&s->live, addr, &base, &end);
    if (!id) return 0;
    w->hit_base = base;
    w->hit_end = end;
    return w->hit_id = id;
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
    gm_ct(&w->allocs, v->owner_alloc)->dram_wr += n;
    gm_ct(&w->sites, v->owner_site)->dram_wr += n;
}

/* Sectors of e whose every byte is valid, as a 4-bit mask. */
GM_INLINE uint32_t full_mask(const struct gm_line *e) { return gm_sec_full(e->valid); }

/* Sectors a read miss on the sectors in m fetches from DRAM: each missing
 * sector's aligned group of l2_fill bytes (1, 2 or 4 sectors). */
GM_INLINE uint32_t fill_group(uint32_t m, uint32_t fill_bytes)
{
    if (fill_bytes == 64) return m | (m & 0x5u) << 1 | (m & 0xau) >> 1;
    if (fill_bytes == 128) return m ? 0xfu : 0u;
    return m;
}

/* 1 when L2 set lies in a partition other than SM smid's (s->near[smid] =
 * smid mod partitions): with two partitions (a constant in the H100 loops)
 * a compare with the half, else gm_partition's multiplication. */
GM_INLINE int far_set(const struct gm_sim *s, const struct gm_cache *c, uint32_t set, uint32_t smid)
{
    if (c->parts == 2) return (set >= c->sets / 2) != (smid & 1);
    return gm_partition(s, set) != s->near[smid];
}

/* One L2 line access: the sectors in mask (bytes NULL = full). Sectors of
 * one line do not affect each other's outcome: hits are decided on the
 * line's state before the access, then a read miss fills its l2_fill group
 * (so a sector of the group requested later hits). Writes always hit:
 * write-allocate without a fetch never waits for DRAM (ncu counts them so). */

GM_INLINE struct gm_l2res l2_access(struct gm_sim *s, struct gm_worker *w, struct gm_cache *c, uint64_t line,
                                    uint16_t dig, uint32_t set, uint32_t alloc, uint32_t site, uint32_t smid,
                                    uint32_t mask, uint32_t op, const uint32_t *bytes, struct gm_l2hint h)
{
    struct gm_line *e = h.absent ? NULL : gm_cache_find_at(c, set, line + 1, dig, h.way), victim;
    struct gm_l2res r = {.n = (uint32_t)__builtin_popcount(mask)};
    if (c->parts > 1 && far_set(s, c, set, smid)) r.far = r.n;
    if (!e) {
        victim.dirty = 0;
        e = gm_cache_insert_at(c, set, line + 1, dig, &victim, h.vic);
        if (victim.dirty) evict(w, &victim);   /* the call only for dirty lines */
    }
    uint32_t fullall = full_mask(e), full = fullall & mask;
    r.h = op == GM_OP_WRITE ? r.n : (uint32_t)__builtin_popcount(full);
    if (op != GM_OP_WRITE) {
        uint32_t fetch = fill_group(mask & ~full, c->fill) & ~fullall;
        r.f = (uint32_t)__builtin_popcount(fetch);
        gm_sec_or(e->valid, NULL, fetch);
    }
    if (op != GM_OP_READ) {
        gm_sec_or(e->valid, bytes, mask);
        e->dirty |= mask;
        e->owner_alloc = alloc;
        e->owner_site = site;
    }
    return r;
}

static void count_l2(struct gm_counts *C, uint32_t op, struct gm_l2res r)
{
    C->l2_far += r.far;
    if (op == GM_OP_WRITE) { C->l2_wr += r.n; C->l2_wr_hit += r.h; return; }
    if (op == GM_OP_READ) { C->l2_rd += r.n; C->l2_rd_hit += r.h; }
    else { C->l2_atom += r.n; C->l2_atom_hit += r.h; }
    C->dram_rd += r.f;
}

/* The cache c as the loops see it, with its geometry as compile-time
 * constants where the caller passes literals: ways and policy, and with
 * fixed = 1 (a preset's geometry) also the header layout, the L2 fill and
 * the partitions. Only the fields the loops read are copied, and the copy
 * never escapes, so the compiler keeps it in registers and folds the
 * way-count switches, policy branches and header offsets away. */
GM_INLINE struct gm_cache geo(const struct gm_cache *c, uint32_t ways, uint32_t repl, int fixed, uint32_t fill,
                              uint32_t parts)
{
    struct gm_cache k = {.sets = c->sets, .pow2 = c->pow2, .fm = c->fm, .hash = c->hash, .hdr = c->hdr,
                         .data = c->data, .touched = c->touched, .ways = ways, .repl = (enum gm_repl)repl};
    if (fixed) {
        k.hstride = gm_header_bytes(ways, (enum gm_repl)repl, &k.plru_off);
        k.fill = fill;
        k.parts = parts;
    } else {
        k.hstride = c->hstride;
        k.plru_off = c->plru_off;
        k.fill = c->fill;
        k.parts = c->parts;
    }
    return k;
}

/* A geometry the loops are compiled for: L1 and L2 ways and policies, the
 * L2 fill and partitions (fixed = 1: the presets', all constants), or the
 * configuration's read at run time (fixed = 0, the general loops). */
struct kgeo { uint32_t l1w, l1r, l2w, l2r, fill, parts; int fixed; };
#define GEO_H100 ((struct kgeo){4, GM_REPL_PLRU, 20, GM_REPL_LRU, 64, 2, 1})
#define GEO_RTX ((struct kgeo){4, GM_REPL_PLRU, 16, GM_REPL_LRU, 0, 1, 1})

GM_INLINE struct kgeo cfg_geo(const struct gm_sim_config *c)
{
    return (struct kgeo){c->l1_ways, c->l1_repl, c->l2_ways, c->l2_repl, c->l2_fill, c->l2_partitions, 0};
}
/* 1 when the configuration's L2 (and, with l1, its L1) is geometry g. */
GM_INLINE int is_geo(const struct gm_sim_config *c, struct kgeo g, int l1)
{
    return c->l2_ways == g.l2w && c->l2_repl == g.l2r && c->l2_fill == g.fill && c->l2_partitions == g.parts &&
           (!l1 || (c->l1_ways == g.l1w && c->l1_repl == g.l1r));
}
GM_INLINE struct gm_cache l1_geo(const struct gm_cache *c, struct kgeo g)
{
    return geo(c, g.l1w, g.l1r, g.fixed, 0, 1);
}
GM_INLINE struct gm_cache l2_geo(const struct gm_cache *c, struct kgeo g)
{
    return geo(c, g.l2w, g.l2r, g.fixed, g.fill, g.parts);
}

/* Bytes [a, a + n) of one line (a < end of the line), as sector mask and
 * byte masks. */
static uint32_t line_bytes(uint64_t a, uint64_t n, uint32_t *bytes)
{
    uint32_t o0 = (uint32_t)(a & 127), o1 = n < 128u - o0 ? o0 + (uint32_t)n : 128u, smask = 0;
    for (uint32_t k = 0; k < 4; k++) {
        uint32_t lo = o0 > 32 * k ? o0 - 32 * k : 0, hi = o1 > 32 * k ? o1 - 32 * k : 0;
        lo = lo > 32 ? 32 : lo;
        hi = hi > 32 ? 32 : hi;
        bytes[k] = (uint32_t)((1ull << hi) - 1) & ~(uint32_t)((1ull << lo) - 1);
        smask |= (uint32_t)(bytes[k] != 0) << k;
    }
    return smask;
}

/* One side (source or destination) of a copy: the live allocation last
 * found (a copy walks through one or two allocations line by line; the
 * live set does not change during a copy) and the DRAM sectors read for
 * allocation acc_id not yet counted. */
struct copy_side { uint64_t base, end; uint32_t id, acc_id, acc; };

GM_INLINE uint32_t side_alloc(const struct gm_sim *s, struct copy_side *c, uint64_t addr)
{
    if (addr - c->base < c->end - c->base) return c->id;
    uint64_t b, e;
    uint32_t id = gm_live_find(&s->live, addr, &b, &e);
    if (id) { c->base = b; c->end = e; c->id = id; }
    return id;
}

/* Adds the side's DRAM reads to its allocation and to site 0. */
static void side_flush(struct gm_worker *w, struct copy_side *c)
{
    if (!c->acc) return;
    gm_ct(&w->allocs, c->acc_id)->dram_rd += c->acc;
    gm_ct(&w->sites, 0)->dram_rd += c->acc;
    c->acc = 0;
}

/* A copy's or memset's access to bytes [a, a + n) of one L2 line (no
 * launch's traffic; whole = 1: the caller knows it is the whole line): the
 * line's state changes as for a kernel's access; the DRAM sectors it reads
 * go to the allocation (evictions already do). */
GM_INLINE void copy_chunk(struct gm_sim *s, struct gm_worker *w, struct gm_cache *l2, struct copy_side *c,
                          uint64_t a, uint64_t n, uint32_t op, int whole)
{
    uint32_t bytes[4], mask = 0xf, alloc = side_alloc(s, c, a);
    const uint32_t *b = NULL;   /* whole line */
    if (!whole && ((a & 127) || n < 128)) {
        mask = line_bytes(a, n, bytes);
        b = bytes;
    }
    uint64_t line = a >> 7;
    struct gm_l2hint h = {-1, 0xff, 0};
    struct gm_l2res r = l2_access(s, w, l2, line, gm_dig(line + 1), gm_cache_set(l2, line), alloc, 0, 0, mask, op,
                                  b, h);
    if (!r.f) return;
    if (alloc != c->acc_id) {
        side_flush(w, c);
        c->acc_id = alloc;
    }
    c->acc += r.f;   /* at most 4 per line: a copy of < 2^64 bytes fits */
}

/* The copy loop for one L2 geometry: chunk by chunk, up to the next line
 * end of either side, a source line read, then a destination line
 * written; once both sides are at line starts, whole lines up to the
 * last. */
GM_INLINE void copy_run(struct gm_sim *s, struct gm_worker *w, int rd, uint64_t rs, int wr, uint64_t ws, uint64_t n,
                        struct kgeo g)
{
    struct gm_cache l2 = l2_geo(&s->l2, g);
    struct copy_side src = {0}, dst = {0};
    for (uint64_t done = 0; done < n;) {
        uint64_t a = rd ? rs + done : ws + done, step = 128 - (a & 127);
        if (wr && rd) {
            uint64_t sw = 128 - ((ws + done) & 127);
            step = sw < step ? sw : step;
        }
        step = step < n - done ? step : n - done;
        if (rd) copy_chunk(s, w, &l2, &src, rs + done, step, GM_OP_READ, 0);
        if (wr) copy_chunk(s, w, &l2, &dst, ws + done, step, GM_OP_WRITE, 0);
        done += step;
        if (((rd ? rs + done : 0) | (wr ? ws + done : 0)) & 127) continue;
        for (; n - done >= 128; done += 128) {
            if (rd) copy_chunk(s, w, &l2, &src, rs + done, 128, GM_OP_READ, 1);
            if (wr) copy_chunk(s, w, &l2, &dst, ws + done, 128, GM_OP_WRITE, 1);
        }
    }
    side_flush(w, &src);
    side_flush(w, &dst);
}

void gm_model_copy(struct gm_sim *s, struct gm_worker *w, int rd, uint64_t rs, int wr, uint64_t ws, uint64_t n)
{
    const struct gm_sim_config *c = &s->cfg;
    if (is_geo(c, GEO_H100, 0)) copy_run(s, w, rd, rs, wr, ws, n, GEO_H100);
    else if (is_geo(c, GEO_RTX, 0)) copy_run(s, w, rd, rs, wr, ws, n, GEO_RTX);
    else copy_run(s, w, rd, rs, wr, ws, n, cfg_geo(c));
}

/* The outcomes of a run of requests with one allocation and site, per op
 * (sectors, hits, DRAM reads, far sectors), added to the counters once
 * per run, as fold() does in the serial pass: sums, so the same as per
 * request. */
struct l2acc { uint32_t alloc, site; struct gm_l2res r[3]; };

static void l2acc_flush(struct gm_worker *w, struct l2acc *a)
{
    for (uint32_t op = 0; op < 3; op++) {
        struct gm_l2res r = a->r[op];
        if (!(r.n | r.f)) continue;
        count_l2(gm_ct(&w->allocs, a->alloc), op, r);
        count_l2(gm_ct(&w->sites, a->site), op, r);
    }
    memset(a->r, 0, sizeof a->r);
}

GM_INLINE void l2acc_add(struct gm_worker *w, struct l2acc *a, const struct gm_l2req *q, struct gm_l2res r)
{
    if (q->alloc != a->alloc || q->site != a->site) {
        l2acc_flush(w, a);
        a->alloc = q->alloc;
        a->site = q->site;
    }
    struct gm_l2res *t = &a->r[q->op];
    t->n += r.n;
    t->h += r.h;
    t->f += r.f;
    t->far += r.far;
    if (t->n >= 1u << 30) l2acc_flush(w, a);   /* within 32 bits: h, far <= n; f <= 4 per request */
}

/* What the L2 row says now about q[GM_AHEAD] (q[0] is run next): the way
 * that may hold it, or that it is absent and the LRU victim (as
 * hint_ahead does for the serial pass); "absent" is kept only when none of
 * q[0..GM_AHEAD) is the same line. */
GM_INLINE struct gm_l2hint req_hint(const struct gm_cache *l2, const struct gm_l2req *const *q)
{
    const struct gm_l2req *y = q[GM_AHEAD];
    struct gm_l2hint h;
    h.way = gm_cache_prefetch_way(l2, y->set, y->dig, &h.vic);
    uint32_t same = 0;
    for (uint32_t k = 0; k < GM_AHEAD; k++) same |= q[k]->line == y->line;
    h.absent = h.way < 0 && !same;
    return h;
}

/* The request loop for one L2 geometry (ways and policy as constants
 * where the caller passes literals, as lines() does): the same two-stage
 * prefetch as the serial pass. */
GM_INLINE void l2_run(struct gm_sim *s, struct gm_worker *w, const struct gm_l2req *const *q, size_t k,
                      struct kgeo g)
{
    struct gm_cache l2 = l2_geo(&s->l2, g);
    struct gm_l2hint ring[8];   /* hints of requests i .. i + GM_AHEAD, by index mod 8 */
    for (size_t i = 0; i < k && i < GM_AHEAD; i++) ring[i] = (struct gm_l2hint){-1, UINT32_MAX, 0};
    struct l2acc acc = {0};
    for (size_t i = 0; i < k; i++) {
        if (i + GM_AHEAD2 < k) gm_cache_prefetch(&l2, q[i + GM_AHEAD2]->set);
        if (i + GM_AHEAD < k) ring[(i + GM_AHEAD) & 7] = req_hint(&l2, q + i);
        const struct gm_l2req *x = q[i];
        struct gm_l2res r = l2_access(s, w, &l2, x->line, x->dig, x->set, x->alloc, x->site, x->smid, x->mask,
                                      x->op, x->bytes, ring[i & 7]);
        l2acc_add(w, &acc, x, r);
    }
    l2acc_flush(w, &acc);
}

void gm_model_l2_run(struct gm_sim *s, struct gm_worker *w, const struct gm_l2req *const *q, size_t k)
{
    const struct gm_sim_config *c = &s->cfg;
    if (is_geo(c, GEO_H100, 0)) l2_run(s, w, q, k, GEO_H100);
    else if (is_geo(c, GEO_RTX, 0)) l2_run(s, w, q, k, GEO_RTX);
    else l2_run(s, w, q, k, cfg_geo(c));
}

static void push(const struct gm_sim *s, struct gm_worker *w, const struct gm_l2req *q, uint32_t groups)
{
    /* set % groups by multiplication (Lemire's fastmod, exact for 32-bit
     * values): a division per request costs tens of cycles */
    uint64_t low = s->grp_fm * q->set;
    struct gm_reqvec *v = &w->out[(uint32_t)(((unsigned __int128)low * groups) >> 64)];
    if (v->n == v->cap && GM_GROW_TO(v->v, v->cap, v->n + 1)) { w->oom = 1; return; }
    v->v[v->n++] = *q;
}

/* Sends the sectors in mask of line access x to L2 (bytes: NULL = full). */
GM_INLINE void to_l2(struct gm_sim *s, struct gm_worker *w, struct gm_cache *l2, struct gm_lacc *x,
                     uint32_t op, uint32_t mask, const uint32_t *bytes, int par)
{
    if (!mask) return;
    uint32_t set = x->l2set;
    if (!par) {
        struct gm_l2hint h = {x->l2hint, x->l2vic, x->l2abs};
        struct gm_l2res r = l2_access(s, w, l2, x->line, x->dig, set, x->alloc, x->site, x->sm, mask, op, bytes, h);
        x->l2n = (uint8_t)r.n;
        x->l2h = (uint8_t)r.h;
        x->dr = (uint8_t)r.f;
        x->far = (uint8_t)r.far;
        return;
    }
    struct gm_l2req q = {.line = x->line, .alloc = x->alloc, .site = x->site, .rec = x->rec,
                         .set = set, .smid = x->sm, .dig = x->dig, .mask = (uint8_t)mask, .op = (uint8_t)op};
    for (uint32_t k = 0; k < 4; k++) q.bytes[k] = bytes ? bytes[k] : GM_FULL;
    push(s, w, &q, s->cfg.threads);
}

GM_INLINE void l1_load(struct gm_sim *s, struct gm_worker *w, struct gm_cache *l1, struct gm_cache *l2,
                       struct gm_lacc *x, int par)
{
    uint32_t set = x->l1set, miss = 0, fetch;
    struct gm_line *e = gm_cache_find(l1, set, x->line + 1, x->dig), victim;
    int absent = !e;
    if (!e) {
        e = gm_cache_insert(l1, set, x->line + 1, x->dig, &victim);
        l1->touched[set] = 1;   /* cleared at the SM's next launch */
    }
    miss = gm_sec_lacking(e->valid, x->bytes) & x->smask;
    x->ns = (uint8_t)__builtin_popcount(x->smask);
    x->l1h = (uint8_t)(x->ns - __builtin_popcount(miss));
    fetch = (absent && s->cfg.l1_fetch == GM_FETCH_LINE) ? 0xf : miss;
    gm_sec_or(e->valid, NULL, fetch);
    to_l2(s, w, l2, x, GM_OP_READ, fetch, NULL, par);
}

GM_INLINE void l1_store(struct gm_sim *s, struct gm_worker *w, struct gm_cache *l1, struct gm_cache *l2,
                        struct gm_lacc *x, int par)
{
    uint32_t set = x->l1set;
    struct gm_line *e = gm_cache_find(l1, set, x->line + 1, x->dig), victim;
    x->ns = (uint8_t)__builtin_popcount(x->smask);
    x->l1h = e ? (uint8_t)__builtin_popcount(full_mask(e) & x->smask) : 0;
    enum gm_wpol p = s->cfg.l1_write;
    if (!e && p == GM_WPOL_ALLOCATE) {
        e = gm_cache_insert(l1, set, x->line + 1, x->dig, &victim);
        l1->touched[set] = 1;   /* cleared at the SM's next launch */
    }
    if (e && p == GM_WPOL_INVALIDATE) gm_cache_drop(l1, set, e);
    else if (e)
        gm_sec_or(e->valid, x->bytes, 0xf);
    to_l2(s, w, l2, x, GM_OP_WRITE, x->smask, x->bytes, par);
}

/* SM sm's L1 at its first access in a launch: empty. With the geometry of
 * its last launch only the sets that launch inserted into are cleared (the
 * others are empty still: many small launches touch few sets); else it is
 * laid out and cleared whole. */
static struct gm_cache *sm_l1(struct gm_sim *s, uint32_t sm)
{
    struct gm_cache *c = &s->l1[sm];
    if (s->l1_gen[sm] != s->gen) {
        uint64_t *t = s->l1_touched + (size_t)sm * s->l1_words;
        if (s->l1_geo[sm] == s->geo) {   /* eight sets' bytes (0 or 1) a word: bit 8 * j for set 8 * i + j */
            for (uint32_t i = 0; i < s->l1_words; i++)
                for (uint64_t m = t[i]; m; m &= m - 1) gm_cache_reset_set(c, 8 * i + (uint32_t)__builtin_ctzll(m) / 8);
        } else {
            gm_cache_init_at(c, s->l1_arena + sm * s->l1_stride, s->l1_bytes, s->cfg.l1_ways, s->cfg.l1_repl,
                             s->cfg.l1_hash);
            s->l1_geo[sm] = s->geo;
            c->touched = (uint8_t *)t;
        }
        memset(t, 0, s->l1_words * sizeof *t);
        s->l1_gen[sm] = s->gen;
    }
    return c;
}

/* Appends the lines of w->coal to w->buf. */
static void add_lines(struct gm_sim *s, struct gm_worker *w, uint32_t site, uint32_t rec, uint32_t sm,
                      uint32_t op, int local)
{
    for (uint32_t i = 0; i < w->coal.n; i++) {
        const struct gm_lent *le = &w->coal.e[i];
        struct gm_lacc *x = &w->buf[w->nbuf++];
        x->line = le->line;
        memcpy(x->bytes, le->bytes, sizeof x->bytes);
        x->alloc = local ? 0 : alloc_of(s, w, (le->line << 7) + le->first);
        x->site = site;
        x->rec = rec;
        x->sm = (uint16_t)sm;
        x->l1set = gm_cache_set(&s->l1[sm], le->line);
        x->l2set = gm_cache_set(&s->l2, le->line);
        x->dig = gm_dig(le->line + 1);
        x->smask = (uint8_t)le->smask;
        x->op = (uint8_t)op;
        x->l2hint = -1;
        x->l2vic = 0xff;
        x->l2abs = 0;
        x->l1h = x->l2n = x->l2h = x->dr = x->far = 0;
    }
}

/* Bytes [o0, o1) of a line (0 <= o0 < o1 <= 128) in sector k, as a mask. */
GM_INLINE uint32_t sector_bytes(int o0, int o1, int k)
{
    int lo = o0 - 32 * k, hi = o1 - 32 * k;
    lo = lo < 0 ? 0 : lo > 32 ? 32 : lo;
    hi = hi < 0 ? 0 : hi > 32 ? 32 : hi;
    return (uint32_t)((1ull << hi) - 1) & ~(uint32_t)((1ull << lo) - 1);
}

/* Byte masks of bytes [o0, o1) of a line, per sector; returns the sectors. */
static uint32_t partial_line(uint32_t *bytes, int o0, int o1)
{
    uint32_t smask = 0;
    for (int k = 0; k < 4; k++) {
        bytes[k] = sector_bytes(o0, o1, k);
        smask |= (uint32_t)(bytes[k] != 0) << k;
    }
    return smask;
}

/* A new line access at the end of w->buf with everything but its byte
 * masks and set indices: first = offset in the line of its first touched
 * byte (the allocation is the one holding that byte). */
GM_INLINE struct gm_lacc *lacc_open(struct gm_sim *s, struct gm_worker *w, uint64_t line, uint32_t first,
                                    uint32_t site, uint32_t rec, uint32_t sm, uint32_t op)
{
    struct gm_lacc *x = &w->buf[w->nbuf++];
    x->line = line;
    x->alloc = alloc_of(s, w, (line << 7) + first);
    x->site = site;
    x->rec = rec;
    x->sm = (uint16_t)sm;
    x->dig = gm_dig(line + 1);
    x->op = (uint8_t)op;
    x->l2hint = -1;
    x->l2vic = 0xff;
    x->l2abs = 0;
    x->l1h = x->l2n = x->l2h = x->dr = x->far = 0;
    return x;
}

/* lacc_open with the set indices. */
GM_INLINE struct gm_lacc *lacc_new(struct gm_sim *s, struct gm_worker *w, uint64_t line, uint32_t first,
                                   uint32_t site, uint32_t rec, uint32_t sm, uint32_t op)
{
    struct gm_lacc *x = lacc_open(s, w, line, first, site, rec, sm, op);
    x->l1set = gm_cache_set(&s->l1[sm], line);
    x->l2set = gm_cache_set(&s->l2, line);
    return x;
}

/* Set indices in cache c of the lines of x[0..n), into each one's l1set
 * (l2 = 0) or l2set, with the hash and the modulo chosen once. */
GM_INLINE void sets_h(const struct gm_cache *c, enum gm_hash h, int pow2, struct gm_lacc *x, uint32_t n, int l2)
{
    for (uint32_t k = 0; k < n; k++) {
        uint32_t v = gm_set_hash(h, x[k].line);
        v = pow2 ? v & (c->sets - 1) : (uint32_t)(((unsigned __int128)(c->fm * v) * c->sets) >> 64);
        if (l2) x[k].l2set = v;
        else x[k].l1set = v;
    }
}
GM_INLINE void sets_c(const struct gm_cache *c, struct gm_lacc *x, uint32_t n, int l2)
{
    int p = c->pow2 != 0;
    if (c->hash == GM_HASH_XOR) p ? sets_h(c, GM_HASH_XOR, 1, x, n, l2) : sets_h(c, GM_HASH_XOR, 0, x, n, l2);
    else if (c->hash == GM_HASH_FOLD) p ? sets_h(c, GM_HASH_FOLD, 1, x, n, l2) : sets_h(c, GM_HASH_FOLD, 0, x, n, l2);
    else p ? sets_h(c, GM_HASH_MOD, 1, x, n, l2) : sets_h(c, GM_HASH_MOD, 0, x, n, l2);
}
/* The L1 (SM sm's) and L2 set indices of the line accesses made since
 * w->buf[start] (lacc_open's). */
static void lacc_sets(const struct gm_sim *s, struct gm_worker *w, uint32_t start, uint32_t sm)
{
    sets_c(&s->l1[sm], w->buf + start, w->nbuf - start, 0);
    sets_c(&s->l2, w->buf + start, w->nbuf - start, 1);
}

/* A global access whose 32 lanes cover [addr, addr + len) contiguously
 * (len <= 512): its lines straight into w->buf, the entries add_lines
 * makes from coal_range's (lines ascending, first byte, byte masks);
 * whole lines (addr and len multiples of 128: a warp of 4 or 16 B lanes
 * at a line start) without the partial-line arithmetic. */
GM_INLINE void add_range(struct gm_sim *s, struct gm_worker *w, uint64_t addr, uint32_t len, uint32_t site,
                      uint32_t rec, uint32_t sm, uint32_t op)
{
    if (!((addr | len) & 127)) {
        for (uint64_t line = addr >> 7, n = len >> 7; n; n--, line++) {
            struct gm_lacc *x = lacc_new(s, w, line, 0, site, rec, sm, op);
            x->bytes[0] = x->bytes[1] = x->bytes[2] = x->bytes[3] = GM_FULL;
            x->smask = 0xf;
        }
        return;
    }
    uint64_t end = addr + len;
    for (uint64_t line = addr >> 7; line << 7 < end; line++) {
        uint64_t base = line << 7;
        int o0 = addr > base ? (int)(addr - base) : 0, o1 = end - base < 128 ? (int)(end - base) : 128;
        struct gm_lacc *x = lacc_new(s, w, line, (uint32_t)o0, site, rec, sm, op);
        uint32_t smask = 0xf;
        if (o0 == 0 && o1 == 128) x->bytes[0] = x->bytes[1] = x->bytes[2] = x->bytes[3] = GM_FULL;
        else smask = partial_line(x->bytes, o0, o1);
        x->smask = (uint8_t)smask;
    }
}

/* 1 when lane k of addr[32] is at addr[0] + k * st for every k: four
 * lanes per step with AVX2 where the CPU has it (chosen once), else two
 * (SSE4.1), else one. */
#ifdef __SSE4_1__
__attribute__((target("avx2"))) static int lanes_at_avx2(const uint64_t *addr, uint64_t st)
{
    __m256i want = _mm256_set_epi64x((long long)(addr[0] + 3 * st), (long long)(addr[0] + 2 * st),
                                     (long long)(addr[0] + st), (long long)addr[0]);
    __m256i step = _mm256_set1_epi64x(4 * (long long)st), bad = _mm256_setzero_si256();
    for (uint32_t k = 0; k < 32; k += 4) {
        bad = _mm256_or_si256(bad, _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(addr + k)), want));
        want = _mm256_add_epi64(want, step);
    }
    return _mm256_testz_si256(bad, bad);
}
#endif

GM_INLINE int lanes_at(const uint64_t *addr, uint64_t st)
{
#ifdef __SSE4_1__
    static int avx2 = -1;   /* idempotent: a race writes the same value */
    if (avx2 < 0) avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
    if (avx2) return lanes_at_avx2(addr, st);
    __m128i want = _mm_set_epi64x((long long)(addr[0] + st), (long long)addr[0]);
    __m128i step = _mm_set1_epi64x(2 * (long long)st), bad = _mm_setzero_si128();
    for (uint32_t k = 0; k < 32; k += 2) {
        bad = _mm_or_si128(bad, _mm_xor_si128(_mm_loadu_si128((const __m128i *)(addr + k)), want));
        want = _mm_add_epi64(want, step);
    }
    return _mm_testz_si128(bad, bad);
#else
    uint64_t bad = 0;
    for (uint32_t k = 1; k < 32; k++) bad |= (addr[k] - addr[k - 1]) ^ st;
    return bad == 0;
#endif
}

/* 1 when all 32 lanes are active at addr[0] + k * *stride, with stride 0
 * or at least width (lanes do not overlap: their lines ascend), width
 * <= 16 (one piece) and no address wrap: a warp whose lines the
 * coalescer's order gives without looking any up (stride == width: the
 * common coalesced access, one contiguous range). The lanes are compared
 * only when the decoder has not said so (a->lanes: GM_LANES_STRIDED, or
 * GM_LANES_COMPACT, whose lanes past 1 are not written). */
GM_INLINE int strided(const struct gm_access *a, uint32_t width, uint64_t *stride)
{
    uint64_t st = a->addr[1] - a->addr[0];
    if (a->active != GM_FULL || width > 16 || (st && st < width) || st > (1ull << 56) ||
        a->addr[0] > UINT64_MAX - 31 * st - width - 256)
        return 0;
    *stride = st;
    if (a->lanes == GM_LANES_STRIDED || a->lanes == GM_LANES_COMPACT) return 1;
    return a->addr[31] - a->addr[0] == 31 * st && lanes_at(a->addr, st);
}

/* A strided warp (strided() holds, stride > 0): lane k's bytes
 * [addr + k * stride, + width) in lane order. Lanes do not overlap, so
 * lines come in ascending order and a lane's first line is the last one
 * seen or a new one: each line access is made once, the same entries
 * the coalescer makes, without its lookups. */
static __attribute__((noinline)) void add_strided(struct gm_sim *s, struct gm_worker *w, uint64_t addr, uint64_t stride, uint32_t width,
                        uint32_t site, uint32_t rec, uint32_t sm, uint32_t op)
{
    struct gm_lacc *x = NULL;
    uint64_t cur = UINT64_MAX;   /* no line: addr + 32 * stride does not wrap */
    uint32_t wmask = (1u << width) - 1;   /* width <= 16 */
    for (uint32_t k = 0; k < 32; k++, addr += stride) {
        uint64_t line = addr >> 7;
        uint32_t off = (uint32_t)addr & 31, sec = (uint32_t)(addr >> 5) & 3;
        if (line != cur) {
            x = lacc_new(s, w, line, (uint32_t)addr & 127, site, rec, sm, op);
            x->bytes[0] = x->bytes[1] = x->bytes[2] = x->bytes[3] = 0;
            x->smask = 0;
            cur = line;
        }
        x->smask |= (uint8_t)(1u << sec);
        if (off + width <= 32) {   /* one sector */
            x->bytes[sec] |= wmask << off;
            continue;
        }
        x->bytes[sec] |= GM_FULL << off;   /* to the sector's end, then the rest in the next sector */
        uint32_t rest = off + width - 32;
        if (sec == 3) {
            x = lacc_new(s, w, ++cur, 0, site, rec, sm, op);
            x->bytes[1] = x->bytes[2] = x->bytes[3] = 0;
            x->bytes[0] = (1u << rest) - 1;
            x->smask = 1;
            continue;
        }
        x->bytes[sec + 1] |= (1u << rest) - 1;
        x->smask |= (uint8_t)(2u << sec);
    }
}

/* A strided warp whose stride is a multiple of the line size and whose
 * lanes each stay in one line: lane k's line access is lane 0's (as
 * add_strided makes it) at line + k * stride / 128, with its own
 * allocation, set indices and digest (sets computed for all lanes at
 * once). The same entries as add_strided. */
GM_INLINE void add_step(struct gm_sim *s, struct gm_worker *w, uint64_t addr, uint64_t stride, uint32_t width,
                     uint32_t site, uint32_t rec, uint32_t sm, uint32_t op)
{
    uint32_t s1[32], s2[32], off = (uint32_t)addr & 31, sec = (uint32_t)(addr >> 5) & 3;
    uint64_t line = addr >> 7, d = stride >> 7;
    struct gm_lacc *x0 = lacc_new(s, w, line, (uint32_t)addr & 127, site, rec, sm, op);
    x0->bytes[0] = x0->bytes[1] = x0->bytes[2] = x0->bytes[3] = 0;
    x0->smask = (uint8_t)(1u << sec);
    if (off + width <= 32) x0->bytes[sec] = ((1u << width) - 1) << off;   /* one sector */
    else {   /* to the sector's end, then the rest in the next sector of the line */
        x0->bytes[sec] = GM_FULL << off;
        x0->bytes[sec + 1] = (1u << (off + width - 32)) - 1;
        x0->smask |= (uint8_t)(2u << sec);
    }
    gm_cache_sets(&s->l1[sm], line, d, 32, s1);
    gm_cache_sets(&s->l2, line, d, 32, s2);
    /* lane 0 in an allocation that also holds lane 31: so do the lanes between */
    uint32_t id = x0->alloc, one = id && addr + 31 * stride - w->hit_base < w->hit_end - w->hit_base;
    struct gm_lacc *x = x0;   /* the last entry of w->buf; nbuf counted once after the lanes */
    for (uint32_t k = 1; k < 32; k++) {
        *++x = *x0;
        addr += stride;
        line += d;
        x->line = line;
        x->alloc = one ? id : alloc_of(s, w, addr);
        x->l1set = s1[k];
        x->l2set = s2[k];
        x->dig = gm_dig(line + 1);
    }
    w->nbuf += 31;
}

/* A request counted to the allocation of its first byte (lanes ascending:
 * the first line's first byte, as the coalescer attributes it). */
GM_INLINE void count_request(struct gm_sim *s, struct gm_worker *w, uint64_t addr, uint32_t nact, uint32_t width)
{
    struct gm_counts *A = gm_ct(&w->allocs, alloc_of(s, w, addr));
    A->requests++;
    A->ideal_sectors += ((uint64_t)nact * width + 31) / 32;
}

/* Line access of w->buf for line among those made since w->buf[start]
 * (the record's; w->coal.ht maps lines to them, stamped as the
 * coalescer's entries are), or a new one whose first byte is at first. */
GM_INLINE struct gm_lacc *lacc_find(struct gm_sim *s, struct gm_worker *w, uint32_t start, uint64_t line,
                                    uint32_t first, uint32_t site, uint32_t rec, uint32_t sm, uint32_t op)
{
    struct gm_coal *c = &w->coal;
    if (w->nbuf > start && w->buf[w->nbuf - 1].line == line) return &w->buf[w->nbuf - 1];
    uint32_t h = (uint32_t)((line * 0x9e3779b97f4a7c15ull) >> 56);
    for (;; h = (h + 1) & (GM_COAL_HT - 1)) {
        uint32_t v = c->ht[h];
        if (v >> 8 != c->stamp) break;
        if (w->buf[start + (v & 0xff)].line == line) return &w->buf[start + (v & 0xff)];
    }
    c->ht[h] = c->stamp << 8 | (w->nbuf - start);
    struct gm_lacc *x = lacc_open(s, w, line, first, site, rec, sm, op);   /* sets: coalesce_global */
    x->bytes[0] = x->bytes[1] = x->bytes[2] = x->bytes[3] = 0;
    x->smask = 0;
    return x;
}

/* a, or for a GM_LANES_COMPACT record a copy in *tmp with its lanes
 * written (gm_access_expand): for the paths that read every lane. */
GM_INLINE const struct gm_access *with_lanes(const struct gm_access *a, struct gm_access *tmp)
{
    if (a->lanes != GM_LANES_COMPACT) return a;
    *tmp = *a;
    gm_access_expand(tmp);
    return tmp;
}

/* A global access of at most 16 B per lane (one piece) that is not
 * strided: the coalescer's entries (lanes in order, each line at its
 * first appearance, coal_bytes' sector steps) made in w->buf directly.
 * A GM_LANES_COMPACT record (lanes that overlap) gets its lanes written
 * in a copy first. */
static __attribute__((noinline)) void coalesce_global(struct gm_sim *s, struct gm_worker *w,
                                                      const struct gm_access *a, uint32_t width, uint32_t nact,
                                                      uint32_t site, uint32_t rec, uint32_t sm, uint32_t op)
{
    struct gm_access lanes;
    a = with_lanes(a, &lanes);
    uint32_t start = w->nbuf, wmask = (1u << width) - 1;   /* width <= 16 */
    coal_reset(&w->coal);
    for (uint32_t m = a->active; m; m &= m - 1) {
        uint64_t addr = a->addr[__builtin_ctz(m)];
        uint32_t o = (uint32_t)addr & 31;
        if (o + width <= 32) {   /* the lane's bytes in one sector: the loop below's one step */
            struct gm_lacc *x = lacc_find(s, w, start, addr >> 7, (uint32_t)addr & 127, site, rec, sm, op);
            uint32_t sec = (uint32_t)(addr >> 5) & 3;
            x->bytes[sec] |= wmask << o;
            x->smask |= (uint8_t)(1u << sec);
            continue;
        }
        for (uint32_t len = width; len;) {   /* sector by sector, as coal_bytes */
            uint32_t off = (uint32_t)addr & 31, n = 32 - off < len ? 32 - off : len;
            struct gm_lacc *x = lacc_find(s, w, start, addr >> 7, (uint32_t)addr & 127, site, rec, sm, op);
            uint32_t sec = (uint32_t)(addr >> 5) & 3;
            x->bytes[sec] |= n == 32 ? GM_FULL : ((1u << n) - 1) << off;
            x->smask |= (uint8_t)(1u << sec);
            addr += n;
            len -= n;
        }
    }
    lacc_sets(s, w, start, sm);
    /* the request belongs to the allocation of its first line's first byte */
    struct gm_counts *A = gm_ct(&w->allocs, w->buf[start].alloc);
    A->requests++;
    A->ideal_sectors += ((uint64_t)nact * width + 31) / 32;
}

/* Any other access: through the coalescer, 16 B piece by piece. Kept out
 * of line so the common path above keeps its registers. A
 * GM_LANES_COMPACT record (wide lanes, local) gets its lanes written in a
 * copy first. */
static __attribute__((noinline)) void coalesce_pieces(struct gm_sim *s, struct gm_worker *w,
                                                      const struct gm_access *a, uint32_t width, uint32_t nact,
                                                      uint32_t site, uint32_t rec, uint32_t sm, uint32_t op,
                                                      int local)
{
    struct gm_access lanes;
    a = with_lanes(a, &lanes);
    for (uint32_t j = 0; 16 * j < width; j++) {
        gm_coalesce(&w->coal, a, width, j, local);
        if (j == 0) {   /* the request belongs to the allocation of its first line */
            uint32_t id = local ? 0 : alloc_of(s, w, (w->coal.e[0].line << 7) + w->coal.e[0].first);
            struct gm_counts *A = gm_ct(&w->allocs, id);
            A->requests++;
            A->ideal_sectors += ((uint64_t)nact * width + 31) / 32;
        }
        add_lines(s, w, site, rec, sm, op, local);
        /* a wide access (up to 4096 pieces of up to GM_COAL_MAX lines)
         * does not fit the buffer: run it through the caches piece by
         * piece (the order of line accesses is unchanged) */
        if (w->nbuf > GM_LBUF) gm_model_lines(s, w, s->cfg.threads > 1);
    }
}

GM_INLINE void coalesce_one(struct gm_sim *s, struct gm_worker *w, const struct gm_access *a, uint32_t rec)
{
    uint32_t site = site_index(s, a), sm = a->smid < s->cfg.sm_count ? a->smid : a->smid % s->cfg.sm_count;
    struct gm_counts *S = gm_ct(&w->sites, site);
    if (!a->active) return;
    if (a->space == GM_SPACE_SHARED) { S->shared_req++; return; }
    if (a->space != GM_SPACE_GLOBAL && a->space != GM_SPACE_GENERIC && a->space != GM_SPACE_LOCAL) {
        S->other_req++;
        return;
    }
    int local = a->space == GM_SPACE_LOCAL;
    uint32_t width = a->width ? a->width : 1, nact = (uint32_t)__builtin_popcount(a->active);
    uint32_t op = (a->kind & GM_TRACE_ATOMIC) ? GM_OP_ATOM : (a->kind & GM_TRACE_STORE) ? GM_OP_WRITE : GM_OP_READ;
    if (s->l1_gen[sm] != s->gen) sm_l1(s, sm);
    S->requests++;
    S->ideal_sectors += ((uint64_t)nact * width + 31) / 32;
    uint64_t stride;
    if (!local && strided(a, width, &stride)) {   /* same entries as below, lines computed */
        count_request(s, w, a->addr[0], nact, width);
        if (stride == width) add_range(s, w, a->addr[0], 32 * width, site, rec, sm, op);   /* contiguous */
        else if (stride == 0) add_range(s, w, a->addr[0], width, site, rec, sm, op);   /* lane 0's bytes */
        else if (!(stride & 127) && (a->addr[0] & 127) + width <= 128)
            add_step(s, w, a->addr[0], stride, width, site, rec, sm, op);
        else add_strided(s, w, a->addr[0], stride, width, site, rec, sm, op);
        return;
    }
    if (!local && width <= 16) coalesce_global(s, w, a, width, nact, site, rec, sm, op);
    else coalesce_pieces(s, w, a, width, nact, site, rec, sm, op, local);
}

void gm_model_coalesce(struct gm_sim *s, struct gm_worker *w, const struct gm_access *a, uint32_t rec)
{
    coalesce_one(s, w, a, rec);
}

size_t gm_model_coalesce_run(struct gm_sim *s, struct gm_worker *w, const struct gm_access *recs, size_t i, size_t n)
{
    while (i < n && w->nbuf <= GM_LBUF) coalesce_one(s, w, &recs[i++], 0);
    return i;
}

/* Outcome sums of a run of line accesses with one allocation and site, per
 * op: sectors, L1 hits, L2 sectors, L2 hits, DRAM reads, far L2 sectors. */
typedef uint32_t gm_acc[3][6];

static void add_acc(struct gm_counts *C, gm_acc a)
{
    enum { R = GM_OP_READ, W = GM_OP_WRITE, T = GM_OP_ATOM };
    C->sectors += a[R][0] + a[W][0] + a[T][0];
    C->l1_ld += a[R][0]; C->l1_ld_hit += a[R][1];
    C->l1_st += a[W][0]; C->l1_st_hit += a[W][1];
    C->l2_rd += a[R][2]; C->l2_rd_hit += a[R][3];
    C->l2_wr += a[W][2]; C->l2_wr_hit += a[W][3];
    C->l2_atom += a[T][2]; C->l2_atom_hit += a[T][3];
    C->dram_rd += a[R][4] + a[W][4] + a[T][4];
    C->l2_far += a[R][5] + a[W][5] + a[T][5];
}

/* Adds the buffer's outcomes to the per-allocation and per-site counters,
 * once per run of equal (allocation, site) instead of per access; empties
 * the buffer. Each access's eight outcome bytes (six used) are one 64-bit
 * word, summed per op in 16-bit lanes (even bytes, odd bytes: a buffer's
 * sums fit, at most 4 x its entries), in registers while the op stays the
 * same; the (allocation, site) pair is one 64-bit word too. */
_Static_assert(4 * (GM_LBUF + GM_REC_LINES) < 65536, "fold's 16-bit sums");
_Static_assert(offsetof(struct gm_lacc, site) == offsetof(struct gm_lacc, alloc) + 4, "fold's key");
_Static_assert(offsetof(struct gm_lacc, far) == offsetof(struct gm_lacc, ns) + 5, "fold's outcome bytes");
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "fold's lanes");

#define LANES 0x00ff00ff00ff00ffull

static void fold_flush(struct gm_worker *w, uint32_t alloc, uint32_t site, uint64_t (*v)[2])
{
    gm_acc acc;
    for (uint32_t op = 0; op < 3; op++) {   /* lanes: ns, l2n, dr | l1h, l2h, far */
        for (uint32_t k = 0; k < 6; k++) acc[op][k] = (uint32_t)(v[op][k & 1] >> (16 * (k >> 1)) & 0xffff);
        v[op][0] = v[op][1] = 0;
    }
    add_acc(gm_ct(&w->allocs, alloc), acc);
    add_acc(gm_ct(&w->sites, site), acc);
}

static void fold(struct gm_worker *w)
{
    if (!w->nbuf) return;
    uint64_t v[3][2] = {{0}}, key, k, o, a0 = 0, a1 = 0;   /* a0, a1: the current op's lanes */
    uint32_t op = w->buf[0].op;
    memcpy(&key, &w->buf[0].alloc, sizeof key);
    for (uint32_t i = 0; i < w->nbuf; i++) {
        const struct gm_lacc *x = &w->buf[i];
        memcpy(&k, &x->alloc, sizeof k);
        if (k != key || x->op != op) {   /* a run of one op ends */
            v[op][0] += a0;
            v[op][1] += a1;
            a0 = a1 = 0;
            op = x->op;
            if (k != key) {
                fold_flush(w, (uint32_t)key, (uint32_t)(key >> 32), v);
                key = k;
            }
        }
        memcpy(&o, &x->ns, sizeof o);
        a0 += o & LANES;
        a1 += o >> 8 & LANES;
    }
    v[op][0] += a0;
    v[op][1] += a1;
    fold_flush(w, (uint32_t)key, (uint32_t)(key >> 32), v);
    w->nbuf = 0;
}

GM_INLINE void prefetch_sets(const struct gm_sim *s, const struct gm_lacc *x, int par, struct kgeo g,
                             const struct gm_cache *l2)
{
    if (x->op != GM_OP_ATOM) {
        struct gm_cache l1 = l1_geo(&s->l1[x->sm], g);
        gm_cache_prefetch(&l1, x->l1set);
    }
    if (!par) gm_cache_prefetch(l2, x->l2set);
}

/* 1 when line equals none of the n lines before it in b[0..n). */
GM_INLINE int fresh(const struct gm_lacc *b, uint32_t n, uint64_t line)
{
    uint32_t same = 0;
    for (uint32_t k = 0; k < n; k++) same |= b[k].line == line;
    return !same;
}

/* Prefetches the L2 way of b[GM_AHEAD] (b[0] is processed next) and stores
 * what the tag row says now: the way holding the line, or that it is absent
 * and which way is the LRU victim. "Absent" stays true until b[GM_AHEAD] is
 * processed unless one of b[0..GM_AHEAD) is the same line (only an access to
 * a line inserts it), so it is kept only then. */
GM_INLINE void hint_ahead(const struct gm_cache *l2, struct gm_lacc *b)
{
    struct gm_lacc *y = &b[GM_AHEAD];
    uint32_t vic;
    y->l2hint = (int8_t)gm_cache_prefetch_way(l2, y->l2set, y->dig, &vic);
    y->l2vic = (uint8_t)vic;
    y->l2abs = y->l2hint < 0 && fresh(b, GM_AHEAD, y->line);
}

/* The line loop for one geometry. */
GM_INLINE void lines(struct gm_sim *s, struct gm_worker *w, int par, struct kgeo g)
{
    uint32_t n = w->nbuf;
    struct gm_cache l2 = l2_geo(&s->l2, g);
    for (uint32_t i = 0; i < n && i < GM_AHEAD2; i++) prefetch_sets(s, &w->buf[i], par, g, &l2);
    for (uint32_t i = 0; i < n; i++) {
        if (i + GM_AHEAD2 < n) prefetch_sets(s, &w->buf[i + GM_AHEAD2], par, g, &l2);
        if (!par && i + GM_AHEAD < n) hint_ahead(&l2, w->buf + i);
        struct gm_lacc *x = &w->buf[i];
        struct gm_cache l1 = l1_geo(&s->l1[x->sm], g);
        if (x->op == GM_OP_ATOM) {
            x->ns = (uint8_t)__builtin_popcount(x->smask);
            to_l2(s, w, &l2, x, GM_OP_ATOM, x->smask, x->bytes, par);
        }
        else if (x->op == GM_OP_WRITE) l1_store(s, w, &l1, &l2, x, par);
        else l1_load(s, w, &l1, &l2, x, par);
    }
    fold(w);
}

/* Chooses the loop once per buffer: the presets' geometries get their own
 * constant-folded copies (H100: L1 4-way PLRU, L2 20-way LRU, 64 B fill,
 * 2 partitions; RTX 2080 Ti: L2 16-way LRU, sector fill, 1 partition),
 * anything else the general one. */
GM_INLINE void lines_geo(struct gm_sim *s, struct gm_worker *w, int par)
{
    const struct gm_sim_config *c = &s->cfg;
    if (is_geo(c, GEO_H100, 1)) lines(s, w, par, GEO_H100);
    else if (is_geo(c, GEO_RTX, 1)) lines(s, w, par, GEO_RTX);
    else lines(s, w, par, cfg_geo(c));
}

/* The serial and the parallel pass compiled apart (par a constant in
 * each: the serial loop keeps no flag to test at every access). */
void gm_model_lines(struct gm_sim *s, struct gm_worker *w, int par)
{
    if (par) lines_geo(s, w, 1);
    else lines_geo(s, w, 0);
}
