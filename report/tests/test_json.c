/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of the JSON form: a report built through the model API
 * survives write -> parse -> write byte for byte (64-bit values, bitmaps,
 * negative times included), and malformed or wrong-version documents are
 * rejected with one line naming the problem. Depends on the report library.
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "gm_report_json.h"

#include <stdio.h>
#include <stdlib.h>

static char *to_json(const struct gm_report *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK(f != NULL);
    CHECK(gm_report_write_json(r, f) == 0);
    fclose(f);
    return buf;
}

static struct gm_report *sample(void)
{
    struct gm_report *r = gm_report_new();
    char *argv[] = {"./app", "--n=3", "a \"quoted\" arg"};
    gm_report_set_argv(r, 3, argv);
    r->program.pid = 1234;
    r->program.start_ns = 1700000000123456789;
    r->program.end_ns = 1700000001123456789;
    r->program.end = GM_END_SIGNAL;
    r->program.exit_status = 6;
    gm_report_set_str(&r->program.analyses, "coalescing,allocations");
    struct gm_report_device *d = gm_report_add_device(r, 0, "NVIDIA H100");
    d->cc_major = 9;
    d->sm_count = 132;
    d->global_mem = 85028569088ull;
    struct gm_report_module *m = gm_report_add_module(r, 0xfedcba9876543210ull, "k.cu", 3);
    gm_report_set_site(m, 0, 1, 1, 1, 0x01010004, "_Z1kPf", "k.cu", 7, 3);
    gm_report_set_site(m, 2, 2, 0, 1, 2, "_Z1kPf", "k.cu", 9, 5);
    gm_report_add_counter_set(m, "coalescing", 3, 0, "warps,sectors,ideal_sectors");
    gm_report_add_counter_set(m, "values", 2, 0, "warps,ones|or");
    struct gm_report_kernel *k = gm_report_get_kernel(r, m->modid, "_Z1kPf");
    uint64_t big[3] = {(1ull << 60) + 1, 9007199254740993ull, 5};  /* above 2^53 */
    gm_report_add_kernel_site_counters(k, "coalescing", 3, 3, 2, big, 3);
    struct gm_report_launch *l = gm_report_add_launch(r, 2, 0, "cuLaunchKernelEx");
    l->grid[0] = 1u << 31;
    l->block[0] = 1024;
    l->stream = 0xffffffffffffffffull;
    gm_report_set_hostsite(&l->site, "main.cu", 40, "main");
    struct gm_report_alloc *a = gm_report_add_alloc(r, 7, 0x7f00deadbeef0000ull, 300, "cudaMallocManaged");
    gm_report_set_str(&a->label, "weights");
    gm_report_set_hostsite(&a->alloc_site, "main.cu", 30, NULL);
    a->alloc_seq = 1;
    uint64_t bm[2] = {0x8000000000000001ull, 0x3ull}; /* 75 units */
    gm_report_alloc_set_bitmap(a, 4, bm);
    a->reads = 10;
    a->hist[0] = 71;
    a->hist[15] = 4;
    gm_report_alloc_add_launch(a, 2, bm)->writes = 3;
    struct gm_report_event *e = gm_report_add_event(r, 1, GM_OP_ALLOC, 300);
    gm_report_event_add_use(e, 7, 0, 0, 0);
    e = gm_report_add_event(r, 2, GM_OP_LAUNCH, 0);
    e->launch = 0;
    e->time_ns = -1;
    gm_report_event_add_use(e, 7, GM_USE_READ | GM_USE_WRITE, 4, 296);
    e = gm_report_add_event(r, 3, GM_OP_MEMCPY, 300);
    e->dir = GM_XFER_D2H;
    gm_report_event_add_use(e, 7, GM_USE_UNKNOWN, 0, 0);
    gm_report_add_unobserved(r, NULL, "CUPTI held by another tool", 2);
    gm_report_add_note(r, "note %d", 1);
    return r;
}

