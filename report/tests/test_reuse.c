/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The redundant-allocation matching (src/reuse.c, a sweep with a rank set)
 * against a brute-force reference of the rule in reuse.h, on random
 * timelines; and the rank set alone. Depends on the report library.
 */
#include "check.h"
#include "rankset.h"
#include "reuse.h"
#include "tl_build.h"

#include <stdlib.h>

/* The rule of reuse.h, checked pair by pair (O(n^2)). */
static int can_reuse(const struct gm_tl_alloc *A, const struct gm_tl_alloc *B)
{
    if (A == B || !A->nuses || A->a->size < B->a->size || A->a->device != B->a->device)
        return 0;
    if (A->alloc_seq >= B->alloc_seq || A->uses[A->nuses - 1].e->seq >= B->alloc_seq)
        return 0;
    if (A->free_seq)
        return A->free_seq > B->alloc_seq;
    return !A->a->freed;
}

static void reference(const struct gm_tl *t, size_t *other)
{
    size_t n = t->nallocs;
    char *taken = calloc(n + 1, 1);
    for (size_t j = 0; j < n; j++) { /* allocations are in alloc-seq order here */
        size_t best = n;
        for (size_t i = 0; i < n; i++)
            if (!taken[i] && can_reuse(&t->allocs[i], &t->allocs[j]) &&
                (best == n || t->allocs[i].a->size < t->allocs[best].a->size))
                best = i;
        other[j] = best;
        if (best < n)
            taken[best] = 1;
    }
    free(taken);
}

static unsigned rnd(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return *s >> 16;
}

/* n allocations made one by one, random sizes (few distinct, so ties
 * happen), devices, uses and frees. */
static struct gm_report *random_report(unsigned *seed, size_t n)
{
    struct gm_report *r = gm_report_new();
    uint64_t seq = 1;
    for (size_t i = 1; i <= n; i++) {
        struct gm_report_alloc *a = tl_alloc(r, i, 256 * (1 + rnd(seed) % 4), seq++, 10);
        a->device = rnd(seed) % 4 == 0;
        for (int k = 0; k < 3; k++) {
            uint64_t id = 1 + (uint64_t)rnd(seed) % i;
            if (rnd(seed) % 2 && !gm_report_find_alloc(r, id)->freed)
                tl_op(r, GM_OP_LAUNCH, seq++, id, GM_USE_READ, 0, 0, 11);
        }
        uint64_t id = 1 + (uint64_t)rnd(seed) % i;
        struct gm_report_alloc *f = gm_report_find_alloc(r, id);
        if (rnd(seed) % 3 == 0 && !f->freed) {
            if (rnd(seed) % 4)
                tl_free(r, id, seq++, 12);
            else
                f->freed = 1; /* freed at an unknown time */
        }
    }
    return r;
}

static void test_against_reference(void)
{
    unsigned seed = 12345;
    size_t matched = 0;
    for (int round = 0; round < 300; round++) {
        struct gm_report *r = random_report(&seed, 1 + (size_t)round % 60);
        struct gm_tl t;
        CHECK(gm_tl_build(r, &t) == 0);
        size_t *got = calloc(t.nallocs + 1, sizeof *got), *want = calloc(t.nallocs + 1, sizeof *want);
        CHECK(gm_reuse_match(&t, got) == 0);
        reference(&t, want);
        for (size_t j = 0; j < t.nallocs; j++) {
            CHECK_EQ(got[j], want[j]);
            matched += got[j] < t.nallocs;
        }
        free(got);
        free(want);
        gm_tl_free(&t);
        gm_report_free(r);
    }
    CHECK(matched > 100); /* the timelines do exercise the matching */
}

static void test_rankset(void)
{
    struct gm_rankset s;
    CHECK(gm_rankset_init(&s, 100) == 0);
    CHECK_EQ(gm_rankset_next(&s, 0), 100);
    gm_rankset_insert(&s, 7);
    gm_rankset_insert(&s, 64);
    gm_rankset_insert(&s, 99);
    gm_rankset_insert(&s, 7); /* twice: still one member */
    CHECK_EQ(gm_rankset_next(&s, 0), 7);
    CHECK_EQ(gm_rankset_next(&s, 7), 7);
    CHECK_EQ(gm_rankset_next(&s, 8), 64);
    CHECK_EQ(gm_rankset_next(&s, 65), 99);
    gm_rankset_remove(&s, 7);
    CHECK_EQ(gm_rankset_next(&s, 0), 64);
    gm_rankset_remove(&s, 64);
    gm_rankset_remove(&s, 99);
    CHECK_EQ(gm_rankset_next(&s, 0), 100);
    CHECK_EQ(gm_rankset_next(&s, 500), 100);
    gm_rankset_free(&s);
}

int main(void)
{
    test_rankset();
    test_against_reference();
    TEST_MAIN_END();
}
