/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Record block coding (docs/trace-format.md, "records"). One control byte
 * per record says which header fields changed and how the lanes are coded;
 * every number is a varint. Decoding checks every bound. No I/O.
 */
#include <stddef.h>
#include <string.h>
#ifdef __x86_64__
#include <immintrin.h>
#endif
#include "reccodec.h"

enum {
    C_SITE = 1, C_ACTIVE = 2, C_CTA = 4, C_WARP = 8, C_SHAPE = 16,
    C_LANES_SHIFT = 5,       /* bits 5..6: lane coding */
    L_EXPLICIT = 0, L_SAME = 1, L_STRIDE = 2, L_SINGLE = 3
};

/* Lane k's offset from the lowest active lane. */
static int64_t lane_off(const struct gm_access *a, int k, int k0)
{
    return (int64_t)(a->addr[k] - a->addr[k0]);
}

static int same_lanes(const struct gm_access *a, const struct gm_access *p)
{
    if (!p || p->active != a->active) return 0;
    int k0 = __builtin_ctz(a->active);
    for (int k = k0 + 1; k < 32; k++)
        if ((a->active >> k & 1) && lane_off(a, k, k0) != lane_off(p, k, k0)) return 0;
    return 1;
}

/* Returns 1 with *stride when lane k is at (k - k0) * stride for all active k. */
static int strided(const struct gm_access *a, int64_t *stride)
{
    int k0 = __builtin_ctz(a->active);
    uint32_t rest = a->active & ~(1u << k0);
    int k1 = __builtin_ctz(rest);
    int64_t s = lane_off(a, k1, k0) / (k1 - k0);
    for (int k = k1; k < 32; k++)
        if ((a->active >> k & 1) && (uint64_t)lane_off(a, k, k0) != (uint64_t)(k - k0) * (uint64_t)s)
            return 0;
    *stride = s;
    return 1;
}

static int lane_code(const struct gm_access *a, const struct gm_access *p, int64_t *stride)
{
    if (!(a->active & (a->active - 1))) return L_SINGLE;
    if (same_lanes(a, p)) return L_SAME;
    if (strided(a, stride)) return L_STRIDE;
    return L_EXPLICIT;
}

static unsigned changes(const struct gm_access *a, const struct gm_access *p)
{
    if (!p) return C_SITE | C_ACTIVE | C_CTA | C_WARP | C_SHAPE;
    unsigned c = 0;
    if (a->site != p->site || a->module != p->module) c |= C_SITE;
    if (a->active != p->active) c |= C_ACTIVE;
    if (a->cta_x != p->cta_x || a->cta_y != p->cta_y || a->cta_z != p->cta_z) c |= C_CTA;
    if (a->smid != p->smid || a->warp_slot != p->warp_slot || a->warp != p->warp) c |= C_WARP;
    if (a->width != p->width || a->kind != p->kind || a->space != p->space || a->flags != p->flags)
        c |= C_SHAPE;
    return c;
}

static void put_fields(struct gm_buf *b, const struct gm_access *a, const struct gm_access *p,
                       unsigned c)
{
    if (c & C_SITE) { gm_put_varint(b, a->module); gm_put_varint(b, a->site); }
    if (c & C_ACTIVE) gm_put_varint(b, a->active);
    if (c & C_CTA) {
        gm_put_svarint(b, (int64_t)a->cta_x - (p ? (int64_t)p->cta_x : 0));
        gm_put_varint(b, a->cta_y);
        gm_put_varint(b, a->cta_z);
    }
    if (c & C_WARP) { gm_put_varint(b, a->smid); gm_put_varint(b, a->warp_slot); gm_put_varint(b, a->warp); }
    if (c & C_SHAPE) {
        gm_put_varint(b, a->width); gm_put_u8(b, a->kind);
        gm_put_u8(b, a->space); gm_put_u8(b, a->flags);
    }
}

