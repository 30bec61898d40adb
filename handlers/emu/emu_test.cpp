// SPDX-License-Identifier: Apache-2.0
// CPU test of the built-in handlers' logic: runs coalescing, divergence,
// values, allocations and the count_memops example on emulated warps
// (gm_emu.h: one host thread per lane, collectives as rendezvous) for
// random access patterns, partial and divergent masks, and compares every
// counter with a brute-force count of the same definition. C++17, tests
// only. Exit 0 when all match; prints the first mismatches otherwise.
#include "gm_emu.h"
#include <algorithm>
#include <functional>
#include <array>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "coalescing.cu"
#include "divergence.cu"
#include "values.cu"
#include "allocations.cu"
#include "../../examples/handlers/count_memops.cu"

#define NSITES 8u
#define REPLICAS 2u
extern "C" {
extern const uint32_t __gm_nsites;
const uint32_t __gm_nsites = NSITES;
uint32_t __gm_replica_mask = REPLICAS - 1;
}

/* Register accumulators (GM_ACCUM): off, or per site and lane words that
 * live across warp executions and are flushed by a full warp at the end,
 * as the pass arranges for sites in loops. */
static bool accum_on;
static std::mutex accum_mu;
static std::map<std::pair<std::string, uint32_t>, std::array<uint32_t, 32 * GM_ACCUM_WORDS>> accum;
uint32_t *gm_emu_accum(const char *name, uint32_t site)
{
    if (!accum_on) return nullptr;
    std::lock_guard<std::mutex> g(accum_mu);
    return &accum[{name, site}][gm_emu::lane * GM_ACCUM_WORDS];
}

/* Block accumulators (GM_BLOCK, used by values): off here
 * (emu/values_test.cpp tests them). */
uint32_t *gm_emu_block(const char *name, uint32_t site, uint32_t words)
{
    (void)name, (void)site, (void)words;
    return nullptr;
}

