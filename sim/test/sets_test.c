/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Set indices of a strided warp's lines (gm_cache_sets, core/cache.h: one
 * loop per hash and modulo, and with the mod hash an incremental sum when
 * the lines' low 32 bits do not wrap) must equal gm_cache_set of each line,
 * for caches of power-of-two and other set counts and every hash, over
 * random lines and strides and over strides chosen so that a lane's set
 * sum lands exactly on the set count, and lines whose low 32 bits are
 * near 2^32. Prints the first difference and exits 1.
 * usage: gm-sim-sets-test. Depends on core/cache.c only.
 */
#include <stdio.h>
#include "../core/cache.h"

static uint64_t rnd(uint64_t *x) { *x ^= *x << 13; *x ^= *x >> 7; *x ^= *x << 17; return *x; }

/* Checks n lines from line, d apart; returns 1 on a difference. */
static int check(const struct gm_cache *c, uint64_t line, uint64_t d, uint32_t n)
{
    uint32_t got[32];
    gm_cache_sets(c, line, d, n, got);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t want = gm_cache_set(c, line + k * d);
        if (got[k] == want) continue;
        printf("sets %u hash %d: line %#llx d %llu lane %u: %u, want %u\n", c->sets, (int)c->hash,
               (unsigned long long)line, (unsigned long long)d, k, got[k], want);
        return 1;
    }
    return 0;
}

int main(void)
{
    static const uint64_t sizes[] = {24 << 10, 224 << 10, 256 << 10, 50ull << 20, 5632 << 10};
    uint64_t x = 0x9e3779b97f4a7c15ull;
    long runs = 0;
    for (int h = GM_HASH_MOD; h <= GM_HASH_FOLD; h++)
        for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
            struct gm_cache c;
            if (gm_cache_init(&c, sizes[z], 4, GM_REPL_LRU, (enum gm_hash)h)) return 1;
            for (int i = 0; i < 20000; i++, runs++) {
                uint64_t line = rnd(&x) >> (rnd(&x) % 64), d = rnd(&x) % (i % 4 ? 64 : 1ull << 20);
                if (i % 8 == 1) line = (line & ~0xffffffffull) | (0xffffffffull - rnd(&x) % 4096);   /* near 2^32 */
                if (i % 8 == 2) {   /* lane k's set sum exactly c.sets */
                    uint32_t s0 = gm_cache_set(&c, line), k = 1 + (uint32_t)(rnd(&x) % 31);
                    d = (c.sets - s0) % c.sets;
                    d = d % k ? d : d / k;
                }
                if (check(&c, line, d, 32) || check(&c, line, d, 1 + (uint32_t)(rnd(&x) % 32))) return 1;
            }
            gm_cache_destroy(&c);
        }
    printf("sets_test: ok (%ld strided warps)\n", runs);
    return 0;
}
