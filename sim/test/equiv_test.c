/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Exactness test of the fast simulator: on large random traces (every space,
 * kind, width, mask shape, allocation edges, many SMs, two launches with an
 * allocation freed in between) and on many configurations (LRU/PLRU, the
 * three write policies, sector/line fetch, mod/XOR hash, partitions, warm
 * and cold L2 at each launch, odd way counts, caches small enough to evict
 * constantly, 32/64/128 B L2 fills, and the two presets' geometries, which
 * have loops of their own), the serial fast path, the threaded path (2, 3
 * and 5 threads, small windows) and the reference model (sim/ref) must give
 * the same counters for every allocation and the same launch totals, and
 * the same end-of-trace L2 write-back (gm_sim_flush_l2: its total with the
 * traffic of no launch, and every allocation's counters after it); the
 * threaded runs' phase times must add up. Besides three large allocations,
 * a region of many small adjacent ones (4 to 256 B) takes an eighth of the
 * addresses, so the lanes of strided and gathered warps fall near
 * allocation edges and a line access's allocation taken from a wrong byte
 * shows. One warp in 64 (gathers aside) starts in the top 256 B of
 * the address space, so its lanes' bytes run on to address 0 (modulo
 * 2^64), a sector ending exactly at 2^64 included. Copies and memsets of
 * every kind come before each launch. Prints the first difference and
 * exits 1.
 * usage: gm-sim-equiv-test [RECORDS_PER_LAUNCH]. Depends on libgmsim only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/abi.h"
#include "gpumem/sim.h"

#define BASE_A 0x10000000ull
#define BASE_B 0x10100000ull   /* adjacent ranges: lines straddle allocations */
#define BASE_C 0x20000000ull
#define BASE_D 0x30000000ull   /* NSMALL small adjacent allocations */
#define NSMALL 128
#define NALLOC (4 + NSMALL)   /* ids 0 (none), A, B, C, then the small ones */

/* Size of small allocation i: 4 to 256 B in 4-byte steps, not line-sized. */
static uint64_t small_size(uint32_t i) { return 4 * (1 + (i * 37 + 11) % 64); }

/* End of the small allocations (they lie side by side from BASE_D). */
static uint64_t small_end(void)
{
    uint64_t e = BASE_D;
    for (uint32_t i = 0; i < NSMALL; i++) e += small_size(i);
    return e;
}

static uint64_t rnd(uint64_t *x) { *x ^= *x << 13; *x ^= *x >> 7; *x ^= *x << 17; return *x; }

/* A quarter of the addresses fall into 64 hot lines, so the same line comes
 * back within a few line accesses (the prefetch hints must see it). */
static uint64_t addr_in(uint64_t *x, uint32_t width)
{
    uint64_t r = rnd(x), off = rnd(x) % (1u << 20);
    if (r % 16 >= 12) off = (rnd(x) % 64) * 128 + off % 128;
    uint64_t base = r % 4 == 0 ? BASE_A : r % 4 == 1 ? BASE_B : r % 4 == 2 ? BASE_C : BASE_A + 0xffff00;
    if (r % 64 >= 56) { base = BASE_D; off %= small_end() - BASE_D; }   /* the small allocations */
    return (base + off) & ~(uint64_t)(width >= 4 ? 3 : width - 1);
}

