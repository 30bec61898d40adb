/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reference implementation of the simulator's model (docs/sim.md), written
 * the plain way to prove the fast one exact: byte-by-byte coalescing with a
 * linear search, timestamp LRU with full set scans, linear allocation
 * search, plain modulo set index, one thread, L2 accessed immediately.
 * It shares only the configuration and counter types with sim/core. No I/O.
 */
#include <stdlib.h>
#include <string.h>
#include "gpumem/sim.h"
#include "gm_grow.h"

struct way { uint64_t line; int valid_line; uint32_t valid[4], dirty, owner; uint64_t stamp; };
struct cache { uint32_t sets, ways; enum gm_repl repl; enum gm_hash hash; struct way *w; uint64_t *tree; };
struct alloc { uint64_t base, size; int live; };
struct lent { uint64_t line; uint32_t bytes[4]; int touched[4]; uint64_t first; };

struct gm_ref {
    struct gm_sim_config cfg;
    struct cache *l1, l2;
    struct alloc *allocs;
    uint32_t nallocs;
    size_t cap_allocs, cap_acounts;
    struct gm_counts *acounts, total;
    struct gm_counts between;   /* traffic of no launch: copies, write-backs at a cold start */
    uint64_t clock;
};

static void cache_make(struct cache *c, uint64_t bytes, uint32_t ways, enum gm_repl r, enum gm_hash h)
{
    free(c->w);
    free(c->tree);
    c->ways = ways;
    c->sets = (uint32_t)(bytes / 128 / ways);
    c->repl = r;
    c->hash = h;
    c->w = calloc((size_t)c->sets * ways, sizeof *c->w);
    c->tree = calloc(c->sets, sizeof *c->tree);
}

static uint32_t set_of(const struct cache *c, uint64_t line)
{
    uint32_t h = (uint32_t)line;
    if (c->hash == GM_HASH_XOR) h = (uint32_t)line ^ (uint32_t)(line >> 13) ^ (uint32_t)(line >> 26);
    if (c->hash == GM_HASH_FOLD) h = (uint32_t)line ^ (uint32_t)(line >> 7) ^ (uint32_t)(line >> 14);
    return h % c->sets;
}

/* Tree-PLRU: walk from the root, node bit 1 = victim on the right. */
static void tree_touch(struct cache *c, uint32_t set, uint32_t way)
{
    uint32_t node = 1, lo = 0, span = c->ways;
    while (span > 1) {
        span /= 2;
        if (way >= lo + span) { c->tree[set] &= ~(1ull << node); node = node * 2 + 1; lo += span; }
        else { c->tree[set] |= 1ull << node; node = node * 2; }
    }
}

static uint32_t tree_victim(struct cache *c, uint32_t set)
{
    uint32_t node = 1, lo = 0, span = c->ways;
    while (span > 1) {
        span /= 2;
        if ((c->tree[set] >> node) & 1) { node = node * 2 + 1; lo += span; }
        else node = node * 2;
    }
    return lo;
}

static void touch(struct gm_ref *r, struct cache *c, uint32_t set, uint32_t way)
{
    c->w[(size_t)set * c->ways + way].stamp = ++r->clock;
    if (c->repl == GM_REPL_PLRU) tree_touch(c, set, way);
}

static struct way *find(struct gm_ref *r, struct cache *c, uint64_t line)
{
    uint32_t set = set_of(c, line);
    for (uint32_t i = 0; i < c->ways; i++) {
        struct way *w = &c->w[(size_t)set * c->ways + i];
        if (w->valid_line && w->line == line) { touch(r, c, set, i); return w; }
    }
    return NULL;
}

/* Victim: the lowest-index invalid way, else LRU (oldest stamp) or PLRU. */
static struct way *insert(struct gm_ref *r, struct cache *c, uint64_t line, struct way *old)
{
    uint32_t set = set_of(c, line), v = c->ways;
    for (uint32_t i = 0; i < c->ways && v == c->ways; i++)
        if (!c->w[(size_t)set * c->ways + i].valid_line) v = i;
    if (v == c->ways && c->repl == GM_REPL_PLRU) v = tree_victim(c, set);
    if (v == c->ways) {
        v = 0;
        for (uint32_t i = 1; i < c->ways; i++)
            if (c->w[(size_t)set * c->ways + i].stamp < c->w[(size_t)set * c->ways + v].stamp) v = i;
    }
    struct way *w = &c->w[(size_t)set * c->ways + v];
    *old = *w;
    memset(w, 0, sizeof *w);
    w->line = line;
    w->valid_line = 1;
    touch(r, c, set, v);
    return w;
}