typedef unsigned long long u64;
static int failures;
static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }
static uint32_t rnd_mask(void)
{
    switch (rnd() % 4) {
    case 0: return ~0u;
    case 1: return (uint32_t)rnd() | 1u << (rnd() % 32);
    case 2: return 1u << (rnd() % 32);
    default: return (~0u >> (rnd() % 32));
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

static void check(const char *what, uint32_t site, u64 got, u64 want)
{
    if (got == want) return;
    if (failures++ < 20) fprintf(stderr, "MISMATCH %s site %u: handler %llu, expected %llu\n", what, site, got, want);
}

/* Sum of the replicas of slot `slot` of site `site`. */
static u64 summed(const std::vector<u64> &c, uint32_t slots, uint32_t site, uint32_t slot)
{
    u64 s = 0;
    for (uint32_t r = 0; r < REPLICAS; r++) s += c[(r * NSITES + site) * slots + slot];
    return s;
}

static size_t units(const std::vector<std::pair<uint64_t, uint64_t>> &ranges, int shift)
{
    std::set<uint64_t> u;
    for (auto &r : ranges)
        for (uint64_t x = r.first >> shift; x <= (r.first + r.second - 1) >> shift; x++) u.insert(x);
    return u.size();
}

/* ---- coalescing ------------------------------------------------------- */
struct co_ref { u64 slot[7]; std::map<uint32_t, u64> matrix; };

static uint32_t shared_waves(const std::vector<std::pair<uint32_t, uint64_t>> &lanes, uint32_t w, uint32_t *ideal)
{
    uint32_t W = w < 4 ? 4 : w, P = 128 / W, total = 0;
    *ideal = 0;
    for (uint32_t p = 0; p < 32 / P; p++) {
        std::set<uint64_t> u;
        for (auto &x : lanes) if (x.first / P == p) u.insert(x.second / W);
        if (u.empty()) continue;
        std::map<uint64_t, uint32_t> per_group;
        uint32_t mx = 0;
        for (uint64_t v : u) mx = std::max(mx, ++per_group[v % P]);
        total += mx;
        ++*ideal;
    }
    return total;
}

/* Adds one warp execution's global or local lanes (address, bytes) to r:
 * sectors, lines, ideal sectors and its matrix cell. */
static void co_ref_mem(co_ref &r, const std::vector<std::pair<uint64_t, uint64_t>> &glob)
{
    uint32_t s = units(glob, 5);
    u64 bytes = 0;
    for (auto &g : glob) bytes += g.second;
    r.slot[CO_SECTORS] += s;
    r.slot[CO_LINES] += units(glob, 7);
    r.slot[CO_IDEAL] += (bytes + 31) / 32;
    r.matrix[(uint32_t)(glob.size() - 1) * 32 + std::min(s, 32u) - 1]++;
}

/* Adds one warp execution's shared lanes (lane, address) of w bytes to r. */
static void co_ref_shared(co_ref &r, const std::vector<std::pair<uint32_t, uint64_t>> &shar, uint32_t w)
{
    uint32_t ideal;
    r.slot[CO_WAVES] += shared_waves(shar, w, &ideal);
    r.slot[CO_IDEAL_WAVES] += ideal;
}

/* The handler's counters (replicas summed) and matrix against ref, every
 * site; mismatches named "<test>.<slot>". */
static void co_check(const char *test, const std::vector<u64> &ctr, const std::vector<u64> &mat, const co_ref *ref)
{
    static const char *slots[7] = {"warps", "threads", "sectors", "lines", "ideal", "waves", "ideal_waves"};
    for (uint32_t s = 0; s < NSITES; s++) {
        for (int k = 0; k < 7; k++)
            check((std::string(test) + "." + slots[k]).c_str(), s, summed(ctr, 7, s, k), ref[s].slot[k]);
        for (uint32_t c = 0; c < 1024; c++) {
            auto it = ref[s].matrix.find(c);
            check((std::string(test) + ".matrix").c_str(), s, mat[s * 1024 + c], it == ref[s].matrix.end() ? 0 : it->second);
        }
    }
}

static void test_coalescing(void)
{
    std::vector<u64> ctr(REPLICAS * NSITES * 7), mat(NSITES * 1024);
    gm_counters__coalescing = ctr.data();
    gm_counters__coalescing_matrix = mat.data();
    co_ref ref[NSITES] = {};
    for (int t = 0; t < 400; t++) {
        uint32_t site = t % NSITES, mask = rnd_mask(), kind = rnd() % 5;
        uint32_t w = 1u << (rnd() % 5), info, n = __builtin_popcount(mask);
        uint64_t addr[32], len[32];
        uint64_t base = (rnd() % 64 + 1) << 36 | (rnd() % 4096) << 8;
        uint32_t stride = (uint32_t)(rnd() % 40);
        for (int l = 0; l < 32; l++) {
            len[l] = w;
            switch (kind) {
            case 0: addr[l] = base + (uint64_t)(t % 3 ? l : l % 16) * stride * w; break; /* strided, tiles */
            case 1: addr[l] = base + (rnd() % 512) * w + (rnd() % 3 == 0 ? (rnd() % 3) << 33 : 0); break;
            case 2:                                                                 /* memcpy */
                if (t & 1) { addr[l] = base + rnd() % 1000; len[l] = rnd() % 300; }
                else { addr[l] = base + (rnd() % 64) * 16 + (t % 4 == 0 ? 4 * (rnd() % 2) : 0); len[l] = 16; }
                break;
            case 3: addr[l] = (1ull << 31) + (t % 2 ? (uint64_t)l * stride : rnd() % 2048) * w; break; /* shared */
            default: addr[l] = (rnd() & 1) ? (1ull << 31) + l * stride * 4 : base + l * 4; w = 4; len[l] = 4; break;
            }
        }
        info = kind == 2 ? (GM_SPACE_GLOBAL << 16) | GM_INFO_STORE | GM_INFO_MEMINTR | (t & 1 ? 0 : 16)
             : kind == 3 ? (GM_SPACE_SHARED << 16) | GM_INFO_LOAD | w
             : kind == 4 ? (GM_SPACE_GENERIC << 16) | GM_INFO_LOAD | 4
             : (GM_SPACE_GLOBAL << 16) | GM_INFO_LOAD | w;
        if (kind != 2) for (int l = 0; l < 32; l++) len[l] = w;
        warp(mask, site % REPLICAS, [&](uint32_t l) { gm_before_mem__coalescing(site, addr[l], info, kind == 2 ? len[l] : 0); });
        /* brute force: lanes split by space */
        std::vector<std::pair<uint64_t, uint64_t>> glob;
        std::vector<std::pair<uint32_t, uint64_t>> shar;
        for (uint32_t l = 0; l < 32; l++) {
            if (!(mask >> l & 1) || !len[l]) continue;
            bool sh = kind == 3 || (kind == 4 && __isShared((void *)addr[l]));
            if (sh) shar.push_back({l, addr[l]}); else glob.push_back({addr[l], len[l]});
        }
        co_ref &r = ref[site];
        r.slot[CO_WARPS]++;
        r.slot[CO_THREADS] += n;
        if (!glob.empty()) co_ref_mem(r, glob);
        if (!shar.empty()) co_ref_shared(r, shar, w);
    }
    if (accum_on)
        for (uint32_t s = 0; s < NSITES; s++)
            warp(~0u, s % REPLICAS, [&](uint32_t l) { (void)l; gm_accum_flush__coalescing(s, gm_emu_accum("coalescing", s)); });
    co_check("co", ctr, mat, ref);
}

/* One warp execution of global load site `site` (the lanes of mask at
 * addr, w bytes each) through the handler, and the same in the reference. */
static void co_global_exec(uint32_t site, uint32_t mask, const uint64_t *addr, uint32_t info, uint32_t w,
                           co_ref *ref)
{
    warp(mask, site % REPLICAS, [&](uint32_t l) { gm_before_mem__coalescing(site, addr[l], info, 0); });
    std::vector<std::pair<uint64_t, uint64_t>> glob;
    for (uint32_t l = 0; l < 32; l++) if (mask >> l & 1) glob.push_back({addr[l], w});
    co_ref &r = ref[site];
    r.slot[CO_WARPS]++;
    r.slot[CO_THREADS] += glob.size();
    co_ref_mem(r, glob);
}

/* Loops: full warps re-executing a site with lanes shifted by a common
 * amount, mixed with shifts that move
 * lanes apart, partial warps and accesses that straddle sectors and lines. */
static void test_coalescing_loops(void)
{
    std::vector<u64> ctr(REPLICAS * NSITES * 7), mat(NSITES * 1024);
    gm_counters__coalescing = ctr.data();
    gm_counters__coalescing_matrix = mat.data();
    co_ref ref[NSITES] = {};
    static const uint64_t shifts[] = {0, 8, 16, 32, 64, 96, 128, 256, 8192, 1ull << 33}; /* keep w-aligned */
    for (uint32_t site = 0; site < NSITES; site++) {
        uint32_t w = 1u << (site % 4), pat = site % 4;
        uint32_t info = (GM_SPACE_GLOBAL << 16) | GM_INFO_LOAD | w;
        uint64_t addr[32], base = (rnd() % 64 + 1) << 36 | (rnd() % 4096) << 8;
        for (int l = 0; l < 32; l++)
            addr[l] = base + (pat == 0 ? l * w : pat == 1 ? (l / 16) * 4096 : pat == 2 ? (rnd() % 64) * w : l % 16 * w * 3);
        for (int t = 0; t < 300; t++) {
            /* odd sites: partial warps late (after them, no repeats) */
            uint32_t mask = site % 2 && t > 200 && rnd() % 4 == 0 ? rnd_mask() : ~0u;
            uint64_t sh = shifts[rnd() % 10];
            bool perturb = rnd() % 8 == 0;
            for (int l = 0; l < 32; l++) addr[l] += sh + (perturb && rnd() % 4 == 0 ? w * (rnd() % 40) : 0);
            co_global_exec(site, mask, addr, info, w, ref);
        }
    }
    for (uint32_t s = 0; s < NSITES; s++)
        warp(~0u, s % REPLICAS, [&](uint32_t l) { (void)l; gm_accum_flush__coalescing(s, gm_emu_accum("coalescing", s)); });
    co_check("loop", ctr, mat, ref);
}

/* Widths other than natural ones (co_natural: 12 B, 48 B, 96 B) at sites
 * with accumulators: co_keyed counts them exactly, through a run's key when
 * the counts fit one (fewer than 128 sectors and lines), else straight to
 * memory (96 B lanes 4 KiB apart, half a sector off: 4 sectors a lane, 128
 * in all). Full and partial warps, runs broken by changing patterns. */
static void test_coalescing_wide(void)
{
    std::vector<u64> ctr(REPLICAS * NSITES * 7), mat(NSITES * 1024);
    gm_counters__coalescing = ctr.data();
    gm_counters__coalescing_matrix = mat.data();
    co_ref ref[NSITES] = {};
    static const uint32_t widths[3] = {12, 48, 96};
    for (int t = 0; t < 240; t++) {
        uint32_t site = t % NSITES, w = widths[site % 3], mask = t % 5 == 4 ? rnd_mask() : ~0u;
        uint32_t info = (GM_SPACE_GLOBAL << 16) | GM_INFO_LOAD | w;
        uint64_t addr[32], base = (rnd() % 64 + 1) << 36 | (rnd() % 4096) << 8;
        int spread = (t / NSITES) % 3 != 0;
        for (int l = 0; l < 32; l++)
            addr[l] = base + (spread ? (uint64_t)l * 4096 + 16 : (uint64_t)l * w);
        co_global_exec(site, mask, addr, info, w, ref);
    }
    for (uint32_t s = 0; s < NSITES; s++)
        warp(~0u, s % REPLICAS, [&](uint32_t l) { (void)l; gm_accum_flush__coalescing(s, gm_emu_accum("coalescing", s)); });
    co_check("wide", ctr, mat, ref);
}

/* Loop steps (GM_ACCUM_STEP): at each loop entry the words the pass would
 * store (D, run mask 0, known 1); each iteration the live lanes run the site
 * as one or two groups (divergence), each lane's address moves by its D
 * after every execution, lanes leave the loop at random. D (the same for
 * all lanes, as the pass guarantees) a multiple of 128 or not, lanes 128 B
 * apart or not. Global or local accesses (sectors, lines, matrix) or
 * shared ones (wavefronts). Returns how many lanes ended with a run mask (fast path armed). */
static uint32_t test_coalescing_steps(uint32_t space)
{
    std::vector<u64> ctr(REPLICAS * NSITES * 7), mat(NSITES * 1024);
    gm_counters__coalescing = ctr.data();
    gm_counters__coalescing_matrix = mat.data();
    co_ref ref[NSITES] = {};
    uint32_t armed = 0;
    for (uint32_t site = 0; site < NSITES; site++) {
        bool shared = space == GM_SPACE_SHARED, local = space == GM_SPACE_LOCAL;
        /* shared: 1-byte lanes at random offsets (site 6) shift across
         * 4-byte bank words, so their wavefronts change with D; local:
         * up to 4 B (wider accesses straddle words of the interleaved
         * model, which the handler counts by their first byte) */
        uint32_t w = 1u << (site % (shared || local ? 3 : 5)), pat = site % 4;
        uint32_t info = (space << 16) | GM_INFO_LOAD | w;
        for (int entry = 0; entry < 6; entry++) {
            static const uint64_t ds[] = {0, 128, 4096, 16, 4, 64, 384, 1ull << 20};
            uint64_t d[32], addr[32], base = shared ? (1ull << 31) + (rnd() % 4096) * 16
                                           : local ? (rnd() % 4096) * 16
                                                    : (rnd() % 64 + 1) << 36 | (rnd() % 4096) << 8;
            uint64_t d0 = ds[(site + entry) % 8] / 16 * w;  /* keeps w-alignment */
            if (d0 % 128 && (site + entry) % 3 == 0) d0 = ds[(site + entry) % 8];
            for (int l = 0; l < 32; l++) {
                d[l] = d0;  /* the pass stores only uniform D (loopinv.c) */
                addr[l] = base + (pat == 0 ? l * w : pat == 1 ? l * 128 : pat == 2 ? (rnd() % (shared ? 512 : 64)) * w : (l / 8) * 256);
            }
            for (int l = 0; l < 32; l++) {
                uint32_t *a = &accum[{"coalescing", site}][l * GM_ACCUM_WORDS];
                a[GM_ACCUM_STEP_D] = (uint32_t)d[l], a[GM_ACCUM_STEP_D + 1] = (uint32_t)(d[l] >> 32);
                a[GM_ACCUM_STEP_RUN] = 0, a[GM_ACCUM_STEP_KNOWN] = 1;
            }
            /* (shared, local: the 1-byte steps of site 6, entry 5, with a full warp) */
            uint32_t live = entry % 3 == 2 && !((shared || local) && entry == 5) ? rnd_mask() : ~0u;
            for (int t = 0; t < 60 && live; t++) {
                uint32_t g1 = rnd() % 6 == 0 ? live & rnd_mask() : live;
                for (uint32_t mask : {g1, live & ~g1}) {
                    if (!mask) continue;
                    warp(mask, site % REPLICAS, [&](uint32_t l) { gm_before_mem__coalescing(site, addr[l], info, 0); });
                    std::vector<std::pair<uint64_t, uint64_t>> glob;
                    std::vector<std::pair<uint32_t, uint64_t>> shar;
                    /* local: the interleaved address model (gm_local_phys) */
                    for (uint32_t l = 0; l < 32; l++)
                        if (mask >> l & 1)
                            glob.push_back({local ? (addr[l] >> 2) << 7 | l << 2 | (addr[l] & 3) : addr[l], w}),
                            shar.push_back({l, addr[l]});
                    co_ref &r = ref[site];
                    r.slot[CO_WARPS]++;
                    r.slot[CO_THREADS] += glob.size();
                    if (shared) co_ref_shared(r, shar, w);
                    else co_ref_mem(r, glob);
                    for (uint32_t l = 0; l < 32; l++) if (mask >> l & 1) addr[l] += d[l];
                }
                if (rnd() % 16 == 0) live &= rnd_mask();
            }
            for (int l = 0; l < 32; l++) armed += accum[{"coalescing", site}][l * GM_ACCUM_WORDS + GM_ACCUM_STEP_RUN] != 0;
        }
    }
    for (uint32_t s = 0; s < NSITES; s++)
        warp(~0u, s % REPLICAS, [&](uint32_t l) { (void)l; gm_accum_flush__coalescing(s, gm_emu_accum("coalescing", s)); });
    co_check("step", ctr, mat, ref);
    return armed;
}

/* Site groups (GM_BEFORE_MEM_GROUP): one call for n sites whose lanes'
 * addresses are the first site's plus a per-site multiple of the grain
 * (128 B global, 4 B shared and local, and of the width: natural
 * alignment), against each site counted by brute force at its own
 * addresses: strided, tiled, broadcast and random lanes, partial warps. */
static void test_coalescing_groups(void)
{
    std::vector<u64> ctr(REPLICAS * NSITES * 7), mat(NSITES * 1024);
    gm_counters__coalescing = ctr.data();
    gm_counters__coalescing_matrix = mat.data();
    co_ref ref[NSITES] = {};
    for (int t = 0; t < 300; t++) {
        uint32_t space = t % 3 == 0 ? GM_SPACE_GLOBAL : t % 3 == 1 ? GM_SPACE_SHARED : GM_SPACE_LOCAL;
        bool shared = space == GM_SPACE_SHARED, local = space == GM_SPACE_LOCAL;
        /* local: up to 4 B (the handler counts a wider access of the
         * interleaved model by its first byte, see test_coalescing_steps) */
        uint32_t w = 1u << (rnd() % (local ? 3 : 5)), mask = rnd_mask(), pat = rnd() % 5;
        uint32_t n = 2 + (uint32_t)(rnd() % (NSITES - 1)), site = (uint32_t)(rnd() % (NSITES - n + 1));
        uint64_t grain = space == GM_SPACE_GLOBAL ? GM_GROUP_GRAIN_GLOBAL : std::max<uint64_t>(GM_GROUP_GRAIN, w);
        uint64_t base = shared ? (1ull << 31) + (rnd() % 1024) * 16 : local ? (rnd() % 4096) * 16
                                                                    : (rnd() % 64 + 1) << 36 | (rnd() % 4096) << 8;
        uint64_t addr[32];
        for (int l = 0; l < 32; l++)
            addr[l] = base + (pat == 0 ? (uint64_t)l * w : pat == 1 ? (uint64_t)(l % 8) * w + (l / 8) * 64
                              : pat == 2 ? (uint64_t)l * 2 * w : pat == 3 ? 0 : (rnd() % 256) * w);
        uint32_t info = (space << 16) | GM_INFO_LOAD | w;
        warp(mask, site % REPLICAS, [&](uint32_t l) { gm_before_mem_group__coalescing(site, n, addr[l], info); });
        for (uint32_t k = 0; k < n; k++) {
            uint64_t off = k ? grain * (rnd() % 64) : 0;
            std::vector<std::pair<uint64_t, uint64_t>> glob;
            std::vector<std::pair<uint32_t, uint64_t>> shar;
            for (uint32_t l = 0; l < 32; l++) {
                if (!(mask >> l & 1)) continue;
                uint64_t a = addr[l] + off;
                glob.push_back({local ? (a >> 2) << 7 | l << 2 | (a & 3) : a, w});
                shar.push_back({l, a});
            }
            co_ref &r = ref[site + k];
            r.slot[CO_WARPS]++;
            r.slot[CO_THREADS] += glob.size();
            if (shared) co_ref_shared(r, shar, w);
            else co_ref_mem(r, glob);
        }
    }
    co_check("group", ctr, mat, ref);
}

/* ---- divergence --------------------------------------------------------- */
static void test_divergence(void)
{
    std::vector<u64> ctr(REPLICAS * NSITES * 5);
    gm_counters__divergence = ctr.data();
    u64 ref[NSITES][5] = {};
    for (int t = 0; t < 300; t++) {
        uint32_t site = t % NSITES, mask = rnd_mask(), sw = rnd() & 1, dir[32];
        uint32_t pattern = rnd() % 3;
        for (int l = 0; l < 32; l++)
            dir[l] = pattern == 0 ? (uint32_t)(t & 1) * (sw ? 2 : 1) : (uint32_t)(rnd() % (sw ? 4 : 2));
        uint32_t info = sw ? GM_BRINFO_SWITCH | 4 : 2;
        warp(mask, t % REPLICAS, [&](uint32_t l) { gm_before_branch__divergence(site, info, dir[l]); });
        std::set<uint32_t> targets;
        u64 taken = 0, n = 0;
        for (int l = 0; l < 32; l++)
            if (mask >> l & 1) { n++; taken += dir[l] != 0; targets.insert(dir[l]); }
        ref[site][DV_EXECS]++;
        ref[site][DV_THREADS] += n;
        ref[site][DV_TAKEN] += taken;
        ref[site][DV_NOT_TAKEN] += n - taken;
        ref[site][DV_DIVERGENT] += targets.size() > 1;
    }
    if (accum_on)
        for (uint32_t s = 0; s < NSITES; s++)
            warp(~0u, s % REPLICAS, [&](uint32_t l) { (void)l; gm_accum_flush__divergence(s, gm_emu_accum("divergence", s)); });
    static const char *names[5] = {"dv.execs", "dv.threads", "dv.taken", "dv.not_taken", "dv.divergent"};
    for (uint32_t s = 0; s < NSITES; s++)
        for (int k = 0; k < 5; k++) check(names[k], s, summed(ctr, 5, s, k), ref[s][k]);
}

/* ---- values --------------------------------------------------------------- */
static void test_values(void)
{
    std::vector<u64> ctr(REPLICAS * NSITES * 4);
    gm_counters__values = ctr.data();
    u64 ref[NSITES][4] = {};
    for (int t = 0; t < 300; t++) {
        uint32_t site = t % NSITES, mask = rnd_mask(), w = 1u << (rnd() % 4), ev = rnd() % 3;
        uint64_t m = w == 8 ? ~0ull : (1ull << (8 * w)) - 1, v[32], same = rnd();
        for (int l = 0; l < 32; l++) v[l] = (rnd() % 3 == 0) ? rnd() : same;  /* high bits: garbage above w */
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
            if (mask >> l & 1) { ones |= v[l] & m; zeros |= ~v[l] & m; distinct.insert(v[l] & m); }
        ref[site][VA_WARPS]++;
        ref[site][VA_UNIFORM] += distinct.size() == 1;
        ref[site][VA_ONES] |= ones;
        ref[site][VA_ZEROS] |= zeros;
    }
    static const char *names[4] = {"va.warps", "va.uniform", "va.ones", "va.zeros"};
    for (uint32_t s = 0; s < NSITES; s++)
        for (int k = 0; k < 4; k++) {
            u64 got = 0;
            for (uint32_t r = 0; r < REPLICAS; r++)
                got = k < 2 ? got + ctr[(r * NSITES + s) * 4 + k] : got | ctr[(r * NSITES + s) * 4 + k];
            check(names[k], s, got, ref[s][k]);
        }
}

/* ---- allocations ---------------------------------------------------------- */
static void test_allocations(bool cst) /* cst: bounds in the constant-memory copy */
{
    const uint32_t NR = 3, GS = 2, CS = 12;
    const uint64_t base[NR] = {1ull << 40, (1ull << 40) + (1 << 20), (1ull << 41) + 256}, size[NR] = {10000, 1 << 16, 4096 * 3 + 100};
    std::vector<std::vector<uint32_t>> bm(NR);
    std::vector<std::vector<u64>> ch(NR);
    static gm_alloc_range ranges[NR];
    std::vector<u64> ctr(REPLICAS * NR * GM_ALLOC_NSLOTS);
    for (uint32_t i = 0; i < NR; i++) {
        bm[i].assign(GM_ALLOC_BITMAP_WORDS(size[i], GS), 0);
        ch[i].assign(GM_ALLOC_NCHUNKS(size[i], CS) * GM_ALLOC_CHUNK_SLOTS, 0);
        ranges[i] = {base[i], base[i] + size[i], bm[i].data(), ch[i].data(), i, 0};
    }
    gm_alloctab__allocations = {GM_ALLOCTAB_VERSION, NR, GS, CS, REPLICAS - 1, 0, ranges, ctr.data(), {}, {}};
    for (uint32_t i = 0; cst && i < NR; i++)
        gm_alloctab__allocations.cbase[i] = base[i], gm_alloctab__allocations.cend[i] = base[i] + size[i];
    if (cst) gm_alloctab__allocations.nconst = NR;
    std::vector<std::set<uint64_t>> gran(NR);
    std::vector<std::vector<u64>> rch(NR);
    u64 rsec[NR][2] = {};
    for (uint32_t i = 0; i < NR; i++) rch[i].assign(ch[i].size(), 0);
    for (int t = 0; t < 300; t++) {
        uint32_t mask = rnd_mask(), w = 4u << (rnd() % 3), ev = rnd() % 4;
        bool memintr = ev == 3;
        uint64_t addr[32], len[32];
        uint32_t home = rnd() % NR;
        for (int l = 0; l < 32; l++) {
            uint32_t i = rnd() % 4 == 0 ? rnd() % NR : home;
            uint64_t off = memintr ? rnd() % (size[i] - 200) : (rnd() % (size[i] / w)) * w;
            addr[l] = rnd() % 9 == 0 ? base[i] + size[i] + 64 : base[i] + off;   /* some outside */
            len[l] = memintr ? rnd() % 200 : w;
        }
        uint32_t info = (GM_SPACE_GLOBAL << 16) |
            (memintr ? GM_INFO_STORE | GM_INFO_MEMINTR : ev == 0 ? GM_INFO_LOAD | w : ev == 1 ? GM_INFO_STORE | w
                                                       : GM_INFO_LOAD | GM_INFO_STORE | GM_INFO_ATOMIC | w);
        warp(mask, t % REPLICAS, [&](uint32_t l) {
            gm_before_mem__allocations(0, addr[l], info, memintr ? len[l] : 0);
            gm_before_mem__allocations_counts(0, addr[l], info, memintr ? len[l] : 0);
        });
        std::vector<std::pair<uint64_t, uint64_t>> per[NR];
        for (uint32_t l = 0; l < 32; l++) {
            if (!(mask >> l & 1) || !len[l]) continue;
            for (uint32_t i = 0; i < NR; i++) {
                if (addr[l] < base[i] || addr[l] >= base[i] + size[i]) continue;
                uint64_t off = addr[l] - base[i], end = std::min(off + len[l] - 1, size[i] - 1);
                for (uint64_t g = off >> GS; g <= end >> GS; g++) gran[i].insert(g);
                uint64_t c = off >> CS;
                if (info & GM_INFO_LOAD) rch[i][c * 2]++;
                if (info & GM_INFO_STORE) rch[i][c * 2 + 1]++;
                per[i].push_back({addr[l], len[l]});
            }
        }
        for (uint32_t i = 0; i < NR; i++) {
            if (per[i].empty()) continue;
            size_t s = units(per[i], 5);
            if (info & GM_INFO_LOAD) rsec[i][0] += s;
            if (info & GM_INFO_STORE) rsec[i][1] += s;
        }
    }
    for (uint32_t i = 0; i < NR; i++) {
        for (uint64_t g = 0; g < GM_ALLOC_GRANULES(size[i], GS); g++)
            check("al.bitmap", i, bm[i][g / 32] >> (g % 32) & 1, gran[i].count(g));
        for (size_t c = 0; c < ch[i].size(); c++) check("al.chunk", i, ch[i][c], rch[i][c]);
        u64 fresh = 0;
        for (uint32_t r = 0; r < REPLICAS; r++) fresh += ctr[(r * NR + i) * GM_ALLOC_NSLOTS + GM_ALLOC_NEW_UNITS];
        check("al.new_units", i, fresh, gran[i].size());
        for (uint32_t k = 0; k < 2; k++) {
            u64 got = 0;
            for (uint32_t r = 0; r < REPLICAS; r++) got += ctr[(r * NR + i) * GM_ALLOC_NSLOTS + k];
            check(k ? "al.write_sectors" : "al.read_sectors", i, got, rsec[i][k]);
        }
    }
}

/* ---- count_memops ---------------------------------------------------------- */
static void test_count_memops(void)
{
    std::vector<u64> ctr(REPLICAS * NSITES);
    gm_counters__count_memops = ctr.data();
    u64 ref[NSITES] = {};
    for (int t = 0; t < 100; t++) {
        uint32_t site = rnd() % NSITES;
        warp(rnd_mask(), t % REPLICAS, [&](uint32_t l) { gm_before_mem__count_memops(site, l * 4, 4, 0); });
        ref[site]++;
    }
    for (uint32_t s = 0; s < NSITES; s++) check("memops.warp_execs", s, summed(ctr, 1, s, 0), ref[s]);
}

int main(void)
{
    /* NULL counters: every handler must return without touching memory */
    warp(~0u, 0, [](uint32_t l) {
        gm_before_mem__coalescing(0, l * 4, (GM_SPACE_GLOBAL << 16) | GM_INFO_LOAD | 4, 0);
        gm_before_branch__divergence(0, 2, l & 1);
        gm_after_load__values(0, 0, GM_INFO_LOAD | 4, l);
        gm_before_mem__allocations(0, l * 4, (GM_SPACE_GLOBAL << 16) | GM_INFO_LOAD | 4, 0);
        gm_before_mem__count_memops(0, l * 4, 4, 0);
    });
    test_coalescing();
    test_divergence();
    accum_on = true;                  /* again, through register accumulators */
    test_coalescing();
    test_divergence();
    const size_t naccum = 2 * NSITES;
    if (accum.size() != naccum) { failures++; fprintf(stderr, "accumulators not used: %zu\n", accum.size()); }
    accum.clear();
    test_coalescing_loops();
    accum.clear();
    test_coalescing_wide();
    if (accum.size() != NSITES) { failures++; fprintf(stderr, "wide: accumulators not used: %zu\n", accum.size()); }
    accum.clear();
    for (uint32_t space : {(uint32_t)GM_SPACE_GLOBAL, (uint32_t)GM_SPACE_SHARED, (uint32_t)GM_SPACE_LOCAL}) {
        uint32_t armed = test_coalescing_steps(space);
        printf("loop steps (%s): %u lanes left with a run mask\n",
               space == GM_SPACE_SHARED ? "shared" : space == GM_SPACE_LOCAL ? "local" : "global", armed);
        if (!armed) { failures++; fprintf(stderr, "loop-step fast path never armed\n"); }
        accum.clear();
    }
    accum_on = false;
    test_coalescing_groups();
    test_values();
    test_allocations(false);
    test_allocations(true);
    test_count_memops();
    if (failures) { fprintf(stderr, "%d mismatches\n", failures); return 1; }
    printf("all handler counters match the brute-force counts\n");
    return 0;
}
