/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Names and small shared helpers of the analyses: pattern names, host
 * sites, allocation names, byte formatting, the findings list.
 * Depends on the report headers and libc only.
 */
#include "util.h"
#include "grow.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* From the C++ ABI (libstdc++/libc++abi); weak: absent in pure C programs. */
extern char *__cxa_demangle(const char *mangled, char *out, size_t *len, int *status)
    __attribute__((weak));

const char *gm_demangle(const char *name, char *buf, size_t len)
{
    char *d = NULL;
    int st = -1;
    if (name && name[0] == '_' && name[1] == 'Z' && __cxa_demangle)
        d = __cxa_demangle(name, NULL, NULL, &st);
    const char *s = d && st == 0 ? d : (name ? name : "?");
    size_t n = strlen(s);
    if (n < len) {
        memcpy(buf, s, n + 1);
    } else if (len > 4) {
        memcpy(buf, s, len - 4);
        memcpy(buf + len - 4, "...", 4);
    } else if (len) {
        buf[0] = 0;
    }
    free(d);
    return buf;
}

char *gm_strf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (!s)
        return NULL;
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

const char *gm_fmt_bytes(uint64_t b, char *buf, size_t len)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    if (b < 1024) {
        snprintf(buf, len, "%" PRIu64 " B", b);
        return buf;
    }
    double v = (double)b;
    int u = 0;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        u++;
    }
    snprintf(buf, len, "%.2f %s", v, unit[u]);
    return buf;
}

static const char *const pattern_names[] = {
    [GM_PAT_EARLY_ALLOC] = "early-allocation", [GM_PAT_LATE_FREE] = "late-deallocation",
    [GM_PAT_REDUNDANT_ALLOC] = "redundant-allocation", [GM_PAT_UNUSED_ALLOC] = "unused-allocation",
    [GM_PAT_LEAK] = "memory-leak", [GM_PAT_IDLE] = "temporary-idleness",
    [GM_PAT_DEAD_WRITE] = "dead-write", [GM_PAT_OVERALLOC] = "overallocation",
    [GM_PAT_NONUNIFORM] = "non-uniform-access", [GM_PAT_STRUCTURED] = "structured-access",
};

const char *gm_pattern_name(enum gm_pattern p)
{
    return p >= GM_PAT_EARLY_ALLOC && p <= GM_PAT_STRUCTURED ? pattern_names[p] : "?";
}

const char *gm_hostsite_str(const struct gm_report_hostsite *h, char *buf, size_t len)
{
    if (!h || !h->file)
        snprintf(buf, len, "?");
    else if (h->line)
        snprintf(buf, len, "%s:%u", h->file, h->line);
    else
        snprintf(buf, len, "%s", h->file);
    return buf;
}

int gm_hostsite_same(const struct gm_report_hostsite *a, const struct gm_report_hostsite *b)
{
    if (!a || !b)
        return a == b;
    if (a->line != b->line || !a->file != !b->file)
        return 0;
    return !a->file || strcmp(a->file, b->file) == 0;
}

const char *gm_alloc_label(const struct gm_report_alloc *a, char *buf, size_t len)
{
    if (a->label)
        snprintf(buf, len, "\"%s\" (#%" PRIu64 ")", a->label, a->id);
    else
        snprintf(buf, len, "#%" PRIu64, a->id);
    return buf;
}

const char *gm_alloc_name(const struct gm_report *r, uint64_t id, char *buf, size_t len)
{
    const struct gm_report_alloc *a = gm_report_find_alloc(r, id);
    if (a)
        return gm_alloc_label(a, buf, len);
    snprintf(buf, len, "#%" PRIu64, id);
    return buf;
}

void gm_pattern_opts_default(struct gm_pattern_opts *o)
{
    o->early_gap = 1;
    o->late_gap = 1;
    o->idle_gap = 8;
    o->overalloc_max_touched = 0.5;
    o->nonuniform_buckets = 4;
    o->structured_max_share = 0.5;
}

struct gm_finding *gm_findings_add(struct gm_findings *f, enum gm_pattern p, uint64_t alloc,
                                   uint64_t bytes, char *what, char *suggestion)
{
    struct gm_finding *x = (what && suggestion) ? GM_GROW(f->v, f->n, f->cap) : NULL;
    if (!x) {
        free(what);
        free(suggestion);
        return NULL;
    }
    x->pattern = p;
    x->alloc = alloc;
    x->bytes = bytes;
    x->what = what;
    x->suggestion = suggestion;
    f->n++;
    return x;
}

static int cmp_finding(const void *pa, const void *pb)
{
    const struct gm_finding *a = pa, *b = pb;
    if (a->bytes != b->bytes)
        return a->bytes < b->bytes ? 1 : -1;
    if (a->pattern != b->pattern)
        return a->pattern < b->pattern ? -1 : 1;
    if (a->alloc != b->alloc)
        return a->alloc < b->alloc ? -1 : 1;
    return a->seq_from < b->seq_from ? -1 : a->seq_from > b->seq_from;
}

void gm_findings_sort(struct gm_findings *f)
{
    if (f->n > 1)
        qsort(f->v, f->n, sizeof *f->v, cmp_finding);
}

void gm_findings_free(struct gm_findings *f)
{
    for (size_t i = 0; i < f->n; i++) {
        free(f->v[i].what);
        free(f->v[i].suggestion);
    }
    free(f->v);
    memset(f, 0, sizeof *f);
}

int gm_find_patterns(const struct gm_report *r, const struct gm_pattern_opts *o,
                     struct gm_findings *out)
{
    struct gm_pattern_opts d;
    if (!o) {
        gm_pattern_opts_default(&d);
        o = &d;
    }
    if (gm_find_object_patterns(r, o, out) || gm_find_intra_patterns(r, o, out))
        return -1;
    gm_findings_sort(out);
    return 0;
}
