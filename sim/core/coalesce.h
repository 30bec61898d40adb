/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Coalescer: one warp access -> the unique 128 B lines it touches, each with
 * its 32 B sectors and byte masks, in order of first appearance (lanes in
 * order, bytes ascending). An access wider than 16 B per thread is split into
 * 16 B pieces (piece j = bytes [16j, 16j+16) of every lane), each coalesced
 * on its own. Local memory is mapped to a physical per-warp layout where
 * 4-byte words interleave across lanes (docs/sim.md). Internal; no I/O.
 */
#ifndef GM_SIM_COALESCE_H
#define GM_SIM_COALESCE_H

#include "cache.h"

#define GM_COAL_MAX 192
#define GM_LOCAL_TAG (1ull << 60)

struct gm_lent { uint64_t line; uint32_t bytes[4]; uint32_t smask; uint32_t first; };
/* Entries in order of first appearance; ht maps a line to its entry
 * (stamp << 8 | index, stale stamps = empty) so finding a line is O(1). */
#define GM_COAL_HT 256
struct gm_coal { uint32_t n, stamp; struct gm_lent e[GM_COAL_MAX]; uint32_t ht[GM_COAL_HT]; };

GM_INLINE void coal_reset(struct gm_coal *c)
{
    c->n = 0;
    if (++c->stamp == 1u << 24) {   /* stamps wrapped: empty the table */
        memset(c->ht, 0, sizeof c->ht);
        c->stamp = 1;
    }
}

GM_INLINE struct gm_lent *coal_find(struct gm_coal *c, uint64_t line, uint32_t byte0)
{
    if (c->n && c->e[c->n - 1].line == line) return &c->e[c->n - 1];
    uint32_t h = (uint32_t)((line * 0x9e3779b97f4a7c15ull) >> 56);
    for (;; h = (h + 1) & (GM_COAL_HT - 1)) {
        uint32_t v = c->ht[h];
        if (v >> 8 != c->stamp) break;
        if (c->e[v & 0xff].line == line) return &c->e[v & 0xff];
    }
    struct gm_lent *e = &c->e[c->n];
    c->ht[h] = c->stamp << 8 | c->n++;
    e->line = line;
    e->bytes[0] = e->bytes[1] = e->bytes[2] = e->bytes[3] = 0;
    e->smask = 0;
    e->first = byte0;   /* byte offset in line of the first touched byte */
    return e;
}

GM_INLINE void coal_sector(struct gm_coal *c, uint64_t sec, uint32_t mask, uint32_t byte0)
{
    struct gm_lent *e = coal_find(c, sec >> 2, byte0);
    e->smask |= 1u << (sec & 3);
    e->bytes[sec & 3] |= mask;
}

/* Adds bytes [addr, addr+len), in sector pieces. */
GM_INLINE void coal_bytes(struct gm_coal *c, uint64_t addr, uint32_t len)
{
    while (len) {
        uint32_t off = (uint32_t)addr & 31, n = 32 - off < len ? 32 - off : len;
        uint32_t mask = n == 32 ? GM_FULL : ((1u << n) - 1) << off;
        coal_sector(c, addr >> 5, mask, (uint32_t)addr & 127);
        addr += n;
        len -= n;
    }
}

/* Bytes [addr, addr+len) into an empty c: lines ascending and distinct, so
 * no lookup; the same entries coal_bytes would make. Each line's bytes
 * [o0, o1) become one 128-bit mask, cut into the four sector masks. */
GM_INLINE void coal_range(struct gm_coal *c, uint64_t addr, uint32_t len)
{
    if (addr > UINT64_MAX - len - 256) { coal_bytes(c, addr, len); return; }   /* wraps: the slow way */
    uint64_t end = addr + len;
    for (uint64_t line = addr >> 7; line << 7 < end; line++) {
        struct gm_lent *e = &c->e[c->n++];
        uint64_t base = line << 7;
        uint32_t o0 = addr > base ? (uint32_t)(addr - base) : 0;
        uint32_t o1 = end - base < 128 ? (uint32_t)(end - base) : 128;
        unsigned __int128 one = 1, m = o1 == 128 ? ~(unsigned __int128)0 : (one << o1) - 1;
        m &= ~((one << o0) - 1);
        e->line = line;
        e->first = o0;
        e->smask = 0;
        for (uint32_t k = 0; k < 4; k++) {
            e->bytes[k] = (uint32_t)(m >> (32 * k));
            e->smask |= (uint32_t)(e->bytes[k] != 0) << k;
        }
    }
}

GM_INLINE uint64_t local_phys(uint32_t gwarp, uint32_t lane, uint64_t a)
{
    uint64_t off = a & 0xffffff;
    return GM_LOCAL_TAG | (uint64_t)gwarp << 32 | (((off >> 2) * 32 + lane) * 4 + (off & 3));
}

/* 1 when all 32 lanes are active and lane k is at addr[0] + k * width: the
 * warp touches one contiguous range (the common coalesced access). */
GM_INLINE int gm_contiguous(const struct gm_access *a, uint32_t width)
{
    if (a->active != GM_FULL || width > 16) return 0;
#ifdef __SSE4_1__
    /* two lanes per step against the expected addresses, no early exit */
    __m128i want = _mm_set_epi64x((long long)(a->addr[0] + width), (long long)a->addr[0]);
    __m128i step = _mm_set1_epi64x(2 * (long long)width), bad = _mm_setzero_si128();
    for (uint32_t k = 0; k < 32; k += 2) {
        bad = _mm_or_si128(bad, _mm_xor_si128(_mm_loadu_si128((const __m128i *)(a->addr + k)), want));
        want = _mm_add_epi64(want, step);
    }
    return _mm_testz_si128(bad, bad);
#else
    uint64_t bad = 0;   /* every step equal to width (no multiply: vectorises) */
    for (uint32_t k = 1; k < 32; k++) bad |= (a->addr[k] - a->addr[k - 1]) ^ width;
    return bad == 0;
#endif
}

/* Coalesces piece j of access a into c (c->n reset here). */
GM_INLINE void gm_coalesce(struct gm_coal *c, const struct gm_access *a, uint32_t width,
                           uint32_t j, int local)
{
    coal_reset(c);
    if (!local && gm_contiguous(a, width)) {   /* same result, one range */
        coal_range(c, a->addr[0], 32 * width);
        return;
    }
    uint32_t len = width - 16 * j < 16 ? width - 16 * j : 16;
    uint32_t m = a->active;
    uint32_t gwarp = (uint32_t)a->smid * 64 + a->warp_slot;
    while (m) {
        uint32_t k = (uint32_t)__builtin_ctz(m);
        m &= m - 1;
        uint64_t addr = a->addr[k] + 16 * j;
        if (!local) { coal_bytes(c, addr, len); continue; }
        for (uint32_t b = 0; b < len;) {          /* word by word */
            uint32_t n = 4 - (uint32_t)((addr + b) & 3);
            if (n > len - b) n = len - b;
            coal_bytes(c, local_phys(gwarp, k, addr + b), n);
            b += n;
        }
    }
}

#endif
