/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Record block coding of trace version 2 (docs/trace-format.md, "coded
 * records"): each field of a block's records in its own column (control
 * bytes, modules, sites, ..., bases, strides, lane offsets), so that zstd
 * finds long matches within a column and the decoder reads each column
 * with a cursor of its own. Decoding checks every bound. No I/O.
 */
#include <stddef.h>
#include <string.h>
#include "lanes.h"
#include "reccodec.h"

enum {
    C_SITE = 1, C_ACTIVE = 2, C_CTA = 4, C_WARP = 8, C_SHAPE = 16,
    C_LANES_SHIFT = 5,       /* bits 5..6: lane coding */
    L_EXPLICIT = 0, L_SAME = 1, L_STRIDE = 2, L_SINGLE = 3
};

/* Columns after the control bytes, in their order in the block. */
enum col {
    K_MODULE, K_SITE, K_ACTIVE, K_CTA_X, K_CTA_Y, K_CTA_Z, K_SMID, K_SLOT, K_WARP, K_SHAPE,
    K_BASE, K_STRIDE, K_LANES, K_N
};

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

static void put_fields(struct gm_buf *k, const struct gm_access *a, const struct gm_access *p, unsigned c)
{
    if (c & C_SITE) { gm_put_varint(&k[K_MODULE], a->module); gm_put_varint(&k[K_SITE], a->site); }
    if (c & C_ACTIVE) gm_put_varint(&k[K_ACTIVE], a->active);
    if (c & C_CTA) {
        gm_put_svarint(&k[K_CTA_X], (int64_t)a->cta_x - (p ? (int64_t)p->cta_x : 0));
        gm_put_varint(&k[K_CTA_Y], a->cta_y);
        gm_put_varint(&k[K_CTA_Z], a->cta_z);
    }
    if (c & C_WARP) {
        gm_put_varint(&k[K_SMID], a->smid);
        gm_put_u8(&k[K_SLOT], a->warp_slot);
        gm_put_u8(&k[K_WARP], a->warp);
    }
    if (c & C_SHAPE) {
        gm_put_varint(&k[K_SHAPE], a->width); gm_put_u8(&k[K_SHAPE], a->kind);
        gm_put_u8(&k[K_SHAPE], a->space); gm_put_u8(&k[K_SHAPE], a->flags);
    }
}

/* Explicit lanes: the byte width w (1..8) that holds every offset as a
 * signed integer, then each further active lane's offset in w bytes. */
