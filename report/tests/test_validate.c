/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the reader rejects so that no number in a report is silently wrong
 * (issue 15): trailing content, number literals that are not exact
 * integers, values beyond a field's C type, references to modules, counter
 * sets and allocations that do not exist; and totals that saturate at
 * 2^64-1 instead of wrapping. Depends on the report library.
 */
#include "check.h"
#include "gm_analysis.h"
#include "gm_report_json.h"
#include "json_exact.h"

#include <stdlib.h>
#include <string.h>

#define HEAD "{\"schema\":\"gpumem-report\",\"version\":1,\"program\":{\"argv\":[],\"end\":\"normal\"},"
#define TAIL "\"unobserved\":[],\"notes\":[]}"
#define MOD "\"modules\":[{\"modid\":\"0xab\",\"sites\":[{\"id\":0,\"event\":1}]," \
            "\"counter_sets\":[{\"name\":\"coalescing\",\"nslots\":3," \
            "\"slots\":[\"warps\",\"sectors\",\"ideal_sectors\"]}]}],"

static struct gm_report *parse(const char *json, char *err, size_t errlen)
{
    err[0] = 0;
    return gm_report_parse_json(json, strlen(json), err, errlen);
}

static void expect_error(const char *json, const char *want)
{
    char err[512];
    struct gm_report *r = parse(json, err, sizeof err);
    CHECK(r == NULL);
    CHECK_STR(err, want);
    gm_report_free(r);
}

static void expect_ok(const char *json)
{
    char err[512];
    struct gm_report *r = parse(json, err, sizeof err);
    CHECK(r != NULL);
    if (!r)
        fprintf(stderr, "unexpected error: %s\n", err);
    gm_report_free(r);
}