static void test_round_trip(void)
{
    struct gm_report *r = sample();
    char *j1 = to_json(r);
    char err[512] = "";
    struct gm_report *r2 = gm_report_parse_json(j1, strlen(j1), err, sizeof err);
    CHECK(r2 != NULL);
    if (!r2) {
        fprintf(stderr, "parse error: %s\n", err);
        free(j1);
        gm_report_free(r);
        return;
    }
    char *j2 = to_json(r2);
    CHECK(strcmp(j1, j2) == 0);
    const struct gm_report_kcounters *c = gm_report_kernel_set(&r2->kernels[0], "coalescing");
    CHECK(c != NULL);
    if (c) {
        CHECK_EQ(c->v[2 * 3 + 0], (1ull << 60) + 1);
        CHECK_EQ(c->v[2 * 3 + 1], 9007199254740993ull);
    }
    CHECK_EQ(r2->kernels[0].launches, 1);
    CHECK_EQ(r2->launches[0].stream, 0xffffffffffffffffull);
    CHECK_EQ(r2->allocs[0].dev_ptr, 0x7f00deadbeef0000ull);
    CHECK_EQ(r2->allocs[0].bitmap[0], 0x8000000000000001ull);
    CHECK_EQ(r2->allocs[0].touched_units, 4);
    CHECK_EQ(r2->allocs[0].launches[0].writes, 3);
    CHECK_EQ(r2->events[1].uses[0].how, GM_USE_READ | GM_USE_WRITE);
    CHECK_EQ(r2->events[2].uses[0].how, GM_USE_UNKNOWN);
    CHECK_EQ(r2->program.end, GM_END_SIGNAL);
    CHECK_STR(r2->program.argv[2], "\"quoted\"");
    CHECK_EQ(r2->modules[0].sets[0].nslots, 3);
    CHECK_STR(r2->modules[0].sets[0].slot_names[2], "ideal_sectors");
    CHECK_STR(r2->modules[0].sets[1].slot_names[1], "ones");   /* "|or" kept as the fold rule */
    CHECK(gm_report_slot_is_or(&r2->modules[0].sets[1], 1) && !gm_report_slot_is_or(&r2->modules[0].sets[1], 0));
    CHECK(!gm_report_slot_is_or(&r2->modules[0].sets[0], 1));
    free(j1);
    free(j2);
    gm_report_free(r);
    gm_report_free(r2);
}

#define EMPTY_PARTS "\"devices\":[],\"modules\":[],\"kernels\":[],\"launches\":[]," \
                    "\"allocations\":[],\"events\":[],\"unobserved\":[],\"notes\":[]"
#define HEAD "{\"schema\":\"gpumem-report\",\"version\":1,\"program\":{\"argv\":[],\"end\":\"normal\"},"

static void expect_error(const char *json, const char *want)
{
    char err[512] = "";
    struct gm_report *r = gm_report_parse_json(json, strlen(json), err, sizeof err);
    CHECK(r == NULL);
    CHECK_STR(err, want);
    CHECK(strchr(err, '\n') == NULL);
    gm_report_free(r);
}

