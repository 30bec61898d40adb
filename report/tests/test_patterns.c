/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of DrGPUM's object-level pattern detectors on synthetic
 * timelines built by hand: each pattern with positive and negative cases
 * whose expected findings (bytes, gaps, sites) are computed in the test.
 * Depends on the report library only.
 */
#include "check.h"
#include "gm_analysis.h"
#include "tl_build.h"

#include <stdlib.h>

static struct gm_findings run(struct gm_report *r, const struct gm_pattern_opts *o)
{
    struct gm_findings f = {0};
    struct gm_pattern_opts d;
    gm_pattern_opts_default(&d);
    CHECK(gm_find_object_patterns(r, o ? o : &d, &f) == 0);
    gm_findings_sort(&f);
    return f;
}

static int count(const struct gm_findings *f, enum gm_pattern p, uint64_t id)
{
    int n = 0;
    for (size_t i = 0; i < f->n; i++)
        n += f->v[i].pattern == p && f->v[i].alloc == id;
    return n;
}

static const struct gm_finding *get(const struct gm_findings *f, enum gm_pattern p, uint64_t id)
{
    for (size_t i = 0; i < f->n; i++)
        if (f->v[i].pattern == p && f->v[i].alloc == id)
            return &f->v[i];
    return NULL;
}

static void done(struct gm_report *r, struct gm_findings *f)
{
    gm_findings_free(f);
    gm_report_free(r);
}

static void test_unused_and_leak(void)
{
    struct gm_report *r = gm_report_new();
    tl_alloc(r, 1, 100, 1, 10);                 /* never used, freed: unused only */
    tl_alloc(r, 2, 200, 2, 11);                 /* used, never freed: leak only */
    tl_op(r, GM_OP_LAUNCH, 3, 2, GM_USE_READ, 0, 0, 12);
    tl_free(r, 1, 4, 13);
    tl_alloc(r, 3, 300, 5, 14);                 /* used and freed: neither */
    tl_op(r, GM_OP_MEMSET, 6, 3, GM_USE_WRITE, 0, 0, 15);
    tl_op(r, GM_OP_MEMCPY, 7, 3, GM_USE_READ, 0, 0, 16);
    tl_free(r, 3, 8, 17);
    struct gm_findings f = run(r, NULL);
    CHECK_EQ(count(&f, GM_PAT_UNUSED_ALLOC, 1), 1);
    CHECK_EQ(count(&f, GM_PAT_LEAK, 1), 0);
    CHECK_EQ(get(&f, GM_PAT_UNUSED_ALLOC, 1)->bytes, 100);
    CHECK_EQ(get(&f, GM_PAT_UNUSED_ALLOC, 1)->site1->line, 10);
    CHECK_EQ(count(&f, GM_PAT_UNUSED_ALLOC, 2), 0);
    CHECK_EQ(count(&f, GM_PAT_LEAK, 2), 1);
    CHECK_EQ(get(&f, GM_PAT_LEAK, 2)->bytes, 200);
    CHECK_EQ(get(&f, GM_PAT_LEAK, 2)->site2->line, 12);  /* last use */
    CHECK_EQ(count(&f, GM_PAT_UNUSED_ALLOC, 3) + count(&f, GM_PAT_LEAK, 3), 0);
    done(r, &f);
}

