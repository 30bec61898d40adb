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

/* Adds a run of `count` executions of key to this SM's counters (one lane). */
GM_INL void dv_flush_run(uint32_t site, uint32_t key, uint32_t count)
{
    uint64_t k = count, n = key & 0x3f, t = key >> 6 & 0x3f;
    unsigned long long *c = gm_site_counters(gm_counters__divergence, site, gm_slots__divergence);
    atomicAdd(c + DV_EXECS, k);
    atomicAdd(c + DV_THREADS, k * n);
    if (t) atomicAdd(c + DV_TAKEN, k * t);
    if (n - t) atomicAdd(c + DV_NOT_TAKEN, k * (n - t));
    if (key >> 12) atomicAdd(c + DV_DIVERGENT, k);
}

GM_ACCUM_FLUSH(divergence)
{
    if (acc[1] && gm_counters__divergence) dv_flush_run(site, acc[0], acc[1]);
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
    uint32_t *acc = gm_accum__divergence(site);
    if (acc) {
        uint32_t key = n | taken << 6 | (uint32_t)divergent << 12;
        if (!gm_is_leader_of(mask)) return;
        if (acc[0] != key || acc[1] == ~0u) {
            if (acc[1]) dv_flush_run(site, acc[0], acc[1]);
            acc[0] = key;
            acc[1] = 0;
        }
        acc[1]++;
        return;
    }
    /* slot-per-lane: lane of rank j adds slot j (one warp-wide RED) */
    unsigned long long *c = gm_site_counters(gm_counters__divergence, site, gm_slots__divergence);
    for (uint32_t j = __popc(mask & gm_lanemask_lt()); j < gm_slots__divergence; j += n) {
        uint32_t v = j == DV_EXECS ? 1 : j == DV_THREADS ? n : j == DV_TAKEN ? taken
                   : j == DV_NOT_TAKEN ? n - taken : (uint32_t)divergent;
        if (v) atomicAdd(c + j, (unsigned long long)v);
    }
}
