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
    uint32_t r = gm_sorted_units(mask, a >> 5);
    if (r != GM_UNSORTED) return r;
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

/* co_job_value as a chain of selects (slots 0..6; larger slots give 0). */
GM_INL uint32_t co_job_value_sel(uint32_t slot, uint32_t n, uint32_t r, uint32_t bytes, int whole)
{
    uint32_t lo = r & 0xffff, hi = r >> 16;
    uint32_t v = slot == CO_WARPS ? (uint32_t)whole : 0;
    v = slot == CO_THREADS ? n : v;
    v = slot == CO_SECTORS || slot == CO_WAVES ? lo : v;
    v = slot == CO_LINES || slot == CO_IDEAL_WAVES ? hi : v;
    return slot == CO_IDEAL ? (bytes + 31) / 32 : v;
}

/* sel: one job per lane by selects when lanes suffice (not for memory
 * intrinsics: their exact walk leaves no registers for it, regbudget). */
GM_INL void co_emit(uint32_t site, uint32_t km, uint32_t kind, uint32_t r, uint32_t bytes, int whole, int sel)
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
#ifndef GM_CO_OLD_EMIT
    /* at least as many lanes as jobs (the common case): one job per lane,
     * its value by selects (no jump table, no loop) */
    if (sel && n >= jobs) {
        uint32_t slot = co_job_slot(kind, rank);
        uint32_t v = co_job_value_sel(slot, n, r, bytes, whole);
        if (rank < jobs && v) atomicAdd(c + slot, (unsigned long long)v);
        return;
    }
#endif
    for (uint32_t j = rank; j < jobs; j += n) {
        uint32_t slot = co_job_slot(kind, j);
        uint32_t v = co_job_value(slot, n, r, bytes, whole);
        if (v) atomicAdd(c + slot, (unsigned long long)v);
    }
}

/* Register accumulators (sites in loops, see the SDK): acc[0] is the key
 * of the run of equal warp executions this lane led last, acc[1] their
 * number. A key packs active threads (6 bits), r's two counts (7 bits
 * each), the width (6 bits) and the kind; the counters of a run follow
 * from it. */
GM_ACCUM(coalescing);
#define CO_KEY_OK(r) (((r) & 0xffff) < 128 && ((r) >> 16) < 128)
GM_INL uint32_t co_key(uint32_t n, uint32_t r, uint32_t w, uint32_t kind)
{
    return n | (r & 0x7f) << 6 | (r >> 16) << 13 | w << 20 | kind << 26;
}

/* Field f of a key: 0 threads, 1 sectors or wavefronts, 2 lines or
 * ideal wavefronts, 3 ideal sectors. */
GM_INL uint32_t co_key_field(uint32_t key, uint32_t f)
{
    uint32_t n = key & 0x3f;
    return f == 0 ? n : f == 1 ? key >> 6 & 0x7f : f == 2 ? key >> 13 & 0x7f
                  : (n * (key >> 20 & 0x3f) + 31) / 32;
}

/* Job j of adding a run of `count` executions of key to the counters:
 * 0 the matrix cell (memory runs only), 1 warps, 2.. the kind's other
 * slots (co_job_slot order). */
GM_INL uint32_t co_flush_jobs(uint32_t key)
{
    uint32_t kind = key >> 26;
    return kind == CO_MEM ? 6 : kind == CO_SHARED ? 5 : 3;
}

GM_INL void co_flush_job(uint32_t site, uint32_t key, uint32_t count, uint32_t j)
{
    uint32_t kind = key >> 26, v = 1;
    unsigned long long *p;
    if (j == 0) {
        uint32_t s = key >> 6 & 0x7f;
        p = gm_counters__coalescing_matrix;
        if (kind != CO_MEM || !p) return;
        p += site * 1024 + ((key & 0x3f) - 1) * 32 + (s < 32 ? s : 32) - 1;
    } else {
        p = gm_counters__coalescing +
            ((gm_smid() & __gm_replica_mask) * __gm_nsites + site) * gm_slots__coalescing;
        p += co_job_slot(kind, j - 1);
        if (j > 1) v = co_key_field(key, j - 2);
    }
    atomicAdd(p, (unsigned long long)count * v);
}

/* At kernel exit each lane adds the run it holds, job by job. */
GM_ACCUM_FLUSH(coalescing)
{
    if (!acc[1] || !gm_counters__coalescing) return;
    GM_ROLLED
    for (uint32_t j = 0; j < co_flush_jobs(acc[0]); j++) co_flush_job(site, acc[0], acc[1], j);
}

