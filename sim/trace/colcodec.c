/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Record block coding of trace version 2 (docs/trace-format.md, "coded
 * records"): each field of a block's records in its own column (control
 * bytes, modules, sites, ..., bases, strides, lane offsets), each value of
 * a column in the same number of bytes (the fewest that hold the block's
 * values), so that zstd finds long matches within a column and the
 * decoder reads each value with one load and a mask, its bounds checked
 * once per block. No I/O.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "lanes.h"
#include "reccodec.h"

enum {
    C_SITE = 1, C_ACTIVE = 2, C_CTA = 4, C_WARP = 8, C_SHAPE = 16,
    C_LANES_SHIFT = 5,       /* bits 5..6: lane coding */
    L_EXPLICIT = 0, L_SAME = 1, L_STRIDE = 2, L_SINGLE = 3
};

/* Fixed-width columns, in their order in the block: each value in w[k]
 * bytes, at most max_w[k] (so that every value fits its field). */
enum col { K_MODULE, K_SITE, K_ACTIVE, K_CTA_X, K_CTA_Y, K_CTA_Z, K_SMID, K_SLOT, K_WARP, K_STRIDE, K_N };
static const uint8_t max_w[K_N] = {2, 4, 4, 4, 2, 2, 2, 1, 1, 8};
_Static_assert(K_N == GM_REC_VCOLS, "reccodec.h's column count");
#define SHAPE_BYTES 5   /* u16 width, u8 kind, space, flags */

/* The base of a record is coded against the last base of its site slot. */
static inline unsigned site_slot(const struct gm_access *a) { return (a->site + 31u * a->module) & 63; }

/* ---- encoding ---- */

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

/* Appends v to column k (as 8 bytes; the block keeps the needed ones). */
static void put_v(struct gm_rec_cols *k, int i, uint64_t v)
{
    if (k->n[i] == GM_TRACE_BLOCK_RECORDS) return;   /* not reached: one value per record at most */
    k->v[i][k->n[i]++] = v;
    k->or[i] |= v;
}

static void put_fields(struct gm_rec_cols *k, const struct gm_access *a, const struct gm_access *p, unsigned c)
{
    if (c & C_SITE) { put_v(k, K_MODULE, a->module); put_v(k, K_SITE, a->site); }
    if (c & C_ACTIVE) put_v(k, K_ACTIVE, a->active);
    if (c & C_CTA) {
        put_v(k, K_CTA_X, gm_zigzag((int32_t)(a->cta_x - (p ? p->cta_x : 0))));   /* mod 2^32 */
        put_v(k, K_CTA_Y, a->cta_y);
        put_v(k, K_CTA_Z, a->cta_z);
    }
    if (c & C_WARP) { put_v(k, K_SMID, a->smid); put_v(k, K_SLOT, a->warp_slot); put_v(k, K_WARP, a->warp); }
    if (c & C_SHAPE) {
        gm_put_le(&k->shape, a->width, 2);
        gm_put_u8(&k->shape, a->kind); gm_put_u8(&k->shape, a->space); gm_put_u8(&k->shape, a->flags);
    }
}

/* Explicit lanes: the byte width w (1..8) that holds every offset as a
 * signed integer, then each further active lane's offset in w bytes. */
static void put_explicit(struct gm_buf *b, const struct gm_access *a)
{
    int k0 = __builtin_ctz(a->active);
    unsigned w = 1;
    for (int k = k0 + 1; k < 32; k++) {
        if (!(a->active >> k & 1)) continue;
        int64_t o = lane_off(a, k, k0);
        while (w < 8 && (o < -(INT64_C(1) << (8 * w - 1)) || o >= INT64_C(1) << (8 * w - 1))) w++;
    }
    gm_put_u8(b, (uint8_t)w);
    for (int k = k0 + 1; k < 32; k++)
        if (a->active >> k & 1) gm_put_le(b, (uint64_t)lane_off(a, k, k0), (int)w);
}

static void put_bytes(struct gm_buf *b, const struct gm_buf *src)
{
    if (src->oom) b->oom = 1;
    if (!src->n || gm_buf_reserve(b, src->n)) return;
    memcpy(b->p + b->n, src->p, src->n);
    b->n += src->n;
}

/* Appends n values of w bytes each. */
static void put_values(struct gm_buf *b, const uint64_t *v, size_t n, unsigned w)
{
    if (!w || gm_buf_reserve(b, n * w + 8)) return;
    uint8_t *q = b->p + b->n;
    for (size_t j = 0; j < n; j++, q += w) {
        uint64_t x = v[j];
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
        x = __builtin_bswap64(x);
#endif
        memcpy(q, &x, 8);   /* the bytes past w are overwritten next, or past the end */
    }
    b->n += n * w;
}