static void test_early_allocation(void)
{
    struct gm_report *r = gm_report_new();
    tl_alloc(r, 1, 4096, 1, 10);
    tl_op(r, GM_OP_LAUNCH, 2, 0, 0, 0, 0, 11);   /* two unrelated GPU operations */
    tl_op(r, GM_OP_MEMSET, 3, 0, 0, 0, 0, 12);
    tl_alloc(r, 2, 64, 4, 13);                   /* allocations are not work */
    tl_op(r, GM_OP_MEMCPY, 5, 2, GM_USE_WRITE, 0, 0, 15); /* 2: used right away */
    tl_op(r, GM_OP_MEMCPY, 6, 1, GM_USE_WRITE, 0, 0, 14);
    tl_op(r, GM_OP_LAUNCH, 7, 1, GM_USE_READ, 0, 0, 16);
    tl_op(r, GM_OP_LAUNCH, 8, 2, GM_USE_READ, 0, 0, 17);
    tl_free(r, 1, 9, 18);
    tl_free(r, 2, 10, 19);
    struct gm_findings f = run(r, NULL);
    const struct gm_finding *x = get(&f, GM_PAT_EARLY_ALLOC, 1);
    CHECK(x != NULL);
    if (x) {
        CHECK_EQ(x->gap, 3);    /* seq 2, 3 and 5 */
        CHECK_EQ(x->bytes, 4096);
        CHECK_EQ(x->site1->line, 10);
        CHECK_EQ(x->site2->line, 14);
        CHECK_STR(x->suggestion, "test.cu:14");
    }
    CHECK_EQ(count(&f, GM_PAT_EARLY_ALLOC, 2), 0);
    gm_findings_free(&f);
    struct gm_pattern_opts o;
    gm_pattern_opts_default(&o);
    o.early_gap = 4;                              /* threshold above the gap */
    f = run(r, &o);
    CHECK_EQ(count(&f, GM_PAT_EARLY_ALLOC, 1), 0);
    done(r, &f);
}

static void test_late_deallocation(void)
{
    struct gm_report *r = gm_report_new();
    tl_alloc(r, 1, 1000, 1, 10);
    tl_alloc(r, 2, 2000, 2, 11);
    tl_op(r, GM_OP_LAUNCH, 3, 1, GM_USE_READ | GM_USE_WRITE, 0, 0, 12);
    tl_op(r, GM_OP_LAUNCH, 4, 2, GM_USE_WRITE, 0, 0, 13);
    tl_op(r, GM_OP_MEMCPY, 5, 2, GM_USE_READ, 0, 0, 14);
    tl_free(r, 2, 6, 15);                         /* 2: freed right after its last use */
    tl_op(r, GM_OP_LAUNCH, 7, 0, 0, 0, 0, 16);
    tl_op(r, GM_OP_LAUNCH, 8, 0, 0, 0, 0, 17);
    tl_op(r, GM_OP_MEMSET, 9, 0, 0, 0, 0, 18);
    tl_free(r, 1, 10, 19);                        /* 1: 3 (+1 copy) operations later */
    struct gm_findings f = run(r, NULL);
    const struct gm_finding *x = get(&f, GM_PAT_LATE_FREE, 1);
    CHECK(x != NULL);
    if (x) {
        /* work events strictly between seq 3 and 10: 4, 5, 7, 8, 9 */
        CHECK_EQ(x->gap, 5);
        CHECK_EQ(x->bytes, 1000);
        CHECK_EQ(x->site1->line, 12);
        CHECK_EQ(x->site2->line, 19);
    }
    CHECK_EQ(count(&f, GM_PAT_LATE_FREE, 2), 0);
    gm_findings_free(&f);
    /* the same when only the alloc/free events carry the seqs */
    for (size_t i = 0; i < r->nallocs; i++)
        r->allocs[i].alloc_seq = r->allocs[i].free_seq = 0;
    f = run(r, NULL);
    x = get(&f, GM_PAT_LATE_FREE, 1);
    CHECK(x && x->gap == 5 && x->seq_to == 10);
    CHECK_EQ(count(&f, GM_PAT_LATE_FREE, 2), 0);
    CHECK_EQ(count(&f, GM_PAT_LEAK, 1), 0);
    done(r, &f);
}

