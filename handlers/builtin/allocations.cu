// SPDX-License-Identifier: Apache-2.0
// Built-in analysis "allocations" (DrGPUM's intra-object view): for every
// global access, finds the allocation in the runtime's table (alloctab.h),
// sets its address-bitmap bits (granularity 1 << gran_shift bytes), counts
// thread-level reads and writes per chunk (the access-count histogram) and
// unique 32 B sectors per allocation. Device code; depends only on the SDK
// and the allocation-table contract.
#include <gpumem/handler.h>
#include <gpumem/alloctab.h>
#include "gm_warp_sets.h"

/* Written by the runtime before each launch (alloctab.h); zero = off. */
extern "C" { __constant__ struct gm_alloctab gm_alloctab__allocations; }
#define AT gm_alloctab__allocations

/* Index of the range holding a, or -1 (binary search, sorted bases). */
GM_INL int al_search(uint64_t a)
{
    const struct gm_alloc_range *r = AT.ranges;
    uint32_t lo = 0, hi = AT.n;
    while (hi - lo > 1) {
        uint32_t mid = (lo + hi) >> 1;
        if (__ldg(&r[mid].base) <= a) lo = mid; else hi = mid;
    }
    return a >= __ldg(&r[lo].base) && a < __ldg(&r[lo].end) ? (int)lo : -1;
}

/* The leader searches; lanes inside its range reuse the answer. */
GM_INL int al_find(uint32_t mask, uint64_t a)
{
    int i = gm_is_leader_of(mask) ? al_search(a) : -1;
    i = __shfl_sync(mask, i, gm_leader_of(mask));
    if (i >= 0 && a >= __ldg(&AT.ranges[i].base) && a < __ldg(&AT.ranges[i].end)) return i;
    return al_search(a);
}

/* Natural alignment keeps a load or store of a power-of-two width up to
 * 32 B inside one bitmap word at any granularity; memory intrinsics may not. */
GM_INL int al_simple(uint32_t info)
{
    uint32_t w = GM_INFO_WIDTH(info);
    return !(info & GM_INFO_MEMINTR) && w <= 32 && !(w & (w - 1));
}

GM_INL uint32_t al_bits(uint32_t lo, uint32_t hi) { return (~0u >> (31 - (hi - lo))) << lo; }

/* Set the bitmap bits of granules g0..g1 of range i. Fast path: lanes
 * sharing a word OR their bits and one of them updates memory, and only
 * when a bit is new. Otherwise each lane walks its words. */
GM_INL void al_bitmap(uint32_t mask, int i, uint64_t g0, uint64_t g1, uint32_t info)
{
    uint32_t *bm = (uint32_t *)__ldg((const unsigned long long *)&AT.ranges[i].bitmap);
    if (al_simple(info)) {
        uint32_t peers = __match_any_sync(mask, g0 >> 5);
        uint32_t bits = __reduce_or_sync(peers, al_bits((uint32_t)g0 & 31, (uint32_t)g1 & 31));
        if (bm && gm_is_leader_of(peers) && (__ldcg(bm + (g0 >> 5)) & bits) != bits)
            atomicOr(bm + (g0 >> 5), bits);
        return;
    }
    /* word indices fit 32 bits: 2^32 words cover 2^37 granules */
    uint32_t w0 = (uint32_t)(g0 >> 5), w1 = (uint32_t)(g1 >> 5);
    for (uint32_t w = w0; bm && w <= w1; w++) {
        uint32_t bits = al_bits(w == w0 ? (uint32_t)g0 & 31 : 0, w == w1 ? (uint32_t)g1 & 31 : 31);
        if ((__ldcg(bm + w) & bits) != bits) atomicOr(bm + w, bits);
    }
}

/* Jobs of a group (slot-per-lane: lane of rank j does job j, so one
 * warp-wide RED updates them): a read, a write, or both for atomics. */
GM_INL uint32_t al_njobs(uint32_t info) { return !!(info & GM_INFO_LOAD) + !!(info & GM_INFO_STORE); }
GM_INL uint32_t al_job_slot(uint32_t info, uint32_t j) { return (info & GM_INFO_LOAD) ? j : 1; }

/* Thread accesses per chunk and direction, one add per group. */
GM_INL void al_chunks(uint32_t mask, int i, uint64_t off, uint32_t info)
{
    unsigned long long *ch = (unsigned long long *)__ldg((const unsigned long long *)&AT.ranges[i].chunks);
    uint32_t peers = __match_any_sync(mask, off >> AT.chunk_shift);
    if (!ch) return;
    ch += (off >> AT.chunk_shift) * GM_ALLOC_CHUNK_SLOTS;
    uint32_t n = __popc(peers);
    for (uint32_t j = __popc(peers & gm_lanemask_lt()); j < al_njobs(info); j += n)
        atomicAdd(ch + al_job_slot(info, j), (unsigned long long)n);
}

/* Unique sectors of the lanes of one allocation. */
GM_INL void al_sectors(uint32_t mask, int i, uint64_t a, uint32_t len, uint32_t info)
{
    uint32_t s = al_simple(info) ? gm_unique_count(mask, a >> 5)
                                 : gm_union_count(mask, a >> 5, (a + len - 1) >> 5);
    if (!AT.counters) return;
    unsigned long long *c = AT.counters +
        ((gm_smid() & AT.replica_mask) * AT.n + i) * GM_ALLOC_NSLOTS;
    uint32_t n = __popc(mask);
    for (uint32_t j = __popc(mask & gm_lanemask_lt()); j < al_njobs(info); j += n)
        atomicAdd(c + al_job_slot(info, j), (unsigned long long)s);
}

/* Range index of this lane's access (-1: untracked; the lane may then
 * leave), with *mask the lanes of the same allocation and *len the bytes. */
GM_INL int al_lane(uint64_t addr, uint32_t info, uint64_t value, uint32_t *mask, uint32_t *len)
{
    uint32_t n = GM_INFO_WIDTH(info);
    if (info & GM_INFO_MEMINTR) n = value < 0x10000000u ? (uint32_t)value : 0x10000000u;
    uint32_t act = gm_active();
    int global = n && gm_resolve_space(addr, info) == GM_SPACE_GLOBAL;
    uint32_t m = __ballot_sync(act, global);
    int i = -1;
    if (global) i = al_find(m, addr);             /* every lane of m calls it */
    m = __ballot_sync(act, i >= 0);
    if (i >= 0) *mask = __match_any_sync(m, i);
    *len = n;
    return i;
}

/* Two handlers, each within the register budget; the pass calls both at
 * every memory site. This one: the address bitmap. */
GM_BEFORE_MEM(allocations)
{
    (void)site;
    if (!AT.n) return;
    uint32_t mask, len;
    int i = al_lane(addr, info, value, &mask, &len);
    if (i < 0) return;
    uint64_t off = addr - __ldg(&AT.ranges[i].base);
    uint64_t end = off + len - 1;                /* clipped to the range */
    uint64_t size = __ldg(&AT.ranges[i].end) - __ldg(&AT.ranges[i].base);
    if (end >= size) end = size - 1;
    al_bitmap(mask, i, off >> AT.gran_shift, end >> AT.gran_shift, info);
}

/* This one: chunk access counts and sectors per allocation. */
GM_BEFORE_MEM(allocations_counts)
{
    (void)site;
    if (!AT.n) return;
    uint32_t mask, len;
    int i = al_lane(addr, info, value, &mask, &len);
    if (i < 0) return;
    al_chunks(mask, i, addr - __ldg(&AT.ranges[i].base), info);
    al_sectors(mask, i, addr, len, info);
}