static void test_rejects(void)
{
    char err[512];
    struct gm_report *ok = gm_report_parse_json(HEAD EMPTY_PARTS "}", strlen(HEAD EMPTY_PARTS "}"),
                                                err, sizeof err);
    CHECK(ok != NULL);
    gm_report_free(ok);
    expect_error("", "malformed JSON");
    expect_error("{\"schema\":", "malformed JSON");
    expect_error("[]", "expected a JSON object");
    expect_error("{\"schema\":\"other\",\"version\":1}", "not a gpumem report");
    expect_error("{\"schema\":\"gpumem-report\",\"version\":2}", "unsupported schema version 2");
    expect_error("{\"schema\":\"gpumem-report\"}", "report.version: missing");
    expect_error(HEAD "\"devices\":[]}", "report.modules: missing");
    expect_error(HEAD "\"devices\":[],\"modules\":[],\"kernels\":[],\"launches\":[],"
                 "\"allocations\":[{\"id\":1,\"dev_ptr\":\"0x10\",\"size\":-5,\"freed\":false}],"
                 "\"events\":[],\"unobserved\":[],\"notes\":[]}",
                 "allocations[0].size: expected a non-negative integer");
    expect_error(HEAD "\"devices\":[],\"modules\":[],\"kernels\":[],\"launches\":[],"
                 "\"allocations\":[{\"id\":1,\"dev_ptr\":\"16\",\"size\":5,\"freed\":false}],"
                 "\"events\":[],\"unobserved\":[],\"notes\":[]}",
                 "allocations[0].dev_ptr: expected a hex string");
    expect_error(HEAD "\"devices\":[],\"modules\":[],\"kernels\":[],\"launches\":[],"
                 "\"allocations\":[{\"id\":1,\"dev_ptr\":\"0x10\",\"size\":8,\"freed\":false,"
                 "\"access\":{\"granularity\":4,\"touched_units\":1,\"largest_untouched_units\":1,"
                 "\"bitmap\":\"00\"}}],\"events\":[],\"unobserved\":[],\"notes\":[]}",
                 "bitmap length");
    expect_error(HEAD "\"devices\":[],\"modules\":[],\"kernels\":[],\"launches\":[],"
                 "\"allocations\":[],\"events\":[{\"seq\":1,\"op\":\"bogus\",\"uses\":[]}],"
                 "\"unobserved\":[],\"notes\":[]}",
                 "events[0]: op");
    expect_error(HEAD "\"devices\":[],\"modules\":[],\"kernels\":[],\"launches\":[],"
                 "\"allocations\":[],\"events\":[{\"seq\":2,\"op\":\"alloc\",\"uses\":[]},"
                 "{\"seq\":2,\"op\":\"free\",\"uses\":[]}],\"unobserved\":[],\"notes\":[]}",
                 "events[1]: seq must increase");
    expect_error(HEAD "\"devices\":[],\"modules\":[],\"kernels\":[],"
                 "\"launches\":[{\"seq\":1,\"kernel\":0}],\"allocations\":[],\"events\":[],"
                 "\"unobserved\":[],\"notes\":[]}",
                 "launches[0]: kernel index out of range");
    expect_error(HEAD "\"devices\":[],\"modules\":[{\"modid\":\"0x1\",\"sites\":[],"
                 "\"counter_sets\":[{\"name\":\"c\",\"nslots\":2,\"slots\":[\"a\"]}]}],"
                 "\"kernels\":[],\"launches\":[],\"allocations\":[],\"events\":[],"
                 "\"unobserved\":[],\"notes\":[]}",
                 "slots has not nslots names");
    expect_error(HEAD "\"devices\":[],\"modules\":[],\"kernels\":[],\"launches\":[],"
                 "\"allocations\":[],\"events\":[],\"unobserved\":[],\"notes\":[1]}",
                 "notes[0]: expected a string");
    expect_error(HEAD "\"devices\":[],\"modules\":[],\"kernels\":[],\"launches\":[],"
                 "\"allocations\":[{\"id\":4,\"dev_ptr\":\"0x10\",\"size\":1,\"freed\":false},"
                 "{\"id\":4,\"dev_ptr\":\"0x20\",\"size\":1,\"freed\":false}],"
                 "\"events\":[],\"unobserved\":[],\"notes\":[]}",
                 "allocations: duplicate allocation id 4");
}

/* Every truncation of a valid report is rejected; byte flips never crash
 * (run under GM_SANITIZE to catch memory errors) and either parse or give
 * one line. */
static void test_mutations(void)
{
    struct gm_report *r = sample();
    char *j = to_json(r);
    size_t n = strrchr(j, '}') - j;    /* without the final brace */
    char err[512];
    int accepted = 0;
    for (size_t len = 0; len <= n; len++) {
        struct gm_report *x = gm_report_parse_json(j, len, err, sizeof err);
        accepted += x != NULL;
        gm_report_free(x);
    }
    CHECK_EQ(accepted, 0);
    static const char flips[] = {'"', '}', ']', ',', '0', 'x', '-', ' ', '\\', ':'};
    unsigned seed = 12345;
    for (int k = 0; k < 3000; k++) {
        char *m = strdup(j);
        seed = seed * 1103515245u + 12345u;
        size_t at = (seed >> 8) % strlen(m);
        m[at] = flips[(seed >> 4) % sizeof flips];
        err[0] = 0;
        struct gm_report *x = gm_report_parse_json(m, strlen(m), err, sizeof err);
        CHECK(x != NULL || (err[0] && !strchr(err, '\n')));
        gm_report_free(x);
        free(m);
    }
    free(j);
    gm_report_free(r);
}

int main(void)
{
    test_round_trip();
    test_mutations();
    test_rejects();
    TEST_MAIN_END();
}
