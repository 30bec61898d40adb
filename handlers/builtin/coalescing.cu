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
GM_INL int co_natural(uint32_t info)
{
    uint32_t w = GM_INFO_WIDTH(info);
    return !(info & GM_INFO_MEMINTR) && w && w <= 32 && !(w & (w - 1));
}

GM_INL uint32_t co_spans(uint32_t mask, uint64_t a, uint32_t len, uint32_t info)
{
    if (!co_natural(info))
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

/* Value of slot for a warp execution, as a chain of selects (no jump
 * table; slots 0..6, larger slots give 0). */
GM_INL uint32_t co_job_value_sel(uint32_t slot, uint32_t n, uint32_t r, uint32_t bytes, int whole)
{
    uint32_t lo = r & 0xffff, hi = r >> 16;
    uint32_t v = slot == CO_WARPS ? (uint32_t)whole : 0;
    v = slot == CO_THREADS ? n : v;
    v = slot == CO_SECTORS || slot == CO_WAVES ? lo : v;
    v = slot == CO_LINES || slot == CO_IDEAL_WAVES ? hi : v;
    return slot == CO_IDEAL ? (bytes + 31) / 32 : v;
}

/* Out of line: co_direct and co_keyed share it. */
GM_SLOW void co_emit(uint32_t site, uint32_t km, uint32_t kind, uint32_t r, uint32_t bytes, int whole)
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
    /* with at least as many lanes as jobs (the common case) one pass */
    for (uint32_t j = rank; j < jobs; j += n) {
        uint32_t slot = co_job_slot(kind, j);
        uint32_t v = co_job_value_sel(slot, n, r, bytes, whole);
        if (v) atomicAdd(c + slot, (unsigned long long)v);
    }
}

/* Register accumulators (sites in loops, see the SDK): acc[0] is the key
 * of the run of equal warp executions this lane led last, acc[1] their
 * number. A key packs active threads (6 bits), r's two counts (7 bits
 * each), the width (6 bits) and the kind; the counters of a run follow
 * from it. */
GM_ACCUM(coalescing);
#define CO_KEY_OK(r, w) (((r) & 0xffff) < 128 && ((r) >> 16) < 128 && (w) < 64)
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

/* Job j of adding a run of `count` executions of key to the counters
 * (out of line: runs end rarely):
 * 0 the matrix cell (memory runs only), 1 warps, 2.. the kind's other
 * slots (co_job_slot order). */
GM_INL uint32_t co_flush_jobs(uint32_t key)
{
    uint32_t kind = key >> 26;
    return kind == CO_MEM ? 6 : kind == CO_SHARED ? 5 : 3;
}

GM_SLOW void co_flush_job(uint32_t site, uint32_t key, uint32_t count, uint32_t j)
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

/* Adds a run of `count` executions of key: jobs j, j + step, ... for both
 * callers: the warp adding a run that ended (co_accumulate, lane of rank j,
 * step = active lanes) and each lane at kernel exit (co_flush_all: every
 * job). A GM_SLOW helper, so the pass inlines it into the out-of-line code
 * that calls it: kept as one cold body called from there (session 9) it
 * left warps split on the H200 (kat_values counted one warp execution
 * twice, examples/spmv hung). */
GM_SLOW void co_flush_run(uint32_t site, uint32_t key, uint32_t count, uint32_t j, uint32_t step)
{
    GM_ROLLED
    for (; j < co_flush_jobs(key); j += step) co_flush_job(site, key, count, j);
}

/* At kernel exit each lane adds the run it holds, job by job (out of
 * line: the flush is inlined before every return for every accumulator). */
GM_INL void co_flush_all(uint32_t site, uint32_t key, uint32_t count)
{
    co_flush_run(site, key, count, 0, 1);
}

GM_ACCUM_FLUSH(coalescing)
{
    if (acc[1] && gm_counters__coalescing) co_flush_all(site, acc[0], acc[1]);
}

/* A site's run as the leader holds it (accumulator words 0 and 1), and
 * whether the last execution was counted through it (key). */
struct co_run { uint32_t key, count, keyed; };

/* The leader extends its run; when the key changes, the warp adds the old
 * run (lane of rank j does job j: one warp-wide RED, as the direct path
 * costs) and the leader starts a new one. */
GM_INL void co_accumulate(struct co_run *w, uint32_t site, uint32_t mask, uint32_t key)
{
    int lead = gm_is_leader_of(mask);
    if (__ballot_sync(mask, lead && (w->key != key || w->count == ~0u))) {
        uint32_t l = gm_leader_of(mask);
        uint32_t okey = __shfl_sync(mask, w->key, l), ocnt = __shfl_sync(mask, w->count, l);
        if (ocnt) co_flush_run(site, okey, ocnt, __popc(mask & gm_lanemask_lt()), __popc(mask));
        if (lead) w->key = key, w->count = 0;
    }
    if (lead) w->count++;
}

