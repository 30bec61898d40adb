/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target for `gpumem report`'s pipeline: the JSON reader, the
 * derived analyses and every writer. The first input byte picks a mode:
 * - raw (even): the rest is JSON text as is (seeds: the r* files in corpus/), so the
 *   parser and the field checks meet any byte sequence;
 * - structured (odd): the rest drives a generator that writes a report of
 *   valid JSON in the schema's shape with fuzzed values (limits, 2^53 and
 *   2^64 edges, inexact literals, negatives) and fuzzed references (module
 *   ids, kernel and launch indices, allocation ids, seqs, bitmap lengths),
 *   so the checks behind parsing and the analyses are reached.
 * Every report read is written in all formats (text, HTML, JSON to memory;
 * every few inputs, all files into a directory with gm_report_write_dir),
 * and its JSON must read back to the same JSON: a report that changes on a
 * round trip is a silently wrong number. What the reader accepts must also
 * be one JSON document to cJSON as a whole (the reader has its own
 * tokenizer, json_parse.c, and reads element by element through a window
 * the fuzzer makes a few bytes wide). Depends on the report library, cJSON
 * (the independent parser) and libc (open_memstream, mkdtemp).
 */
#define _GNU_SOURCE
#include "gm_report_json.h"
#include "gm_report_write.h"
#include "json_parse.h"

#include <cjson/cJSON.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- input bytes -------------------------------------------------------- */

struct in {
    const uint8_t *d;
    size_t n, at;
};

static unsigned byte(struct in *in) { return in->at < in->n ? in->d[in->at++] : 0; }

/* 1 about once in n: the odd case. 0 when the input has run out, so that a
 * short input still gives a report the reader accepts. */
static int rare(struct in *in, unsigned n) { return byte(in) % n == n - 1; }

static uint64_t u64(struct in *in)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | byte(in);
    return v;
}

/* ---- text out ----------------------------------------------------------- */

struct out {
    char *s;
    size_t n;
    FILE *f;
};

#define W(o, ...) fprintf((o)->f, __VA_ARGS__)

/* An integer field's value: edges of every C type the reader stores it in,
 * inexact literals, the wrong type, or fuzzed bits. */
static void num(struct out *o, struct in *in, uint64_t small_max)
{
    static const char *const edge[] = {
        "0", "1", "255", "256", "65535", "4294967295", "4294967296", "2147483647", "-1",
        "-2147483649", "9007199254740992", "9007199254740993", "\"9007199254740993\"",
        "\"18446744073709551615\"", "\"18446744073709551616\"", "1e-400", "1e400", "0.5",
        "4.096e3", "-0", "\"12x\"", "null", "true", "\"\"", "[]", "{}",
    };
    unsigned k = byte(in);
    if (k < 250)
        W(o, "%llu", (unsigned long long)(small_max ? byte(in) % (small_max + 1) : byte(in)));
    else if (k < 254)
        W(o, "%s", edge[byte(in) % (sizeof edge / sizeof edge[0])]);
    else {
        uint64_t v = u64(in);
        if (v <= (1ull << 53))
            W(o, "%llu", (unsigned long long)v);
        else
            W(o, "\"%llu\"", (unsigned long long)v);
    }
}

static void hex(struct out *o, struct in *in, const uint64_t *pick, size_t npick)
{
    unsigned k = byte(in);
    uint64_t v = k < 250 && npick ? pick[k % npick] : k < 254 ? k % 4 : u64(in);
    W(o, "\"0x%016llx\"", (unsigned long long)v);
}

static void str(struct out *o, struct in *in)
{
    static const char *const s[] = {"a.cu", "main", "", "x\\\"y", "_Z4copyPfS_", "k",
                                    "coalescing", "\\u0000", "\\ud800", "\\u00e9,\\n"};
    unsigned k = byte(in);
    W(o, "\"%s\"", s[k < 250 ? k % 7 : k % 10]); /* odd strings now and then */
}

static void hostsite(struct out *o, struct in *in)
{
    if (byte(in) % 4 == 0) {
        W(o, "null");
        return;
    }
    W(o, "{\"file\":");
    str(o, in);
    W(o, ",\"line\":");
    num(o, in, 100);
    W(o, ",\"func\":null}");
}

/* ---- a report in the schema's shape ------------------------------------- */

