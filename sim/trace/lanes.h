/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Filling a decoded record's 32 lane addresses (struct gm_access addr[])
 * in one step per record: from the previous record's lanes, an arithmetic
 * stride, or packed signed offsets. On x86-64 in two builds, AVX2 (four
 * lanes per instruction) and SSE2 (two), for decoders that choose one
 * once (gm_have_avx2) and inline it; plain loops elsewhere. Internal to
 * sim/trace; no I/O.
 */
#ifndef GM_TRACE_LANES_H
#define GM_TRACE_LANES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#ifdef __x86_64__
#include <immintrin.h>
#endif

/* Dispatching versions (lanes.c), for decoders that do not choose:
 * all 32 lanes, dst[k] = src[k] + d, or d + k * stride when src is NULL. */
void gm_lanes32(uint64_t *dst, const uint64_t *src, uint64_t d, uint64_t stride);
int gm_have_avx2(void);

/* One signed w-byte (1..8) little-endian integer at p; reads 8 bytes. */
static inline int64_t gm_get_packed(const uint8_t *p, unsigned w)
{
    uint64_t v;
    memcpy(&v, p, 8);
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    unsigned sh = 64 - 8 * w;
    return (int64_t)(v << sh) >> sh;
}

/* Partial masks, one lane at a time: as gm_lanes32_masked_avx2. */
static inline void gm_lanes32_masked_scalar(uint64_t *dst, const uint64_t *src, uint64_t d, uint64_t stride,
                                            uint32_t m)
{
    memset(dst, 0, 32 * sizeof *dst);
    for (uint32_t r = m; r; r &= r - 1) {
        int k = __builtin_ctz(r);
        dst[k] = src ? src[k] + d : d + stride * (uint64_t)k;
    }
}

/* All 32 lanes of a full warp from packed offsets: dst[0] = base and
 * dst[k] = base + off[k - 1] for k = 1..31, off being 31 signed
 * little-endian integers of w bytes (1..8) at p. Reads up to 7 bytes past
 * the 31 * w (the caller's buffer has that slack). */
static inline void gm_lanes32_packed_scalar(uint64_t *dst, const uint8_t *p, unsigned w, uint64_t base)
{
    dst[0] = base;
    for (int k = 1; k < 32; k++) dst[k] = base + (uint64_t)gm_get_packed(p + (size_t)(k - 1) * w, w);
}

#ifdef __x86_64__
#define GM_AVX2 __attribute__((target("avx2"))) static inline

GM_AVX2 void gm_lanes32_avx2(uint64_t *dst, const uint64_t *src, uint64_t d, uint64_t stride)
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

static inline void gm_lanes32_sse2(uint64_t *dst, const uint64_t *src, uint64_t d, uint64_t stride)
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

/* Partial masks: dst[k] = src[k] + d (src not NULL) or d + k * stride
 * for the lanes k of mask m, 0 for the others. */
GM_AVX2 void gm_lanes32_masked_avx2(uint64_t *dst, const uint64_t *src, uint64_t d, uint64_t stride, uint32_t m)
{
    const __m256i bit = _mm256_set_epi64x(8, 4, 2, 1), zero = _mm256_setzero_si256();
    __m256i v = src ? _mm256_set1_epi64x((long long)d)
                    : _mm256_set_epi64x((long long)(d + 3 * stride), (long long)(d + 2 * stride),
                                        (long long)(d + stride), (long long)d);
    __m256i step = _mm256_set1_epi64x((long long)(4 * stride));
    for (int k = 0; k < 32; k += 4, m >>= 4) {
        __m256i on = _mm256_cmpgt_epi64(_mm256_and_si256(_mm256_set1_epi64x(m & 15), bit), zero);
        __m256i x = src ? _mm256_add_epi64(_mm256_loadu_si256((const __m256i *)(src + k)), v) : v;
        _mm256_storeu_si256((__m256i *)(dst + k), _mm256_and_si256(x, on));
        v = src ? v : _mm256_add_epi64(v, step);
    }
}

/* Four offsets of w bytes (1, 2, 4 or 8) at p, sign-extended. */
GM_AVX2 __m256i gm_load4_avx2(const uint8_t *p, unsigned w)
{
    int32_t x;
    switch (w) {
    case 1: memcpy(&x, p, 4); return _mm256_cvtepi8_epi64(_mm_cvtsi32_si128(x));
    case 2: return _mm256_cvtepi16_epi64(_mm_loadl_epi64((const __m128i *)p));
    case 4: return _mm256_cvtepi32_epi64(_mm_loadu_si128((const __m128i *)p));
    default: return _mm256_loadu_si256((const __m256i *)p);
    }
}

/* gm_lanes32_packed_scalar for w = 1, 2, 4 and 8 (others: the scalar
 * one): lanes 1..28 in seven steps of four, then 28..31 (28 twice). */
GM_AVX2 void gm_lanes32_packed_avx2(uint64_t *dst, const uint8_t *p, unsigned w, uint64_t base)
{
    if (w & (w - 1)) { gm_lanes32_packed_scalar(dst, p, w, base); return; }
    __m256i vb = _mm256_set1_epi64x((long long)base);
    for (int k = 1; k < 29; k += 4)
        _mm256_storeu_si256((__m256i *)(dst + k), _mm256_add_epi64(gm_load4_avx2(p + (size_t)(k - 1) * w, w), vb));
    _mm256_storeu_si256((__m256i *)(dst + 28), _mm256_add_epi64(gm_load4_avx2(p + 27 * (size_t)w, w), vb));
    dst[0] = base;
}
#endif

#endif
