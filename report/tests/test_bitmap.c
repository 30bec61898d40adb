/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of the intra-object metrics on hand-made bitmaps and
 * histograms: touched units, largest untouched chunk, fragmentation,
 * overallocation, non-uniform access frequency, structured access.
 * Depends on the report library only.
 */
#include "check.h"
#include "gm_analysis.h"

#include <math.h>
#include <stdlib.h>

static void set_bits(uint64_t *bm, uint64_t from, uint64_t to)
{
    for (uint64_t i = from; i < to; i++)
        bm[i / 64] |= 1ull << (i % 64);
}

static void test_runs(void)
{
    uint64_t bm[4] = {0};
    uint64_t runs;
    /* 200 units, touched [0,10) and [100,110): zero runs [10,100) and [110,200) */
    set_bits(bm, 0, 10);
    set_bits(bm, 100, 110);
    CHECK_EQ(gm_bitmap_count(bm, 200), 20);
    CHECK_EQ(gm_bitmap_largest_zero_run(bm, 200, &runs), 90);
    CHECK_EQ(runs, 2);
    /* bits beyond `units` are ignored */
    bm[3] |= 1ull << 63;
    CHECK_EQ(gm_bitmap_count(bm, 200), 20);
    CHECK_EQ(gm_bitmap_largest_zero_run(bm, 200, &runs), 90);

    uint64_t z[3] = {0};                       /* all zero, 130 units */
    CHECK_EQ(gm_bitmap_largest_zero_run(z, 130, &runs), 130);
    CHECK_EQ(runs, 1);
    uint64_t o[2] = {~0ull, ~0ull};           /* all ones */
    CHECK_EQ(gm_bitmap_count(o, 100), 100);
    CHECK_EQ(gm_bitmap_largest_zero_run(o, 100, &runs), 0);
    CHECK_EQ(runs, 0);
    uint64_t last[4] = {0, 0, 0, 1ull << 63}; /* only unit 255: word fast path */
    CHECK_EQ(gm_bitmap_largest_zero_run(last, 256, &runs), 255);
    CHECK_EQ(runs, 1);
    uint64_t alt[1] = {0x5555555555555555ull}; /* 0101...: 32 runs of 1 */
    CHECK_EQ(gm_bitmap_largest_zero_run(alt, 64, &runs), 1);
    CHECK_EQ(runs, 32);
}

/* An 800-byte allocation at 4 B granularity (200 units), touched as in test_runs. */
static struct gm_report *two_islands(struct gm_report_alloc **out)
{
    struct gm_report *r = gm_report_new();
    struct gm_report_alloc *a = gm_report_add_alloc(r, 1, 0x1000, 800, "cudaMalloc");
    uint64_t bm[4] = {0};
    set_bits(bm, 0, 10);
    set_bits(bm, 100, 110);
    CHECK(gm_report_alloc_set_bitmap(a, 4, bm) == 0);
    *out = a;
    return r;
}

static void test_metrics(void)
{
    struct gm_report_alloc *a;
    struct gm_report *r = two_islands(&a);
    CHECK_EQ(a->units, 200);
    CHECK_EQ(a->touched_units, 20);
    CHECK_EQ(a->largest_untouched_units, 90);
    CHECK_EQ(a->untouched_runs, 2);
    struct gm_alloc_metrics m;
    gm_alloc_metrics(a, &m);
    CHECK(m.measured);
    CHECK(fabs(m.touched_share - 0.1) < 1e-12);
    CHECK_EQ(m.untouched_bytes, 720);
    CHECK_EQ(m.largest_untouched_bytes, 360);
    CHECK(fabs(m.fragmentation - 0.5) < 1e-12);  /* 1 - 90/180 */

    struct gm_pattern_opts o;
    gm_pattern_opts_default(&o);
    struct gm_findings f = {0};
    CHECK(gm_find_intra_patterns(r, &o, &f) == 0);
    CHECK_EQ(f.n, 1);
    if (f.n) {
        CHECK_EQ(f.v[0].pattern, GM_PAT_OVERALLOC);
        CHECK_EQ(f.v[0].bytes, 720);
        CHECK_STR(f.v[0].suggestion, "pack");    /* fragmentation 0.5: scattered */
    }
    gm_findings_free(&f);
    o.overalloc_max_touched = 0.1;               /* 10% touched is not below 10% */
    CHECK(gm_find_intra_patterns(r, &o, &f) == 0);
    CHECK_EQ(f.n, 0);
    gm_findings_free(&f);
    gm_report_free(r);

    /* one contiguous untouched tail: fragmentation 0, "shrink" */
    r = gm_report_new();
    a = gm_report_add_alloc(r, 2, 0x2000, 400, "cudaMalloc");  /* 100 units */
    uint64_t bm[2] = {0};
    set_bits(bm, 0, 25);
    gm_report_alloc_set_bitmap(a, 4, bm);
    gm_alloc_metrics(a, &m);
    CHECK(fabs(m.fragmentation) < 1e-12);
    CHECK_EQ(m.largest_untouched_bytes, 300);
    CHECK(gm_find_intra_patterns(r, &o, &f) == 0 && f.n == 0); /* 25% vs 10% limit */
    gm_findings_free(&f);
    gm_pattern_opts_default(&o);
    CHECK(gm_find_intra_patterns(r, &o, &f) == 0 && f.n == 1);
    if (f.n)
        CHECK_STR(f.v[0].suggestion, "shrink");
    gm_findings_free(&f);
    gm_report_free(r);
}

