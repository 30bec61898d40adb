/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Record block decoding of trace version 1 (docs/trace-format.md, "coded
 * records", version 1; files of this version are read, no longer
 * written). One control byte per record says which header fields changed
 * and how the lanes are coded; every number is a varint. Decoding checks
 * every bound. No I/O.
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
        if (m == 0xffffffffu) gm_lanes32(a->addr, NULL, base, stride);
        else
            for (int k = k0; k < 32; k++)
                if (m >> k & 1) a->addr[k] = base + stride * (uint64_t)(k - k0);
    } else if (lc == L_SAME) {
        uint64_t d = base - p->addr[k0];   /* every lane moves by the same amount */
        if (m == 0xffffffffu) gm_lanes32(a->addr, p->addr, d, 0);
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
