/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of the streaming reader (json_parse.c, json_doc.c): a report
 * reads the same through any input window (tokens cut at every byte), from
 * memory or from a file, with its top-level members in any order (those
 * put off are read by going back); strict JSON is required; strings
 * repeated in a report are stored once. Depends on the report library.
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "gm_report_json.h"
#include "json_parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

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
    char *argv[] = {"./app", "caf\xc3\xa9 \"q\"\n"};
    gm_report_set_argv(r, 2, argv);
    gm_report_add_device(r, 0, "NVIDIA H100");
    struct gm_report_module *m = gm_report_add_module(r, 0xab, "k.cu", 2);
    gm_report_set_site(m, 0, 1, 1, 1, 0x01010004, "_Z1kPf", "k.cu", 7, 3);
    gm_report_add_counter_set(m, "coalescing", 2, 0, "warps,sectors");
    struct gm_report_kernel *k = gm_report_get_kernel(r, m->modid, "k<int, 3>");
    uint64_t v[2] = {4, 9007199254740993ull};
    gm_report_add_kernel_site_counters(k, "coalescing", 2, 2, 0, v, 2);
    struct gm_report_alloc *a = gm_report_add_alloc(r, 7, 0x7f0000000000ull, 300, "cudaMalloc");
    gm_report_set_hostsite(&a->alloc_site, "main.cu", 30, "main");
    a->alloc_seq = 1;
    struct gm_report_event *e = gm_report_add_event(r, 1, GM_OP_ALLOC, 300);
    gm_report_event_add_use(e, 7, 0, 0, 0);
    gm_report_set_hostsite(&e->site, "main.cu", 30, "main");
    for (uint64_t i = 0; i < 3; i++) {
        struct gm_report_launch *l = gm_report_add_launch(r, 2 + i, 0, "cudaLaunchKernel");
        gm_report_set_hostsite(&l->site, "main.cu", 40, "main");
        e = gm_report_add_event(r, 2 + i, GM_OP_LAUNCH, 0);
        e->launch = (int64_t)i;
        gm_report_set_hostsite(&e->site, "main.cu", 40, "main");
        gm_report_event_add_use(e, 7, GM_USE_READ, 0, 0);
        gm_report_event_add_use(e, 7, GM_USE_WRITE, 4, 8);
        gm_report_event_add_use(e, 7, GM_USE_WRITE, 8, 8);
    }
    gm_report_add_note(r, "a note");
    return r;
}

static void expect_same(struct gm_report *r, const char *want, const char *what)
{
    CHECK(r != NULL);
    if (!r)
        return;
    char *got = to_json(r);
    if (strcmp(got, want))
        fprintf(stderr, "%s: the report read differs\n", what);
    CHECK(strcmp(got, want) == 0);
    free(got);
    gm_report_free(r);
}

static void test_windows(const char *json)
{
    static const size_t sizes[] = {1, 2, 3, 5, 8, 64, 1u << 20};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        char err[256] = "";
        gm_jin_window = sizes[i];
        expect_same(gm_report_parse_json(json, strlen(json), err, sizeof err), json, "window");
    }
    gm_jin_window = 1u << 20;
}

/* The members of the top-level object in reverse order (the writer puts
 * each on a line that starts with one tab). */
static char *reversed(const char *json)
{
    const char *part[32];
    size_t n = 0, len = strlen(json);
    for (const char *p = strstr(json, "\n\t\""); p && n < 32; p = strstr(p + 1, "\n\t\""))
        part[n++] = p + 2;
    char *out = calloc(1, len + 8), *o = out;
    o += sprintf(o, "{");
    for (size_t i = n; i-- > 0;) {
        const char *end = i + 1 < n ? part[i + 1] - 3 : json + len - 3; /* ",\n\t" or "\n}\n" */
        o += sprintf(o, "%s%.*s", i + 1 < n ? ", " : "", (int)(end - part[i]), part[i]);
    }
    sprintf(o, "}");
    return out;
}