static void test_nonuniform(void)
{
    struct gm_report *r = gm_report_new();
    struct gm_report_alloc *a = gm_report_add_alloc(r, 1, 0x1000, 1000, "cudaMalloc");
    a->has_access = 1;
    a->granularity = 4;
    a->units = 250;
    a->touched_units = 110;
    a->hist[0] = 140;
    a->hist[1] = 100;   /* accessed once: the median bucket */
    a->hist[4] = 10;    /* 8..15 times: 3 buckets above, below the default 4 */
    struct gm_pattern_opts o;
    gm_pattern_opts_default(&o);
    o.overalloc_max_touched = 0;                 /* only this pattern */
    struct gm_findings f = {0};
    CHECK(gm_find_intra_patterns(r, &o, &f) == 0);
    CHECK_EQ(f.n, 0);
    gm_findings_free(&f);
    a->hist[4] = 0;
    a->hist[5] = 10;    /* 16..31 times: 4 buckets above */
    struct gm_alloc_metrics m;
    gm_alloc_metrics(a, &m);
    CHECK_EQ(m.median_bucket, 1);
    CHECK_EQ(m.hot_bucket, 5);
    CHECK_EQ(m.hot_units, 10);
    CHECK(gm_find_intra_patterns(r, &o, &f) == 0);
    CHECK_EQ(f.n, 1);
    if (f.n) {
        CHECK_EQ(f.v[0].pattern, GM_PAT_NONUNIFORM);
        CHECK_EQ(f.v[0].bytes, 40);
        CHECK_STR(f.v[0].what, "at least 16 times");
    }
    gm_findings_free(&f);
    gm_report_free(r);
}

static void test_structured(void)
{
    struct gm_report *r = gm_report_new();
    struct gm_report_alloc *a = gm_report_add_alloc(r, 1, 0x1000, 1024, "cudaMalloc");
    uint64_t all[4] = {~0ull, ~0ull, ~0ull, ~0ull}, part[4] = {0};
    gm_report_alloc_set_bitmap(a, 4, all);       /* 256 units, all touched */
    for (int l = 0; l < 4; l++) {                /* launch l touches quarter l */
        for (int w = 0; w < 4; w++)
            part[w] = w == l ? ~0ull : 0;
        CHECK(gm_report_alloc_add_launch(a, 10 + l, part) != NULL);
    }
    CHECK_EQ(a->launches[2].touched_units, 64);
    struct gm_pattern_opts o;
    gm_pattern_opts_default(&o);
    struct gm_findings f = {0};
    CHECK(gm_find_intra_patterns(r, &o, &f) == 0);
    CHECK_EQ(f.n, 1);
    if (f.n) {
        CHECK_EQ(f.v[0].pattern, GM_PAT_STRUCTURED);
        CHECK_EQ(f.v[0].bytes, 1024 - 256);
    }
    gm_findings_free(&f);
    /* one more launch touching everything: no longer structured */
    CHECK(gm_report_alloc_add_launch(a, 20, all) != NULL);
    CHECK(gm_find_intra_patterns(r, &o, &f) == 0);
    CHECK_EQ(f.n, 0);
    gm_findings_free(&f);
    gm_report_free(r);
}

int main(void)
{
    test_runs();
    test_metrics();
    test_nonuniform();
    test_structured();
    TEST_MAIN_END();
}