/* The leader extends its run; when the key changes, the warp adds the old
 * run (lane of rank j does job j: one warp-wide RED, as the direct path
 * costs) and the leader starts a new one. */
GM_INL void co_accumulate(uint32_t *acc, uint32_t site, uint32_t mask, uint32_t key)
{
    int lead = gm_is_leader_of(mask);
    if (__ballot_sync(mask, lead && (acc[0] != key || acc[1] == ~0u))) {
        uint32_t l = gm_leader_of(mask);
        uint32_t okey = __shfl_sync(mask, acc[0], l), ocnt = __shfl_sync(mask, acc[1], l);
        uint32_t n = __popc(mask);
        for (uint32_t j = __popc(mask & gm_lanemask_lt()); ocnt && j < co_flush_jobs(okey); j += n)
            co_flush_job(site, okey, ocnt, j);
        if (lead) acc[0] = key, acc[1] = 0;
    }
    if (lead) acc[1]++;
}

/* Loop steps (abi.h, GM_ACCUM_STEP_*; off with -DGM_CO_NO_STEP or
 * GM_DIAG_NO_LOOPINV=1 at compile time): for a global load or store in a
 * loop whose address advances by D bytes per iteration, the pass stores D
 * and clears the run mask in the loop's preheader. A warp execution whose
 * mask equals every lane's run mask repeats the previous one (each lane of
 * the mask moved by the same D since, see co_step_run), so its key is the
 * leader's current one: the leader counts it, nothing else runs. */
#ifndef GM_CO_NO_STEP
GM_ACCUM_STEP(coalescing);
#define CO_STEP(acc) ((acc)[GM_ACCUM_STEP_KNOWN])

GM_INL int co_step_fast(uint32_t *acc, uint32_t mask)
{
    int lead = gm_is_leader_of(mask);
    if (!__all_sync(mask, acc[GM_ACCUM_STEP_RUN] == mask && (!lead || acc[1] != ~0u))) return 0;
    if (lead) acc[1]++;
    return 1;
}

/* Run mask after a full execution that left key in the leader's run: the
 * mask if every later execution with it has the same key. D is the same
 * for every lane (the pass stores only D built from constants and kernel
 * arguments), so it does when D is a multiple of 128 (the warp's sector
 * and line pattern moves as a whole) or every lane's address is the
 * leader's plus a multiple of 128 (naturally aligned accesses of <= 32 B:
 * sectors = lines = distinct addresses, whatever the shift); the low 32
 * address bits decide both. */
GM_INL uint32_t co_step_run(const uint32_t *acc, uint32_t mask, uint64_t a)
{
    uint32_t al = __shfl_sync(mask, (uint32_t)a, gm_leader_of(mask));
    int ok = !(acc[GM_ACCUM_STEP_D] & 127) || !(((uint32_t)a - al) & 127);
    return __all_sync(mask, ok) ? mask : 0;
}
#else
#define CO_STEP(acc) 0
GM_INL int co_step_fast(uint32_t *, uint32_t) { return 0; }
GM_INL uint32_t co_step_run(const uint32_t *, uint32_t, uint64_t) { return 0; }
#endif

/* Block accumulators (sites outside loops, see the SDK): per site, the
 * block's sums of the seven slots, and one matrix cell with its count (the
 * first cell a warp of the block claims; other cells go to memory).
 * Exact (handlers/emu, tests/gpu/kat on the H100) but measured slower than
 * per-warp REDs to the per-SM rows (bench/results/overhead-coal.md: 7.66x
 * against 7.38x geomean), so only used when built with -DGM_CD_BLOCK. */
#ifdef GM_CD_BLOCK
GM_BLOCK(coalescing);
enum { CO_B_CELL = 7, CO_B_COUNT, CO_B_WORDS };

GM_INL void co_block_cell(uint32_t *b, uint32_t site, uint32_t cell)
{
    uint32_t k = gm_block_word(b, CO_B_CELL);
    if (!k) k = atomicCAS_block(b + CO_B_CELL, 0u, cell + 1);
    if (!k || k == cell + 1) atomicAdd(b + CO_B_COUNT, 1u);
    else if (gm_counters__coalescing_matrix)
        atomicAdd(gm_counters__coalescing_matrix + site * 1024 + cell, 1ull);
}

/* One warp execution of a load or store (bytes = threads x width): lane of
 * rank j does job j (one warp-wide shared RED), the next lane the matrix. */