static void test_order(const char *json)
{
    char *rev = reversed(json), err[256] = "";
    CHECK(rev[1] == '"' && strstr(rev, "\"notes\"") < strstr(rev, "\"schema\""));
    expect_same(gm_report_parse_json(rev, strlen(rev), err, sizeof err), json, "reversed");
    /* a member missing is named, whatever the order */
    char *cut = strstr(rev, "\"modules\"");
    memcpy(cut, "\"modulez\"", 9);
    CHECK(gm_report_parse_json(rev, strlen(rev), err, sizeof err) == NULL);
    CHECK_STR(err, "report.modules: missing");
    free(rev);
}

static void test_file(const char *json)
{
    char path[] = "/tmp/gm-test-stream-XXXXXX", err[256] = "";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    char *rev = reversed(json);
    for (int pass = 0; pass < 2; pass++) {
        const char *text = pass ? rev : json;
        CHECK(ftruncate(fd, 0) == 0 && pwrite(fd, text, strlen(text), 0) == (ssize_t)strlen(text));
        gm_jin_window = 7;
        expect_same(gm_report_load_json(path, err, sizeof err), json, "file");
        gm_jin_window = 1u << 20;
    }
    close(fd);
    unlink(path);
    free(rev);
}

static void test_strict(void)
{
    static const char *const bad[] = {
        "{\"notes\":[\"a\x01\"]}",          /* raw control character */
        "{\"notes\":[\"\\ud800\"]}",        /* lone surrogate */
        "{\"notes\":[\"\\udc00x\"]}",
        "{\"notes\":[\"\\x\"]}",            /* unknown escape */
        "{\"x\":01}", "{\"x\":1.}", "{\"x\":-}", "{\"x\":.5}", "{\"x\":1e}", "{\"x\":+1}",
        "{\"x\":tru}", "{\"x\":nul}", "{\"x\":[1 2]}", "{\"x\":{\"a\" 1}}", "{\"x\":{1:2}}",
        "{\"x\":\x0b" "1}",                 /* not JSON white space */
        "{\"notes\":[\"a\"", "{\"x\":\"abc",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char err[256] = "";
        struct gm_report *r = gm_report_parse_json(bad[i], strlen(bad[i]), err, sizeof err);
        CHECK(r == NULL);
        if (!strstr(err, "malformed JSON near byte"))
            fprintf(stderr, "case %zu: %s\n", i, err);
        CHECK_STR(err, "malformed JSON near byte");
    }
    /* nesting deeper than GM_JMAX_DEPTH (1000) */
    size_t n = 1200;
    char *deep = malloc(2 * n + 16), err[256] = "";
    sprintf(deep, "{\"x\":");
    memset(deep + 5, '[', n);
    memset(deep + 5 + n, ']', n);
    strcpy(deep + 5 + 2 * n, "}");
    CHECK(gm_report_parse_json(deep, strlen(deep), err, sizeof err) == NULL);
    CHECK_STR(err, "malformed JSON near byte 1004");
    free(deep);
}

static void test_shared_strings(const char *json)
{
    char err[256] = "";
    struct gm_report *r = gm_report_parse_json(json, strlen(json), err, sizeof err);
    CHECK(r != NULL && r->nlaunches == 3 && r->nevents == 4);
    if (!r)
        return;
    CHECK(r->launches[0].site.file == r->launches[2].site.file);
    CHECK(r->launches[0].site.file == r->events[3].site.file);
    CHECK(r->launches[0].site.func == r->allocs[0].alloc_site.func);
    CHECK(r->launches[0].api == r->launches[1].api);
    CHECK_STR(r->launches[1].api, "cudaLaunchKernel");
    /* setting a shared site gives it its own copies again */
    CHECK(gm_report_set_hostsite(&r->launches[1].site, "other.cu", 1, NULL) == 0);
    CHECK(r->launches[1].site.file != r->launches[0].site.file);
    CHECK_STR(r->launches[0].site.file, "main.cu");
    gm_report_free(r);
}

int main(void)
{
    struct gm_report *r = sample();
    char *json = to_json(r);
    gm_report_free(r);
    test_windows(json);
    test_order(json);
    test_file(json);
    test_strict();
    test_shared_strings(json);
    free(json);
    if (!gm_failures)
        printf("all checks passed\n");
    return gm_failures != 0;
}