/* Bytes that hold v (0 for 0). */
static unsigned width_of(uint64_t v)
{
    return v ? (unsigned)(64 - __builtin_clzll(v) + 7) / 8 : 0;
}

void gm_rec_encode_block2(struct gm_buf *b, struct gm_rec_cols *k, const struct gm_access *a, size_t n)
{
    for (int i = 0; i < K_N; i++) k->n[i] = k->or[i] = 0;
    k->ctl.n = k->shape.n = k->lanes.n = k->base.n = 0;
    uint64_t last[64] = {0};
    const struct gm_access *p = NULL;
    for (size_t i = 0; i < n; i++, p = &a[i - 1]) {
        const struct gm_access *r = &a[i];
        unsigned c = changes(r, p);
        int64_t stride = 0;
        int lc = r->active ? lane_code(r, p, &stride) : L_SINGLE;
        gm_put_u8(&k->ctl, (uint8_t)(c | (unsigned)lc << C_LANES_SHIFT));
        put_fields(k, r, p, c);
        uint64_t base = r->active ? r->addr[__builtin_ctz(r->active)] : 0;
        uint64_t *slot = &last[site_slot(r)];
        gm_put_svarint(&k->base, (int64_t)(base - *slot));
        *slot = base;
        if (lc == L_STRIDE) put_v(k, K_STRIDE, gm_zigzag(stride));
        if (lc == L_EXPLICIT) put_explicit(&k->lanes, r);
    }
    gm_put_varint(b, n);
    unsigned w[K_N];
    for (int i = 0; i < K_N; i++) gm_put_u8(b, (uint8_t)(w[i] = width_of(k->or[i])));
    gm_put_varint(b, k->base.n);
    put_bytes(b, &k->ctl);
    for (int i = 0; i < K_N; i++) put_values(b, k->v[i], k->n[i], w[i]);
    put_bytes(b, &k->shape);
    put_bytes(b, &k->lanes);
    put_bytes(b, &k->base);
}

void gm_rec_cols_free(struct gm_rec_cols *k)
{
    if (!k) return;
    gm_buf_free(&k->ctl);
    gm_buf_free(&k->shape);
    gm_buf_free(&k->lanes);
    gm_buf_free(&k->base);
    free(k);
}

/* ---- decoding ---- */

struct cols {
    const uint8_t *ctl, *shape;
    const uint8_t *p[K_N];
    uint64_t mask[K_N];
    unsigned w[K_N];
    struct gm_cur lanes, base;
};

/* Splits the block after its record count: the widths (each at most
 * its column's max_w), the control bytes (bit 7 clear, the first with
 * every field), each fixed-width column as long as its values (counted
 * from the control bytes), the shapes, the explicit lanes and the bases
 * (its length given), all within the block. */
static int open_cols(struct gm_cur *c, size_t n, struct cols *s)
{
    if ((size_t)(c->end - c->p) < K_N) return -1;
    for (int i = 0; i < K_N; i++) {
        s->w[i] = *c->p++;
        if (s->w[i] > max_w[i]) return -1;
        s->mask[i] = s->w[i] == 8 ? ~0ull : (1ull << (8 * s->w[i])) - 1;
    }
    uint64_t nbase = gm_get_varint(c);
    if (c->bad || nbase > (uint64_t)(c->end - c->p) || n > (uint64_t)(c->end - c->p) - nbase) return -1;
    s->ctl = c->p;
    s->base = (struct gm_cur){c->end - nbase, c->end, 0};
    if ((s->ctl[0] & 31) != 31) return -1;   /* the first record carries every field */
    size_t hist[128] = {0};
    uint8_t any = 0;
    for (size_t i = 0; i < n; i++) {
        any |= s->ctl[i];
        hist[s->ctl[i] & 0x7f]++;
    }
    if (any & 0x80) return -1;
    size_t cnt[K_N] = {0}, shapes = 0;
    for (unsigned v = 0; v < 128; v++) {
        cnt[K_MODULE] += v & C_SITE ? hist[v] : 0;
        cnt[K_ACTIVE] += v & C_ACTIVE ? hist[v] : 0;
        cnt[K_CTA_X] += v & C_CTA ? hist[v] : 0;
        cnt[K_SMID] += v & C_WARP ? hist[v] : 0;
        shapes += v & C_SHAPE ? hist[v] : 0;
        cnt[K_STRIDE] += (v >> C_LANES_SHIFT & 3) == L_STRIDE ? hist[v] : 0;
    }
    cnt[K_SITE] = cnt[K_MODULE];
    cnt[K_CTA_Y] = cnt[K_CTA_Z] = cnt[K_CTA_X];
    cnt[K_SLOT] = cnt[K_WARP] = cnt[K_SMID];
    const uint8_t *q = s->ctl + n;
    size_t left = (size_t)(s->base.p - q);   /* <= n * 8 per column: no overflow below */
    for (int i = 0; i < K_N; i++) {
        size_t len = cnt[i] * s->w[i];
        if (len > left) return -1;
        s->p[i] = q;
        q += len;
        left -= len;
    }
    if (shapes * SHAPE_BYTES > left) return -1;
    s->shape = q;
    s->lanes = (struct gm_cur){q + shapes * SHAPE_BYTES, s->base.p, 0};
    c->p = c->end;
    return 0;
}