void gm_rec_encode_block(struct gm_buf *b, const struct gm_access *a, size_t n)
{
    const struct gm_access *p = NULL;
    uint64_t prev_base = 0;
    for (size_t i = 0; i < n; i++, p = &a[i - 1]) {
        const struct gm_access *r = &a[i];
        unsigned c = changes(r, p);
        int64_t stride = 0;
        int lc = r->active ? lane_code(r, p, &stride) : L_SINGLE;
        gm_put_u8(b, (uint8_t)(c | (unsigned)lc << C_LANES_SHIFT));
        put_fields(b, r, p, c);
        uint64_t base = r->active ? r->addr[__builtin_ctz(r->active)] : 0;
        gm_put_svarint(b, (int64_t)(base - prev_base));
        prev_base = base;
        if (lc == L_STRIDE) gm_put_svarint(b, stride);
        if (lc != L_EXPLICIT) continue;
        int k0 = __builtin_ctz(r->active);
        for (int k = k0 + 1; k < 32; k++)
            if (r->active >> k & 1) gm_put_svarint(b, lane_off(r, k, k0));
    }
}

/* The decoder below comes in two copies: fast (at least GM_REC_MAX_BYTES
 * remain, so no varint of the record can run past the end: no bound check
 * per byte) and checked (the block's last records). */
#define GM_REC_MAX_BYTES 512   /* > the longest record: 1 + 10 * 9 + 3 + 10 + 31 * 10 */
#define GM_DEC static inline __attribute__((always_inline))
GM_DEC uint64_t get_v(struct gm_cur *c, int fast) { return fast ? gm_get_varint10(c, 1) : gm_get_varint(c); }
GM_DEC int64_t get_sv(struct gm_cur *c, int fast) { return gm_unzigzag(get_v(c, fast)); }

GM_DEC void get_fields(struct gm_cur *c, struct gm_access *a, unsigned ch, int fast)
{
    if (ch & C_SITE) {
        uint64_t m = get_v(c, fast), s = get_v(c, fast);
        if (m > UINT16_MAX || s > UINT32_MAX) c->bad = 1;
        a->module = (uint16_t)m;
        a->site = (uint32_t)s;
    }
    if (ch & C_ACTIVE) {
        uint64_t v = get_v(c, fast);
        if (v > UINT32_MAX) c->bad = 1;
        a->active = (uint32_t)v;
    }
    if (ch & C_CTA) {
        int64_t x = (int64_t)a->cta_x + get_sv(c, fast);
        uint64_t y = get_v(c, fast), z = get_v(c, fast);
        if (x < 0 || x > UINT32_MAX || y > UINT16_MAX || z > UINT16_MAX) c->bad = 1;
        a->cta_x = (uint32_t)x; a->cta_y = (uint16_t)y; a->cta_z = (uint16_t)z;
    }
    if (ch & C_WARP) {
        uint64_t s = get_v(c, fast), ws = get_v(c, fast), w = get_v(c, fast);
        if (s > UINT16_MAX || ws > UINT8_MAX || w > UINT8_MAX) c->bad = 1;
        a->smid = (uint16_t)s; a->warp_slot = (uint8_t)ws; a->warp = (uint8_t)w;
    }
    if (ch & C_SHAPE) {
        uint64_t w = get_v(c, fast);
        if (w > UINT16_MAX) c->bad = 1;
        a->width = (uint16_t)w;
        a->kind = (uint8_t)gm_get_le(c, 1);
        a->space = (uint8_t)gm_get_le(c, 1);
        a->flags = (uint8_t)gm_get_le(c, 1);
    }
}

/* All 32 lanes: dst[k] = src[k] + d (L_SAME), or base + k * stride
 * (L_STRIDE, src NULL). Four lanes per step with AVX2 where the CPU has
 * it (chosen once), else two (SSE2, every x86-64). */
#ifdef __x86_64__
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

