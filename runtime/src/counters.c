/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Counter arithmetic shared by launch handling and tests: folding per-SM
 * replicas into one row per site, and sizing the replica count.
 * Pure C: no CUDA, CUPTI or LLVM.
 */
#include "rt_core.h"

void gm_counters_fold(uint64_t *dst, const uint64_t *src, uint32_t replicas,
                      uint32_t nsites, uint32_t slots)
{
    uint64_t row = (uint64_t)nsites * slots;
    for (uint32_t r = 0; r < replicas; r++) {
        const uint64_t *rep = src + r * row;
        for (uint64_t i = 0; i < row; i++) dst[i] += rep[i];
    }
}

uint32_t gm_replicas_for(uint32_t sm_count)
{
    uint32_t r = 1;
    while (r < sm_count && r < (1u << 16)) r <<= 1;
    return r;
}
