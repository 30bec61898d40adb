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

struct gm_line {
    uint64_t tag;          /* line number + 1; 0 = invalid */
    uint32_t valid[4];     /* valid bytes per sector */
    uint32_t owner_alloc, owner_site; /* who dirtied it (L2 write-back attribution) */
    uint32_t dirty;        /* dirty sectors (bits 0..3) */
    uint32_t pad;
};

struct gm_cache {
    uint32_t sets, ways, pow2;
    uint64_t fm;           /* fastmod constant for sets */
    enum gm_repl repl;
    enum gm_hash hash;
    struct gm_line *lines; /* sets * ways */
    uint64_t *plru;        /* tree bits per set (PLRU) */
};

int gm_cache_init(struct gm_cache *c, uint64_t bytes, uint32_t ways, enum gm_repl repl, enum gm_hash hash);
void gm_cache_reset(struct gm_cache *c);
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

/* Looks a line up and makes it most recent. Returns the way entry or NULL. */
GM_INLINE struct gm_line *gm_cache_find(struct gm_cache *c, uint32_t set, uint64_t tag)
{
    struct gm_line *s = c->lines + (uint64_t)set * c->ways;
    if (s[0].tag == tag) {
        if (c->repl == GM_REPL_PLRU) plru_touch(&c->plru[set], c->ways, 0);
        return &s[0];
    }
    for (uint32_t i = 1; i < c->ways; i++) {
        if (s[i].tag != tag) continue;
        if (c->repl == GM_REPL_PLRU) { plru_touch(&c->plru[set], c->ways, i); return &s[i]; }
        struct gm_line hit = s[i];
        memmove(s + 1, s, i * sizeof *s);
        s[0] = hit;
        return &s[0];
    }
    return NULL;
}

/* Inserts a line (after a miss), copying the evicted entry to *victim.
 * Returns the new entry, most recent, with no valid bytes. */
GM_INLINE struct gm_line *gm_cache_insert(struct gm_cache *c, uint32_t set, uint64_t tag,
                                          struct gm_line *victim)
{
    struct gm_line *s = c->lines + (uint64_t)set * c->ways;
    uint32_t w;
    if (c->repl == GM_REPL_PLRU) {
        for (w = 0; w < c->ways && s[w].tag; w++) {}
        if (w == c->ways) w = plru_victim(c->plru[set], c->ways);
        plru_touch(&c->plru[set], c->ways, w);
    } else {
        w = c->ways - 1;
        *victim = s[w];
        memmove(s + 1, s, w * sizeof *s);
        w = 0;
        memset(&s[0], 0, sizeof s[0]);
        s[0].tag = tag;
        return &s[0];
    }
    *victim = s[w];
    memset(&s[w], 0, sizeof s[w]);
    s[w].tag = tag;
    return &s[w];
}

/* Drops a present entry (write-invalidate). */
GM_INLINE void gm_cache_drop(struct gm_cache *c, uint32_t set, struct gm_line *e)
{
    if (c->repl == GM_REPL_PLRU) { memset(e, 0, sizeof *e); return; }
    struct gm_line *s = c->lines + (uint64_t)set * c->ways;
    uint32_t i = (uint32_t)(e - s);
    memmove(s + i, s + i + 1, (c->ways - 1 - i) * sizeof *s);
    memset(&s[c->ways - 1], 0, sizeof *s);
}

#endif