static void test_unknown_alloc_seq(void)
{
    /* allocated before the timeline (no alloc event, alloc_seq 0): no early
     * allocation can be claimed however late the first use is */
    struct gm_report *r = gm_report_new();
    struct gm_report_alloc *a = gm_report_add_alloc(r, 1, 0x1000, 64, "cudaMalloc");
    a->freed = 0;
    tl_op(r, GM_OP_LAUNCH, 1, 0, 0, 0, 0, 10);
    tl_op(r, GM_OP_LAUNCH, 2, 1, GM_USE_READ, 0, 0, 11);
    struct gm_findings f = run(r, NULL);
    CHECK_EQ(count(&f, GM_PAT_EARLY_ALLOC, 1), 0);
    CHECK_EQ(count(&f, GM_PAT_LEAK, 1), 1);
    done(r, &f);
}

static struct gm_report *idle_report(int between)
{
    struct gm_report *r = gm_report_new();
    tl_alloc(r, 1, 512, 1, 10);
    tl_op(r, GM_OP_MEMCPY, 2, 1, GM_USE_WRITE, 0, 0, 11);
    uint64_t seq = 3;
    for (int i = 0; i < between; i++)
        tl_op(r, GM_OP_LAUNCH, seq++, 0, 0, 0, 0, 12);
    tl_op(r, GM_OP_LAUNCH, seq++, 1, GM_USE_READ, 0, 0, 13);
    tl_free(r, 1, seq, 14);
    return r;
}

static void test_temporary_idleness(void)
{
    struct gm_report *r = idle_report(8);         /* exactly the default threshold */
    struct gm_findings f = run(r, NULL);
    const struct gm_finding *x = get(&f, GM_PAT_IDLE, 1);
    CHECK(x != NULL);
    if (x) {
        CHECK_EQ(x->gap, 8);
        CHECK_EQ(x->bytes, 512);
        CHECK_EQ(x->site1->line, 11);
        CHECK_EQ(x->site2->line, 13);
    }
    done(r, &f);
    r = idle_report(7);                           /* one below */
    f = run(r, NULL);
    CHECK_EQ(count(&f, GM_PAT_IDLE, 1), 0);
    done(r, &f);
}

static void test_redundant_allocation(void)
{
    /* A (1000 B) is live but done when B (800 B) is allocated: B could reuse A */
    struct gm_report *r = gm_report_new();
    tl_alloc(r, 1, 1000, 1, 10);
    tl_op(r, GM_OP_LAUNCH, 2, 1, GM_USE_WRITE, 0, 0, 11);
    tl_op(r, GM_OP_MEMCPY, 3, 1, GM_USE_READ, 0, 0, 12);
    tl_alloc(r, 2, 800, 4, 13);
    tl_op(r, GM_OP_LAUNCH, 5, 2, GM_USE_WRITE, 0, 0, 14);
    tl_op(r, GM_OP_MEMCPY, 6, 2, GM_USE_READ, 0, 0, 15);
    tl_free(r, 1, 7, 16);
    tl_free(r, 2, 8, 17);
    struct gm_findings f = run(r, NULL);
    const struct gm_finding *x = get(&f, GM_PAT_REDUNDANT_ALLOC, 2);
    CHECK(x != NULL);
    if (x) {
        CHECK_EQ(x->other, 1);
        CHECK_EQ(x->bytes, 800);
        CHECK_EQ(x->site1->line, 13);
        CHECK_EQ(x->site2->line, 10);
    }
    CHECK_EQ(count(&f, GM_PAT_REDUNDANT_ALLOC, 1), 0);
    done(r, &f);

    /* negatives: A freed before B is allocated; B larger; A still used later */
    for (int variant = 0; variant < 3; variant++) {
        r = gm_report_new();
        tl_alloc(r, 1, 1000, 1, 10);
        tl_op(r, GM_OP_LAUNCH, 2, 1, GM_USE_WRITE, 0, 0, 11);
        if (variant == 0)
            tl_free(r, 1, 3, 12);
        tl_alloc(r, 2, variant == 1 ? 1001 : 800, 4, 13);
        tl_op(r, GM_OP_LAUNCH, 5, 2, GM_USE_READ | GM_USE_WRITE, 0, 0, 14);
        tl_op(r, GM_OP_MEMCPY, 6, variant == 2 ? 1 : 2, GM_USE_READ, 0, 0, 15);
        if (variant != 0)
            tl_free(r, 1, 7, 16);
        tl_free(r, 2, 8, 17);
        f = run(r, NULL);
        CHECK_EQ(count(&f, GM_PAT_REDUNDANT_ALLOC, 2), 0);
        done(r, &f);
    }
}