static void gen(struct gm_access *v, size_t n, uint64_t seed)
{
    static const uint16_t widths[] = {1, 2, 4, 4, 4, 8, 12, 16, 32};
    static const uint8_t spaces[] = {GM_SPACE_GLOBAL, GM_SPACE_GLOBAL, GM_SPACE_GENERIC, GM_SPACE_LOCAL,
                                     GM_SPACE_SHARED, GM_SPACE_CONST};
    uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
    for (size_t i = 0; i < n; i++) {
        struct gm_access *a = &v[i];
        memset(a, 0, sizeof *a);
        uint32_t shape = (uint32_t)(rnd(&x) % 4);
        a->width = widths[rnd(&x) % 9];
        a->space = spaces[rnd(&x) % 6];
        uint32_t k = (uint32_t)(rnd(&x) % 8);
        a->kind = k < 5 ? GM_TRACE_LOAD : k < 7 ? GM_TRACE_STORE : GM_TRACE_ATOMIC;
        a->active = shape == 3 ? (uint32_t)rnd(&x) : 0xffffffffu;
        if (rnd(&x) % 50 == 0) a->active = 0;
        a->smid = (uint16_t)(rnd(&x) % 23);
        a->warp_slot = (uint8_t)(rnd(&x) % 8);
        a->module = (uint16_t)(rnd(&x) % 3);
        a->site = (uint32_t)(rnd(&x) % 6);
        uint64_t a0 = addr_in(&x, a->width), stride = a->width;
        if (rnd(&x) % 64 == 0)   /* at the top of the address space: lanes run past 2^64 - 1 on to 0 */
            a0 = (uint64_t)0 - 4 * (1 + rnd(&x) % 64);
        if (shape == 1)   /* strided: lanes overlapping, apart, or a line or more apart */
            stride = rnd(&x) % 4 ? 4 * (rnd(&x) % 64) : 4 * (rnd(&x) % 2) + 128 * (rnd(&x) % 40);
        for (uint32_t l = 0; l < 32; l++) {
            if (shape == 2) a->addr[l] = addr_in(&x, a->width);      /* gather */
            else a->addr[l] = a0 + l * stride;                       /* contiguous / strided */
        }
        if (shape < 2 && rnd(&x) % 8 == 0)   /* strided but for one inner lane (lanes 0, 1, 31 agree) */
            a->addr[2 + rnd(&x) % 29] += 4 * (1 + rnd(&x) % 40);
    }
}

/* Per launch; the end write-back plus the traffic of no launch (copies,
 * cold-start write-backs); per allocation after the end write-back. */
struct run { struct gm_counts launch[2], end, alloc[NALLOC]; };

/* Copies and memsets before each launch (they pass through L2): whole
 * lines, unaligned ends, source and destination at different offsets in
 * their lines, across the small allocations and outside any allocation,
 * and larger than the small L2s (evictions of dirty lines). The large
 * reads come first, so dirty lines fill the L2 when a launch begins (the
 * cold-start write-back has work). */
static const struct gm_trace_copy copies[2][4] = {
    {{.kind = GM_COPY_D2H, .src = BASE_B + 0xfff00, .bytes = 300u << 10},
     {.kind = GM_COPY_H2D, .dst = BASE_A + 0x100, .bytes = 200u << 10},
     {.kind = GM_COPY_SET, .dst = BASE_C + 0x1237, .bytes = 5003},
     {.kind = GM_COPY_D2D, .src = BASE_A + 0x10, .dst = BASE_D + 5, .bytes = 9000}},
    {{.kind = GM_COPY_D2H, .src = BASE_C, .bytes = 1u << 19},
     {.kind = GM_COPY_D2D, .src = BASE_D + 0x43, .dst = BASE_C + 0x80, .bytes = 3000},
     {.kind = GM_COPY_H2D, .dst = BASE_A + 0x21, .bytes = 70000},
     {.kind = GM_COPY_SET, .dst = BASE_D + 0x100, .bytes = 127}},
};

/* gm_sim_thread_times after a run: nothing with one thread; with threads,
 * the windows took time, the L1 phase did work, no phase's slowest thread
 * took longer than all threads together, nor the slowest threads longer
 * than the windows' wall time. 1 (with a message) if not. */
static int times_bad(const struct gm_sim *s, uint32_t threads)
{
    struct gm_sim_ptimes t;
    gm_sim_thread_times(s, &t);
    double slow = 0, eps = 1e-6;
    int bad = threads == 1 ? t.wall != 0 : t.wall <= 0 || t.busy[2] <= 0;
    for (int p = 0; p < 4; p++) {
        slow += t.slowest[p];
        bad |= t.slowest[p] > t.busy[p] + eps || (threads == 1 && t.busy[p] != 0);
    }
    bad |= slow > t.wall + eps;
    if (bad) fprintf(stderr, "equiv_test: thread times wrong at %u threads: wall %g, slowest sum %g\n", threads, t.wall, slow);
    return bad;
}

