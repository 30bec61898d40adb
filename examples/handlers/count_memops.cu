// SPDX-License-Identifier: Apache-2.0
// Example user handler: counts executed memory operations per site, once
// per warp execution (vector add of n floats: n/32 for each of its three
// memory sites when n is a multiple of 32). Depends only on the handler SDK.
//
// Use it alone (no built-in analyses), then run the program:
//   gpumemcc --gm-handler=examples/handlers/count_memops.cu --gm-analyses=none
//            -O3 -arch=sm_90 examples/vector_add.cu -o vector_add
//   ./vector_add     # the report lists column "warp_execs" per memory site
#include <gpumem/handler.h>

/* One counter per site, named "warp_execs" in reports. */
GM_COUNTERS_NAMED(count_memops, 1, "warp_execs");

GM_BEFORE_MEM(count_memops)
{
    (void)addr; (void)info; (void)value;
    unsigned long long *c = gm_site_counters(gm_counters__count_memops, site, gm_slots__count_memops);
    if (c && gm_is_leader()) atomicAdd(c, 1ull);   /* the warp's lowest active lane */
}
