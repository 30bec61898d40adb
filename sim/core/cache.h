/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Set-associative sectored cache state (128 B lines, 4 x 32 B sectors with
 * byte-valid masks and dirty bits) with LRU kept as MRU-ordered ways (MRU
 * checked first, cachegrind-style) or tree-PLRU with fixed ways. Force-inlined:
 * this lookup is the simulator's inner loop. Internal to sim/core; no I/O.
 */
#ifndef GM_SIM_CACHE_H
#define GM_SIM_CACHE_H

#include <stdint.h>
#include <string.h>
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
    uint64_t *tags;        /* sets * ways: line number + 1, 0 = invalid;
                              LRU: most recent first; PLRU: by way */
    uint8_t *slot;         /* LRU: data slot of each tag position */
    struct gm_line *data;  /* sets * ways, by slot (LRU) or way (PLRU) */
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

/* Tree-PLRU: node n's bit 1 means "the victim is in the right half". */
GM_INLINE void plru_touch(uint64_t *bits, uint32_t ways, uint32_t way)
{
    uint32_t node = 1, lo = 0, span = ways;
    while (span > 1) {
        span >>= 1;
        int right = way >= lo + span;
        if (right) { *bits &= ~(1ull << node); lo += span; node = 2 * node + 1; }
        else { *bits |= 1ull << node; node = 2 * node; }
    }
}
GM_INLINE uint32_t plru_victim(uint64_t bits, uint32_t ways)
{
    uint32_t node = 1, lo = 0, span = ways;
    while (span > 1) {
        span >>= 1;
        if (bits >> node & 1) { lo += span; node = 2 * node + 1; }
        else node = 2 * node;
    }
    return lo;
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
    else __builtin_prefetch(c->slot + (uint64_t)set * c->ways);
}

/* Moves tag position i of a set to the front (LRU). */
GM_INLINE void lru_front(uint64_t *t, uint8_t *sl, uint32_t i)
{
    uint64_t tag = t[i];
    uint8_t s = sl[i];
    for (; i; i--) { t[i] = t[i - 1]; sl[i] = sl[i - 1]; }   /* short: no libc call */
    t[0] = tag;
    sl[0] = s;
}

/* Looks a line up and makes it most recent. Returns its state or NULL. */
GM_INLINE struct gm_line *gm_cache_find(struct gm_cache *c, uint32_t set, uint64_t tag)
{
    uint64_t base = (uint64_t)set * c->ways, *t = c->tags + base;
    if (t[0] == tag) {
        if (c->repl == GM_REPL_PLRU) { plru_touch(&c->plru[set], c->ways, 0); return &c->data[base]; }
        return &c->data[base + c->slot[base]];
    }
    for (uint32_t i = 1; i < c->ways; i++) {
        if (t[i] != tag) continue;
        if (c->repl == GM_REPL_PLRU) { plru_touch(&c->plru[set], c->ways, i); return &c->data[base + i]; }
        lru_front(t, c->slot + base, i);
        return &c->data[base + c->slot[base]];
    }
    return NULL;
}

/* Inserts a line (after a miss), copying the evicted line's state to *victim
 * (victim->dirty = 0 when the way was empty). Returns the new, most recent
 * line, with no valid bytes. */
GM_INLINE struct gm_line *gm_cache_insert(struct gm_cache *c, uint32_t set, uint64_t tag,
                                          struct gm_line *victim)
{
    uint64_t base = (uint64_t)set * c->ways, *t = c->tags + base;
    uint32_t w;
    if (c->repl == GM_REPL_PLRU) {
        for (w = 0; w < c->ways && t[w]; w++) {}
        if (w == c->ways) w = plru_victim(c->plru[set], c->ways);
        plru_touch(&c->plru[set], c->ways, w);
    } else {
        lru_front(t, c->slot + base, c->ways - 1);
        w = 0;
    }
    uint32_t d = c->repl == GM_REPL_PLRU ? w : c->slot[base];
    struct gm_line *e = &c->data[base + d];
    *victim = *e;
    if (!t[w]) victim->dirty = 0;
    memset(e, 0, sizeof *e);
    t[w] = tag;
    return e;
}

/* Drops a present line (write-invalidate). */
GM_INLINE void gm_cache_drop(struct gm_cache *c, uint32_t set, struct gm_line *e)
{
    uint64_t base = (uint64_t)set * c->ways, *t = c->tags + base;
    uint32_t d = (uint32_t)(e - (c->data + base)), i = 0;
    memset(e, 0, sizeof *e);
    if (c->repl == GM_REPL_PLRU) { t[d] = 0; return; }
    uint8_t *sl = c->slot + base;
    while (sl[i] != d) i++;
    memmove(t + i, t + i + 1, (c->ways - 1 - i) * sizeof *t);
    memmove(sl + i, sl + i + 1, c->ways - 1 - i);
    t[c->ways - 1] = 0;
    sl[c->ways - 1] = (uint8_t)d;
}

#endif
