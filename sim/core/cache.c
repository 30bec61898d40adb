/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Allocation and reset of cache state (see cache.h). Large arrays are
 * mapped with transparent huge pages where the OS offers them: set lookups
 * are random accesses over tens of MB, and 4 KiB pages made every lookup a
 * TLB miss. No I/O.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/mman.h>
#include "cache.h"

#define BIG (2u << 20)

/* Zeroed memory; huge-page backed when large. The size is kept in front. */
void *gm_big_alloc(size_t n)
{
    if (n < BIG) {
        size_t *p = calloc(1, n + 2 * sizeof(size_t));
        if (p) p[1] = 0;
        return p ? p + 2 : NULL;
    }
    size_t total = (n + BIG - 1) / BIG * BIG, len = total + 2 * (size_t)BIG;
    void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return NULL;
    /* 2 MiB-aligned user area; the mapping and its length sit just before it */
    uintptr_t u = ((uintptr_t)m + 2 * sizeof(size_t) + BIG - 1) / BIG * BIG;
    madvise((void *)u, total, MADV_HUGEPAGE);
    size_t *hdr = (size_t *)u - 2;
    hdr[0] = (size_t)(uintptr_t)m;
    hdr[1] = len;
    return (void *)u;
}

void gm_big_free(void *p)
{
    if (!p) return;
    size_t *hdr = (size_t *)p - 2;
    if (hdr[1] == 0) { free(hdr); return; }
    munmap((void *)(uintptr_t)hdr[0], hdr[1]);
}

static void geometry(struct gm_cache *c, uint64_t bytes, uint32_t ways, enum gm_repl repl, enum gm_hash hash)
{
    memset(c, 0, sizeof *c);
    c->ways = ways;
    c->sets = (uint32_t)(bytes / GM_LINE_BYTES / ways);
    c->pow2 = !(c->sets & (c->sets - 1));
    c->fm = UINT64_MAX / c->sets + 1;
    c->repl = repl;
    c->hash = hash;
    c->hstride = gm_header_bytes(ways, repl, &c->plru_off);
}

size_t gm_cache_arena_size(uint64_t bytes, uint32_t ways, enum gm_repl repl)
{
    uint32_t off, sets = (uint32_t)(bytes / GM_LINE_BYTES / ways);
    size_t sz = (size_t)sets * gm_header_bytes(ways, repl, &off) + (size_t)sets * ways * sizeof(struct gm_line);
    return (sz + 63) / 64 * 64;
}

void gm_cache_init_at(struct gm_cache *c, void *mem, uint64_t bytes, uint32_t ways, enum gm_repl repl,
                      enum gm_hash hash)
{
    geometry(c, bytes, ways, repl, hash);
    c->hdr = mem;   /* headers first: the arena is 64-byte aligned, so are they */
    c->data = (struct gm_line *)(c->hdr + (size_t)c->sets * c->hstride);
    c->arena = 1;
    gm_cache_reset(c);
}

int gm_cache_init(struct gm_cache *c, uint64_t bytes, uint32_t ways, enum gm_repl repl, enum gm_hash hash)
{
    geometry(c, bytes, ways, repl, hash);
    c->hdr = gm_big_alloc((size_t)c->sets * c->hstride);
    c->data = gm_big_alloc((size_t)c->sets * ways * sizeof *c->data);
    if (!c->hdr || !c->data) { gm_cache_destroy(c); return -1; }
    gm_cache_reset(c);
    return 0;
}

/* Empty ways (digest 0), ages 0..ways-1, PLRU bits 0; line state is
 * cleared on insert. LRU: set 0's header is made, then copied to the
 * others in doubling blocks (sets 0..k-1 to k..2k-1), not set by set. */
void gm_cache_reset(struct gm_cache *c)
{
    size_t n = (size_t)c->sets * c->hstride;
    if (c->repl == GM_REPL_PLRU) {
        memset(c->hdr, 0, n);
        return;
    }
    gm_cache_reset_set(c, 0);
    for (size_t done = c->hstride; done < n; done *= 2)
        memcpy(c->hdr + done, c->hdr, done < n - done ? done : n - done);
}

void gm_cache_reset_set(struct gm_cache *c, uint32_t set)
{
    memset(gm_digs(c, set), 0, c->hstride);
    if (c->repl == GM_REPL_PLRU) return;
    uint8_t *age = gm_ages(c, set);
    for (uint32_t w = 0; w < c->ways; w++) age[w] = (uint8_t)w;
}

void gm_cache_destroy(struct gm_cache *c)
{
    if (c->arena) { memset(c, 0, sizeof *c); return; }
    gm_big_free(c->hdr);
    gm_big_free(c->data);
    c->hdr = NULL;
    c->data = NULL;
}
