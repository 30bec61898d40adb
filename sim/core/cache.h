/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Set-associative sectored cache state (128 B lines, 4 x 32 B sectors with
 * byte-valid masks and dirty bits) with LRU kept as a per-way age (0 = most
 * recent; the ages of a set are a permutation of 0..ways-1, so this is the
 * MRU-ordered list without moving tags) or tree-PLRU. Ways never move: tag
 * lookups compare a whole set row without branches (vectorised), and no
 * tag or slot is shifted on a hit. Force-inlined: this lookup is the
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

/* Per-line state, kept apart from the tags so a lookup touches tags only. */
struct gm_line {
    uint32_t valid[4];     /* valid bytes per sector */
    uint32_t owner_alloc, owner_site; /* who dirtied it (L2 write-back attribution) */
    uint32_t dirty;        /* dirty sectors (bits 0..3) */
};

struct gm_cache {
    uint32_t sets, ways, pow2;
    uint64_t fm;           /* fastmod constant for sets */
    enum gm_repl repl;
    enum gm_hash hash;
    uint64_t *tags;        /* sets * ways, by way: line number + 1, 0 = invalid */
    uint8_t *age;          /* LRU: sets * ways, age of each way */
    struct gm_line *data;  /* sets * ways, by way */
    uint64_t *plru;        /* tree bits per set (PLRU) */
    int arena;             /* arrays live in a caller's arena */
};

int gm_cache_init(struct gm_cache *c, uint64_t bytes, uint32_t ways, enum gm_repl repl, enum gm_hash hash);
void gm_cache_reset(struct gm_cache *c);
/* Bytes of arena one cache needs, and init inside such an arena (so many
 * small caches share huge pages). */
size_t gm_cache_arena_size(uint64_t bytes, uint32_t ways);
void gm_cache_init_at(struct gm_cache *c, void *mem, uint64_t bytes, uint32_t ways, enum gm_repl repl,
                      enum gm_hash hash);
/* Zeroed memory, 2 MiB aligned and huge-page advised when large. */
void *gm_big_alloc(size_t n);
void gm_big_free(void *p);
void gm_cache_destroy(struct gm_cache *c);

/* Set index: a 32-bit value of the line number (low bits, or an XOR fold of
 * three 13-bit-shifted slices), modulo the number of sets. */
