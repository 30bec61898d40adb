/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Set-associative sectored cache state (128 B lines, 4 x 32 B sectors with
 * byte-valid masks and dirty bits) with LRU kept as a per-way age (0 = most
 * recent; the ages of a set are a permutation of 0..ways-1, so this is the
 * MRU-ordered list without moving tags) or tree-PLRU. Ways never move. Each
 * set's 16-bit tag digests and ages share one small header (one cache line
 * for up to 21 ways), compared without branches (vectorised); a candidate
 * is confirmed on the full tag kept with the way's 32 B line state, so a
 * lookup reads the header and one way. Force-inlined: this lookup is the
 * simulator's inner loop. Internal to sim/core; no I/O.
 */
#ifndef GM_SIM_CACHE_H
#define GM_SIM_CACHE_H

#include <stdint.h>
#include <string.h>
#ifdef __SSE4_1__
#include <immintrin.h>
#endif
#include "gpumem/sim.h"

#define GM_INLINE static inline __attribute__((always_inline))
#define GM_FULL 0xffffffffu

/* Per-way line state: the full tag and what the simulator needs. */
struct gm_line {
    uint64_t tag;          /* line number + 1 (valid only while the way's digest is not 0) */
    uint32_t valid[4];     /* valid bytes per sector */
    uint32_t owner_alloc;  /* who dirtied it (L2 write-back attribution) */
    uint32_t owner_site : 28, dirty : 4;   /* site index (< 2^28, checked), dirty sectors */
};

/* The four sectors' 32-bit byte masks of a line (valid bytes, requested
 * bytes) as one vector: which sectors are full, which lack requested
 * bytes, and filling or or-ing the sectors of a 4-bit mask, without a
 * loop over the sectors. SSE2 (every x86-64), else plain loops. */
#ifdef __SSE2__
#include <emmintrin.h>
/* Lane k all ones when bit k of the index is set. */
static const uint32_t gm_sec_lanes[16][4] __attribute__((aligned(16))) = {
    {0, 0, 0, 0}, {GM_FULL, 0, 0, 0}, {0, GM_FULL, 0, 0}, {GM_FULL, GM_FULL, 0, 0},
    {0, 0, GM_FULL, 0}, {GM_FULL, 0, GM_FULL, 0}, {0, GM_FULL, GM_FULL, 0}, {GM_FULL, GM_FULL, GM_FULL, 0},
    {0, 0, 0, GM_FULL}, {GM_FULL, 0, 0, GM_FULL}, {0, GM_FULL, 0, GM_FULL}, {GM_FULL, GM_FULL, 0, GM_FULL},
    {0, 0, GM_FULL, GM_FULL}, {GM_FULL, 0, GM_FULL, GM_FULL}, {0, GM_FULL, GM_FULL, GM_FULL},
    {GM_FULL, GM_FULL, GM_FULL, GM_FULL}};
GM_INLINE __m128i sec_load(const uint32_t *v) { return _mm_loadu_si128((const __m128i *)v); }
GM_INLINE uint32_t sec_bits(__m128i m) { return (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(m)); }
/* Sectors whose every byte is set in v[]. */
GM_INLINE uint32_t gm_sec_full(const uint32_t *v)
{
    return sec_bits(_mm_cmpeq_epi32(sec_load(v), _mm_set1_epi32(-1)));
}
/* Sectors where want[] has a byte that valid[] lacks. */
GM_INLINE uint32_t gm_sec_lacking(const uint32_t *valid, const uint32_t *want)
{
    __m128i w = sec_load(want);
    return ~sec_bits(_mm_cmpeq_epi32(_mm_and_si128(sec_load(valid), w), w)) & 0xfu;
}
/* v[k] |= bytes[k] (bytes NULL: all ones) for the sectors k in m. */
GM_INLINE void gm_sec_or(uint32_t *v, const uint32_t *bytes, uint32_t m)
{
    __m128i add = sec_load(gm_sec_lanes[m & 0xf]);
    if (bytes) add = _mm_and_si128(add, sec_load(bytes));
    _mm_storeu_si128((__m128i *)v, _mm_or_si128(sec_load(v), add));
}
#else
GM_INLINE uint32_t gm_sec_full(const uint32_t *v)
{
    return (uint32_t)(v[0] == GM_FULL) | (uint32_t)(v[1] == GM_FULL) << 1 | (uint32_t)(v[2] == GM_FULL) << 2 |
           (uint32_t)(v[3] == GM_FULL) << 3;
}
GM_INLINE uint32_t gm_sec_lacking(const uint32_t *valid, const uint32_t *want)
{
    uint32_t m = 0;
    for (uint32_t k = 0; k < 4; k++) m |= (uint32_t)((valid[k] & want[k]) != want[k]) << k;
    return m;
}
GM_INLINE void gm_sec_or(uint32_t *v, const uint32_t *bytes, uint32_t m)
{
    for (uint32_t k = 0; k < 4; k++)
        if (m >> k & 1) v[k] |= bytes ? bytes[k] : GM_FULL;
}
#endif

