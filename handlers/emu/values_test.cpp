// SPDX-License-Identifier: Apache-2.0
// CPU test of the "values" handler (handlers/builtin/values.cu) on emulated
// warps (gm_emu.h), in its three paths: direct to memory, register
// accumulators (sites in loops: flushed by random groups of lanes, with
// counts seeded just below the spill point so spills must stay exact) and block
// words (sites outside loops: flushed by the last group, split in two). Every counter is
// compared with a brute-force count. C++17, tests only; exit 0 when all
// match.
#include "gm_emu.h"
#include <array>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "values.cu"

#define NSITES 8u
#define REPLICAS 2u
extern "C" {
extern const uint32_t __gm_nsites;
const uint32_t __gm_nsites = NSITES;
uint32_t __gm_replica_mask = REPLICAS - 1;
}

typedef unsigned long long u64;
enum mode { DIRECT, ACCUM, BLOCK };
static mode cur;
static std::mutex mu;
static std::map<uint32_t, std::array<uint32_t, 32 * GM_ACCUM_WORDS>> accw;
static std::map<uint32_t, std::vector<uint32_t>> blockw;
static int failures;

uint32_t *gm_emu_accum(const char *name, uint32_t site)
{
    (void)name;
    if (cur != ACCUM) return nullptr;
    std::lock_guard<std::mutex> g(mu);
    return &accw[site][gm_emu::lane * GM_ACCUM_WORDS];
}

uint32_t *gm_emu_block(const char *name, uint32_t site, uint32_t words)
{
    (void)name;
    if (cur != BLOCK) return nullptr;
    std::lock_guard<std::mutex> g(mu);
    auto &v = blockw[site];
    if (v.empty()) v.assign(words, 0);
    return v.data();
}

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint64_t rnd(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }
static uint32_t rnd_mask(void)
{
    switch (rnd() % 4) {
    case 0: return ~0u;
    case 1: return (uint32_t)rnd() | 1u << (rnd() % 32);
    case 2: return 1u << (rnd() % 32);
    default: return ~0u >> (rnd() % 32);
    }
}

/* Runs f(lane) on one host thread per lane of mask, as one warp on SM sm. */
static void warp(uint32_t mask, uint32_t sm, const std::function<void(uint32_t)> &f)
{
    std::vector<std::thread> t;
    for (uint32_t l = 0; l < 32; l++)
        if (mask >> l & 1)
            t.emplace_back([=, &f] { gm_emu::lane = l; gm_emu::active = mask; gm_emu::smid = sm; f(l); });
    for (auto &x : t) x.join();
}

static void check(const char *what, mode m, uint32_t site, u64 got, u64 want)
{
    if (got == want) return;
    if (failures++ < 20)
        fprintf(stderr, "MISMATCH %s mode %d site %u: handler %llu (%#llx), expected %llu (%#llx)\n",
                what, (int)m, site, got, got, want, want);
}

/* Lanes flush in random groups, each lane exactly once (as threads that
 * leave the kernel at different returns). */
static void flush_accum(uint32_t site)
{
    uint32_t left = ~0u;
    while (left) {
        uint32_t g = left & (rnd() % 3 ? (uint32_t)rnd() : ~0u);
        if (!g) continue;
        warp(g, site % REPLICAS, [&](uint32_t) { gm_accum_flush__values(site, gm_emu_accum("values", site)); });
        left &= ~g;
    }
}

/* Seeds every lane's counts just below the spill point (uniform <= led,
 * as the handler keeps them) and adds them to the reference. */
static void seed_accum(u64 ref[NSITES][4])
{
    for (uint32_t s = 0; s < NSITES; s++)
        for (uint32_t l = 0; l < 32; l++) {
            uint32_t *a = &accw[s][l * GM_ACCUM_WORDS];
            uint32_t led = VA_SPILL - 1 - (uint32_t)(rnd() % 4), uni = rnd() % 2 ? led - (uint32_t)(rnd() % 3) : (uint32_t)(rnd() % 5);
            a[VW_COUNTS] = led | uni << 16;
            ref[s][VA_WARPS] += led;
            ref[s][VA_UNIFORM] += uni;
        }
}

