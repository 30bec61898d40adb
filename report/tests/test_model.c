/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of the report model's building functions: counter sets and
 * slot names, per-kernel counter sums, launches, lookups, and the
 * per-source-line / per-branch aggregation over them.
 * Depends on the report library only.
 */
#include "check.h"
#include "gm_analysis.h"

#include <stdlib.h>

static void test_slots(void)
{
    struct gm_report *r = gm_report_new();
    struct gm_report_module *m = gm_report_add_module(r, 1, "a.cu", 2);
    struct gm_report_counter_set *s = gm_report_add_counter_set(m, "x", 4, 0, "a,,c");
    CHECK(s != NULL);
    CHECK_STR(s->slot_names[0], "a");
    CHECK(s->slot_names[1][0] == 0 && s->slot_names[3][0] == 0);
    CHECK_EQ(gm_report_slot_index(s, "c"), 2);
    CHECK(gm_report_slot_index(s, "d") == -1);
    const char *const names[] = {"nope", "c", "a", NULL};
    CHECK_EQ(gm_slot_find(s, names), 2);
    CHECK(gm_report_find_set(m, "x") == s);
    CHECK(gm_report_find_set(m, "y") == NULL);
    CHECK(gm_report_set_site(m, 2, 1, 1, 1, 0, "f", "a.cu", 1, 1) == -1); /* out of range */
    gm_report_free(r);
}

static void test_kernel_counters(void)
{
    struct gm_report *r = gm_report_new();
    struct gm_report_kernel *k = gm_report_get_kernel(r, 5, "k");
    CHECK(gm_report_get_kernel(r, 5, "k") == k);
    CHECK(gm_report_get_kernel(r, 6, "k") != k);      /* same name, other module */
    k = gm_report_find_kernel(r, 5, "k");
    uint64_t launch1[6] = {1, 2, 3, 4, 5, 6}, launch2[6] = {10, 20, 30, 40, 50, 60};
    CHECK(gm_report_add_kernel_counters(k, "c", 3, 2, launch1) == 0);
    CHECK(gm_report_add_kernel_counters(k, "c", 3, 2, launch2) == 0);
    CHECK(gm_report_add_kernel_counters(k, "c", 2, 3, launch2) == -1); /* shape changed */
    uint64_t one[2] = {100, 200};
    CHECK(gm_report_add_kernel_site_counters(k, "c", 3, 2, 1, one, 2) == 0);
    CHECK(gm_report_add_kernel_site_counters(k, "c", 3, 2, 3, one, 2) == -1);
    const struct gm_report_kcounters *c = gm_report_kernel_set(k, "c");
    uint64_t want[6] = {11, 22, 133, 244, 55, 66};
    for (int i = 0; i < 6; i++)
        CHECK_EQ(c->v[i], want[i]);
    CHECK(gm_report_add_launch(r, 1, 0, "cudaLaunchKernel") != NULL);
    CHECK(gm_report_add_launch(r, 2, 0, "cudaLaunchKernel") != NULL);
    CHECK(gm_report_add_launch(r, 3, 9, "x") == NULL);  /* no such kernel */
    CHECK_EQ(r->kernels[0].launches, 2);
    gm_report_free(r);
}

/* "|or" slots (abi.h): stored without the suffix, folded by OR across
 * launches; other slots are summed. */
static void test_or_fold(void)
{
    struct gm_report *r = gm_report_new();
    struct gm_report_module *m = gm_report_add_module(r, 3, "v.cu", 1);
    struct gm_report_counter_set *s =
        gm_report_add_counter_set(m, "values", 4, 0, "warps,uniform,ones|or,zeros|or");
    CHECK(s != NULL);
    CHECK_STR(s->slot_names[2], "ones");
    CHECK_STR(s->slot_names[3], "zeros");
    CHECK(!gm_report_slot_is_or(s, 0) && !gm_report_slot_is_or(s, 1));
    CHECK(gm_report_slot_is_or(s, 2) && gm_report_slot_is_or(s, 3) && !gm_report_slot_is_or(s, 4));
    CHECK_EQ(gm_report_slot_index(s, "ones"), 2);
    struct gm_report_kernel *k = gm_report_get_kernel(r, 3, "k");
    uint64_t l1[4] = {512, 512, 0x3f800000, 0xc07fffff}, l2[4] = {512, 0, 0x7, 0xfffffff8};
    CHECK(gm_report_fold_kernel_counters(r, k, "values", 1, 4, l1) == 0);
    CHECK(gm_report_fold_kernel_counters(r, k, "values", 1, 4, l1) == 0);
    const struct gm_report_kcounters *c = gm_report_kernel_set(k, "values");
    CHECK_EQ(c->v[0], 1024);
    CHECK_EQ(c->v[1], 1024);
    CHECK_EQ(c->v[2], 0x3f800000);
    CHECK_EQ(c->v[3], 0xc07fffff);
    CHECK(gm_report_fold_kernel_counters(r, k, "values", 1, 4, l2) == 0);
    CHECK_EQ(c->v[2], 0x3f800007);
    CHECK_EQ(c->v[3], 0xfffffffful);
    struct gm_report_counter_set *plain = gm_report_add_counter_set(m, "x", 2, 0, "or,a|o");
    CHECK(plain && !gm_report_slot_is_or(plain, 0) && !gm_report_slot_is_or(plain, 1));
    CHECK_STR(plain->slot_names[1], "a|o");
    gm_report_free(r);
}