static int fast(const struct gm_sim_config *c, const struct gm_access *v, size_t n, struct run *out)
{
    const char *err;
    struct gm_sim *s = gm_sim_new(c, &err);
    if (!s) { fprintf(stderr, "equiv_test: %s\n", err); return -1; }
    memset(out, 0, sizeof *out);
    gm_sim_add_module(s, 0, 4);   /* module 2 stays unknown */
    gm_sim_add_module(s, 1, 6);
    gm_sim_alloc(s, BASE_A, 1u << 20);
    gm_sim_alloc(s, BASE_B, 1u << 20);
    gm_sim_alloc(s, BASE_C, 1u << 19);
    for (uint64_t i = 0, b = BASE_D; i < NSMALL; b += small_size((uint32_t)i++)) gm_sim_alloc(s, b, small_size((uint32_t)i));
    for (int l = 0; l < 2; l++) {
        for (int k = 0; k < 4; k++) gm_sim_copy(s, &copies[l][k]);
        if ((err = gm_sim_begin(s, l ? 64u << 10 : 0))) { fprintf(stderr, "equiv_test: %s\n", err); return -1; }
        for (size_t off = 0; off < n; off += 3001) gm_sim_feed(s, v + off, n - off < 3001 ? n - off : 3001);
        gm_sim_end(s, &out->launch[l]);
        if (!l) gm_sim_release(s, BASE_B);
    }
    gm_sim_flush_l2(s, &out->end);
    for (uint32_t i = 0; i < NALLOC; i++) out->alloc[i] = *gm_sim_alloc_counts(s, i);
    int bad = times_bad(s, c->threads);
    gm_sim_free(s);
    return bad ? -1 : 0;
}

static void ref(const struct gm_sim_config *c, const struct gm_access *v, size_t n, struct run *out)
{
    struct gm_ref *r = gm_ref_new(c);
    memset(out, 0, sizeof *out);
    gm_ref_alloc(r, BASE_A, 1u << 20);
    gm_ref_alloc(r, BASE_B, 1u << 20);
    gm_ref_alloc(r, BASE_C, 1u << 19);
    for (uint64_t i = 0, b = BASE_D; i < NSMALL; b += small_size((uint32_t)i++)) gm_ref_alloc(r, b, small_size((uint32_t)i));
    for (int l = 0; l < 2; l++) {
        for (int k = 0; k < 4; k++) gm_ref_copy(r, &copies[l][k]);
        gm_ref_begin(r, l ? 64u << 10 : 0);
        gm_ref_feed(r, v, n);
        gm_ref_end(r, &out->launch[l]);
        if (!l) gm_ref_release(r, BASE_B);
    }
    gm_ref_flush_l2(r, &out->end);
    for (uint32_t i = 0; i < NALLOC; i++) out->alloc[i] = *gm_ref_alloc_counts(r, i);
    gm_ref_free(r);
}

/* 0 if equal, else prints where (counter index within struct gm_counts). */
static int same(const char *what, const char *cfg, const struct run *a, const struct run *b)
{
    const uint64_t *p = (const uint64_t *)a, *q = (const uint64_t *)b;
    size_t per = sizeof(struct gm_counts) / sizeof(uint64_t);
    for (size_t i = 0; i < sizeof *a / sizeof(uint64_t); i++) {
        if (p[i] == q[i]) continue;
        size_t k = i / per;
        printf("equiv_test: %s differs (%s): %s %zu counter %zu: %llu vs %llu\n", what, cfg,
               k < 2 ? "launch" : k == 2 ? "end write-back" : "alloc", k < 2 ? k : k == 2 ? 0 : k - 3, i % per,
               (unsigned long long)p[i], (unsigned long long)q[i]);
        return 1;
    }
    return 0;
}

