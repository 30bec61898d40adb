// SPDX-License-Identifier: Apache-2.0
// Built-in analysis "divergence" (SASSI's branch case study): per branch
// site, warp executions, active threads, taken and not-taken threads, and
// divergent executions (active lanes went both ways; for a switch, to more
// than one target). Device code; depends only on the handler SDK.
#include <gpumem/handler.h>

GM_COUNTERS_NAMED(divergence, 5, "execs,threads,taken,not_taken,divergent");
enum { DV_EXECS, DV_THREADS, DV_TAKEN, DV_NOT_TAKEN, DV_DIVERGENT };

/* Switch: "taken" = lanes going to a case, "not taken" = to the default. */
GM_BEFORE_BRANCH(divergence)
{
    if (!gm_counters__divergence) return;
    uint32_t mask = gm_active();
    uint32_t n = __popc(mask);
    uint32_t taken = gm_ballot_count(mask, dir != 0);
    int divergent = (info & GM_BRINFO_SWITCH) ? __match_any_sync(mask, dir) != mask
                                              : taken != 0 && taken != n;
    /* slot-per-lane: lane of rank j adds slot j (one warp-wide RED) */
    unsigned long long *c = gm_site_counters(gm_counters__divergence, site, gm_slots__divergence);
    for (uint32_t j = __popc(mask & gm_lanemask_lt()); j < gm_slots__divergence; j += n) {
        uint32_t v = j == DV_EXECS ? 1 : j == DV_THREADS ? n : j == DV_TAKEN ? taken
                   : j == DV_NOT_TAKEN ? n - taken : (uint32_t)divergent;
        if (v) atomicAdd(c + j, (unsigned long long)v);
    }
}
