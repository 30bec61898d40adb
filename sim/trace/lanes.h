/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Filling a decoded record's 32 lane addresses (struct gm_access addr[])
 * in one call per record: from the previous record's lanes, an arithmetic
 * stride, or packed signed offsets. SIMD (AVX2 chosen at run time, else
 * SSE2) on x86-64, plain loops elsewhere. Internal to sim/trace; no I/O.
 */
#ifndef GM_TRACE_LANES_H
#define GM_TRACE_LANES_H

#include <stdint.h>
#include <string.h>

/* All 32 lanes: dst[k] = src[k] + d, or d + k * stride when src is NULL. */
void gm_lanes32(uint64_t *dst, const uint64_t *src, uint64_t d, uint64_t stride);

/* All 32 lanes of a full warp from packed offsets: dst[0] = base and
 * dst[k] = base + off[k - 1] for k = 1..31, where off is 31 signed
 * little-endian integers of w bytes each (w = 1..8) at p. Reads up to 7
 * bytes past the 31 * w (the caller's buffer has that slack). */
void gm_lanes32_packed(uint64_t *dst, const uint8_t *p, unsigned w, uint64_t base);

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

#endif