static const char *configs[] = {
    "",
    "l1_repl=lru l2_repl=plru l2_ways=16 l1_write=no-allocate l1_fetch=line",
    "l1_write=invalidate l2_hash=mod l2_partitions=4 l1_hash=mod",
    "l1_bytes=8K l1_ways=2 l2_bytes=64K l2_ways=4 l2_partitions=4 l2_fill=64 l2_launch=cold",
    "l1_bytes=6K l1_ways=3 l1_repl=lru l2_bytes=60K l2_ways=5 l2_hash=mod l1_write=invalidate l2_fill=32",
    "l1_bytes=16K l1_ways=8 l1_repl=lru l2_bytes=320K l2_ways=20 l1_fetch=line l2_fill=128",
    "l1_bytes=32K l1_ways=16 l2_bytes=192K l2_ways=24 l2_repl=lru l1_write=no-allocate",
    "l1_bytes=4K l1_ways=32 l1_repl=plru l2_bytes=256K l2_ways=32 l2_repl=plru l2_hash=xor l1_hash=xor",
    "l1_bytes=12K l1_ways=24 l1_repl=lru l2_bytes=112K l2_ways=7 l2_partitions=2 l2_fill=64",
    "l1_bytes=24K l1_ways=4 l2_bytes=80K l2_ways=5 l2_hash=fold",
    "l2_bytes=1M l2_ways=16 l2_partitions=1 l2_fill=0 l2_hash=mod",   /* the RTX 2080 Ti preset's loop */
};

static int setup(struct gm_sim_config *c, const char *spec)
{
    char buf[256], *save = NULL;
    gm_sim_preset(c, "h100");
    c->sm_count = 20;   /* smid 20..22 wrap around */
    snprintf(buf, sizeof buf, "%s", spec);
    for (char *kv = strtok_r(buf, " ", &save); kv; kv = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(kv, '=');
        *eq = 0;
        const char *m = gm_sim_config_set(c, kv, eq + 1);
        if (m) { fprintf(stderr, "equiv_test: %s: %s\n", spec, m); return -1; }
    }
    const char *m = gm_sim_config_check(c, 0);
    if (m) { fprintf(stderr, "equiv_test: %s: %s\n", spec, m); return -1; }
    return 0;
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? (size_t)atol(argv[1]) : 20000;
    struct gm_access *v = malloc(n * sizeof *v);
    if (!v) return 1;
    int bad = 0;
    for (size_t k = 0; k < sizeof configs / sizeof *configs; k++) {
        struct gm_sim_config c;
        struct run r, f, t;
        if (setup(&c, configs[k])) return 1;
        gen(v, n, k + 1);
        ref(&c, v, n, &r);
        if (fast(&c, v, n, &f)) return 1;
        bad |= same("fast vs reference", configs[k], &f, &r);
        static const uint32_t threads[] = {2, 3, 5};
        for (int i = 0; i < 3; i++) {
            c.threads = threads[i];
            c.window = 1024;
            if (fast(&c, v, n, &t)) return 1;
            char what[64];
            snprintf(what, sizeof what, "%u threads vs serial", threads[i]);
            bad |= same(what, configs[k], &t, &f);
        }
        printf("config %zu (%s): %llu sector accesses, %llu L2 accesses: %s\n", k, configs[k][0] ? configs[k] : "h100",
               (unsigned long long)(f.launch[0].sectors + f.launch[1].sectors),
               (unsigned long long)(f.launch[0].l2_rd + f.launch[0].l2_wr + f.launch[0].l2_atom +
                                    f.launch[1].l2_rd + f.launch[1].l2_wr + f.launch[1].l2_atom),
               bad ? "DIFFERENT" : "identical");
    }
    free(v);
    printf("equiv_test: %s\n", bad ? "FAILED" : "ok");
    return bad;
}
