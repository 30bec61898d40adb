/* SPDX-License-Identifier: Apache-2.0 */
/*
 * JSON reader of the report model, the document level: finds the top-level
 * members and the elements of each array in the text (json_span.h), parses
 * each alone into a small cJSON tree (numbers checked for exactness,
 * json_exact.h), hands it to its part reader (json_read.h) and frees it
 * before the next. The memory a read takes is the text, the model and one
 * element's tree, never a tree of the whole document (about ten times its
 * text). Depends on the report model, cJSON and the reader's parts.
 */
#include "gm_report_json.h"
#include "json_exact.h"
#include "json_read.h"
#include "json_span.h"

#include <stdio.h>
#include <string.h>

#define P(buf, fmt, ...) snprintf((buf), sizeof(buf), fmt, __VA_ARGS__)
#define OOM(c, path) gm_jfail((c), (path), "out of memory")

enum { M_SCHEMA, M_VERSION, M_PROGRAM, M_DEVICES, M_MODULES, M_KERNELS, M_LAUNCHES,
       M_ALLOCATIONS, M_EVENTS, M_UNOBSERVED, M_NOTES, M_N };
static const char *const member_names[M_N] = {
    "schema", "version", "program", "devices", "modules", "kernels", "launches",
    "allocations", "events", "unobserved", "notes",
};

struct doc {
    const char *t;
    size_t len;
    size_t at[M_N], end[M_N];   /* value extent of each known member (end 0: absent) */
};

static int malformed(struct gm_jctx *c, size_t off)
{
    char m[64];
    P(m, "malformed JSON near byte %zu", off);
    snprintf(c->err, c->errlen, "%s", m);
    c->failed = 1;
    return -1;
}

/* Parses t[at, end) alone, with exact integers marked (json_exact.h). */
static cJSON *parse_span(struct gm_jctx *c, const struct doc *d, size_t at, size_t end)
{
    const char *stop = NULL;
    cJSON *v = cJSON_ParseWithLengthOpts(d->t + at, end - at, &stop, 0);
    if (!v) {
        malformed(c, stop && stop >= d->t + at ? (size_t)(stop - d->t) : at);
        return NULL;
    }
    size_t off = gm_jspan_ws(d->t, end, (size_t)(stop - d->t));
    if (off < end || gm_json_mark_inexact(d->t + at, end - at, v)) {
        cJSON_Delete(v);
        malformed(c, off);
        return NULL;
    }
    return v;
}

/* Which known member the key string t[at, end) (quotes included) names, or
 * -1. A key with escapes is decoded first, as cJSON would. */
static int known_member(const char *t, size_t at, size_t end)
{
    const char *key = t + at + 1;
    size_t n = end - at - 2;
    cJSON *dec = NULL;
    if (memchr(key, '\\', n)) {
        dec = cJSON_ParseWithLength(t + at, end - at);
        if (!cJSON_IsString(dec)) {
            cJSON_Delete(dec);
            return -1;
        }
        key = dec->valuestring;
        n = strlen(key);
    }
    int m = -1;
    for (int i = 0; i < M_N && m < 0; i++)
        if (strlen(member_names[i]) == n && !memcmp(member_names[i], key, n))
            m = i;
    cJSON_Delete(dec);
    return m;
}

/* The top-level object's members; an unknown member's value is checked to
 * be JSON, then left alone. */
static int scan_top(struct gm_jctx *c, struct doc *d)
{
    size_t i = gm_jspan_ws(d->t, d->len, 0), k, v;
    i = gm_jspan_ws(d->t, d->len, i + 1);           /* past '{' */
    if (i < d->len && d->t[i] == '}')
        i++;
    else
        for (;;) {
            if (i >= d->len || d->t[i] != '"' || gm_jspan_string(d->t, d->len, i, &k))
                return malformed(c, i);
            int m = known_member(d->t, i, k);
            i = gm_jspan_ws(d->t, d->len, k);
            if (i >= d->len || d->t[i] != ':')
                return malformed(c, i);
            i = gm_jspan_ws(d->t, d->len, i + 1);
            if (gm_jspan_value(d->t, d->len, i, &v))
                return malformed(c, v);
            if (m >= 0 && !d->end[m]) {
                d->at[m] = i;
                d->end[m] = v;
            } else {
                cJSON_Delete(parse_span(c, d, i, v));
                if (c->failed)
                    return -1;
            }
            i = gm_jspan_ws(d->t, d->len, v);
            if (i < d->len && d->t[i] == ',') {
                i = gm_jspan_ws(d->t, d->len, i + 1);
                continue;
            }
            if (i >= d->len || d->t[i] != '}')
                return malformed(c, i);
            i++;
            break;
        }
    i = gm_jspan_ws(d->t, d->len, i);
    if (i < d->len) {
        snprintf(c->err, c->errlen, "trailing content after the JSON value at byte %zu", i);
        c->failed = 1;
        return -1;
    }
    return 0;
}