/* Each set has a header of hstride bytes (one cache line or less for up to
 * 21 ways): a 16-bit digest of each way's tag (0 = empty way; a tag's
 * digest is never 0), then the LRU age of each way (or, for PLRU, the tree
 * bits at plru_off). A lookup reads the header, compares the digests, and
 * confirms a candidate on its full tag in gm_line; so a hit touches the
 * header and the way's 32 B state, a miss the header and the victim's. */
struct gm_cache {
    uint32_t sets, ways, pow2;
    uint32_t hstride, plru_off;  /* header bytes per set; offset of the PLRU bits */
    uint64_t fm;           /* fastmod constant for sets */
    enum gm_repl repl;
    enum gm_hash hash;
    uint8_t *hdr;          /* sets * hstride */
    struct gm_line *data;  /* sets * ways, by way */
    int arena;             /* arrays live in a caller's arena */
    uint8_t *touched;      /* the owner's bytes, one per set: 1 when inserted into (L1s), or NULL */
    uint32_t fill, parts;  /* L2 (set by its owner): bytes a read miss fetches (0, 32: one sector),
                              partitions */
};

/* Header bytes per set: digests (2 per way, read in 32-byte groups) and
 * ages (1 per way) or 8-byte PLRU bits; a power of two up to 64 (a header
 * never straddles a cache line), else a multiple of 64. Inline: with
 * constant ways and policy it is a constant. */
GM_INLINE uint32_t gm_header_bytes(uint32_t ways, enum gm_repl repl, uint32_t *plru_off)
{
    uint32_t digs = 2 * ways, need = repl == GM_REPL_PLRU ? (digs + 7) / 8 * 8 + 8 : 3 * ways;
    uint32_t read = (digs + 31) / 32 * 32;
    *plru_off = (digs + 7) / 8 * 8;
    if (read > need) need = read;
    if (need > 64) return (need + 63) / 64 * 64;
    uint32_t h = 16;
    while (h < need) h *= 2;
    return h;
}

int gm_cache_init(struct gm_cache *c, uint64_t bytes, uint32_t ways, enum gm_repl repl, enum gm_hash hash);
void gm_cache_reset(struct gm_cache *c);
/* Empties one set (what gm_cache_reset does to each). */
void gm_cache_reset_set(struct gm_cache *c, uint32_t set);
/* Bytes of arena one cache needs, and init inside such an arena (so many
 * small caches share huge pages). */
size_t gm_cache_arena_size(uint64_t bytes, uint32_t ways, enum gm_repl repl);
void gm_cache_init_at(struct gm_cache *c, void *mem, uint64_t bytes, uint32_t ways, enum gm_repl repl,
                      enum gm_hash hash);
/* Zeroed memory, 2 MiB aligned and huge-page advised when large. */
void *gm_big_alloc(size_t n);
void gm_big_free(void *p);
void gm_cache_destroy(struct gm_cache *c);

GM_INLINE uint16_t *gm_digs(const struct gm_cache *c, uint32_t set)
{
    return (uint16_t *)(c->hdr + (uint64_t)set * c->hstride);
}
GM_INLINE uint8_t *gm_ages(const struct gm_cache *c, uint32_t set)
{
    return c->hdr + (uint64_t)set * c->hstride + 2 * c->ways;
}
GM_INLINE uint64_t *gm_plru(const struct gm_cache *c, uint32_t set)
{
    return (uint64_t *)(c->hdr + (uint64_t)set * c->hstride + c->plru_off);
}
/* 16-bit digest of a tag (never 0: 0 marks an empty way). */
GM_INLINE uint16_t gm_dig(uint64_t tag)
{
    uint16_t d = (uint16_t)((tag * 0x9e3779b97f4a7c15ull) >> 48);
    return (uint16_t)(d | (d == 0));
}