/* Loop steps (abi.h, GM_ACCUM_STEP_*; off with the pass option
 * -gm-diag-no-loopinv): for a global, shared or local load or store in a
 * loop whose address advances by D bytes per iteration, the pass stores D
 * and clears the run mask in the loop's preheader (D = 0 from kernel
 * entry for an address computed once per thread). A warp execution whose
 * mask equals every lane's run mask repeats the previous one (each lane of
 * the mask moved by the same D since, see co_step_run), so its key is the
 * leader's current one: the leader counts it, nothing else runs. */
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
 * address bits decide both. Shared wavefronts follow as well: they depend
 * on which lanes share a W-byte unit and on the units' offsets modulo 128
 * (bank groups); a shift by a multiple of 128 keeps both, and lanes 128 B
 * apart stay distinct units of one bank group, whatever the shift.
 * Local memory: a lane's local offset moved by D moves its interleaved
 * address (gm_local_phys) by 32 * D when D is a multiple of 4, a multiple
 * of 128 for every lane; other D are not linear there (no run). */
GM_INL uint32_t co_step_run(const uint32_t *acc, uint32_t mask, uint64_t a, uint32_t space)
{
    if (space == GM_SPACE_LOCAL) return acc[GM_ACCUM_STEP_D] & 3 ? 0 : mask;
    uint32_t al = __shfl_sync(mask, (uint32_t)a, gm_leader_of(mask));
    int ok = !(acc[GM_ACCUM_STEP_D] & 127) || !(((uint32_t)a - al) & 127);
    return __all_sync(mask, ok) ? mask : 0;
}
/* Kind of an access: CO_MEM (global, local), CO_SHARED or CO_NONE. */
GM_INL uint32_t co_kind(uint32_t space, uint32_t len, uint32_t info)
{
    if (!len) return CO_NONE;
    if (space == GM_SPACE_GLOBAL) return CO_MEM;
    if (info & GM_INFO_MEMINTR) return CO_NONE;
    return space == GM_SPACE_LOCAL ? CO_MEM : space == GM_SPACE_SHARED ? CO_SHARED : CO_NONE;
}

/* Unique sectors | lines << 16 (memory) or wavefronts (shared) of the
 * lanes of km (out of line: co_direct and co_keyed share it). */
GM_SLOW uint32_t co_count(uint32_t km, uint32_t kind, uint32_t space, uint64_t addr, uint32_t len,
                         uint32_t info)
{
    if (kind == CO_MEM)
        return co_spans(km, space == GM_SPACE_LOCAL ? gm_local_phys(addr) : addr, len, info);
    return kind == CO_SHARED ? gm_shared_wavefronts(km, addr, len) : 0;
}

/* One warp execution straight to the counters (sites without an
 * accumulator, and memory intrinsics or generic addresses everywhere).
 * Out of line: one copy per module, whatever the number of sites. */
GM_SLOW void co_direct(uint32_t site, uint64_t addr, uint32_t info, uint64_t value)
{
    uint32_t mask = gm_active();
    uint32_t space = gm_resolve_space(addr, info);
    uint32_t len = GM_INFO_WIDTH(info);
    if (info & GM_INFO_MEMINTR) len = value < GM_CO_MAX_LEN ? (uint32_t)value : GM_CO_MAX_LEN;
    uint32_t kind = co_kind(space, len, info);
    /* a space known at compile time gives every lane of a load or store
     * the same kind */
    int same = GM_INFO_SPACE(info) != GM_SPACE_GENERIC && !(info & GM_INFO_MEMINTR);
    uint32_t km = same ? mask : __match_any_sync(mask, kind);
    uint32_t r = co_count(km, kind, space, addr, len, info);
    /* then the one group is the whole warp: no test. (threads x width
     * for the bytes would fold away for 1-byte accesses, and their copy
     * would no longer differ from the others in the width alone,
     * oolmerge.c: blockAccess-cuda 1,408 -> 1,581 PTX lines) */
    uint32_t bytes = __reduce_add_sync(km, len);
    co_emit(site, km, kind, r, bytes, same || (km & mask & -mask) != 0);
}

/* One warp execution of a load or store of a space known at compile time
 * at a site with an accumulator: whose run (key, count) is passed by value
 * and returned (so the words stay in registers). A key holds everything
 * (one kind for the whole warp, bytes = threads x width); counts or widths
 * too large for a key (a width of 64 B or more did not fit its 6 bits: the
 * ideal sectors came out wrong) go to memory directly (keyed = 0). Natural
 * widths always fit (co_natural: at most one sector, line or bank unit per
 * lane, so at most 32 of each and 4 phases): the test is made only for
 * other widths, so a copy specialised for a natural width has no direct
 * path. Out of line, as co_direct. */