/* Calls fn on each element of the required top-level array m, each parsed
 * alone and freed before the next. */
static void each(struct gm_jctx *c, const struct doc *d, int m, gm_jr_elem_fn fn,
                 struct gm_report *r)
{
    const char *key = member_names[m];
    char p[64];
    size_t i = d->at[m], e;
    P(p, "report.%s", key);
    if (c->failed)
        return;
    if (!d->end[m] || (d->end[m] - i == 4 && !memcmp(d->t + i, "null", 4))) {
        gm_jfail(c, p, "missing");
        return;
    }
    if (d->t[i] != '[') {
        gm_jfail(c, p, "expected an array");
        return;
    }
    size_t end = d->end[m];
    i = gm_jspan_ws(d->t, end, i + 1);
    if (i < end && d->t[i] == ']')
        return; /* empty */
    for (size_t idx = 0; !c->failed; idx++) {
        if (gm_jspan_value(d->t, end, i, &e)) {
            malformed(c, e);
            return;
        }
        cJSON *el = parse_span(c, d, i, e);
        if (!el)
            return;
        P(p, "%s[%zu]", key, idx);
        fn(c, el, p, r);
        cJSON_Delete(el);
        i = gm_jspan_ws(d->t, end, e);
        if (i < end && d->t[i] == ']')
            return;
        if (i >= end || d->t[i] != ',') {
            malformed(c, i);
            return;
        }
        i = gm_jspan_ws(d->t, end, i + 1); /* a value must follow: "[1,]" is malformed */
    }
}

/* schema, version and program: small, parsed into one object. */
static cJSON *head_object(struct gm_jctx *c, const struct doc *d)
{
    cJSON *o = cJSON_CreateObject();
    for (int m = M_SCHEMA; o && m <= M_PROGRAM && !c->failed; m++) {
        cJSON *v = d->end[m] ? parse_span(c, d, d->at[m], d->end[m]) : NULL;
        if (v)
            cJSON_AddItemToObject(o, member_names[m], v);
    }
    if (!o)
        OOM(c, "report");
    return o;
}

/* Text that is not an object at all: malformed, or the wrong kind of JSON. */
static void not_object(struct gm_jctx *c, const char *text, size_t len)
{
    const char *stop = NULL;
    cJSON *v = cJSON_ParseWithLengthOpts(text, len, &stop, 0);
    if (!v)
        malformed(c, stop && stop >= text ? (size_t)(stop - text) : 0);
    else
        gm_jfail(c, "report", "expected a JSON object");
    cJSON_Delete(v);
}

struct gm_report *gm_report_parse_json(const char *text, size_t len, char *err,
                                       size_t errlen)
{
    struct gm_jctx c = {err, errlen, 0};
    struct doc d = {text, len, {0}, {0}};
    size_t first = gm_jspan_ws(text, len, 0);
    if (first >= len || text[first] != '{') {
        not_object(&c, text, len);
        return NULL;
    }
    if (scan_top(&c, &d))
        return NULL;
    struct gm_report *r = gm_report_new();
    cJSON *head = r ? head_object(&c, &d) : NULL;
    if (!r)
        OOM(&c, "report");
    if (head) {
        gm_jr_header(&c, head);
        gm_jr_program(&c, head, r);
        cJSON_Delete(head);
    }
    static const struct { int m; gm_jr_elem_fn fn; } parts[] = {
        {M_DEVICES, gm_jr_device}, {M_MODULES, gm_jr_module}, {M_KERNELS, gm_jr_kernel},
        {M_LAUNCHES, gm_jr_launch}, {M_ALLOCATIONS, gm_jr_alloc}, {M_EVENTS, gm_jr_event},
        {M_UNOBSERVED, gm_jr_unobserved}, {M_NOTES, gm_jr_note},
    };
    for (size_t i = 0; i < sizeof parts / sizeof parts[0] && !c.failed; i++) {
        each(&c, &d, parts[i].m, parts[i].fn, r);
        if (parts[i].m == M_EVENTS && !c.failed)
            gm_jr_alloc_refs(&c, r);
    }
    if (c.failed) {
        gm_report_free(r);
        return NULL;
    }
    return r;
}