/* Set index: a 32-bit value of the line number (enum gm_hash), modulo the
 * number of sets. */
GM_INLINE uint32_t gm_set_hash(enum gm_hash h, uint64_t line)
{
    if (h == GM_HASH_XOR) return (uint32_t)line ^ (uint32_t)(line >> 13) ^ (uint32_t)(line >> 26);
    if (h == GM_HASH_FOLD) return (uint32_t)line ^ (uint32_t)(line >> 7) ^ (uint32_t)(line >> 14);
    return (uint32_t)line;
}
GM_INLINE uint32_t gm_cache_set(const struct gm_cache *c, uint64_t line)
{
    uint32_t h = gm_set_hash(c->hash, line);
    if (c->pow2) return h & (c->sets - 1);
    uint64_t low = c->fm * h;                          /* Lemire's fastmod */
    return (uint32_t)(((unsigned __int128)low * c->sets) >> 64);
}

/* Set indices of the lines line + k * d, k < n (n <= 32), into out[k]:
 * gm_cache_set of each, with the hash and modulo chosen once. With the mod
 * hash, when the low 32 bits of the lines do not pass 2^32, each set is
 * the last one plus d mod sets (less sets when that passes sets). */
GM_INLINE void cache_sets_h(const struct gm_cache *c, enum gm_hash h, int pow2, uint64_t line, uint64_t d,
                            uint32_t n, uint32_t *out)
{
    if (h == GM_HASH_MOD && !pow2 && d < (1ull << 32) && (uint32_t)line + (uint64_t)(n - 1) * d < (1ull << 32)) {
        uint32_t set = gm_cache_set(c, line), step = (uint32_t)(((unsigned __int128)(c->fm * d) * c->sets) >> 64);
        for (uint32_t k = 0; k < n; k++) {
            out[k] = set;
            set += step;
            set -= set >= c->sets ? c->sets : 0;
        }
        return;
    }
    for (uint32_t k = 0; k < n; k++, line += d) {
        uint32_t v = gm_set_hash(h, line);
        out[k] = pow2 ? v & (c->sets - 1) : (uint32_t)(((unsigned __int128)(c->fm * v) * c->sets) >> 64);
    }
}
GM_INLINE void gm_cache_sets(const struct gm_cache *c, uint64_t line, uint64_t d, uint32_t n, uint32_t *out)
{
    int p = c->pow2 != 0;
    if (c->hash == GM_HASH_XOR) p ? cache_sets_h(c, GM_HASH_XOR, 1, line, d, n, out)
                                  : cache_sets_h(c, GM_HASH_XOR, 0, line, d, n, out);
    else if (c->hash == GM_HASH_FOLD) p ? cache_sets_h(c, GM_HASH_FOLD, 1, line, d, n, out)
                                        : cache_sets_h(c, GM_HASH_FOLD, 0, line, d, n, out);
    else p ? cache_sets_h(c, c->hash, 1, line, d, n, out) : cache_sets_h(c, c->hash, 0, line, d, n, out);
}

/* The common way counts get loops with a constant trip count (unrolled and
 * vectorised); the switch on ways is one well-predicted branch. */
#define GM_WAYS_SWITCH(ways, CALL)                                       \
    switch (ways) {                                                      \
    case 4: CALL(4); break;                                              \
    case 8: CALL(8); break;                                              \
    case 16: CALL(16); break;                                            \
    case 20: CALL(20); break;                                            \
    case 24: CALL(24); break;                                            \
    case 32: CALL(32); break;                                            \
    default: CALL(ways); break;                                          \
    }

