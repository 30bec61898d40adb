// SPDX-License-Identifier: Apache-2.0
// Built-in analysis "coalescing" (SASSI's memory divergence, Rosen's
// operation view): per memory site, warp executions, active threads, unique
// 32 B sectors and 128 B lines with the ideal sector count (global, local),
// shared-memory wavefronts with the ideal count, and the 32x32 matrix of
// active threads x unique sectors. Device code; depends only on the SDK.
#include <gpumem/handler.h>
#include "gm_warp_sets.h"

GM_COUNTERS_NAMED(coalescing, 7,
    "warps,threads,sectors,lines,ideal_sectors,wavefronts,ideal_wavefronts");
enum { CO_WARPS, CO_THREADS, CO_SECTORS, CO_LINES, CO_IDEAL, CO_WAVES, CO_IDEAL_WAVES };
/* slot (threads - 1) * 32 + min(sectors, 32) - 1, global and local accesses */
GM_COUNTERS_SINGLE(coalescing_matrix, 1024, "");

enum { CO_NONE, CO_MEM, CO_SHARED };
/* Memory intrinsics: bytes per lane counted at most (keeps counts in 16 bits). */
#define GM_CO_MAX_LEN 4096u

/* Unique sectors | lines << 16 for any alignment and spread (exact). */
GM_INL uint32_t co_spans_slow(uint32_t mask, uint64_t a, uint32_t len)
{
    uint64_t last = a + len - 1;
    uint32_t s = gm_union_count(mask, a >> 5, last >> 5);
    return s | gm_union_count(mask, a >> 7, last >> 7) << 16;
}

/* Unique sectors | lines << 16 of one warp access of len bytes per lane.
 * Naturally aligned accesses of a power-of-two width up to 32 B (every
 * load and store but memory intrinsics; known at compile time once the
 * handler is inlined) stay inside one sector: count them with match_any.
 * Memory intrinsics, struct copies of a constant size included, take the
 * exact walk (a run-time alignment test for them as well would need 18
 * registers). */
GM_INL uint32_t co_spans(uint32_t mask, uint64_t a, uint32_t len, uint32_t info)
{
    uint32_t w = GM_INFO_WIDTH(info);
    if ((info & GM_INFO_MEMINTR) || !w || w > 32 || (w & (w - 1)))
        return co_spans_slow(mask, a, len);
    return gm_unique_count(mask, a >> 5) | gm_unique_count(mask, a >> 7) << 16;
}

/* Value of job j of a group (slot-per-lane: lane of rank j does job j,
 * so one warp-wide RED instruction updates all slots). Memory groups
 * update slots 0..4, shared groups 0,1,5,6, others 0,1. */
GM_INL uint32_t co_job_slot(uint32_t kind, uint32_t j)
{
    return kind == CO_SHARED && j >= 2 ? j + 3 : j;
}

GM_INL uint32_t co_job_value(uint32_t slot, uint32_t n, uint32_t r, uint32_t bytes, int whole)
{
    switch (slot) {
    case CO_WARPS: return whole;
    case CO_THREADS: return n;
    case CO_SECTORS: case CO_WAVES: return r & 0xffff;
    case CO_LINES: case CO_IDEAL_WAVES: return r >> 16;
    case CO_IDEAL: return (bytes + 31) / 32;
    default: return 0;
    }
}

GM_INL void co_emit(uint32_t site, uint32_t km, uint32_t kind, uint32_t r, uint32_t bytes, int whole)
{
    uint32_t n = __popc(km);
    uint32_t rank = __popc(km & gm_lanemask_lt());
    if (kind == CO_MEM && rank == 0) {
        unsigned long long *m = gm_counters__coalescing_matrix;
        uint32_t s = r & 0xffff;
        if (m) atomicAdd(m + site * 1024 + (n - 1) * 32 + (s < 32 ? s : 32) - 1, 1ull);
    }
    unsigned long long *c = gm_counters__coalescing +
        ((gm_smid() & __gm_replica_mask) * __gm_nsites + site) * gm_slots__coalescing;
    uint32_t jobs = kind == CO_MEM ? 5 : kind == CO_SHARED ? 4 : 2;
    for (uint32_t j = rank; j < jobs; j += n) {
        uint32_t slot = co_job_slot(kind, j);
        uint32_t v = co_job_value(slot, n, r, bytes, whole);
        if (v) atomicAdd(c + slot, (unsigned long long)v);
    }
}

GM_BEFORE_MEM(coalescing)
{
    if (!gm_counters__coalescing) return;
    uint32_t mask = gm_active();
    uint32_t space = gm_resolve_space(addr, info);
    uint32_t len = GM_INFO_WIDTH(info);
    if (info & GM_INFO_MEMINTR) len = value < GM_CO_MAX_LEN ? (uint32_t)value : GM_CO_MAX_LEN;
    uint32_t kind = !len ? CO_NONE
        : space == GM_SPACE_GLOBAL ? CO_MEM
        : space == GM_SPACE_LOCAL && !(info & GM_INFO_MEMINTR) ? CO_MEM
        : (space == GM_SPACE_SHARED && !(info & GM_INFO_MEMINTR)) ? CO_SHARED : CO_NONE;
    uint32_t km = __match_any_sync(mask, kind);
    uint32_t r = 0;
    if (kind == CO_MEM)
        r = co_spans(km, space == GM_SPACE_LOCAL ? gm_local_phys(addr) : addr, len, info);
    else if (kind == CO_SHARED)
        r = gm_shared_wavefronts(km, addr, len);
    uint32_t bytes = __reduce_add_sync(km, len);
    co_emit(site, km, kind, r, bytes, (km & mask & -mask) != 0);
}