static const char *const SETS[] = {"coalescing", "divergence", "values", "other"};
static const char *const SLOTS[] = {
    "\"warps\",\"threads\",\"sectors\",\"lines\",\"ideal_sectors\",\"wavefronts\",\"ideal_wavefronts\"",
    "\"warps\",\"threads\",\"taken\",\"not_taken\",\"divergent\"",
    "\"warps\",\"uniform\",\"ones\",\"zeros\"", "\"a\""};
static const unsigned NSLOTS[] = {7, 5, 4, 1};

struct shape {
    uint64_t modids[4];
    unsigned nmod, nsites[4], first_set[4], nkern, nlaunch, nalloc;
    uint64_t ids[16];
};

static void modules(struct out *o, struct in *in, struct shape *sh)
{
    W(o, "\"modules\":[");
    sh->nmod = byte(in) % 4;
    for (unsigned m = 0; m < sh->nmod; m++) {
        sh->modids[m] = 0xab + m;
        sh->nsites[m] = byte(in) % 6;
        W(o, "%s{\"modid\":\"0x%llx\",\"sites\":[", m ? "," : "", (unsigned long long)sh->modids[m]);
        for (unsigned s = 0; s < sh->nsites[m]; s++) {
            W(o, "%s{\"id\":", s ? "," : "");
            if (rare(in, 64))
                num(o, in, 8);
            else
                W(o, "%u", s);
            W(o, ",\"event\":%u,\"space\":%u,\"info\":", 1 + byte(in) % 2, byte(in) % 4);
            num(o, in, 0);
            W(o, ",\"file\":");
            str(o, in);
            W(o, ",\"line\":");
            num(o, in, 50);
            W(o, "}");
        }
        W(o, "],\"counter_sets\":[");
        unsigned nsets = 1 + byte(in) % 4, first = sh->first_set[m] = byte(in);
        for (unsigned k = 0; k < nsets; k++) {
            unsigned which = (first + k) % 4;
            W(o, "%s{\"name\":\"%s\",\"nslots\":%u,\"slots\":[%s]%s}", k ? "," : "", SETS[which],
              NSLOTS[which] + rare(in, 64), SLOTS[which],
              which == 2 ? ",\"fold\":[\"sum\",\"sum\",\"or\",\"or\"]" : "");
        }
        W(o, "]}");
    }
    W(o, "],");
}

static void kernels(struct out *o, struct in *in, struct shape *sh)
{
    W(o, "\"kernels\":[");
    sh->nkern = byte(in) % 5;
    for (unsigned k = 0; k < sh->nkern; k++) {
        unsigned m = sh->nmod ? byte(in) % sh->nmod : 0;
        W(o, "%s{\"name\":\"k%u\",\"modid\":", k ? "," : "", k);
        if (!sh->nmod)
            W(o, "\"0x0\"");
        else if (rare(in, 64))
            hex(o, in, sh->modids, sh->nmod);
        else
            W(o, "\"0x%llx\"", (unsigned long long)sh->modids[m]);
        W(o, ",\"launches\":");
        num(o, in, 10);
        W(o, ",\"gpu_ns\":");
        num(o, in, 0);
        W(o, ",\"counters\":[");
        unsigned nc = sh->nmod ? byte(in) % 2 : 0; /* sets first_set[m], first_set[m]+1 */
        for (unsigned c = 0; c < nc; c++) {
            unsigned which = rare(in, 64) ? byte(in) % 4 : (sh->first_set[m] + c) % 4;
            unsigned ns = sh->nsites[m] + rare(in, 64);
            W(o, "%s{\"set\":\"%s\",\"nsites\":%u,\"nslots\":%u,\"sites\":[", c ? "," : "",
              SETS[which], ns, NSLOTS[which]);
            unsigned nrows = ns ? byte(in) % (ns + 1) : 0;
            for (unsigned r = 0; r < nrows; r++) {
                W(o, "%s{\"site\":%u,\"v\":[", r ? "," : "", rare(in, 64) ? ns : r);
                for (unsigned v = 0; v < NSLOTS[which]; v++) {
                    W(o, v ? "," : "");
                    num(o, in, 0);
                }
                W(o, "]}");
            }
            W(o, "]}");
        }
        W(o, "]}");
    }
    W(o, "],");
}