/* Tree-PLRU: node n's bit 1 means "the victim is in the right half". */
GM_INLINE void plru_touch_n(uint32_t ways, uint64_t *bits, uint32_t way)
{
    if (ways == 4) {   /* the walk below as a table: nodes 1..3, bits to clear and set */
        static const uint8_t m[4] = {6, 6, 10, 10}, v[4] = {6, 2, 8, 0};
        *bits = (*bits & ~(uint64_t)m[way]) | v[way];
        return;
    }
    uint32_t node = 1, lo = 0, span = ways;
    while (span > 1) {
        span >>= 1;
        int right = way >= lo + span;
        if (right) { *bits &= ~(1ull << node); lo += span; node = 2 * node + 1; }
        else { *bits |= 1ull << node; node = 2 * node; }
    }
}
GM_INLINE uint32_t plru_victim_n(uint32_t ways, uint64_t bits)
{
    if (ways == 4) {   /* root bit picks the half, then node 2 or 3 the way */
        uint32_t r = (uint32_t)(bits >> 1) & 1;
        return 2 * r + ((uint32_t)(bits >> (2 + r)) & 1);
    }
    uint32_t node = 1, lo = 0, span = ways;
    while (span > 1) {
        span >>= 1;
        if (bits >> node & 1) { lo += span; node = 2 * node + 1; }
        else node = 2 * node;
    }
    return lo;
}
GM_INLINE void plru_touch(uint64_t *bits, uint32_t ways, uint32_t way)
{
#define GM_C(n) plru_touch_n(n, bits, way)
    GM_WAYS_SWITCH(ways, GM_C)
#undef GM_C
}
GM_INLINE uint32_t plru_victim(uint64_t bits, uint32_t ways)
{
    uint32_t r;
#define GM_C(n) r = plru_victim_n(n, bits)
    GM_WAYS_SWITCH(ways, GM_C)
#undef GM_C
    return r;
}

/* Prefetches a set's header (and small sets' line state); ways = c->ways
 * (a constant where the caller passes a literal). */
GM_INLINE void gm_cache_prefetch_n(const struct gm_cache *c, uint32_t set, uint32_t ways)
{
    const char *h = (const char *)gm_digs(c, set);
    __builtin_prefetch(h);
    if (c->hstride > 64) __builtin_prefetch(h + 64);
    if (ways <= 4) {   /* small sets: the line state too */
        const char *d = (const char *)(c->data + (uint64_t)set * ways);
        __builtin_prefetch(d);
        __builtin_prefetch(d + 64);
    }
}
GM_INLINE void gm_cache_prefetch(const struct gm_cache *c, uint32_t set) { gm_cache_prefetch_n(c, set, c->ways); }

/* Ways whose digest is x, as a bit mask. The header holds at least
 * 2 * ways bytes rounded up to 32, so whole 16-way groups are read; up to
 * 4 ways, one 8-byte load. */
GM_INLINE uint64_t dig_match_n(uint32_t ways, const uint16_t *d, uint16_t x)
{
    uint64_t m = 0;
#ifdef __SSE4_1__
    __m128i k = _mm_set1_epi16((short)x);
    if (ways <= 4) {
        __m128i a = _mm_cmpeq_epi16(_mm_loadl_epi64((const __m128i *)d), k);
        return (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_packs_epi16(a, a)) & ((1u << ways) - 1);
    }
    for (uint32_t i = 0; i < ways; i += 16) {
        __m128i a = _mm_cmpeq_epi16(_mm_loadu_si128((const __m128i *)(d + i)), k);
        __m128i b = _mm_cmpeq_epi16(_mm_loadu_si128((const __m128i *)(d + i + 8)), k);
        m |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_packs_epi16(a, b)) << i;
    }
    if (ways < 64) m &= (1ull << ways) - 1;
#else
    for (uint32_t i = 0; i < ways; i++) m |= (uint64_t)(d[i] == x) << i;
#endif
    return m;
}
GM_INLINE uint64_t gm_dig_match(const uint16_t *d, uint32_t ways, uint16_t x)
{
    uint64_t r;
#define GM_C(n) r = dig_match_n(n, d, x)
    GM_WAYS_SWITCH(ways, GM_C)
#undef GM_C
    return r;
}

/* Way of set holding tag (whose digest is dig = gm_dig(tag): the callers
 * compute it once per line access), or -1: digest candidates confirmed on
 * the tag. */
