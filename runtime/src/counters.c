/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Counter arithmetic shared by launch handling and tests: folding per-SM
 * replicas into one row per site (summed, or OR-ed for the bit-mask slots
 * that abi.h's GM_SLOT_OR_SUFFIX marks), and sizing the replica count.
 * Pure C: no CUDA, CUPTI or LLVM.
 */
#include "rt_core.h"

#include <stdlib.h>
#include <string.h>
#include "gpumem/abi.h"

void gm_counters_fold_sites(uint64_t *dst, const uint64_t *src, uint32_t replicas, uint32_t nsites,
                            uint32_t slots, const uint8_t *or_slot, uint32_t lo, uint32_t hi)
{
    uint64_t row = (uint64_t)nsites * slots, a = (uint64_t)lo * slots, b = (uint64_t)hi * slots;
    for (uint32_t r = 0; r < replicas; r++) {
        const uint64_t *rep = src + r * row;
        if (!or_slot) {
            for (uint64_t i = a; i < b; i++) dst[i] += rep[i];
            continue;
        }
        for (uint64_t i = a; i < b; i++)
            dst[i] = or_slot[i % slots] ? dst[i] | rep[i] : dst[i] + rep[i];
    }
}

void gm_counters_fold(uint64_t *dst, const uint64_t *src, uint32_t replicas,
                      uint32_t nsites, uint32_t slots, const uint8_t *or_slot)
{
    gm_counters_fold_sites(dst, src, replicas, nsites, slots, or_slot, 0, nsites);
}

size_t gm_slot_name_len(const char *s)
{
    size_t n = strcspn(s, ","), k = strlen(GM_SLOT_OR_SUFFIX);
    return n >= k && strncmp(s + n - k, GM_SLOT_OR_SUFFIX, k) == 0 ? n - k : n;
}

uint8_t *gm_slot_or_flags(const char *names, uint32_t slots, int *err)
{
    uint8_t *f = NULL;
    const char *p = names;
    for (uint32_t i = 0; p && *p && i < slots; i++) {
        size_t n = strcspn(p, ",");
        if (gm_slot_name_len(p) != n) {
            if (!f && !(f = calloc(slots, 1))) {
                *err = 1;
                return NULL;
            }
            f[i] = 1;
        }
        p += n;
        if (*p == ',') p++;
    }
    return f;
}

uint32_t gm_replicas_for(uint32_t sm_count)
{
    uint32_t r = 1;
    while (r < sm_count && r < (1u << 16)) r <<= 1;
    return r;
}