static void run(mode m)
{
    std::vector<u64> ctr(REPLICAS * NSITES * 4);
    gm_counters__values = ctr.data();
    accw.clear();
    blockw.clear();
    cur = m;
    u64 ref[NSITES][4] = {};
    if (m == ACCUM) seed_accum(ref);
    for (int t = 0; t < 400; t++) {
        uint32_t site = t % NSITES, mask = rnd_mask(), w = 1u << (rnd() % 5), ev = rnd() % 3;
        if (w == 32) w = 0;                        /* width 0: treated as 8 bytes */
        uint64_t mw = w == 0 || w > 4 ? ~0ull : (1ull << (8 * w)) - 1, v[32], same = rnd();
        /* few bits vary (sparse masks), so ones and zeros stay informative */
        uint64_t vary = rnd() % 2 ? rnd() & rnd() & rnd() : rnd();
        if (rnd() % 4 == 0) vary &= 0xffffffff00000000ull;  /* only the high word varies */
        same = rnd() % 2 ? same & rnd() & rnd() : same;
        for (int l = 0; l < 32; l++) v[l] = (rnd() % 3 == 0) ? same ^ (rnd() & vary) : same;
        if (rnd() % 4 == 0) for (int l = 0; l < 32; l++) v[l] = same ^ (rnd() & ~mw);  /* uniform in w */
        uint32_t info = (GM_SPACE_GLOBAL << 16) | w | (ev == 0 ? GM_INFO_LOAD : ev == 1 ? GM_INFO_STORE : GM_INFO_LOAD | GM_INFO_STORE | GM_INFO_ATOMIC);
        bool after = rnd() & 1;
        warp(mask, t % REPLICAS, [&](uint32_t l) {
            if (after) gm_after_load__values(site, 0, info, v[l]); else gm_before_mem__values(site, 0, info, v[l]);
        });
        bool counts = after ? (info & GM_INFO_LOAD) != 0 : ev == 1;
        if (!counts) continue;
        u64 ones = 0, zeros = 0;
        std::set<uint64_t> distinct;
        for (int l = 0; l < 32; l++)
            if (mask >> l & 1) { ones |= v[l] & mw; zeros |= ~v[l] & mw; distinct.insert(v[l] & mw); }
        ref[site][VA_WARPS]++;
        ref[site][VA_UNIFORM] += distinct.size() == 1;
        ref[site][VA_ONES] |= ones;
        ref[site][VA_ZEROS] |= zeros;
    }
    if (m == ACCUM)   /* counts went to memory before reaching the spill point */
        for (auto &a : accw)
            for (uint32_t l = 0; l < 32; l++)
                if ((a.second[l * GM_ACCUM_WORDS + VW_COUNTS] & 0xffffu) >= VA_SPILL) {
                    failures++;
                    fprintf(stderr, "site %u lane %u: counts 0x%x past the spill point\n", a.first, l, a.second[l * GM_ACCUM_WORDS + VW_COUNTS]);
                }
    for (uint32_t s = 0; s < NSITES; s++) {
        if (m == ACCUM) flush_accum(s);
        if (m == BLOCK && blockw.count(s)) {
            /* an earlier group (last = 0), then the last group, which
             * reaches the flush split in two parts (as seen on the H100) */
            uint32_t *w = gm_emu_block("values", s, VW_N), last = rnd_mask(), part = last & (uint32_t)rnd();
            warp(rnd_mask(), s % REPLICAS, [&](uint32_t) { gm_block_flush__values(s, w, 0); });
            if (part) warp(part, s % REPLICAS, [&](uint32_t) { gm_block_flush__values(s, w, last); });
            if (last & ~part) warp(last & ~part, s % REPLICAS, [&](uint32_t) { gm_block_flush__values(s, w, last); });
        }
    }
    if (m == BLOCK && blockw.size() != NSITES) { failures++; fprintf(stderr, "block words not used\n"); }
    static const char *names[4] = {"va.warps", "va.uniform", "va.ones", "va.zeros"};
    for (uint32_t s = 0; s < NSITES; s++)
        for (int k = 0; k < 4; k++) {
            u64 got = 0;
            for (uint32_t r = 0; r < REPLICAS; r++)
                got = k < 2 ? got + ctr[(r * NSITES + s) * 4 + k] : got | ctr[(r * NSITES + s) * 4 + k];
            check(names[k], m, s, got, ref[s][k]);
        }
}

int main(void)
{
    /* NULL counters: the handler returns without touching memory */
    gm_counters__values = nullptr;
    warp(~0u, 0, [](uint32_t l) { gm_after_load__values(0, 0, GM_INFO_LOAD | 4, l); });
    for (int rep = 0; rep < 3; rep++) {
        run(DIRECT);
        run(ACCUM);
        run(BLOCK);
    }
    if (failures) { fprintf(stderr, "%d mismatches\n", failures); return 1; }
    printf("values: direct, register and block paths match the brute-force counts\n");
    return 0;
}