GM_INLINE int gm_cache_way(const struct gm_cache *c, uint32_t set, uint64_t tag, uint16_t dig)
{
    const struct gm_line *row = c->data + (uint64_t)set * c->ways;
    for (uint64_t m = gm_dig_match(gm_digs(c, set), c->ways, dig); m; m &= m - 1) {
        int w = __builtin_ctzll(m);
        if (row[w].tag == tag) return w;
    }
    return -1;
}

/* LRU: way w becomes most recent; younger ways age by one. Whole 16-byte
 * groups of a row with SSE (17 to 31 ways: two overlapping groups), the
 * rest one by one (never touching another set's bytes: other threads may
 * own it). */
GM_INLINE void lru_touch_n(uint32_t ways, uint8_t *age, uint32_t w)
{
    uint8_t a = age[w];
    uint32_t i = 0;
#ifdef __SSE4_1__
    __m128i va = _mm_set1_epi8((char)a);
    if (ways > 16 && ways < 32) {   /* two overlapping groups, both from the old ages: the overlap's bytes agree */
        __m128i lo = _mm_loadu_si128((const __m128i *)age), hi = _mm_loadu_si128((const __m128i *)(age + ways - 16));
        _mm_storeu_si128((__m128i *)(age + ways - 16), _mm_sub_epi8(hi, _mm_cmpgt_epi8(va, hi)));
        _mm_storeu_si128((__m128i *)age, _mm_sub_epi8(lo, _mm_cmpgt_epi8(va, lo)));
        age[w] = 0;
        return;
    }
    for (; i + 16 <= ways; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(age + i));
        _mm_storeu_si128((__m128i *)(age + i), _mm_sub_epi8(v, _mm_cmpgt_epi8(va, v)));
    }
#endif
    for (; i < ways; i++) age[i] += age[i] < a;
    age[w] = 0;
}
GM_INLINE void lru_touch(uint8_t *age, uint32_t ways, uint32_t w)
{
#define GM_C(n) lru_touch_n(n, age, w)
    GM_WAYS_SWITCH(ways, GM_C)
#undef GM_C
}

GM_INLINE uint32_t lru_victim_n(uint32_t ways, const uint8_t *age)
{
    uint32_t i = 0;
#ifdef __SSE4_1__
    __m128i old = _mm_set1_epi8((char)(ways - 1));
    if (ways > 16 && ways < 32) {   /* two overlapping groups (one way is the oldest) */
        uint32_t lo = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)age), old));
        uint32_t hi = (uint32_t)_mm_movemask_epi8(
            _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(age + ways - 16)), old));
        uint32_t m = lo | hi << (ways - 16);
        return m ? (uint32_t)__builtin_ctz(m) : 0;
    }
    for (; i + 16 <= ways; i += 16) {
        uint32_t m = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(age + i)), old));
        if (m) return i + (uint32_t)__builtin_ctz(m);
    }
#endif
    uint32_t w = 0;
    for (; i < ways; i++) w = age[i] == ways - 1 ? i : w;
    return w;
}
GM_INLINE uint32_t lru_victim(const uint8_t *age, uint32_t ways)
{
    uint32_t r;
#define GM_C(n) r = lru_victim_n(n, age)
    GM_WAYS_SWITCH(ways, GM_C)
#undef GM_C
    return r;
}

/* Prefetches the state of the way a lookup of tag will use (the way whose
 * digest matches, else the LRU victim); the header should be cached
 * already. Returns the candidate way, or -1 when tag is certainly absent
 * now (no digest matches): a hint for gm_cache_find_at; when absent, *vic =
 * the LRU victim way now (else ways). */
GM_INLINE int gm_cache_prefetch_way(const struct gm_cache *c, uint32_t set, uint16_t dig, uint32_t *vic)
{
    uint64_t base = (uint64_t)set * c->ways, m = gm_dig_match(gm_digs(c, set), c->ways, dig);
    int w = m ? __builtin_ctzll(m) : -1, v = w;
    *vic = c->ways;
    if (w < 0 && c->repl == GM_REPL_LRU) *vic = (uint32_t)(v = (int)lru_victim(gm_ages(c, set), c->ways));
    if (v >= 0) __builtin_prefetch(&c->data[base + (uint32_t)v], 1);
    return w;
}

GM_INLINE struct gm_line *touch(struct gm_cache *c, uint32_t set, uint32_t w)
{
    if (c->repl == GM_REPL_PLRU) plru_touch(gm_plru(c, set), c->ways, w);
    else lru_touch(gm_ages(c, set), c->ways, w);
    return &c->data[(uint64_t)set * c->ways + w];
}