struct gm_ref *gm_ref_new(const struct gm_sim_config *c)
{
    struct gm_ref *r = calloc(1, sizeof *r);
    r->cfg = *c;
    r->l1 = calloc(c->sm_count, sizeof *r->l1);
    cache_make(&r->l2, c->l2_bytes, c->l2_ways, c->l2_repl, c->l2_hash);
    r->acounts = calloc(1, sizeof *r->acounts);
    r->cap_acounts = 1;
    return r;
}

void gm_ref_free(struct gm_ref *r)
{
    for (uint32_t i = 0; i < r->cfg.sm_count; i++) { free(r->l1[i].w); free(r->l1[i].tree); }
    free(r->l1);
    free(r->l2.w);
    free(r->l2.tree);
    free(r->allocs);
    free(r->acounts);
    free(r);
}

int gm_ref_alloc(struct gm_ref *r, uint64_t base, uint64_t size)
{
    if (GM_GROW_TO(r->allocs, r->cap_allocs, (size_t)r->nallocs + 1) ||
        GM_GROW_TO(r->acounts, r->cap_acounts, (size_t)r->nallocs + 2))
        return -1;
    r->allocs[r->nallocs++] = (struct alloc){base, size, 1};
    memset(&r->acounts[r->nallocs], 0, sizeof *r->acounts);
    return (int)r->nallocs;
}

void gm_ref_release(struct gm_ref *r, uint64_t base)
{
    for (uint32_t i = 0; i < r->nallocs; i++)
        if (r->allocs[i].live && r->allocs[i].base == base) r->allocs[i].live = 0;
}

static uint32_t alloc_of(const struct gm_ref *r, uint64_t addr)
{
    for (uint32_t i = 0; i < r->nallocs; i++)
        if (r->allocs[i].live && addr >= r->allocs[i].base && addr - r->allocs[i].base < r->allocs[i].size)
            return i + 1;
    return 0;
}

void gm_ref_begin(struct gm_ref *r, uint32_t carveout)
{
    for (uint32_t i = 0; i < r->cfg.sm_count; i++)
        cache_make(&r->l1[i], gm_sim_l1_bytes(&r->cfg, carveout), r->cfg.l1_ways, r->cfg.l1_repl, r->cfg.l1_hash);
    if (r->cfg.l2_launch != GM_L2_COLD) return;
    for (size_t i = 0; i < (size_t)r->l2.sets * r->l2.ways; i++) {   /* write back, no launch's traffic */
        const struct way *w = &r->l2.w[i];
        if (w->valid_line) {
            r->acounts[w->owner].dram_wr += (uint64_t)__builtin_popcount(w->dirty);
            r->between.dram_wr += (uint64_t)__builtin_popcount(w->dirty);
        }
    }
    cache_make(&r->l2, r->cfg.l2_bytes, r->cfg.l2_ways, r->cfg.l2_repl, r->cfg.l2_hash);
}

/* Adds one counter to both the allocation and the launch total. */
#define BUMP(r, a, field, n) do { (r)->acounts[a].field += (n); (r)->total.field += (n); } while (0)

/* One L2 access to the touched sectors of a line (bytes per sector), op 0
 * read, 1 write, 2 atomic. Hits are decided on the line's state before the
 * access; writes always hit; a read or atomic that misses a sector fetches
 * that sector's aligned l2_fill group (sectors not yet fully valid). */
static void l2(struct gm_ref *r, uint64_t line, const int *touched, const uint32_t *bytes, int op, uint32_t a,
               uint32_t sm)
{
    if (!(touched[0] | touched[1] | touched[2] | touched[3])) return;
    struct way *w = find(r, &r->l2, line), old;
    int full[4], need[4] = {0, 0, 0, 0};
    int group = r->cfg.l2_fill > 32 ? (int)(r->cfg.l2_fill / 32) : 1;
    uint32_t p = r->cfg.l2_partitions;
    for (int s = 0; s < 4; s++) {
        full[s] = w && w->valid[s] == 0xffffffffu;
        if (!touched[s]) continue;
        if (op == 0) { BUMP(r, a, l2_rd, 1); BUMP(r, a, l2_rd_hit, full[s]); }
        if (op == 1) { BUMP(r, a, l2_wr, 1); BUMP(r, a, l2_wr_hit, 1); }
        if (op == 2) { BUMP(r, a, l2_atom, 1); BUMP(r, a, l2_atom_hit, full[s]); }
        if (p > 1 && set_of(&r->l2, line) / (r->l2.sets / p) != sm % p) BUMP(r, a, l2_far, 1);
        if (op != 1 && !full[s])
            for (int g = s - s % group; g < s - s % group + group; g++) need[g] = 1;
    }
    if (!w) {
        w = insert(r, &r->l2, line, &old);
        for (int s = 0; s < 4; s++)
            if (old.valid_line && (old.dirty >> s & 1)) BUMP(r, old.owner, dram_wr, 1);
    }
    for (int s = 0; s < 4; s++)
        if (need[s] && w->valid[s] != 0xffffffffu) { BUMP(r, a, dram_rd, 1); w->valid[s] = 0xffffffffu; }
    if (op != 0)
        for (int s = 0; s < 4; s++)
            if (touched[s]) { w->valid[s] |= bytes[s]; w->dirty |= 1u << s; w->owner = a; }
}

