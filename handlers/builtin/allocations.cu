// SPDX-License-Identifier: Apache-2.0
// Built-in analysis "allocations" (DrGPUM's intra-object view): for every
// global access, finds the allocation in the runtime's table (alloctab.h),
// sets its address-bitmap bits (granularity 1 << gran_shift bytes) and
// counts granules set for the first time, counts thread-level reads and
// writes per chunk (the access-count histogram) and unique 32 B sectors per
// allocation. Device code; depends only on the SDK and the allocation-table
// contract.
//
// Warp rule: every warp intrinsic runs with a mask that is the same in all
// lanes that execute it (the active mask, or a ballot of it), never with a
// per-lane group such as a match_any result: lanes of different groups
// would otherwise run one intrinsic with different masks at once.
#include <gpumem/handler.h>
#include <gpumem/alloctab.h>
#include "gm_warp_sets.h"

/* Written by the runtime before each launch (alloctab.h); zero = off. */
extern "C" { __constant__ struct gm_alloctab gm_alloctab__allocations; }
#define AT gm_alloctab__allocations

/* Memory updates in the global space (no generic-address fallback code). */
#ifndef GM_HOST_EMULATION
GM_INL void al_red(unsigned long long *p, unsigned long long v)
{
    asm volatile("{ .reg .u64 g; cvta.to.global.u64 g, %0; red.relaxed.gpu.global.add.u64 [g], %1; }"
                 :: "l"(p), "l"(v) : "memory");
}
GM_INL uint32_t al_or(uint32_t *p, uint32_t v)
{
    uint32_t old;
    asm volatile("{ .reg .u64 g; cvta.to.global.u64 g, %1; atom.relaxed.gpu.global.or.b32 %0, [g], %2; }"
                 : "=r"(old) : "l"(p), "r"(v) : "memory");
    return old;
}
#else
GM_INL void al_red(unsigned long long *p, unsigned long long v) { atomicAdd(p, v); }
GM_INL uint32_t al_or(uint32_t *p, uint32_t v) { return atomicOr(p, v); }
#endif

/* Range bounds: the constant-memory copy when the runtime wrote one (a
 * broadcast when the lanes agree), else the device array. */
GM_INL uint64_t al_base(uint32_t i) { return AT.nconst ? AT.cbase[i] : __ldg(&AT.ranges[i].base); }
GM_INL uint64_t al_end(uint32_t i) { return AT.nconst ? AT.cend[i] : __ldg(&AT.ranges[i].end); }

/* Index of the range holding a, or -1 (binary search over sorted bases;
 * per lane, no warp intrinsics). */
GM_INL int al_search(uint64_t a)
{
    uint32_t lo = 0, hi = AT.n;
    while (hi - lo > 1) {
        uint32_t mid = (lo + hi) >> 1;
        if (al_base(mid) <= a) lo = mid; else hi = mid;
    }
    return a >= al_base(lo) && a < al_end(lo) ? (int)lo : -1;
}

/* This lane's range (-1: untracked) and its access length in bytes. */
GM_INL int al_lane(uint64_t addr, uint32_t info, uint64_t value, uint32_t *len)
{
    uint32_t n = GM_INFO_WIDTH(info);
    if (info & GM_INFO_MEMINTR) n = value < 0x10000000u ? (uint32_t)value : 0x10000000u;
    *len = n;
    if (!n || gm_resolve_space(addr, info) != GM_SPACE_GLOBAL) return -1;
    return al_search(addr);
}

GM_INL uint32_t al_bits(uint32_t lo, uint32_t hi) { return (~0u >> (31 - (hi - lo))) << lo; }

/* Per-allocation counters of this SM's replica. */
GM_INL unsigned long long *al_ctr(uint32_t i)
{
    return AT.counters + ((gm_smid() & AT.replica_mask) * AT.n + i) * GM_ALLOC_NSLOTS;
}

/* Sets bits in one bitmap word unless already set; the number of new ones.
 * The test reads through L1: a stale copy can only lack bits (they are
 * only ever set during a launch), which costs an atomic, never a count. */
GM_INL uint32_t al_set(uint32_t *bm, uint32_t w, uint32_t bits)
{
    if ((bm[w] & bits) == bits) return 0;
    return __popc(bits & ~al_or(bm + w, bits));
}

/* Bitmap handler. Fast path: the active lanes touch one word of one range
 * (e.g. a coalesced 4 B access: 128 B is one word at 4 B granularity): one
 * OR over the active mask, one load by the leader, an atomic only for new
 * bits. Otherwise each lane updates its own words. Word indices are 32-bit
 * (2^32 words of 32 granules: 512 GiB at 4 B granularity). */