/* Looks a line up and makes it most recent. Returns its state or NULL. */
GM_INLINE struct gm_line *gm_cache_find(struct gm_cache *c, uint32_t set, uint64_t tag, uint16_t dig)
{
    int w = gm_cache_way(c, set, tag, dig);
    return w < 0 ? NULL : touch(c, set, (uint32_t)w);
}

/* gm_cache_find with a hint: a way that may hold tag (or -1). Exact: a set
 * holds a tag at most once, and a way's tag counts only while its digest
 * is set; otherwise the whole set is searched. */
GM_INLINE struct gm_line *gm_cache_find_at(struct gm_cache *c, uint32_t set, uint64_t tag, uint16_t dig, int hint)
{
    uint64_t base = (uint64_t)set * c->ways;
    int w = hint >= 0 && gm_digs(c, set)[hint] && c->data[base + (uint32_t)hint].tag == tag
                ? hint : gm_cache_way(c, set, tag, dig);
    return w < 0 ? NULL : touch(c, set, (uint32_t)w);
}

/* A way's state for a newly inserted tag: nothing valid, clean, no owner.
 * Two 16-byte stores (GCC made a memset or a zeroed struct of it a rep
 * stos, slow for 32 bytes). */
_Static_assert(sizeof(struct gm_line) == 32, "line_init's stores");
GM_INLINE void line_init(struct gm_line *e, uint64_t tag)
{
#ifdef __SSE2__
    _mm_storeu_si128((__m128i *)e, _mm_set_epi64x(0, (long long)tag));
    _mm_storeu_si128((__m128i *)e + 1, _mm_setzero_si128());
#else
    memset(e, 0, sizeof *e);
    e->tag = tag;
#endif
}

/* Inserts a line (after a miss), copying the evicted line's state to *victim
 * (victim->dirty = 0 when the way was empty). vhint: the LRU victim way
 * when the set was prefetched (or >= ways): used when that way is still the
 * oldest (exact: the ages of a set are a permutation, so one way has age
 * ways-1). Returns the new, most recent line, with no valid bytes. */
GM_INLINE struct gm_line *gm_cache_insert_at(struct gm_cache *c, uint32_t set, uint64_t tag, uint16_t dig,
                                             struct gm_line *victim, uint32_t vhint)
{
    uint16_t *d = gm_digs(c, set);
    uint32_t w;
    if (c->repl == GM_REPL_PLRU) {
        uint64_t empty = gm_dig_match(d, c->ways, 0);   /* first empty way, else the tree's */
        w = empty ? (uint32_t)__builtin_ctzll(empty) : plru_victim(*gm_plru(c, set), c->ways);
        plru_touch(gm_plru(c, set), c->ways, w);
    } else {
        uint8_t *age = gm_ages(c, set);
        w = vhint < c->ways && age[vhint] == c->ways - 1 ? vhint : lru_victim(age, c->ways);
        lru_touch(age, c->ways, w);
    }
    struct gm_line *e = &c->data[(uint64_t)set * c->ways + w];
    *victim = *e;
    if (!d[w]) victim->dirty = 0;
    line_init(e, tag);
    d[w] = dig;
    return e;
}
GM_INLINE struct gm_line *gm_cache_insert(struct gm_cache *c, uint32_t set, uint64_t tag, uint16_t dig,
                                          struct gm_line *victim)
{
    return gm_cache_insert_at(c, set, tag, dig, victim, UINT32_MAX);
}

/* Drops a present line (write-invalidate): LRU makes its way the oldest. */
GM_INLINE void gm_cache_drop(struct gm_cache *c, uint32_t set, struct gm_line *e)
{
    uint32_t d = (uint32_t)(e - (c->data + (uint64_t)set * c->ways));
    memset(e, 0, sizeof *e);
    gm_digs(c, set)[d] = 0;
    if (c->repl == GM_REPL_PLRU) return;
    uint8_t *age = gm_ages(c, set), a = age[d];
    for (uint32_t i = 0; i < c->ways; i++) age[i] -= age[i] > a;
    age[d] = (uint8_t)(c->ways - 1);
}

#endif