static void test_literals(void)
{
    static const struct { const char *s; int exact; } cases[] = {
        {"0", 1}, {"-0", 1}, {"7", 1}, {"1e3", 1}, {"4.096e3", 1}, {"1200", 1},
        {"100e-2", 1}, {"0.001e3", 1}, {"0e-400", 1}, {"9007199254740992", 1},
        {"-9007199254740992", 1}, {"90071992547409.92e2", 1},
        {"1e-400", 0}, {"1e400", 0}, {"0.5", 0}, {"1.0000000000000000001", 0},
        {"9007199254740993", 0}, {"1e16", 0}, {"12345678901234567890", 0}, {"1.5e0", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int got = gm_json_literal_exact(cases[i].s, strlen(cases[i].s));
        if (got != cases[i].exact)
            fprintf(stderr, "literal %s\n", cases[i].s);
        CHECK_EQ(got, cases[i].exact);
    }
}

static void test_numbers(void)
{
    const char *alloc = HEAD "\"devices\":[],\"modules\":[],\"kernels\":[],\"launches\":[],"
                        "\"allocations\":[{\"id\":1,\"dev_ptr\":\"0x10\",\"size\":%s,\"freed\":false}],"
                        "\"events\":[]," TAIL;
    char buf[1024];
    snprintf(buf, sizeof buf, alloc, "1e-400");
    expect_error(buf, "allocations[0].size: not an exact integer");
    snprintf(buf, sizeof buf, alloc, "9007199254740993");
    expect_error(buf, "allocations[0].size: not an exact integer");
    snprintf(buf, sizeof buf, alloc, "\"9007199254740993\""); /* the exact way */
    expect_ok(buf);
    snprintf(buf, sizeof buf, alloc, "4.096e3");
    expect_ok(buf);
    /* unknown fields are not read: any number is fine there */
    expect_ok(HEAD "\"devices\":[],\"modules\":[],\"kernels\":[],\"launches\":[],"
              "\"allocations\":[],\"events\":[],\"future\":1e-400," TAIL);
}

static void test_trailing(void)
{
    const char *ok = HEAD "\"devices\":[],\"modules\":[],\"kernels\":[],\"launches\":[],"
                     "\"allocations\":[],\"events\":[]," TAIL;
    char buf[1024];
    snprintf(buf, sizeof buf, "%s \n\t", ok);
    expect_ok(buf);
    /* a member named with escapes is the member */
    expect_error("{\"schema\":\"gpumem-report\",\"ver\\u0073ion\":2}",
                 "unsupported schema version 2");
    snprintf(buf, sizeof buf, "%s garbage", ok);
    expect_error(buf, "trailing content after the JSON value at byte");
    snprintf(buf, sizeof buf, "%s{}", ok);
    expect_error(buf, "trailing content");
    /* arrays are read element by element: their punctuation still counts */
    expect_error(HEAD "\"devices\":[],\"modules\":[],\"kernels\":[],\"launches\":[],"
                 "\"allocations\":[],\"events\":[],\"unobserved\":[],\"notes\":[\"a\",]}",
                 "malformed JSON near byte");
    expect_error(HEAD "\"devices\":[],\"modules\":[],\"kernels\":[],\"launches\":[],"
                 "\"allocations\":[],\"events\":[],\"unobserved\":[],\"notes\":[\"a\" \"b\"]}",
                 "malformed JSON near byte");
    expect_error(HEAD "\"devices\":[],\"modules\":[],\"kernels\":[],\"launches\":[],"
                 "\"allocations\":[],\"events\":[],\"unobserved\":[],\"notes\":[,]}",
                 "malformed JSON near byte");
    expect_error(HEAD "\"devices\":[],\"modules\":[],\"kernels\":[],\"launches\":[],"
                 "\"allocations\":[],\"events\":[],\"unobserved\":[],\"notes\":[],}",
                 "malformed JSON near byte");
}

static void test_ranges(void)
{
    expect_error(HEAD "\"devices\":[{\"ordinal\":4294967296}],\"modules\":[],\"kernels\":[],"
                 "\"launches\":[],\"allocations\":[],\"events\":[]," TAIL,
                 "devices[0].ordinal: expected an integer from -2147483648 to 2147483647");
    expect_error(HEAD "\"devices\":[],\"modules\":[{\"modid\":\"0xab\",\"sites\":[{\"id\":0,"
                 "\"event\":257}],\"counter_sets\":[]}],\"kernels\":[],\"launches\":[],"
                 "\"allocations\":[],\"events\":[]," TAIL,
                 "modules[0].sites[0].event: expected an integer from 0 to 255");
    expect_error(HEAD "\"devices\":[],\"modules\":[],\"kernels\":[],\"launches\":[],"
                 "\"allocations\":[],\"events\":[{\"seq\":1,\"op\":\"alloc\",\"uses\":[],"
                 "\"site\":{\"file\":\"a.cu\",\"line\":4294967297}}]," TAIL,
                 "events[0].site.line: expected an integer from 0 to 4294967295");
}

static void test_references(void)
{
    expect_error(HEAD "\"devices\":[]," MOD "\"kernels\":[{\"name\":\"k\",\"modid\":\"0xac\","
                 "\"launches\":1,\"counters\":[]}],\"launches\":[],\"allocations\":[],"
                 "\"events\":[]," TAIL,
                 "kernels[0].modid: no such module 0x00000000000000ac");
    /* modid 0: a kernel of a module gpumem did not instrument; no counters */
    expect_ok(HEAD "\"devices\":[]," MOD "\"kernels\":[{\"name\":\"k\",\"modid\":\"0x0\","
              "\"launches\":1,\"counters\":[]}],\"launches\":[],\"allocations\":[],"
              "\"events\":[]," TAIL);
    expect_error(HEAD "\"devices\":[]," MOD "\"kernels\":[{\"name\":\"k\",\"modid\":\"0x0\","
                 "\"launches\":1,\"counters\":[{\"set\":\"coalescing\",\"nsites\":1,\"nslots\":3,"
                 "\"sites\":[]}]}],\"launches\":[],\"allocations\":[],\"events\":[]," TAIL,
                 "kernels[0].counters[0]: counters of a kernel in no module");
    expect_error(HEAD "\"devices\":[]," MOD "\"kernels\":[{\"name\":\"k\",\"modid\":\"0xab\","
                 "\"launches\":1,\"counters\":[{\"set\":\"divergence\",\"nsites\":1,\"nslots\":3,"
                 "\"sites\":[]}]}],\"launches\":[],\"allocations\":[],\"events\":[]," TAIL,
                 "kernels[0].counters[0]: set: no counter set \"divergence\"");
    expect_error(HEAD "\"devices\":[]," MOD "\"kernels\":[{\"name\":\"k\",\"modid\":\"0xab\","
                 "\"launches\":1,\"counters\":[{\"set\":\"coalescing\",\"nsites\":2,\"nslots\":3,"
                 "\"sites\":[]}]}],\"launches\":[],\"allocations\":[],\"events\":[]," TAIL,
                 "kernels[0].counters[0]: nsites: 2, but the module has 1 sites");
    expect_error(HEAD "\"devices\":[]," MOD "\"kernels\":[{\"name\":\"k\",\"modid\":\"0xab\","
                 "\"launches\":1,\"counters\":[{\"set\":\"coalescing\",\"nsites\":1,\"nslots\":2,"
                 "\"sites\":[]}]}],\"launches\":[],\"allocations\":[],\"events\":[]," TAIL,
                 "kernels[0].counters[0]: nslots: 2, but set \"coalescing\" has 3 slots");
    expect_error(HEAD "\"devices\":[],\"modules\":[],\"kernels\":[],\"launches\":[],"
                 "\"allocations\":[{\"id\":1,\"dev_ptr\":\"0x10\",\"size\":8,\"freed\":false}],"
                 "\"events\":[{\"seq\":1,\"op\":\"alloc\",\"uses\":[{\"alloc\":1,\"how\":\"-\"}]},"
                 "{\"seq\":2,\"op\":\"memset\",\"uses\":[{\"alloc\":1,\"how\":\"w\"},"
                 "{\"alloc\":9,\"how\":\"w\"}]}]," TAIL,
                 "events[1].uses[1].alloc: no such allocation 9");
}

/* Two sites of 2^64-1 sectors: the kernel's total stays at 2^64-1 (it
 * wrapped to a small number before), and so does the line total. */
static void test_saturation(void)
{
    const char *json = HEAD "\"devices\":[],\"modules\":[{\"modid\":\"0xab\",\"sites\":["
        "{\"id\":0,\"event\":1,\"file\":\"a.cu\",\"line\":3},"
        "{\"id\":1,\"event\":1,\"file\":\"a.cu\",\"line\":3}],"
        "\"counter_sets\":[{\"name\":\"coalescing\",\"nslots\":3,"
        "\"slots\":[\"warps\",\"sectors\",\"ideal_sectors\"]}]}],"
        "\"kernels\":[{\"name\":\"k\",\"modid\":\"0xab\",\"launches\":1,\"counters\":["
        "{\"set\":\"coalescing\",\"nsites\":2,\"nslots\":3,\"sites\":["
        "{\"site\":0,\"v\":[1,\"18446744073709551615\",400]},"
        "{\"site\":1,\"v\":[1,\"18446744073709551615\",0]}]}]}],"
        "\"launches\":[],\"allocations\":[],\"events\":[]," TAIL;
    char err[512];
    struct gm_report *r = parse(json, err, sizeof err);
    CHECK(r != NULL);
    if (!r)
        return;
    struct gm_kernel_stat *ks = NULL;
    struct gm_line_stat *ls = NULL;
    CHECK_EQ(gm_kernel_stats(r, &ks), 1);
    CHECK_EQ(ks[0].sectors, UINT64_MAX);
    CHECK_EQ(ks[0].excess_sectors, UINT64_MAX);
    CHECK_EQ(gm_line_stats(r, &ls), 1);
    CHECK_EQ(ls[0].sectors, UINT64_MAX);
    free(ks);
    free(ls);
    gm_report_free(r);
}

int main(void)
{
    test_literals();
    test_numbers();
    test_trailing();
    test_ranges();
    test_references();
    test_saturation();
    TEST_MAIN_END();
}