static void test_dead_write(void)
{
    struct gm_report *r = gm_report_new();
    /* 1: copy-in overwritten by a whole memset before any read */
    tl_alloc(r, 1, 256, 1, 10);
    tl_op(r, GM_OP_MEMCPY, 2, 1, GM_USE_WRITE, 0, 256, 11);
    tl_op(r, GM_OP_MEMSET, 3, 1, GM_USE_WRITE, 0, 0, 12);
    tl_op(r, GM_OP_LAUNCH, 4, 1, GM_USE_READ, 0, 0, 13);
    /* 2: partial overwrite [50,150) of a write [0,100): not dead */
    tl_alloc(r, 2, 256, 5, 14);
    tl_op(r, GM_OP_MEMCPY, 6, 2, GM_USE_WRITE, 0, 100, 15);
    tl_op(r, GM_OP_MEMSET, 7, 2, GM_USE_WRITE, 50, 100, 16);
    tl_op(r, GM_OP_LAUNCH, 8, 2, GM_USE_READ, 0, 0, 17);
    /* 3: kernel write, then freed unread */
    tl_alloc(r, 3, 128, 9, 18);
    tl_op(r, GM_OP_LAUNCH, 10, 3, GM_USE_WRITE, 0, 0, 19);
    /* 4: write then a launch of unknown direction (counts as a read) */
    tl_alloc(r, 4, 64, 11, 20);
    tl_op(r, GM_OP_MEMSET, 12, 4, GM_USE_WRITE, 0, 0, 21);
    tl_op(r, GM_OP_LAUNCH, 13, 4, GM_USE_UNKNOWN, 0, 0, 22);
    /* 5: a launch's write never kills: launch w, launch w, read */
    tl_alloc(r, 5, 32, 14, 23);
    tl_op(r, GM_OP_LAUNCH, 15, 5, GM_USE_WRITE, 0, 0, 24);
    tl_op(r, GM_OP_LAUNCH, 16, 5, GM_USE_WRITE, 0, 0, 25);
    tl_op(r, GM_OP_MEMCPY, 17, 5, GM_USE_READ, 0, 0, 26);
    /* 6: loop: copy@27, set@28, copy@27, set@28, read */
    tl_alloc(r, 6, 16, 18, 29);
    for (uint64_t s = 19; s < 23; s++)
        tl_op(r, s % 2 ? GM_OP_MEMCPY : GM_OP_MEMSET, s, 6, GM_USE_WRITE, 0, 0, s % 2 ? 27 : 28);
    tl_op(r, GM_OP_LAUNCH, 23, 6, GM_USE_READ, 0, 0, 30);
    tl_free(r, 3, 24, 31);
    /* 7: written, never read, never freed */
    tl_alloc(r, 7, 8, 25, 32);
    tl_op(r, GM_OP_MEMSET, 26, 7, GM_USE_WRITE, 0, 0, 33);

    struct gm_findings f = run(r, NULL);
    const struct gm_finding *x = get(&f, GM_PAT_DEAD_WRITE, 1);
    CHECK(x && x->bytes == 256 && x->site1->line == 11 && x->site2->line == 12);
    CHECK_EQ(count(&f, GM_PAT_DEAD_WRITE, 1), 1);
    CHECK_EQ(count(&f, GM_PAT_DEAD_WRITE, 2), 0);
    x = get(&f, GM_PAT_DEAD_WRITE, 3);
    CHECK(x && x->bytes == 128 && x->site1->line == 19 && x->site2->line == 31);
    if (x)
        CHECK_STR(x->what, "freed without being read");
    CHECK_EQ(count(&f, GM_PAT_DEAD_WRITE, 4), 0);
    CHECK_EQ(count(&f, GM_PAT_DEAD_WRITE, 5), 0);
    /* alloc 6: copy@27 killed twice (merged: 2 x 16 B), set@28 killed once */
    CHECK_EQ(count(&f, GM_PAT_DEAD_WRITE, 6), 2);
    for (size_t i = 0; i < f.n; i++) {
        const struct gm_finding *y = &f.v[i];
        if (y->pattern != GM_PAT_DEAD_WRITE || y->alloc != 6)
            continue;
        if (y->site1->line == 27) {
            CHECK_EQ(y->bytes, 32);
            CHECK_EQ(y->gap, 2);
            CHECK_STR(y->what, "(2 times)");
        } else {
            CHECK_EQ(y->site1->line, 28);
            CHECK_EQ(y->bytes, 16);
        }
    }
    x = get(&f, GM_PAT_DEAD_WRITE, 7);
    CHECK(x && x->bytes == 8 && x->site2 == NULL);
    if (x)
        CHECK_STR(x->what, "never read before the program ends");
    done(r, &f);
}

