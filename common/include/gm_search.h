/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Binary search over anything indexable, for every part: the first index
 * at which a predicate stops holding. Inline, so that a search in a hot
 * loop (the simulator's allocation lookup) compiles to the plain loop.
 * Depends on nothing.
 */
#ifndef GM_SEARCH_H
#define GM_SEARCH_H

#include <stddef.h>

/* The first i in [0, n) with before(ctx, i) false, or n; before must hold
 * on a prefix of [0, n) and not after it (e.g. "key at i < x" on keys in
 * ascending order gives the lower bound of x, "<= x" its upper bound). */
static inline size_t gm_partition_point(size_t n, int (*before)(const void *ctx, size_t i),
                                        const void *ctx)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (before(ctx, mid))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

#endif
