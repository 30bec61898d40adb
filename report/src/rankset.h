/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal: a set of ranks 0..n-1 with insert, remove and "first member at
 * or after rank i" in O(log n) each (a segment tree of counts). Used where a
 * detector needs the smallest eligible candidate without a scan of all of
 * them. Depends on libc only.
 */
#ifndef GM_REPORT_RANKSET_H
#define GM_REPORT_RANKSET_H

#include <stddef.h>

struct gm_rankset {
    size_t n, leaves;       /* ranks; leaves: n rounded up to a power of two */
    unsigned *cnt;          /* 2 * leaves counts; cnt[1] is the root */
};

int gm_rankset_init(struct gm_rankset *s, size_t n);   /* empty set; 0 or -1 (OOM) */
void gm_rankset_free(struct gm_rankset *s);
void gm_rankset_insert(struct gm_rankset *s, size_t i);
void gm_rankset_remove(struct gm_rankset *s, size_t i);
/* The smallest member >= i, or s->n when there is none. */
size_t gm_rankset_next(const struct gm_rankset *s, size_t i);

#endif
