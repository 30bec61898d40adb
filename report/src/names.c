/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Names and small shared helpers of the analyses: pattern names, host
 * sites, allocation names, byte formatting, the findings list. The
 * detectors (analysis_*.c) use these; running them is patterns.c's job, so
 * this file depends on no analysis. Depends on the report headers and libc.
 */
#include "util.h"
#include "gm_grow.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void gm_findings_free(struct gm_findings *f)
{
    for (size_t i = 0; i < f->n; i++) {
        free(f->v[i].what);
        free(f->v[i].suggestion);
    }
    free(f->v);
    memset(f, 0, sizeof *f);
}