static void line_access(struct gm_ref *r, struct cache *c1, struct lent *e, int kind, uint32_t a, uint32_t sm)
{
    int n = e->touched[0] + e->touched[1] + e->touched[2] + e->touched[3];
    BUMP(r, a, sectors, n);
    struct way old;
    if (kind & GM_TRACE_ATOMIC) {
        l2(r, e->line, e->touched, e->bytes, 2, a, sm);
        return;
    }
    struct way *w = find(r, c1, e->line);
    if (kind & GM_TRACE_STORE) {
        BUMP(r, a, l1_st, n);
        for (int s = 0; s < 4; s++) BUMP(r, a, l1_st_hit, w && e->touched[s] && w->valid[s] == 0xffffffffu);
        if (!w && r->cfg.l1_write == GM_WPOL_ALLOCATE) w = insert(r, c1, e->line, &old);
        if (w && r->cfg.l1_write == GM_WPOL_INVALIDATE) w->valid_line = 0, memset(w->valid, 0, sizeof w->valid);
        else if (w) for (int s = 0; s < 4; s++) w->valid[s] |= e->bytes[s];
        l2(r, e->line, e->touched, e->bytes, 1, a, sm);
        return;
    }
    int absent = w == NULL;
    if (!w) w = insert(r, c1, e->line, &old);
    int fetch[4];
    for (int s = 0; s < 4; s++) {
        int hit = e->touched[s] && (w->valid[s] & e->bytes[s]) == e->bytes[s];
        BUMP(r, a, l1_ld, e->touched[s]);
        BUMP(r, a, l1_ld_hit, hit);
        fetch[s] = (e->touched[s] && !hit) || (absent && r->cfg.l1_fetch == GM_FETCH_LINE);
    }
    const uint32_t all[4] = {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu};
    for (int s = 0; s < 4; s++)
        if (fetch[s]) w->valid[s] = 0xffffffffu;
    l2(r, e->line, fetch, all, 0, a, sm);
}

static uint64_t phys(const struct gm_access *x, int lane, uint64_t addr, int local)
{
    if (!local) return addr;
    uint64_t off = addr & 0xffffff, gw = (uint64_t)x->smid * 64 + x->warp_slot;
    return (1ull << 60) | gw << 32 | (((off / 4) * 32 + (uint64_t)lane) * 4 + off % 4);
}

static void one(struct gm_ref *r, const struct gm_access *x)
{
    static struct lent e[4096];
    if (!x->active) return;
    if (x->space == 3) { r->total.shared_req++; return; }
    if (x->space != 0 && x->space != 1 && x->space != 5) { r->total.other_req++; return; }
    int local = x->space == 5;
    uint32_t width = x->width ? x->width : 1, nact = (uint32_t)__builtin_popcount(x->active);
    uint32_t sm = x->smid % r->cfg.sm_count;
    for (uint32_t j = 0; j * 16 < width; j++) {
        uint32_t len = width - 16 * j < 16 ? width - 16 * j : 16, n = 0;
        for (int k = 0; k < 32; k++) {
            if (!(x->active >> k & 1)) continue;
            uint64_t b = 0;
            while (b < len) {   /* one piece per sector (global) or word (local) */
                uint64_t v = x->addr[k] + 16 * j + b, p = phys(x, k, v, local);
                uint64_t room = local ? 4 - v % 4 : 32 - p % 32, m = len - b < room ? len - b : room;
                uint32_t i = 0;
                while (i < n && e[i].line != p / 128) i++;
                if (i == n) { memset(&e[n], 0, sizeof e[n]); e[n].line = p / 128; e[n].first = p % 128; n++; }
                for (uint64_t t = 0; t < m; t++) {   /* not q < p + m: 0 for the top sector */
                    uint64_t q = p + t;
                    e[i].touched[q / 32 % 4] = 1;
                    e[i].bytes[q / 32 % 4] |= 1u << (q % 32);
                }
                b += m;
            }
        }
        uint32_t a0 = local ? 0 : alloc_of(r, e[0].line * 128 + e[0].first);
        if (j == 0) { BUMP(r, a0, requests, 1); BUMP(r, a0, ideal_sectors, ((uint64_t)nact * width + 31) / 32); }
        for (uint32_t i = 0; i < n; i++)
            line_access(r, &r->l1[sm], &e[i], x->kind, local ? 0 : alloc_of(r, e[i].line * 128 + e[i].first), sm);
    }
}

