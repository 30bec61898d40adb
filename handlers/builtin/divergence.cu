// SPDX-License-Identifier: Apache-2.0
// Built-in analysis "divergence" (SASSI's branch case study): per branch
// site, warp executions, active threads, taken and not-taken threads, and
// divergent executions (active lanes went both ways; for a switch, to more
// than one target). Device code; depends only on the handler SDK.
#include <gpumem/handler.h>

GM_COUNTERS_NAMED(divergence, 5, "execs,threads,taken,not_taken,divergent");
enum { DV_EXECS, DV_THREADS, DV_TAKEN, DV_NOT_TAKEN, DV_DIVERGENT };

/* Register accumulators (branches in loops, see the SDK): acc[0] is the
 * key (threads | taken << 6 | divergent << 12) of the run of equal warp
 * executions this lane led last, acc[1] their number. */
GM_ACCUM(divergence);
/* A key's five slot values (1, threads, taken, not taken, divergent; each
 * at most 32) as 6-bit fields of one word: slot j's is field j (a shift
 * and a mask, no jump table). */
GM_INL uint32_t dv_fields(uint32_t key)
{
    uint32_t n = key & 0x3f, t = key >> 6 & 0x3f;
    return 1u | n << 6 | t << 12 | (n - t) << 18 | (key >> 12) << 24;
}

/* Adds `count` executions of key to slots j, j + step, ... of the site.
 * Out of line, one body per module for both callers: the warp adding a
 * run (dv_flush_run) and each lane at kernel exit (dv_flush_all). */
GM_SLOW void dv_add(uint32_t site, uint32_t key, uint32_t count, uint32_t j, uint32_t step)
{
    unsigned long long *c = gm_site_counters(gm_counters__divergence, site, gm_slots__divergence);
    uint32_t f = dv_fields(key);
    GM_ROLLED
    for (; j < gm_slots__divergence; j += step) {
        uint32_t v = f >> (6 * j) & 0x3f;
        if (v) atomicAdd(c + j, (unsigned long long)count * v);
    }
}

/* The warp adds the run (key, count) its leader held (lane of rank j:
 * slot j, one warp-wide RED); a site without an accumulator adds each
 * execution as a run of one. */
GM_INL void dv_flush_run(uint32_t site, uint32_t key, uint32_t count)
{
    uint32_t mask = gm_active();
    dv_add(site, key, count, __popc(mask & gm_lanemask_lt()), __popc(mask));
}

/* At kernel exit each lane adds the run it holds, slot by slot. */
GM_INL void dv_flush_all(uint32_t site, uint32_t key, uint32_t count)
{
    dv_add(site, key, count, 0, 1);
}

GM_ACCUM_FLUSH(divergence)
{
    if (acc[1] && gm_counters__divergence) dv_flush_all(site, acc[0], acc[1]);
}

/* Switch: "taken" = lanes going to a case, "not taken" = to the default. */
GM_BEFORE_BRANCH(divergence)
{
    if (!gm_counters__divergence) return;
    uint32_t mask = gm_active();
    uint32_t n = __popc(mask);
    uint32_t taken = gm_ballot_count(mask, dir != 0);
    int divergent = (info & GM_BRINFO_SWITCH) ? __match_any_sync(mask, dir) != mask
                                              : taken != 0 && taken != n;
    uint32_t key = n | taken << 6 | (uint32_t)divergent << 12;
    uint32_t *acc = gm_accum__divergence(site);
    if (!acc) {
        dv_flush_run(site, key, 1);
        return;
    }
    /* the leader extends its run; when the key changes the warp adds the
     * old run and the leader starts a new one */
    int lead = gm_is_leader_of(mask);
    if (__ballot_sync(mask, lead && (acc[0] != key || acc[1] == ~0u))) {
        uint32_t l = gm_leader_of(mask);
        uint32_t okey = __shfl_sync(mask, acc[0], l), ocnt = __shfl_sync(mask, acc[1], l);
        if (ocnt) dv_flush_run(site, okey, ocnt);
        if (lead) acc[0] = key, acc[1] = 0;
    }
    if (lead) acc[1]++;
}