static void test_launch_uses_unknown(void)
{
    /* launches without uses (runtime without the allocations analysis and
     * without argument scanning): only leaks can be claimed */
    struct gm_report *r = gm_report_new();
    tl_alloc(r, 1, 100, 1, 10);
    tl_alloc(r, 2, 200, 2, 11);
    tl_op(r, GM_OP_LAUNCH, 3, 0, 0, 0, 0, 12);
    tl_op(r, GM_OP_LAUNCH, 4, 0, 0, 0, 0, 13);
    tl_free(r, 1, 5, 14);
    CHECK_EQ(gm_launch_uses_known(r), 0);
    struct gm_findings f = run(r, NULL);
    CHECK_EQ(f.n, 1);
    CHECK_EQ(count(&f, GM_PAT_LEAK, 2), 1);
    done(r, &f);
    r = gm_report_new();                         /* no launches at all: known */
    tl_alloc(r, 1, 100, 1, 10);
    CHECK_EQ(gm_launch_uses_known(r), 1);
    f = run(r, NULL);
    CHECK_EQ(count(&f, GM_PAT_UNUSED_ALLOC, 1), 1);
    done(r, &f);
}

static void test_ranking(void)
{
    struct gm_report *r = gm_report_new();
    tl_alloc(r, 1, 10, 1, 10);
    tl_alloc(r, 2, 30, 2, 11);
    tl_alloc(r, 3, 20, 3, 12);
    struct gm_findings f = {0};
    CHECK(gm_find_patterns(r, NULL, &f) == 0);
    /* each: unused + leak; sorted by bytes, then pattern (unused before leak) */
    CHECK_EQ(f.n, 6);
    uint64_t want[6][2] = {{30, GM_PAT_UNUSED_ALLOC}, {30, GM_PAT_LEAK}, {20, GM_PAT_UNUSED_ALLOC},
                           {20, GM_PAT_LEAK}, {10, GM_PAT_UNUSED_ALLOC}, {10, GM_PAT_LEAK}};
    for (size_t i = 0; i < f.n && i < 6; i++) {
        CHECK_EQ(f.v[i].bytes, want[i][0]);
        CHECK_EQ(f.v[i].pattern, want[i][1]);
    }
    done(r, &f);
}

int main(void)
{
    test_unused_and_leak();
    test_early_allocation();
    test_late_deallocation();
    test_unknown_alloc_seq();
    test_temporary_idleness();
    test_redundant_allocation();
    test_dead_write();
    test_launch_uses_unknown();
    test_ranking();
    TEST_MAIN_END();
}
