// SPDX-License-Identifier: Apache-2.0
// Warp-level set counting shared by the built-in analyses: distinct units
// (sectors, lines) in the union of the active lanes' address ranges, and
// shared-memory wavefronts. Device-only, inline, no shared memory; depends
// only on the handler SDK.
#ifndef GM_WARP_SETS_H
#define GM_WARP_SETS_H
#include <gpumem/handler.h>

/* Minimum of a 64-bit value over the lanes of mask (all of them call). */
GM_INL uint64_t gm_warp_min64(uint32_t mask, uint64_t v)
{
    uint32_t hi = __reduce_min_sync(mask, (uint32_t)(v >> 32));
    uint32_t m = __ballot_sync(mask, (uint32_t)(v >> 32) == hi);
    uint32_t lo = 0;
    if ((uint32_t)(v >> 32) == hi) lo = __reduce_min_sync(m, (uint32_t)v);
    lo = __shfl_sync(mask, lo, gm_leader_of(m));
    return ((uint64_t)hi << 32) | lo;
}

/* Number of distinct units in the union of [lo, hi] over the lanes of mask
 * (unit = address >> shift, e.g. 32 B sectors), exact for any ranges:
 * visit the union in increasing order, one distinct unit per iteration (a
 * lane's next unit is always >= the warp minimum). Used off the fast path
 * only (natural alignment keeps ordinary accesses inside one sector). */
GM_INL uint32_t gm_union_count(uint32_t mask, uint64_t lo, uint64_t hi)
{
    uint32_t n = 0, pend = mask;
    while (pend) {
        if ((pend >> gm_lane()) & 1) {
            uint64_t v = gm_warp_min64(pend, lo);
            if (lo == v) lo++;
        }
        n++;
        pend = __ballot_sync(mask, lo <= hi);
    }
    return n;
}

/* Unique units | units >> 2 (e.g. sectors | lines << 16) of the active
 * lanes when their units u are nondecreasing in lane order (each lane
 * compared with the previous active lane: partial warps too), or, for a
 * full warp, when lanes 16..31 repeat lanes 0..15 and those are
 * nondecreasing (16-wide tiles); else GM_UNSORTED, and the caller counts
 * with match_any. Shuffles and votes only: far cheaper than match_any on
 * the common patterns. */
#define GM_UNSORTED 0xffffffffu
GM_INL uint32_t gm_sorted_units(uint32_t mask, uint64_t u)
{
    uint32_t lane = gm_lane();
    uint64_t prev;
    int first, dup = 0;
    if (mask == ~0u) {
        first = lane == 0;
        prev = __shfl_up_sync(mask, (unsigned long long)u, 1);
        dup = __all_sync(mask, u == __shfl_xor_sync(mask, (unsigned long long)u, 16));
    } else {
        uint32_t below = mask & gm_lanemask_lt();
        first = below == 0;
        prev = __shfl_sync(mask, (unsigned long long)u, first ? lane : 31 - __clz(below));
    }
    int in = !dup || lane < 16;
    if (!__all_sync(mask, !in || first || u >= prev)) return GM_UNSORTED;
    uint32_t n = __popc(__ballot_sync(mask, in && (first || u != prev)));
    uint32_t l = __popc(__ballot_sync(mask, in && (first || (u >> 2) != (prev >> 2))));
    return n | l << 16;
}

/* Address model of local memory: the hardware interleaves each thread's
 * local words across the warp (4 B per lane), so the same local offset in
 * all lanes is one contiguous 128 B span. */
GM_INL uint64_t gm_local_phys(uint64_t off)
{
    return ((off >> 2) << 7) | (gm_lane() << 2) | (off & 3);
}

/* Shared-memory wavefronts of one warp access of w bytes per lane:
 * 32 banks of 4 B. Accesses of 8 B are served per half warp, of 16 B per
 * quarter warp (a "phase" of 128/W lanes, W = max(w, 4)); within a phase,
 * lanes reading the same W-byte unit share it (broadcast) and the phase
 * takes as many wavefronts as the most distinct units that map to one bank
 * group. Returns the sum over phases | (phases with lanes) << 16. */
GM_INL uint32_t gm_shared_wavefronts(uint32_t mask, uint64_t addr, uint32_t w)
{
    /* fast path, w <= 4 (one phase): lanes on distinct banks take one
     * wavefront (one redux instead of two match_any) */
    if (w <= 4 && __popc(__reduce_or_sync(mask, 1u << ((uint32_t)(addr >> 2) & 31))) == __popc(mask))
        return 1u | 1u << 16;
    uint32_t ws = w <= 4 ? 2 : (w <= 8 ? 3 : 4);        /* log2 W */
    uint32_t pl = 7 - ws;                               /* log2 lanes per phase */
    uint32_t phase = gm_lane() >> pl;
    uint32_t u = (uint32_t)((addr & 0x3fffffffu) >> ws);
    uint32_t peers = __match_any_sync(mask, (u << 2) | phase);
    int first = (peers & gm_lanemask_lt()) == 0;
    uint32_t umask = __ballot_sync(mask, first);
    uint32_t cnt = 0;
    if (first)
        cnt = __popc(__match_any_sync(umask, ((u & ((1u << pl) - 1)) << 2) | phase));
    uint32_t lanes = pl == 5 ? ~0u : ((1u << (1u << pl)) - 1) << (phase << pl);
    uint32_t pm = mask & lanes;
    uint32_t mx = __reduce_max_sync(pm, cnt);
    int plead = gm_is_leader_of(pm);
    return __reduce_add_sync(mask, plead ? mx | 1u << 16 : 0);
}
#endif