static void launches(struct out *o, struct in *in, struct shape *sh)
{
    W(o, "\"launches\":[");
    sh->nlaunch = sh->nkern || rare(in, 64) ? byte(in) % 6 : 0;
    for (unsigned l = 0; l < sh->nlaunch; l++) {
        W(o, "%s{\"seq\":", l ? "," : "");
        num(o, in, 40);
        W(o, ",\"kernel\":%u,\"grid\":[1,", rare(in, 64) || !sh->nkern ? sh->nkern : byte(in) % sh->nkern);
        num(o, in, 0);
        W(o, ",1],\"block\":[32,1,1],\"site\":");
        hostsite(o, in);
        W(o, "}");
    }
    W(o, "],");
}

static void allocations(struct out *o, struct in *in, struct shape *sh)
{
    W(o, "\"allocations\":[");
    sh->nalloc = byte(in) % 8;
    for (unsigned a = 0; a < sh->nalloc; a++) {
        sh->ids[a] = rare(in, 64) ? 1 + byte(in) % 12 : a + 1;
        unsigned size = 1 + byte(in) % 300, gran = 1 + byte(in) % 8;
        uint64_t units = (size + gran - 1) / gran;
        W(o, "%s{\"id\":%llu,\"dev_ptr\":\"0x%x\",\"size\":", a ? "," : "",
          (unsigned long long)sh->ids[a], 0x1000 * (a + 1));
        if (rare(in, 8))
            num(o, in, 0);
        else
            W(o, "%u", size);
        unsigned aseq = byte(in) % 40;
        W(o, ",\"freed\":%s,\"alloc_seq\":%u,\"free_seq\":", byte(in) % 2 ? "true" : "false", aseq);
        if (rare(in, 64))
            num(o, in, 40);
        else
            W(o, "%u", byte(in) % 2 ? 0 : aseq + 1 + byte(in) % 20);
        W(o, ",\"alloc_site\":");
        hostsite(o, in);
        if (byte(in) % 2) {
            uint64_t touched = units ? byte(in) % (units + 1) : 0;
            W(o, ",\"access\":{\"granularity\":%u,\"touched_units\":%llu,"
                 "\"largest_untouched_units\":%llu,\"reads\":",
              gran, (unsigned long long)touched, (unsigned long long)(units - touched));
            num(o, in, 0);
            W(o, ",\"hist\":[");
            num(o, in, 0);
            W(o, ",");
            num(o, in, 0);
            W(o, "],\"bitmap\":\"");
            uint64_t words = (units + 63) / 64 + rare(in, 64);
            for (uint64_t w = 0; w < words; w++)
                W(o, "%016llx", (unsigned long long)u64(in));
            W(o, "\",\"launches\":[{\"launch_seq\":");
            num(o, in, 40);
            W(o, ",\"bitmap\":null}]}");
        }
        W(o, "}");
    }
    W(o, "],");
}

static void events(struct out *o, struct in *in, struct shape *sh)
{
    static const char *const ops[] = {"alloc", "free", "memcpy", "memset", "launch", "bogus"};
    static const char *const how[] = {"r", "w", "rw", "?", "-", "x"};
    W(o, "\"events\":[");
    unsigned n = byte(in) % 24, seq = 0;
    for (unsigned e = 0; e < n; e++) {
        seq += rare(in, 64) ? 0 : 1 + byte(in) % 3;
        unsigned op = rare(in, 64) ? 5 : byte(in) % 5;
        W(o, "%s{\"seq\":%u,\"op\":\"%s\",\"bytes\":", e ? "," : "", seq, ops[op]);
        num(o, in, 0);
        if (op == 4)
            W(o, ",\"launch\":%d", rare(in, 64) ? (int)sh->nlaunch : (int)(byte(in) % (sh->nlaunch + 1)) - 1);
        W(o, ",\"site\":");
        hostsite(o, in);
        W(o, ",\"uses\":[");
        unsigned nu = byte(in) % 3;
        for (unsigned u = 0; u < nu; u++) {
            uint64_t id = sh->nalloc && !rare(in, 64) ? sh->ids[byte(in) % sh->nalloc] : byte(in);
            W(o, "%s{\"alloc\":%llu,\"how\":\"%s\",\"offset\":", u ? "," : "",
              (unsigned long long)id, how[rare(in, 64) ? 5 : byte(in) % 5]);
            num(o, in, 64);
            W(o, ",\"bytes\":");
            num(o, in, 64);
            W(o, "}");
        }
        W(o, "]}");
    }
    W(o, "],");
}