/* One line of a copy (no launch's traffic): read fills the missing
 * sectors' groups from DRAM, write allocates and dirties; DRAM reads and
 * write-backs count to the allocations and to the traffic of no launch. */
static void copy_line(struct gm_ref *r, uint64_t line, const uint32_t *bytes, int write, uint32_t a)
{
    int need[4] = {0, 0, 0, 0}, group = r->cfg.l2_fill > 32 ? (int)(r->cfg.l2_fill / 32) : 1;
    struct way *w = find(r, &r->l2, line), old;
    for (int s = 0; s < 4; s++)
        if (!write && bytes[s] && !(w && w->valid[s] == 0xffffffffu))
            for (int g = s - s % group; g < s - s % group + group; g++) need[g] = 1;
    if (!w) {
        w = insert(r, &r->l2, line, &old);
        for (int s = 0; s < 4; s++)
            if (old.valid_line && (old.dirty >> s & 1)) { r->acounts[old.owner].dram_wr++; r->between.dram_wr++; }
    }
    for (int s = 0; s < 4; s++)
        if (need[s] && w->valid[s] != 0xffffffffu) {
            r->acounts[a].dram_rd++;
            r->between.dram_rd++;
            w->valid[s] = 0xffffffffu;
        }
    if (write)
        for (int s = 0; s < 4; s++)
            if (bytes[s]) { w->valid[s] |= bytes[s]; w->dirty |= 1u << s; w->owner = a; }
}

static void copy_side(struct gm_ref *r, uint64_t addr, uint64_t n, int write)
{
    uint32_t bytes[4] = {0, 0, 0, 0};
    for (uint64_t q = addr; q < addr + n; q++) bytes[q / 32 % 4] |= 1u << (q % 32);
    copy_line(r, addr / 128, bytes, write, alloc_of(r, addr));
}

void gm_ref_copy(struct gm_ref *r, const struct gm_trace_copy *c)
{
    int rd = c->kind == GM_COPY_D2H || c->kind == GM_COPY_D2D;
    int wr = c->kind == GM_COPY_H2D || c->kind == GM_COPY_D2D || c->kind == GM_COPY_SET;
    if (!c->bytes || (rd && c->src + c->bytes < c->src) || (wr && c->dst + c->bytes < c->dst)) return;
    for (uint64_t done = 0; done < c->bytes;) {   /* up to the next line end of either side */
        uint64_t step = c->bytes - done;
        if (rd && 128 - (c->src + done) % 128 < step) step = 128 - (c->src + done) % 128;
        if (wr && 128 - (c->dst + done) % 128 < step) step = 128 - (c->dst + done) % 128;
        if (rd) copy_side(r, c->src + done, step, 0);
        if (wr) copy_side(r, c->dst + done, step, 1);
        done += step;
    }
}

void gm_ref_feed(struct gm_ref *r, const struct gm_access *recs, size_t n)
{
    for (size_t i = 0; i < n; i++) one(r, &recs[i]);
}

void gm_ref_end(struct gm_ref *r, struct gm_counts *launch)
{
    if (launch) gm_counts_add(launch, &r->total);
    memset(&r->total, 0, sizeof r->total);
}

void gm_ref_flush_l2(struct gm_ref *r, struct gm_counts *into)
{
    for (size_t i = 0; i < (size_t)r->l2.sets * r->l2.ways; i++) {
        struct way *w = &r->l2.w[i];
        if (!w->valid_line) continue;
        r->acounts[w->owner].dram_wr += (uint64_t)__builtin_popcount(w->dirty);
        r->between.dram_wr += (uint64_t)__builtin_popcount(w->dirty);
        w->dirty = 0;
    }
    if (into) gm_counts_add(into, &r->between);
    memset(&r->between, 0, sizeof r->between);
}

const struct gm_counts *gm_ref_alloc_counts(const struct gm_ref *r, uint32_t id)
{
    return id <= r->nallocs ? &r->acounts[id] : NULL;
}
