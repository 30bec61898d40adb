/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Growable byte buffer and bounds-checked cursor with little-endian and
 * varint (LEB128, zigzag) coding, shared by the trace writer and reader.
 * Internal to sim/trace; no I/O, no allocation besides the buffer itself.
 */
#ifndef GM_TRACE_BYTES_H
#define GM_TRACE_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct gm_buf { uint8_t *p; size_t n, cap; int oom; };

int gm_buf_reserve(struct gm_buf *b, size_t extra);
void gm_buf_free(struct gm_buf *b);

static inline void gm_put_u8(struct gm_buf *b, uint8_t v)
{
    if (gm_buf_reserve(b, 1) == 0) b->p[b->n++] = v;
}
static inline void gm_put_varint(struct gm_buf *b, uint64_t v)
{
    if (gm_buf_reserve(b, 10)) return;
    while (v >= 0x80) { b->p[b->n++] = (uint8_t)(v | 0x80); v >>= 7; }
    b->p[b->n++] = (uint8_t)v;
}
static inline uint64_t gm_zigzag(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }
static inline int64_t gm_unzigzag(uint64_t v) { return (int64_t)(v >> 1) ^ -(int64_t)(v & 1); }
static inline void gm_put_svarint(struct gm_buf *b, int64_t v) { gm_put_varint(b, gm_zigzag(v)); }
static inline void gm_put_le(struct gm_buf *b, uint64_t v, int bytes)
{
    if (gm_buf_reserve(b, (size_t)bytes)) return;
    for (int i = 0; i < bytes; i++) b->p[b->n++] = (uint8_t)(v >> (8 * i));
}
/* string: varint length + bytes (no NUL) */
static inline void gm_put_str(struct gm_buf *b, const char *s, size_t max)
{
    size_t n = strnlen(s, max);
    gm_put_varint(b, n);
    if (gm_buf_reserve(b, n) == 0) { memcpy(b->p + b->n, s, n); b->n += n; }
}

/* Read cursor: any overrun sets bad and returns 0. */
struct gm_cur { const uint8_t *p, *end; int bad; };

/* Reads a varint (LEB128); c->bad on overrun or more than 10 bytes. */
static inline __attribute__((always_inline)) uint64_t gm_get_varint(struct gm_cur *c)
{
    if (c->end - c->p >= 10) {   /* the longest varint fits: no bound check per byte */
        const uint8_t *q = c->p;
        uint64_t v = 0;
        for (int i = 0; i < 10; i++) {
            v |= (uint64_t)(q[i] & 0x7f) << (7 * i);
            if (q[i] < 0x80) { c->p = q + i + 1; return v; }
        }
        c->bad = 1;   /* as below: 10 bytes, still continued */
        c->p = q + 10;
        return 0;
    }
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (c->p >= c->end) { c->bad = 1; return 0; }
        uint8_t byte = *c->p++;
        v |= (uint64_t)(byte & 0x7f) << shift;
        if (!(byte & 0x80)) return v;
    }
    c->bad = 1;
    return 0;
}
static inline __attribute__((always_inline)) int64_t gm_get_svarint(struct gm_cur *c)
{
    return gm_unzigzag(gm_get_varint(c));
}
/* gm_get_varint where the caller knows at least 10 bytes remain: one or
 * two (with two: header fields; lane offsets are rarely two bytes) bytes by
 * compares, up to 8 by one 8-byte load (the stop byte found by its
 * clear top bit, the 7-bit groups packed in three shift-and-mask steps),
 * longer ones by the loop above. */
static inline __attribute__((always_inline)) uint64_t gm_get_varint10(struct gm_cur *c, int two)
{
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
    return gm_get_varint(c);
#endif
    const uint8_t *q = c->p;
    if (q[0] < 0x80) { c->p = q + 1; return q[0]; }
    if (two && q[1] < 0x80) { c->p = q + 2; return (q[0] & 0x7fu) | (uint64_t)q[1] << 7; }
    uint64_t x;
    memcpy(&x, q, 8);   /* little endian: byte 0 lowest */
    uint64_t stop = ~x & 0x8080808080808080ull;
    if (!stop) return gm_get_varint(c);
    c->p = q + ((unsigned)__builtin_ctzll(stop) >> 3) + 1;
    x &= (stop ^ (stop - 1)) & 0x7f7f7f7f7f7f7f7full;   /* the bytes up to the stop byte, 7 bits each */
    x = (x & 0x007f007f007f007full) | (x & 0x7f007f007f007f00ull) >> 1;
    x = (x & 0x00003fff00003fffull) | (x & 0x3fff00003fff0000ull) >> 2;
    return (x & 0x000000000fffffffull) | (x & 0x0fffffff00000000ull) >> 4;
}
static inline __attribute__((always_inline)) int64_t gm_get_svarint10(struct gm_cur *c, int two)
{
    return gm_unzigzag(gm_get_varint10(c, two));
}
static inline uint64_t gm_get_le(struct gm_cur *c, int bytes)
{
    if (c->end - c->p < bytes) { c->bad = 1; c->p = c->end; return 0; }
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++) v |= (uint64_t)c->p[i] << (8 * i);
    c->p += bytes;
    return v;
}
/* Copies a string into dst (size cap, NUL-terminated); rejects longer ones. */
static inline void gm_get_str(struct gm_cur *c, char *dst, size_t cap)
{
    uint64_t n = gm_get_varint(c);
    if (c->bad || n >= cap || (uint64_t)(c->end - c->p) < n) { c->bad = 1; dst[0] = 0; return; }
    memcpy(dst, c->p, n);
    dst[n] = 0;
    c->p += n;
}

#endif