static void put_explicit(struct gm_buf *b, const struct gm_access *a)
{
    int k0 = __builtin_ctz(a->active);
    unsigned w = 1;
    for (int k = k0 + 1; k < 32; k++) {
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

void gm_rec_encode_block2(struct gm_buf *b, struct gm_buf cols[GM_REC_COLS], const struct gm_access *a, size_t n)
{
    struct gm_buf *ctl = &cols[K_N], *k = cols;
    for (int i = 0; i <= K_N; i++) cols[i].n = 0;
    uint64_t last[64] = {0};
    const struct gm_access *p = NULL;
    for (size_t i = 0; i < n; i++, p = &a[i - 1]) {
        const struct gm_access *r = &a[i];
        unsigned c = changes(r, p);
        int64_t stride = 0;
        int lc = r->active ? lane_code(r, p, &stride) : L_SINGLE;
        gm_put_u8(ctl, (uint8_t)(c | (unsigned)lc << C_LANES_SHIFT));
        put_fields(k, r, p, c);
        uint64_t base = r->active ? r->addr[__builtin_ctz(r->active)] : 0;
        uint64_t *slot = &last[site_slot(r)];
        gm_put_svarint(&k[K_BASE], (int64_t)(base - *slot));
        *slot = base;
        if (lc == L_STRIDE) gm_put_svarint(&k[K_STRIDE], stride);
        if (lc == L_EXPLICIT) put_explicit(&k[K_LANES], r);
    }
    gm_put_varint(b, n);
    for (int i = 0; i < K_N; i++) gm_put_varint(b, k[i].n);
    put_bytes(b, ctl);
    for (int i = 0; i < K_N; i++) put_bytes(b, &k[i]);
}

/* ---- decoding ---- */

struct cols {
    const uint8_t *ctl;
    struct gm_cur k[K_N];
};

/* Splits the block after its record count into columns: every length in
 * range, together exactly the rest of the block; the control bytes valid
 * (bit 7 clear, the first with every field) and the fixed-size columns
 * exactly as long as the control bytes say. */
static int open_cols(struct gm_cur *c, size_t n, struct cols *s)
{
    uint64_t len[K_N], total = n;
    for (int i = 0; i < K_N; i++) {
        len[i] = gm_get_varint(c);
        if (len[i] > (uint64_t)(c->end - c->p)) c->bad = 1;
        total += len[i];
    }
    if (c->bad || total != (uint64_t)(c->end - c->p)) return -1;
    s->ctl = c->p;
    const uint8_t *q = c->p + n;
    for (int i = 0; i < K_N; i++) {
        s->k[i] = (struct gm_cur){q, q + len[i], 0};
        q += len[i];
    }
    c->p = c->end;
    if ((s->ctl[0] & 31) != 31) return -1;   /* the first record carries every field */
    uint8_t any = 0;
    size_t warps = 0;
    for (size_t i = 0; i < n; i++) {
        any |= s->ctl[i];
        warps += s->ctl[i] >> 3 & 1;
    }
    return (any & 0x80) || len[K_SLOT] != warps || len[K_WARP] != warps ? -1 : 0;
}

#define GM_DEC static inline __attribute__((always_inline))

GM_DEC void get_fields(struct cols *s, struct gm_access *a, unsigned ch)
{
    struct gm_cur *k = s->k;
    int bad = 0;
    if (ch & C_SITE) {
        uint64_t m = gm_get_varint(&k[K_MODULE]), v = gm_get_varint(&k[K_SITE]);
        bad |= m > UINT16_MAX || v > UINT32_MAX;
        a->module = (uint16_t)m;
        a->site = (uint32_t)v;
    }
    if (ch & C_ACTIVE) {
        uint64_t v = gm_get_varint(&k[K_ACTIVE]);
        bad |= v > UINT32_MAX;
        a->active = (uint32_t)v;
    }
    if (ch & C_CTA) {
        int64_t x = (int64_t)a->cta_x + gm_get_svarint(&k[K_CTA_X]);
        uint64_t y = gm_get_varint(&k[K_CTA_Y]), z = gm_get_varint(&k[K_CTA_Z]);
        bad |= x < 0 || x > UINT32_MAX || y > UINT16_MAX || z > UINT16_MAX;
        a->cta_x = (uint32_t)x; a->cta_y = (uint16_t)y; a->cta_z = (uint16_t)z;
    }
    if (ch & C_WARP) {   /* slot and warp: one byte each, counted by open_cols */
        uint64_t v = gm_get_varint(&k[K_SMID]);
        bad |= v > UINT16_MAX;
        a->smid = (uint16_t)v;
        a->warp_slot = *k[K_SLOT].p++;
        a->warp = *k[K_WARP].p++;
    }
    if (ch & C_SHAPE) {
        uint64_t w = gm_get_varint(&k[K_SHAPE]);
        bad |= w > UINT16_MAX;
        a->width = (uint16_t)w;
        a->kind = (uint8_t)gm_get_le(&k[K_SHAPE], 1);
        a->space = (uint8_t)gm_get_le(&k[K_SHAPE], 1);
        a->flags = (uint8_t)gm_get_le(&k[K_SHAPE], 1);
    }
    if (bad) k[K_SHAPE].bad = 1;
}

/* Explicit lanes of mask m (k0 its lowest lane, already in a->addr). */
GM_DEC int get_explicit(struct gm_cur *c, struct gm_access *a, uint32_t m, uint64_t base)
{
    unsigned w = (unsigned)gm_get_le(c, 1);
    size_t cnt = (size_t)__builtin_popcount(m) - 1;
    if (c->bad || w < 1 || w > 8 || (size_t)(c->end - c->p) < cnt * w) return -1;
    const uint8_t *q = c->p;
    c->p += cnt * w;
    if (m == 0xffffffffu) {
        gm_lanes32_packed(a->addr, q, w, base);
        return 0;
    }
    for (uint32_t r = m & (m - 1); r; r &= r - 1, q += w) a->addr[__builtin_ctz(r)] = base + (uint64_t)gm_get_packed(q, w);
    return 0;
}

/* Lanes of a record whose header is decoded (a->active set); inactive
 * lanes 0. p: the previous record of the block, or NULL. */
GM_DEC int get_lanes(struct cols *s, struct gm_access *a, const struct gm_access *p, int lc, uint64_t base)
{
    uint32_t m = a->active;
    if (!m) { memset(a->addr, 0, sizeof a->addr); return lc == L_SINGLE ? 0 : -1; }
    int k0 = __builtin_ctz(m);
    if (lc == L_SINGLE && (m & (m - 1))) return -1;
    if (lc == L_SAME && (!p || p->active != m)) return -1;
    if (m != 0xffffffffu) memset(a->addr, 0, sizeof a->addr);
    if (lc == L_STRIDE) {
        uint64_t stride = (uint64_t)gm_get_svarint(&s->k[K_STRIDE]);
        if (m == 0xffffffffu) gm_lanes32(a->addr, NULL, base, stride);
        else
            for (uint32_t r = m; r; r &= r - 1) a->addr[__builtin_ctz(r)] = base + stride * (uint64_t)(__builtin_ctz(r) - k0);
        return 0;
    }
    if (lc == L_SAME) {
        uint64_t d = base - p->addr[k0];   /* every lane moves by the same amount */
        if (m == 0xffffffffu) gm_lanes32(a->addr, p->addr, d, 0);
        else
            for (uint32_t r = m; r; r &= r - 1) a->addr[__builtin_ctz(r)] = p->addr[__builtin_ctz(r)] + d;
        return 0;
    }
    a->addr[k0] = base;
    return lc == L_EXPLICIT ? get_explicit(&s->k[K_LANES], a, m, base) : 0;
}

/* Header fields of the previous record (the lanes are decoded anew): the
 * fields after addr[], padding included, in one copy. */
static void copy_header(struct gm_access *a, const struct gm_access *p)
{
    memcpy(&a->active, &p->active, sizeof *a - offsetof(struct gm_access, active));
}

/* Decodes in place: record i starts from record i-1's header, and L_SAME
 * reads record i-1's lanes from out. Explicit lanes read up to 7 bytes
 * past the block (GM_REC_SLACK). */
int gm_rec_decode_block2(struct gm_cur *c, struct gm_access *out, size_t n)
{
    struct cols s;
    if (open_cols(c, n, &s)) return -1;
    uint64_t last[64] = {0}, *slot = last;
    const struct gm_access *p = NULL;
    for (size_t i = 0; i < n; i++) {
        unsigned ctl = s.ctl[i];
        struct gm_access *a = &out[i];
        if (p) copy_header(a, p);
        else memset(a, 0, sizeof *a);
        if (ctl & 31) get_fields(&s, a, ctl);
        if (ctl & C_SITE) slot = &last[site_slot(a)];
        uint64_t base = *slot + (uint64_t)gm_get_svarint(&s.k[K_BASE]);
        *slot = base;
        if (get_lanes(&s, a, p, (int)(ctl >> C_LANES_SHIFT) & 3, base)) return -1;
        p = a;
    }
    int bad = 0;
    for (int i = 0; i < K_N; i++) bad |= s.k[i].bad || s.k[i].p != s.k[i].end;
    return bad ? -1 : 0;
}