GM_SLOW struct co_run co_keyed(uint32_t site, uint64_t addr, uint32_t info, uint32_t key, uint32_t count)
{
    uint32_t mask = gm_active();
    uint32_t space = GM_INFO_SPACE(info), len = GM_INFO_WIDTH(info);
    uint32_t kind = co_kind(space, len, info);
    uint32_t r = co_count(mask, kind, space, addr, len, info);
    struct co_run w = {key, count, 0};
    if (!co_natural(info) && !CO_KEY_OK(r, len)) {
        co_emit(site, mask, kind, r, __reduce_add_sync(mask, len), 1);
        return w;
    }
    co_accumulate(&w, site, mask, co_key(__popc(mask), r, len, kind));
    w.keyed = 1;
    return w;
}

/* Inlined at sites in loops (the pass puts the rest out of line): the loop
 * step's fast path, else co_keyed on the accumulator's words. */
GM_BEFORE_MEM(coalescing)
{
    if (!gm_counters__coalescing) return;
    uint32_t *acc = gm_accum__coalescing(site);
    uint32_t space = GM_INFO_SPACE(info);
    if (!acc || space == GM_SPACE_GENERIC || (info & GM_INFO_MEMINTR)) {
        co_direct(site, addr, info, value);
        return;
    }
    uint32_t mask = gm_active();
    /* loop steps: global, shared and local accesses */
    int step = (space == GM_SPACE_GLOBAL || space == GM_SPACE_SHARED || space == GM_SPACE_LOCAL) &&
               GM_INFO_WIDTH(info) && CO_STEP(acc);
    if (step) {
        if (co_step_fast(acc, mask)) return;
        acc[GM_ACCUM_STEP_RUN] = 0;
    }
    struct co_run w = co_keyed(site, addr, info, acc[0], acc[1]);
    acc[0] = w.key, acc[1] = w.count;
    if (step && w.keyed) acc[GM_ACCUM_STEP_RUN] = co_step_run(acc, mask, addr, space);
}

/* Site groups (SDK: GM_BEFORE_MEM_GROUP): n loads or stores of one block
 * with one info word, site k's address in every lane the first's plus a
 * constant multiple of 128 B (global) or 4 B (shared, local). One count
 * serves them all: a shift by whole lines keeps sectors and lines; a local
 * offset moved by 4k moves the interleaved address (gm_local_phys) by
 * 128k; shared units (W = max(w, 4) bytes; natural alignment makes the
 * shift a multiple of W) stay shared by the same lanes and all move by the
 * same number of banks, so each phase's most distinct units on one bank
 * group stay the same. Then the warp adds every site's counters: lane of
 * rank j does job j of the sites' jobs (per site: its slots, and for
 * memory the matrix cell), one warp-wide RED per 32 jobs. */
GM_INL void co_emit_group(uint32_t site, uint32_t nsites, uint32_t mask, uint32_t kind, uint32_t r,
                          uint32_t bytes)
{
    uint32_t n = __popc(mask), rank = __popc(mask & gm_lanemask_lt());
    uint32_t slots = kind == CO_MEM ? 5 : kind == CO_SHARED ? 4 : 2, per = slots + (kind == CO_MEM);
    unsigned long long *c = gm_counters__coalescing +
        ((gm_smid() & __gm_replica_mask) * __gm_nsites + site) * gm_slots__coalescing;
    unsigned long long *m = gm_counters__coalescing_matrix;
    uint32_t s = r & 0xffff;
    for (uint32_t j = rank; j < nsites * per; j += n) {
        uint32_t k = j / per, t = j - k * per;
        if (kind == CO_MEM && t == slots) {
            if (m) atomicAdd(m + (site + k) * 1024 + (n - 1) * 32 + (s < 32 ? s : 32) - 1, 1ull);
            continue;
        }
        uint32_t slot = co_job_slot(kind, t);
        uint32_t v = co_job_value_sel(slot, n, r, bytes, 1);
        if (v) atomicAdd(c + k * gm_slots__coalescing + slot, (unsigned long long)v);
    }
}

GM_BEFORE_MEM_GROUP(coalescing)
{
    if (!gm_counters__coalescing) return;
    uint32_t mask = gm_active();
    uint32_t space = GM_INFO_SPACE(info), len = GM_INFO_WIDTH(info);
    uint32_t kind = co_kind(space, len, info);
    uint32_t r = co_count(mask, kind, space, addr, len, info);
    co_emit_group(site, n, mask, kind, r, __popc(mask) * len);
}