GM_INL void co_block_add(uint32_t *b, uint32_t site, uint32_t mask, uint32_t kind, uint32_t r, uint32_t len)
{
    uint32_t n = __popc(mask), rank = __popc(mask & gm_lanemask_lt());
    uint32_t jobs = kind == CO_MEM ? 5 : kind == CO_SHARED ? 4 : 2;
    for (uint32_t j = rank; j <= jobs; j += n) {
        if (j == jobs) {
            uint32_t s = r & 0xffff;
            if (kind == CO_MEM) co_block_cell(b, site, (n - 1) * 32 + (s < 32 ? s : 32) - 1);
            continue;
        }
        uint32_t slot = co_job_slot(kind, j);
        uint32_t v = co_job_value(slot, n, r, n * len, 1);
        if (v) atomicAdd(b + slot, v);
    }
}

/* The last threads of the block add its sums (lane of rank j in last: word j). */
GM_BLOCK_FLUSH(coalescing)
{
    if (!last || !gm_counters__coalescing) return;
    uint32_t n = __popc(last);
    unsigned long long *c = gm_site_counters(gm_counters__coalescing, site, gm_slots__coalescing);
    GM_ROLLED
    for (uint32_t j = __popc(last & gm_lanemask_lt()); j < CO_B_CELL + 1; j += n) {
        uint32_t v = gm_block_word(words, j == CO_B_CELL ? (uint32_t)CO_B_COUNT : j);
        if (!v) continue;
        if (j < CO_B_CELL) atomicAdd(c + j, (unsigned long long)v);
        else if (gm_counters__coalescing_matrix)
            atomicAdd(gm_counters__coalescing_matrix + site * 1024 + gm_block_word(words, CO_B_CELL) - 1,
                      (unsigned long long)v);
    }
}
#endif /* GM_CD_BLOCK */

#ifdef GM_CO_DELTA
#include "coalescing_delta.h"  /* optional repeat detection, off by default */
#endif

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
    /* a space known at compile time gives every lane of a load or store
     * the same kind (constant once inlined) */
    int same = GM_INFO_SPACE(info) != GM_SPACE_GENERIC && !(info & GM_INFO_MEMINTR);
    uint32_t km = same ? mask : __match_any_sync(mask, kind);
    uint32_t r = 0;
    int counted = 0;
#ifdef GM_CO_DELTA
    if (same && kind == CO_MEM) {
        uint32_t *acc = gm_accum__coalescing(site), *last = gm_accum__co_last(site);
        if (acc && last) {  /* tests of the calls themselves: SROA still applies */
            uint64_t ua = space == GM_SPACE_LOCAL ? gm_local_phys(addr) : addr;
            if (co_repeat(acc, last, mask, ua)) return;
            r = co_spans(km, ua, len, info);
            int ok = CO_KEY_OK(r);
            if (ok) co_accumulate(acc, site, mask, co_key(__popc(mask), r, len, kind));
            co_remember(last, mask, ua, ok);
            if (ok) return;
            counted = 1;
        }
    }
#endif
    /* loop steps: global loads and stores only (local addresses are not
     * linear in the thread's offsets, shared ones count wavefronts) */
    int step = same && space == GM_SPACE_GLOBAL && kind == CO_MEM;
    if (step) {  /* the accumulator only used where it is asked for (SROA) */
        uint32_t *sacc = gm_accum__coalescing(site);
        if (sacc && CO_STEP(sacc)) {
            if (co_step_fast(sacc, mask)) return;
            sacc[GM_ACCUM_STEP_RUN] = 0;
        }
    }
    if (!counted) {
        if (kind == CO_MEM)
            r = co_spans(km, space == GM_SPACE_LOCAL ? gm_local_phys(addr) : addr, len, info);
        else if (kind == CO_SHARED)
            r = gm_shared_wavefronts(km, addr, len);
        /* Loads and stores of a space known at compile time: one kind for the
         * whole warp and bytes = threads x width, so a key holds everything. */
        if (same && CO_KEY_OK(r)) {
            uint32_t *acc = gm_accum__coalescing(site);
            if (acc) {
                co_accumulate(acc, site, mask, co_key(__popc(mask), r, len, kind));
                if (step && CO_STEP(acc)) acc[GM_ACCUM_STEP_RUN] = co_step_run(acc, mask, addr);
                return;
            }
        }
#ifdef GM_CD_BLOCK
        if (same) {
            uint32_t *b = gm_block__coalescing(site, CO_B_WORDS);
            if (b) {
                co_block_add(b, site, mask, kind, r, len);
                return;
            }
        }
#endif
    }
    uint32_t bytes = __reduce_add_sync(km, len);
    co_emit(site, km, kind, r, bytes, (km & mask & -mask) != 0, !(info & GM_INFO_MEMINTR));
}
