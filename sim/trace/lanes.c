/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The CPU check behind the lane fills of lanes.h, and a dispatching
 * gm_lanes32 for decoders compiled once (version 1 blocks). No I/O.
 */
#include "lanes.h"

int gm_have_avx2(void)
{
#ifdef __x86_64__
    static int avx2 = -1;   /* idempotent: a race writes the same value */
#ifdef GM_LANES_NO_AVX2     /* the test of the SSE2 path */
    avx2 = 0;
#endif
    if (avx2 < 0) avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
    return avx2;
#else
    return 0;
#endif
}

#ifdef __x86_64__
__attribute__((target("avx2"))) static void lanes32_avx2(uint64_t *dst, const uint64_t *src, uint64_t d,
                                                         uint64_t stride)
{
    gm_lanes32_avx2(dst, src, d, stride);
}
#endif

void gm_lanes32(uint64_t *dst, const uint64_t *src, uint64_t d, uint64_t stride)
{
#ifdef __x86_64__
    if (gm_have_avx2()) lanes32_avx2(dst, src, d, stride);
    else gm_lanes32_sse2(dst, src, d, stride);
#else
    for (int k = 0; k < 32; k++) dst[k] = src ? src[k] + d : d + stride * (uint64_t)k;
#endif
}