/* Two kernels share a source line; a third line is perfectly coalesced. */
static void test_lines_and_branches(void)
{
    struct gm_report *r = gm_report_new();
    struct gm_report_module *m = gm_report_add_module(r, 9, "m.cu", 3);
    gm_report_set_site(m, 0, 1, 1, 1, 0x01010004, "k1", "m.cu", 5, 1);
    gm_report_set_site(m, 1, 1, 1, 1, 0x01010004, "k2", "m.cu", 5, 9);
    gm_report_set_site(m, 2, 2, 0, 1, 2, "k2", "m.cu", 8, 1);
    gm_report_add_counter_set(m, "coalescing", 3, 0, "ideal_sectors,warps,sectors");
    gm_report_add_counter_set(m, "divergence", 2, 0, "divergent,warps");
    struct gm_report_kernel *k1 = gm_report_get_kernel(r, 9, "k1");
    uint64_t c1[9] = {4, 1, 10, 0, 0, 0, 0, 0, 0};           /* site 0: excess 6 */
    gm_report_add_kernel_counters(k1, "coalescing", 3, 3, c1);
    struct gm_report_kernel *k2 = gm_report_get_kernel(r, 9, "k2");
    uint64_t c2[9] = {0, 0, 0, 8, 2, 9, 0, 0, 0};            /* site 1: excess 1 */
    gm_report_add_kernel_counters(k2, "coalescing", 3, 3, c2);
    uint64_t d2[6] = {0, 0, 0, 0, 3, 12};                     /* site 2: 3 of 12 */
    gm_report_add_kernel_counters(k2, "divergence", 3, 2, d2);
    struct gm_line_stat *ls;
    long n = gm_line_stats(r, &ls);
    CHECK_EQ(n, 1);
    if (n == 1) {
        CHECK_EQ(ls[0].line, 5);
        CHECK_EQ(ls[0].nkernels, 2);
        CHECK_EQ(ls[0].warps, 3);
        CHECK_EQ(ls[0].sectors, 19);
        CHECK_EQ(ls[0].ideal_sectors, 12);
        CHECK_EQ(ls[0].excess_sectors, 7);
    }
    free(ls);
    struct gm_branch_stat *bs;
    n = gm_branch_stats(r, &bs);
    CHECK_EQ(n, 1);
    if (n == 1) {
        CHECK_EQ(bs[0].execs, 12);
        CHECK_EQ(bs[0].divergent, 3);
        CHECK_EQ(bs[0].s->line, 8);
    }
    free(bs);
    struct gm_kernel_stat *ks;
    n = gm_kernel_stats(r, &ks);
    CHECK_EQ(n, 2);
    if (n == 2) {                  /* no GPU times: ordered by memory warps */
        CHECK_STR(ks[0].k->name, "k2");
        CHECK_EQ(ks[0].excess_sectors, 1);
        CHECK_EQ(ks[0].br_divergent, 3);
        CHECK_EQ(ks[1].excess_sectors, 6);
    }
    free(ks);
    gm_report_free(r);
}

/* Kernels are found by (modid, name) through an index that grows with them:
 * every one found, the same pair never added twice, a missing one not found. */
static void test_kernel_index(void)
{
    struct gm_report *r = gm_report_new();
    char name[32];
    for (int i = 0; i < 20000; i++) {
        snprintf(name, sizeof name, "k%d", i / 3);
        CHECK(gm_report_get_kernel(r, (uint64_t)(i % 3), name) != NULL);
    }
    CHECK_EQ(r->nkernels, 20000);
    for (int i = 0; i < 20000; i += 7) {
        snprintf(name, sizeof name, "k%d", i / 3);
        struct gm_report_kernel *k = gm_report_find_kernel(r, (uint64_t)(i % 3), name);
        CHECK(k && k->modid == (uint64_t)(i % 3) && strcmp(k->name, name) == 0);
        CHECK(gm_report_get_kernel(r, (uint64_t)(i % 3), name) == k);
    }
    CHECK_EQ(r->nkernels, 20000);
    CHECK(gm_report_find_kernel(r, 3, "k0") == NULL);
    CHECK(gm_report_find_kernel(r, 0, "k99999") == NULL);
    gm_report_free(r);
}

int main(void)
{
    test_kernel_index();
    test_slots();
    test_kernel_counters();
    test_or_fold();
    test_lines_and_branches();
    TEST_MAIN_END();
}
