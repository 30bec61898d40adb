/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Rank set (see rankset.h): a complete binary tree over the ranks whose
 * nodes count the members below them. Depends on libc only.
 */
#include "rankset.h"

#include <stdlib.h>

int gm_rankset_init(struct gm_rankset *s, size_t n)
{
    s->n = n;
    s->leaves = 1;
    while (s->leaves < n)
        s->leaves *= 2;
    s->cnt = calloc(2 * s->leaves, sizeof *s->cnt);
    return s->cnt ? 0 : -1;
}

void gm_rankset_free(struct gm_rankset *s)
{
    free(s->cnt);
    s->cnt = NULL;
}

static void update(struct gm_rankset *s, size_t i, int add)
{
    size_t node = s->leaves + i;
    if ((s->cnt[node] != 0) == add)
        return; /* already in (or out of) the set */
    for (; node; node /= 2)
        s->cnt[node] = add ? s->cnt[node] + 1 : s->cnt[node] - 1;
}

void gm_rankset_insert(struct gm_rankset *s, size_t i)
{
    if (i < s->n)
        update(s, i, 1);
}

void gm_rankset_remove(struct gm_rankset *s, size_t i)
{
    if (i < s->n)
        update(s, i, 0);
}

size_t gm_rankset_next(const struct gm_rankset *s, size_t i)
{
    if (i >= s->n)
        return s->n;
    size_t node = s->leaves + i;
    if (s->cnt[node])
        return i;
    /* climb until a right sibling holds a member, then descend leftmost */
    for (;;) {
        if (node == 1)
            return s->n;
        if (node % 2 == 0 && s->cnt[node + 1]) {
            node++;
            break;
        }
        node /= 2;
    }
    while (node < s->leaves)
        node = s->cnt[2 * node] ? 2 * node : 2 * node + 1;
    return node - s->leaves;
}