#define GM_DEC static inline __attribute__((always_inline))

/* Column k's next value: one 8-byte load (the block's buffer has the
 * slack past its end) and a mask. */
GM_DEC uint64_t val(struct cols *s, int k)
{
    uint64_t v;
    memcpy(&v, s->p[k], 8);
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    s->p[k] += s->w[k];
    return v & s->mask[k];
}

/* A varint column's value: one or two bytes by compares, up to 8 by one
 * load, when the longest varint fits before the column's end; else
 * checked per byte. */
GM_DEC uint64_t col_v(struct gm_cur *c) { return c->end - c->p >= 10 ? gm_get_varint10(c, 1) : gm_get_varint(c); }
GM_DEC int64_t col_sv(struct gm_cur *c) { return gm_unzigzag(col_v(c)); }

/* The lane fills of lanes.h, AVX2 or SSE2 as the decoder's build. */
GM_DEC void fill32(int avx2, uint64_t *dst, const uint64_t *src, uint64_t d, uint64_t stride)
{
#ifdef __x86_64__
    if (avx2) gm_lanes32_avx2(dst, src, d, stride);
    else gm_lanes32_sse2(dst, src, d, stride);
#else
    (void)avx2;
    for (int k = 0; k < 32; k++) dst[k] = src ? src[k] + d : d + stride * (uint64_t)k;
#endif
}

/* Lanes of mask m: src[k] + d, or d + k * stride (src NULL); others 0. */
GM_DEC void fill(int avx2, uint64_t *dst, const uint64_t *src, uint64_t d, uint64_t stride, uint32_t m)
{
    if (m == 0xffffffffu) { fill32(avx2, dst, src, d, stride); return; }
#ifdef __x86_64__
    if (avx2) { gm_lanes32_masked_avx2(dst, src, d, stride, m); return; }
#endif
    gm_lanes32_masked_scalar(dst, src, d, stride, m);
}

GM_DEC void fill_packed(int avx2, uint64_t *dst, const uint8_t *p, unsigned w, uint64_t base)
{
#ifdef __x86_64__
    if (avx2) { gm_lanes32_packed_avx2(dst, p, w, base); return; }
#endif
    (void)avx2;
    gm_lanes32_packed_scalar(dst, p, w, base);
}

/* The fields ch says changed; every value fits (open_cols checked the
 * widths). */
GM_DEC void get_fields(struct cols *s, struct gm_access *a, unsigned ch)
{
    if (ch & C_SITE) {
        a->module = (uint16_t)val(s, K_MODULE);
        a->site = (uint32_t)val(s, K_SITE);
    }
    if (ch & C_ACTIVE) a->active = (uint32_t)val(s, K_ACTIVE);
    if (ch & C_CTA) {
        a->cta_x += (uint32_t)gm_unzigzag(val(s, K_CTA_X));   /* mod 2^32 */
        a->cta_y = (uint16_t)val(s, K_CTA_Y);
        a->cta_z = (uint16_t)val(s, K_CTA_Z);
    }
    if (ch & C_WARP) {
        a->smid = (uint16_t)val(s, K_SMID);
        a->warp_slot = (uint8_t)val(s, K_SLOT);
        a->warp = (uint8_t)val(s, K_WARP);
    }
    if (ch & C_SHAPE) {
        const uint8_t *q = s->shape;
        a->width = (uint16_t)(q[0] | q[1] << 8);
        a->kind = q[2]; a->space = q[3]; a->flags = q[4];
        s->shape += SHAPE_BYTES;
    }
}

/* Explicit lanes of mask m (k0 its lowest lane, already in a->addr). */
GM_DEC int get_explicit(struct gm_cur *c, struct gm_access *a, uint32_t m, uint64_t base, int avx2)
{
    unsigned w = (unsigned)gm_get_le(c, 1);
    size_t cnt = (size_t)__builtin_popcount(m) - 1;
    if (c->bad || w < 1 || w > 8 || (size_t)(c->end - c->p) < cnt * w) return -1;
    const uint8_t *q = c->p;
    c->p += cnt * w;
    if (m == 0xffffffffu) {
        fill_packed(avx2, a->addr, q, w, base);
        return 0;
    }
    for (uint32_t r = m & (m - 1); r; r &= r - 1, q += w) a->addr[__builtin_ctz(r)] = base + (uint64_t)gm_get_packed(q, w);
    return 0;
}