static void lanes32(uint64_t *dst, const uint64_t *src, uint64_t d, uint64_t stride)
{
    static int avx2 = -1;   /* idempotent: a race writes the same value */
#ifdef GM_LANES_NO_AVX2     /* the test of the SSE2 path */
    avx2 = 0;
#endif
    if (avx2 < 0) avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
    if (avx2) lanes32_avx2(dst, src, d, stride);
    else lanes32_sse2(dst, src, d, stride);
}
#else
static void lanes32(uint64_t *dst, const uint64_t *src, uint64_t d, uint64_t stride)
{
    for (int k = 0; k < 32; k++) dst[k] = src ? src[k] + d : d + stride * (uint64_t)k;
}
#endif

/* Lanes of a record whose header is decoded (a->active set); inactive
 * lanes 0. p: the previous record of the block, or NULL. */
GM_DEC int get_lanes(struct gm_cur *c, struct gm_access *a, const struct gm_access *p, int lc, uint64_t base,
                     int fast)
{
    uint32_t m = a->active;
    if (!m) { memset(a->addr, 0, sizeof a->addr); return lc == L_SINGLE ? 0 : -1; }
    int k0 = __builtin_ctz(m);
    if (lc == L_SINGLE && (m & (m - 1))) return -1;
    if (lc == L_SAME && (!p || p->active != m)) return -1;
    if (m != 0xffffffffu) memset(a->addr, 0, sizeof a->addr);
    if (lc == L_STRIDE) {
        uint64_t stride = (uint64_t)get_sv(c, fast);
        if (m == 0xffffffffu) lanes32(a->addr, NULL, base, stride);
        else
            for (int k = k0; k < 32; k++)
                if (m >> k & 1) a->addr[k] = base + stride * (uint64_t)(k - k0);
    } else if (lc == L_SAME) {
        uint64_t d = base - p->addr[k0];   /* every lane moves by the same amount */
        if (m == 0xffffffffu) lanes32(a->addr, p->addr, d, 0);
        else
            for (uint32_t r = m; r; r &= r - 1) a->addr[__builtin_ctz(r)] = p->addr[__builtin_ctz(r)] + d;
    } else {
        a->addr[k0] = base;
        if (lc != L_EXPLICIT) return c->bad ? -1 : 0;
        if (m == 0xffffffffu)
            for (int k = 1; k < 32; k++)
                a->addr[k] = base + (uint64_t)(fast ? gm_get_svarint10(c, 0) : gm_get_svarint(c));
        else
            for (uint32_t r = m & (m - 1); r; r &= r - 1) a->addr[__builtin_ctz(r)] = base + (uint64_t)get_sv(c, fast);
    }
    return c->bad ? -1 : 0;
}

/* Header fields of the previous record (the lanes are decoded anew): the
 * fields after addr[], padding included, in one copy. */
static void copy_header(struct gm_access *a, const struct gm_access *p)
{
    memcpy(&a->active, &p->active, sizeof *a - offsetof(struct gm_access, active));
}

/* One record after its control byte, from the previous record p; 0 or -1. */
GM_DEC int get_record(struct gm_cur *c, struct gm_access *a, const struct gm_access *p, unsigned ctl,
                      uint64_t *base, int fast)
{
    get_fields(c, a, ctl & 31, fast);
    *base += (uint64_t)get_sv(c, fast);
    return c->bad || get_lanes(c, a, p, (int)(ctl >> C_LANES_SHIFT) & 3, *base, fast);
}

/* Decodes in place: record i starts from record i-1's header, and L_SAME
 * reads record i-1's lanes from out. */
int gm_rec_decode_block(struct gm_cur *c, struct gm_access *out, size_t n)
{
    const struct gm_access *p = NULL;
    uint64_t base = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned ctl = (unsigned)gm_get_le(c, 1);
        if (c->bad || (ctl & 0x80)) return -1;
        if (!p && (ctl & 31) != 31) return -1;   /* first record carries every field */
        struct gm_access *a = &out[i];
        if (p) copy_header(a, p);
        else memset(a, 0, sizeof *a);
        int bad = c->end - c->p >= GM_REC_MAX_BYTES ? get_record(c, a, p, ctl, &base, 1)
                                                    : get_record(c, a, p, ctl, &base, 0);
        if (bad) return -1;
        p = a;
    }
    return 0;
}