static int generate(struct in *in, struct out *o)
{
    struct shape sh;
    memset(&sh, 0, sizeof sh);
    o->f = open_memstream(&o->s, &o->n);
    if (!o->f)
        return -1;
    W(o, "{\"schema\":\"gpumem-report\",\"version\":1,\"program\":{\"argv\":[\"./a\"],"
         "\"end\":\"normal\",\"exit_status\":");
    num(o, in, 3);
    W(o, "},\"devices\":[{\"ordinal\":");
    num(o, in, 2);
    W(o, "}],");
    modules(o, in, &sh);
    kernels(o, in, &sh);
    launches(o, in, &sh);
    allocations(o, in, &sh);
    events(o, in, &sh);
    W(o, "\"unobserved\":[],\"notes\":[\"fuzz\"]}");
    if (rare(in, 64))
        W(o, " trailing");
    return fclose(o->f);
}

/* ---- the pipeline ------------------------------------------------------- */

static char *to_json(const struct gm_report *r)
{
    char *s = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&s, &n);
    if (!f)
        abort();
    if (gm_report_write_json(r, f))
        abort();
    fclose(f);
    return s;
}

static void render(const struct gm_report *r, unsigned flags)
{
    struct gm_write_opts opt = {.top = 1 + (int)(flags % 20)};
    char *s = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&s, &n);
    if (!f || gm_report_write_text(r, &opt, f) || gm_report_write_html(r, &opt, f))
        abort();
    fclose(f);
    free(s);
    static char dir[64];
    if (flags % 8 == 0) {   /* files too, now and then: the slow part */
        /* in the working directory: run_fuzz.sh runs in a scratch one */
        if (!dir[0] && !mkdtemp(strcpy(dir, "gm-fuzz-out-XXXXXX")))
            abort();
        char err[512];
        if (gm_report_write_dir(r, &opt, dir, "all", err, sizeof err)) {
            fprintf(stderr, "write_dir: %s\n", err);
            abort();
        }
    }
}

/* The reader walks the document one element at a time; what it accepts,
 * cJSON must accept as one document (nesting aside: cJSON stops at depth
 * 1000 of the whole, the reader counts it per element). */
static void same_as_whole(const char *text, size_t len)
{
    size_t opens = 0;
    for (size_t i = 0; i < len; i++)
        opens += text[i] == '[' || text[i] == '{';
    if (opens > 900)
        return;
    const char *end = NULL;
    cJSON *whole = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    size_t at = whole && end ? (size_t)(end - text) : 0;
    while (at < len && strchr(" \t\r\n", text[at]) && text[at])
        at++;
    if (!whole || at < len) {
        fprintf(stderr, "accepted text that is not one JSON document\n");
        abort();
    }
    cJSON_Delete(whole);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    struct in in = {data + 1, size - 1, 0};
    struct out gen = {NULL, 0, NULL};
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    if (data[0] & 1) {
        if (generate(&in, &gen))
            return 0;
        text = gen.s;
        len = gen.n;
    }
    /* the reader's input window: usually a few bytes, so that every token
     * meets its edge somewhere; now and then the real size */
    gm_jin_window = data[0] % 16 < 2 ? (size_t)1 << 20 : 1 + data[0] % 16;
    char err[1024];
    struct gm_report *r = gm_report_parse_json(text, len, err, sizeof err);
    if (!r) {
        if (!err[0] || strchr(err, '\n'))
            abort(); /* an error is one line */
        free(gen.s);
        return 0;
    }
    same_as_whole(text, len);
    render(r, data[0] >> 1);
    char *j1 = to_json(r);
    struct gm_report *r2 = gm_report_parse_json(j1, strlen(j1), err, sizeof err);
    if (!r2) {
        fprintf(stderr, "own JSON rejected: %s\n", err);
        abort();
    }
    char *j2 = to_json(r2);
    if (strcmp(j1, j2) != 0) {
        fprintf(stderr, "JSON changed on a round trip\n");
        abort();
    }
    free(j1);
    free(j2);
    gm_report_free(r2);
    gm_report_free(r);
    free(gen.s);
    return 0;
}