/* Lanes of a record whose header is decoded (a->active set); inactive
 * lanes 0. p: the previous record of the block, or NULL. */
GM_DEC int get_lanes(struct cols *s, struct gm_access *a, const struct gm_access *p, int lc, uint64_t base,
                     int avx2)
{
    uint32_t m = a->active;
    int k0 = __builtin_ctz(m | 1u << 31);
    if (lc == L_SAME) {
        if (!m || !p || p->active != m) return -1;
        fill(avx2, a->addr, p->addr, base - p->addr[k0], 0, m);   /* every lane moves alike */
        return 0;
    }
    if (lc == L_STRIDE) {
        if (!m) return -1;
        uint64_t stride = (uint64_t)gm_unzigzag(val(s, K_STRIDE));
        fill(avx2, a->addr, NULL, base - stride * (uint64_t)k0, stride, m);
        return 0;
    }
    if (lc == L_SINGLE) {
        if (m & (m - 1)) return -1;
        memset(a->addr, 0, sizeof a->addr);
        if (m) a->addr[k0] = base;
        return 0;
    }
    if (!m) return -1;
    if (m != 0xffffffffu) memset(a->addr, 0, sizeof a->addr);
    a->addr[k0] = base;
    return get_explicit(&s->lanes, a, m, base, avx2);
}

/* Header fields of the previous record (the lanes are decoded anew): the
 * fields after addr[], padding included, in one copy. */
GM_DEC void copy_header(struct gm_access *a, const struct gm_access *p)
{
    memcpy(&a->active, &p->active, sizeof *a - offsetof(struct gm_access, active));
}

/* Decodes in place: record i starts from record i-1's header, and L_SAME
 * reads record i-1's lanes from out. Explicit lanes read up to 7 bytes
 * past the block (GM_REC_SLACK). A full warp from a stride, or moved alike
 * from one (L_SAME: p->active == a->active), is marked GM_LANES_STRIDED;
 * with compact, GM_LANES_COMPACT with only lanes 0 and 1 written. Compiled
 * four times: with AVX2 and without, compact or not. */
GM_DEC int decode(struct cols *sp, struct gm_access *out, size_t n, int avx2, int compact)
{
    struct cols s = *sp;
    uint64_t last[64] = {0}, *slot = last;
    const struct gm_access *p = NULL;
    for (size_t i = 0; i < n; i++) {
        unsigned ctl = s.ctl[i];
        struct gm_access *a = &out[i];
        if (p) copy_header(a, p);
        else memset(a, 0, sizeof *a);
        if (ctl & 31) get_fields(&s, a, ctl);
        if (ctl & C_SITE) slot = &last[site_slot(a)];
        uint64_t base = *slot + (uint64_t)col_sv(&s.base);
        *slot = base;
        int lc = (int)(ctl >> C_LANES_SHIFT) & 3;
        if (compact && a->active == 0xffffffffu &&
            (lc == L_STRIDE || (lc == L_SAME && p && p->lanes == GM_LANES_COMPACT))) {
            uint64_t st = lc == L_STRIDE ? (uint64_t)gm_unzigzag(val(&s, K_STRIDE)) : p->addr[1] - p->addr[0];
            a->addr[0] = base;
            a->addr[1] = base + st;
            a->lanes = GM_LANES_COMPACT;
            p = a;
            continue;
        }
        if (get_lanes(&s, a, p, lc, base, avx2)) return -1;
        a->lanes = a->active == 0xffffffffu && (lc == L_STRIDE || (lc == L_SAME && p->lanes == GM_LANES_STRIDED))
                       ? GM_LANES_STRIDED : 0;
        p = a;
    }
    int bad = s.lanes.bad || s.lanes.p != s.lanes.end || s.base.bad || s.base.p != s.base.end;
    return bad ? -1 : 0;
}

#ifdef __x86_64__
__attribute__((target("avx2"))) static int decode_avx2(struct cols *s, struct gm_access *out, size_t n, int compact)
{
    return compact ? decode(s, out, n, 1, 1) : decode(s, out, n, 1, 0);
}
#endif

static int decode_sse2(struct cols *s, struct gm_access *out, size_t n, int compact)
{
    return compact ? decode(s, out, n, 0, 1) : decode(s, out, n, 0, 0);
}

int gm_rec_decode_block2(struct gm_cur *c, struct gm_access *out, size_t n, int compact)
{
    struct cols s;
    if (open_cols(c, n, &s)) return -1;
#ifdef __x86_64__
    if (gm_have_avx2()) return decode_avx2(&s, out, n, compact);
#endif
    return decode_sse2(&s, out, n, compact);
}
