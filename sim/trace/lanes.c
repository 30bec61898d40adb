/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Lane filling for the record decoders (lanes.h): four lanes per step with
 * AVX2 where the CPU has it (chosen once), else two (SSE2, every x86-64),
 * a plain loop on other CPUs. No I/O.
 */
#include <stddef.h>
#include "lanes.h"
#ifdef __x86_64__
#include <immintrin.h>

__attribute__((target("avx2"))) static void lanes32_avx2(uint64_t *dst, const uint64_t *src, uint64_t d,
                                                         uint64_t stride)
{
    if (src) {
        __m256i vd = _mm256_set1_epi64x((long long)d);
        for (int k = 0; k < 32; k += 4)
            _mm256_storeu_si256((__m256i *)(dst + k),
                                _mm256_add_epi64(_mm256_loadu_si256((const __m256i *)(src + k)), vd));
        return;
    }
    __m256i v = _mm256_set_epi64x((long long)(d + 3 * stride), (long long)(d + 2 * stride),
                                  (long long)(d + stride), (long long)d);
    __m256i step = _mm256_set1_epi64x((long long)(4 * stride));
    for (int k = 0; k < 32; k += 4) {
        _mm256_storeu_si256((__m256i *)(dst + k), v);
        v = _mm256_add_epi64(v, step);
    }
}

static void lanes32_sse2(uint64_t *dst, const uint64_t *src, uint64_t d, uint64_t stride)
{
    if (src) {
        __m128i vd = _mm_set1_epi64x((long long)d);
        for (int k = 0; k < 32; k += 2)
            _mm_storeu_si128((__m128i *)(dst + k), _mm_add_epi64(_mm_loadu_si128((const __m128i *)(src + k)), vd));
        return;
    }
    __m128i v = _mm_set_epi64x((long long)(d + stride), (long long)d);
    __m128i step = _mm_set1_epi64x((long long)(2 * stride));
    for (int k = 0; k < 32; k += 2) {
        _mm_storeu_si128((__m128i *)(dst + k), v);
        v = _mm_add_epi64(v, step);
    }
}

/* Four offsets of w bytes (1, 2, 4 or 8) at p, sign-extended. */
__attribute__((target("avx2"))) static inline __m256i load4(const uint8_t *p, unsigned w)
{
    int32_t x;
    switch (w) {
    case 1: memcpy(&x, p, 4); return _mm256_cvtepi8_epi64(_mm_cvtsi32_si128(x));
    case 2: return _mm256_cvtepi16_epi64(_mm_loadl_epi64((const __m128i *)p));
    case 4: return _mm256_cvtepi32_epi64(_mm_loadu_si128((const __m128i *)p));
    default: return _mm256_loadu_si256((const __m256i *)p);
    }
}

/* Lanes 1..28 in seven steps of four, then 28..31 (lane 28 twice). */
__attribute__((target("avx2"))) static void packed_avx2(uint64_t *dst, const uint8_t *p, unsigned w, uint64_t base)
{
    __m256i vb = _mm256_set1_epi64x((long long)base);
    for (int k = 1; k < 29; k += 4)
        _mm256_storeu_si256((__m256i *)(dst + k), _mm256_add_epi64(load4(p + (size_t)(k - 1) * w, w), vb));
    _mm256_storeu_si256((__m256i *)(dst + 28), _mm256_add_epi64(load4(p + 27 * (size_t)w, w), vb));
    dst[0] = base;
}

static int have_avx2(void)
{
    static int avx2 = -1;   /* idempotent: a race writes the same value */
#ifdef GM_LANES_NO_AVX2     /* the test of the SSE2 path */
    avx2 = 0;
#endif
    if (avx2 < 0) avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
    return avx2;
}

void gm_lanes32(uint64_t *dst, const uint64_t *src, uint64_t d, uint64_t stride)
{
    if (have_avx2()) lanes32_avx2(dst, src, d, stride);
    else lanes32_sse2(dst, src, d, stride);
}
#else
static int have_avx2(void) { return 0; }
static void packed_avx2(uint64_t *dst, const uint8_t *p, unsigned w, uint64_t base)
{
    (void)dst; (void)p; (void)w; (void)base;
}

void gm_lanes32(uint64_t *dst, const uint64_t *src, uint64_t d, uint64_t stride)
{
    for (int k = 0; k < 32; k++) dst[k] = src ? src[k] + d : d + stride * (uint64_t)k;
}
#endif

void gm_lanes32_packed(uint64_t *dst, const uint8_t *p, unsigned w, uint64_t base)
{
    if ((w & (w - 1)) == 0 && have_avx2()) {   /* 1, 2, 4, 8 */
        packed_avx2(dst, p, w, base);
        return;
    }
    dst[0] = base;
    for (int k = 1; k < 32; k++) dst[k] = base + (uint64_t)gm_get_packed(p + (size_t)(k - 1) * w, w);
}