GM_BEFORE_MEM(allocations)
{
    (void)site;
    if (!AT.n) return;
    uint32_t act = gm_active(), len, w0 = 0, b0 = 0, span = 0;
    int i = al_lane(addr, info, value, &len);
    if (i >= 0) {        /* granules g0 .. g0 + span */
        uint64_t base = al_base(i), e = addr + len - 1;
        /* an access of at most 32 B that runs past the end sets at most a
         * spare word's bits (the runtime allocates one; alloctab.h); memory
         * intrinsics are clipped */
        if ((info & GM_INFO_MEMINTR) && e >= al_end(i)) e = al_end(i) - 1;
        uint64_t g0 = (addr - base) >> AT.gran_shift;
        span = (uint32_t)(((e - base) >> AT.gran_shift) - g0);
        w0 = (uint32_t)(g0 >> 5), b0 = (uint32_t)g0 & 31;
    }
    uint32_t l = gm_leader_of(act);
    int i0 = __shfl_sync(act, i, l);     /* both shuffles in every lane */
    uint32_t x0 = __shfl_sync(act, w0, l);
    if (__all_sync(act, i == i0 && w0 == x0 && b0 + span < 32)) {
        if (i < 0) return;
        uint32_t bits = __reduce_or_sync(act, al_bits(b0, b0 + span));
        uint32_t *bm = (uint32_t *)__ldg((const unsigned long long *)&AT.ranges[i].bitmap);
        uint32_t fresh = bm && gm_is_leader_of(act) ? al_set(bm, w0, bits) : 0;
        if (fresh && AT.counters) al_red(al_ctr(i) + GM_ALLOC_NEW_UNITS, fresh);
        return;
    }
    if (i < 0) return;
    uint32_t *bm = (uint32_t *)__ldg((const unsigned long long *)&AT.ranges[i].bitmap);
    uint32_t w1 = w0 + ((b0 + span) >> 5), b1 = (b0 + span) & 31, fresh = 0;
    for (uint32_t w = w0; bm && w <= w1; w++)
        fresh += al_set(bm, w, al_bits(w == w0 ? b0 : 0, w == w1 ? b1 : 31));
    if (fresh && AT.counters) al_red(al_ctr(i) + GM_ALLOC_NEW_UNITS, fresh);
}

/* Distinct values in the union of [lo, hi] over the lanes of mask (all of
 * them call): one warp minimum per distinct value (gm_union_count, 32-bit).
 * After the first round every lane's lo is above the minimum, so lo == 0
 * means it wrapped past hi == 2^32 - 1. */
GM_INL uint32_t al_union(uint32_t mask, uint32_t lo, uint32_t hi)
{
    uint32_t n = 0;
    for (uint32_t pend = mask; pend; n++) {
        if ((pend >> gm_lane()) & 1) {
            uint32_t v = __reduce_min_sync(pend, lo);
            lo += lo == v;
        }
        pend = __ballot_sync(mask, lo <= hi && lo != 0);
    }
    return n;
}

/* Distinct values of u over the lanes of mask (32-bit match_any; the
 * shuffle fast path of gm_sorted_units does not fit the 16 registers here). */
GM_INL uint32_t al_unique(uint32_t mask, uint32_t u)
{
    return __popc(__ballot_sync(mask, (__match_any_sync(mask, u) & gm_lanemask_lt()) == 0));
}

/* Unique 32 B sectors touched by the lanes of mask (all of them call):
 * sectors s0..s1 of each lane, relative to the range's base (32 B aligned). */
GM_INL uint32_t al_sectors(uint32_t mask, uint32_t s0, uint32_t s1, uint32_t info)
{
    uint32_t w = GM_INFO_WIDTH(info);
    if ((info & GM_INFO_MEMINTR) || w > 32 || (w & (w - 1)))
        return al_union(mask, s0, s1);
    return al_unique(mask, s0);                      /* natural alignment: s0 == s1 */
}

/* Adds v to the read and/or the write slot of a counter pair. */
GM_INL void al_add_rw(unsigned long long *c, uint32_t info, unsigned long long v)
{
    if (info & GM_INFO_LOAD) al_red(c, v);
    if (info & GM_INFO_STORE) al_red(c + 1, v);
}

/* The lanes of mask, all in range i, lane in chunk c: chunk counts (one
 * add per chunk group, by its lowest lane) and the range's unique sectors. */
GM_INL void al_group(uint32_t mask, int i, uint32_t c, uint32_t s0, uint32_t s1, uint32_t info)
{
    uint32_t peers = __match_any_sync(mask, c);
    unsigned long long *ch = (unsigned long long *)__ldg((const unsigned long long *)&AT.ranges[i].chunks);
    if (ch && gm_is_leader_of(peers)) al_add_rw(ch + (uint64_t)c * GM_ALLOC_CHUNK_SLOTS, info, __popc(peers));
    uint32_t s = al_sectors(mask, s0, s1, info);
    if (AT.counters && gm_is_leader_of(mask)) al_add_rw(al_ctr(i) + GM_ALLOC_READ_SECTORS, info, s);
}

/* Counting handler: one group when all active lanes hit one range (the
 * common case), else one group per range present, in turn. Chunk and
 * sector indices are 32-bit (ranges up to 128 GiB). */
GM_BEFORE_MEM(allocations_counts)
{
    (void)site;
    if (!AT.n) return;
    uint32_t act = gm_active(), len, c = 0, s0 = 0, s1 = 0;
    int i = al_lane(addr, info, value, &len);
    if (i >= 0) {
        uint64_t off = addr - al_base(i);
        uint32_t cs = __ldg(&AT.ranges[i].chunk_shift);
        c = (uint32_t)(off >> (cs ? cs : AT.chunk_shift));
        s0 = (uint32_t)(off >> 5), s1 = (uint32_t)((off + len - 1) >> 5);
    }
    if (__all_sync(act, i == __shfl_sync(act, i, gm_leader_of(act)))) {
        if (i >= 0) al_group(act, i, c, s0, s1, info);
        return;
    }
    for (uint32_t pend = __ballot_sync(act, i >= 0); pend;) {
        int li = __shfl_sync(act, i, __ffs(pend) - 1);
        uint32_t m = __ballot_sync(act, i == li);
        if (i == li) al_group(m, i, c, s0, s1, info);
        pend &= ~m;
    }
}
