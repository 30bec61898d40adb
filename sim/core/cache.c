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
}

size_t gm_cache_arena_size(uint64_t bytes, uint32_t ways)
{
    size_t n = bytes / GM_LINE_BYTES;
    size_t sz = n * (sizeof(uint64_t) + sizeof(struct gm_line)) + (n / ways) * sizeof(uint64_t) + n;
    return (sz + 63) / 64 * 64;
}

void gm_cache_init_at(struct gm_cache *c, void *mem, uint64_t bytes, uint32_t ways, enum gm_repl repl,
                      enum gm_hash hash)
{
    geometry(c, bytes, ways, repl, hash);
    size_t n = (size_t)c->sets * ways;
    char *p = mem;
    c->tags = (uint64_t *)p;
    p += n * sizeof *c->tags;
    c->plru = (uint64_t *)p;
    p += c->sets * sizeof *c->plru;
    c->data = (struct gm_line *)p;
    p += n * sizeof *c->data;
    c->age = (uint8_t *)p;
    c->arena = 1;
    gm_cache_reset(c);
}

int gm_cache_init(struct gm_cache *c, uint64_t bytes, uint32_t ways, enum gm_repl repl, enum gm_hash hash)
{
    geometry(c, bytes, ways, repl, hash);
    size_t n = (size_t)c->sets * ways;
    c->tags = gm_big_alloc(n * sizeof *c->tags);
    c->age = gm_big_alloc(n);
    c->data = gm_big_alloc(n * sizeof *c->data);
    c->plru = gm_big_alloc(c->sets * sizeof *c->plru);
    if (!c->tags || !c->age || !c->data || !c->plru) { gm_cache_destroy(c); return -1; }
    gm_cache_reset(c);
    return 0;
}

void gm_cache_reset(struct gm_cache *c)
{
    size_t n = (size_t)c->sets * c->ways;
    memset(c->tags, 0, n * sizeof *c->tags);   /* line state is cleared on insert */
    for (size_t i = 0; i < c->sets; i++)
        for (uint32_t w = 0; w < c->ways; w++) c->age[i * c->ways + w] = (uint8_t)w;
    memset(c->plru, 0, c->sets * sizeof *c->plru);
}

void gm_cache_destroy(struct gm_cache *c)
{
    if (c->arena) { memset(c, 0, sizeof *c); return; }
    gm_big_free(c->tags);
    gm_big_free(c->age);
    gm_big_free(c->data);
    gm_big_free(c->plru);
    c->tags = NULL;
    c->age = NULL;
    c->data = NULL;
    c->plru = NULL;
}
