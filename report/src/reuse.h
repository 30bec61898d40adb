/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal: the matching behind the redundant-allocation finding. An
 * allocation B could have reused an earlier allocation A when A is still
 * live but no longer used when B is made: A has uses, all of them before
 * B's alloc seq, A is at least as large, on the same device, and freed
 * after B is made (or never freed). Allocations are taken in alloc-seq
 * order (report order on ties); each gets the smallest such A not already
 * given to another (the lowest index on ties). O(n log n).
 * Depends on timeline.h and libc.
 */
#ifndef GM_REPORT_REUSE_H
#define GM_REPORT_REUSE_H

#include "timeline.h"

/* other[j] = index (into t->allocs) of the allocation j could reuse, or
 * t->nallocs for none. Returns 0, or -1 when out of memory. */
int gm_reuse_match(const struct gm_tl *t, size_t *other);

#endif