GM_INLINE uint32_t gm_set_hash(enum gm_hash h, uint64_t line)
{
    if (h == GM_HASH_XOR) return (uint32_t)line ^ (uint32_t)(line >> 13) ^ (uint32_t)(line >> 26);
    return (uint32_t)line;
}
GM_INLINE uint32_t gm_cache_set(const struct gm_cache *c, uint64_t line)
{
    uint32_t h = gm_set_hash(c->hash, line);
    if (c->pow2) return h & (c->sets - 1);
    uint64_t low = c->fm * h;                          /* Lemire's fastmod */
    return (uint32_t)(((unsigned __int128)low * c->sets) >> 64);
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

GM_INLINE void gm_cache_prefetch(const struct gm_cache *c, uint32_t set)
{
    const uint64_t *t = c->tags + (uint64_t)set * c->ways;
    __builtin_prefetch(t);
    if (c->ways > 8) __builtin_prefetch(t + 8);
    if (c->ways > 16) __builtin_prefetch(t + 16);
    if (c->ways <= 4) {   /* small sets: the line state too */
        const char *d = (const char *)(c->data + (uint64_t)set * c->ways);
        __builtin_prefetch(d);
        __builtin_prefetch(d + 64);
    }
    if (c->repl == GM_REPL_PLRU) __builtin_prefetch(c->plru + set);
    else __builtin_prefetch(c->age + (uint64_t)set * c->ways);
}

/* Way holding tag, or -1: all ways compared, no early exit. */
GM_INLINE int way_of_n(uint32_t ways, const uint64_t *t, uint64_t tag)
{
    uint64_t m = 0;
#ifdef __SSE4_1__
    __m128i k = _mm_set1_epi64x((long long)tag);
    uint32_t i = 0;
    for (; i + 2 <= ways; i += 2) {
        __m128i v = _mm_loadu_si128((const __m128i *)(t + i));
        m |= (uint64_t)_mm_movemask_pd(_mm_castsi128_pd(_mm_cmpeq_epi64(v, k))) << i;
    }
    if (i < ways) m |= (uint64_t)(t[i] == tag) << i;
#else
    for (uint32_t i = 0; i < ways; i++) m |= (uint64_t)(t[i] == tag) << i;
#endif
    return m ? __builtin_ctzll(m) : -1;
}
GM_INLINE int gm_way_of(const uint64_t *t, uint32_t ways, uint64_t tag)
{
    int r;
#define GM_C(n) r = way_of_n(n, t, tag)
    GM_WAYS_SWITCH(ways, GM_C)
#undef GM_C
    return r;
}

/* LRU: way w becomes most recent; younger ways age by one. Whole 16-byte
 * groups of a row with SSE, the rest one by one (never touching another
 * set's bytes: other threads may own it). */
GM_INLINE void lru_touch_n(uint32_t ways, uint8_t *age, uint32_t w)
{
    uint8_t a = age[w];
    uint32_t i = 0;
#ifdef __SSE4_1__
    __m128i va = _mm_set1_epi8((char)a);
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

/* Prefetches the state of the way a lookup of tag will use (the way
 * holding it, else the LRU victim); the tag row should be cached already.
 * Returns the way holding tag now, or -1: a hint for gm_cache_find_at; when
 * absent, *vic = the LRU victim way now (else ways). */
GM_INLINE int gm_cache_prefetch_way(const struct gm_cache *c, uint32_t set, uint64_t tag, uint32_t *vic)
{
    uint64_t base = (uint64_t)set * c->ways;
    int w = gm_way_of(c->tags + base, c->ways, tag), v = w;
    *vic = c->ways;
    if (w < 0 && c->repl == GM_REPL_LRU) *vic = (uint32_t)(v = (int)lru_victim(c->age + base, c->ways));
    if (v >= 0) __builtin_prefetch(&c->data[base + (uint32_t)v], 1);
    return w;
}

/* Looks a line up and makes it most recent. Returns its state or NULL. */
GM_INLINE struct gm_line *gm_cache_find(struct gm_cache *c, uint32_t set, uint64_t tag)
{
    uint64_t base = (uint64_t)set * c->ways;
    int w = gm_way_of(c->tags + base, c->ways, tag);
    if (w < 0) return NULL;
    if (c->repl == GM_REPL_PLRU) plru_touch(&c->plru[set], c->ways, (uint32_t)w);
    else lru_touch(c->age + base, c->ways, (uint32_t)w);
    return &c->data[base + (uint32_t)w];
}

/* gm_cache_find with a hint: the way that held tag when it was prefetched
 * (or -1). Exact: a set holds a tag at most once, so if the hinted way
 * still holds tag it is the way; otherwise the whole row is compared. */
GM_INLINE struct gm_line *gm_cache_find_at(struct gm_cache *c, uint32_t set, uint64_t tag, int hint)
{
    uint64_t base = (uint64_t)set * c->ways;
    int w = hint >= 0 && c->tags[base + (uint32_t)hint] == tag ? hint : gm_way_of(c->tags + base, c->ways, tag);
    if (w < 0) return NULL;
    if (c->repl == GM_REPL_PLRU) plru_touch(&c->plru[set], c->ways, (uint32_t)w);
    else lru_touch(c->age + base, c->ways, (uint32_t)w);
    return &c->data[base + (uint32_t)w];
}

/* Inserts a line (after a miss), copying the evicted line's state to *victim
 * (victim->dirty = 0 when the way was empty). vhint: the LRU victim way
 * when the set was prefetched (or >= ways): used when that way is still the
 * oldest (exact: the ages of a set are a permutation, so one way has age
 * ways-1). Returns the new, most recent line, with no valid bytes. */
GM_INLINE struct gm_line *gm_cache_insert_at(struct gm_cache *c, uint32_t set, uint64_t tag,
                                             struct gm_line *victim, uint32_t vhint)
{
    uint64_t base = (uint64_t)set * c->ways, *t = c->tags + base;
    uint32_t w;
    if (c->repl == GM_REPL_PLRU) {
        int empty = gm_way_of(t, c->ways, 0);   /* first empty way, else the tree's */
        w = empty >= 0 ? (uint32_t)empty : plru_victim(c->plru[set], c->ways);
        plru_touch(&c->plru[set], c->ways, w);
    } else {
        uint8_t *age = c->age + base;
        w = vhint < c->ways && age[vhint] == c->ways - 1 ? vhint : lru_victim(age, c->ways);
        lru_touch(age, c->ways, w);
    }
    struct gm_line *e = &c->data[base + w];
    *victim = *e;
    if (!t[w]) victim->dirty = 0;
    memset(e, 0, sizeof *e);
    t[w] = tag;
    return e;
}
GM_INLINE struct gm_line *gm_cache_insert(struct gm_cache *c, uint32_t set, uint64_t tag,
                                          struct gm_line *victim)
{
    return gm_cache_insert_at(c, set, tag, victim, UINT32_MAX);
}

/* Drops a present line (write-invalidate): LRU makes its way the oldest. */
GM_INLINE void gm_cache_drop(struct gm_cache *c, uint32_t set, struct gm_line *e)
{
    uint64_t base = (uint64_t)set * c->ways;
    uint32_t d = (uint32_t)(e - (c->data + base));
    memset(e, 0, sizeof *e);
    c->tags[base + d] = 0;
    if (c->repl == GM_REPL_PLRU) return;
    uint8_t *age = c->age + base, a = age[d];
    for (uint32_t i = 0; i < c->ways; i++) age[i] -= age[i] > a;
    age[d] = (uint8_t)(c->ways - 1);
}

#endif
