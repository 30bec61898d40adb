/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Intra-object metrics and patterns from the allocations analysis: touched
 * share, largest untouched chunk, fragmentation, non-uniform access
 * frequency (histogram), structured access (per-launch bitmaps).
 * Definitions: docs/reports.md. Depends on the report headers and libc.
 */
#include "sat.h"
#include "util.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* Median bucket of the touched units (buckets >= 1) and the highest one. */
static void hist_buckets(const uint64_t *h, int *median, int *hot, uint64_t *hot_units)
{
    uint64_t touched = 0;
    *median = *hot = -1;
    *hot_units = 0;
    for (int b = 1; b < GM_REPORT_HIST_BUCKETS; b++) {
        touched = gm_sat_add(touched, h[b]);
        if (h[b])
            *hot = b;
    }
    if (!touched)
        return;
    uint64_t seen = 0;
    for (int b = 1; b < GM_REPORT_HIST_BUCKETS && *median < 0; b++) {
        seen = gm_sat_add(seen, h[b]);
        if (seen * 2 >= touched)
            *median = b;
    }
    for (int b = *median + 1; b < GM_REPORT_HIST_BUCKETS; b++)
        *hot_units = gm_sat_add(*hot_units, h[b]);
}

void gm_alloc_metrics(const struct gm_report_alloc *a, struct gm_alloc_metrics *m)
{
    memset(m, 0, sizeof *m);
    m->hot_bucket = m->median_bucket = -1;
    m->measured = a->has_access && a->units > 0 && a->granularity > 0;
    if (!m->measured)
        return;
    uint64_t g = a->granularity;
    uint64_t untouched = a->units - min_u64(a->touched_units, a->units);
    m->touched_share = (double)(a->units - untouched) / (double)a->units;
    m->untouched_bytes = min_u64(untouched * g, a->size);
    m->largest_untouched_bytes = min_u64(a->largest_untouched_units * g, m->untouched_bytes);
    m->fragmentation = untouched ? 1.0 - (double)a->largest_untouched_units / (double)untouched : 0;
    hist_buckets(a->hist, &m->median_bucket, &m->hot_bucket, &m->hot_units);
    for (size_t i = 0; i < a->nlaunches; i++)
        if (a->launches[i].touched_units > m->max_launch_touched)
            m->max_launch_touched = a->launches[i].touched_units;
}

static int overalloc(const struct gm_report_alloc *a,
                     const struct gm_alloc_metrics *m, const struct gm_pattern_opts *o,
                     struct gm_findings *out)
{
    if (a->touched_units == 0 || m->touched_share >= o->overalloc_max_touched)
        return 0;   /* never touched: the unused-allocation finding covers it */
    char nm[300], b1[32], b2[32], site[512];
    gm_alloc_label(a, nm, sizeof nm);
    gm_hostsite_str(&a->alloc_site, site, sizeof site);
    struct gm_finding *f = gm_findings_add(out, GM_PAT_OVERALLOC, a->id, m->untouched_bytes,
        gm_strf("%s: only %.1f%% of it is touched; %s untouched, largest untouched chunk %s, "
                "fragmentation %.2f", nm, 100 * m->touched_share,
                gm_fmt_bytes(m->untouched_bytes, b1, sizeof b1),
                gm_fmt_bytes(m->largest_untouched_bytes, b2, sizeof b2), m->fragmentation),
        m->fragmentation < 0.5
            ? gm_strf("shrink the allocation at %s: the untouched part is mostly one chunk", site)
            : gm_strf("pack the touched elements (the untouched part is scattered) and "
                      "allocate less at %s", site));
    if (!f)
        return -1;
    f->site1 = &a->alloc_site;
    return 0;
}

static int nonuniform(const struct gm_report_alloc *a,
                      const struct gm_alloc_metrics *m, const struct gm_pattern_opts *o,
                      struct gm_findings *out)
{
    if (m->median_bucket < 1 || m->hot_bucket - m->median_bucket < o->nonuniform_buckets)
        return 0;
    uint64_t chunk = a->hist_chunk ? a->hist_chunk : a->granularity;
    uint64_t hot_bytes = min_u64(m->hot_units * chunk, a->size);
    char nm[300], b1[32];
    gm_alloc_label(a, nm, sizeof nm);
    struct gm_finding *f = gm_findings_add(out, GM_PAT_NONUNIFORM, a->id, hot_bytes,
        gm_strf("%s: its hottest chunks are accessed at least %llu times, the median touched "
                "chunk fewer than %llu times; %s is accessed more than the median", nm,
                1ull << (m->hot_bucket - 1), 1ull << m->median_bucket,
                gm_fmt_bytes(hot_bytes, b1, sizeof b1)),
        gm_strf("keep the hot part in shared memory or a separate compact array"));
    if (!f)
        return -1;
    f->site1 = &a->alloc_site;
    return 0;
}

static int structured(const struct gm_report_alloc *a,
                      const struct gm_alloc_metrics *m, const struct gm_pattern_opts *o,
                      struct gm_findings *out)
{
    if (a->nlaunches < 2 || a->touched_units == 0 ||
        (double)m->max_launch_touched > o->structured_max_share * (double)a->touched_units)
        return 0;
    uint64_t keep = min_u64(m->max_launch_touched * a->granularity, a->size);
    char nm[300], b1[32], site[512];
    gm_alloc_label(a, nm, sizeof nm);
    gm_hostsite_str(&a->alloc_site, site, sizeof site);
    struct gm_finding *f = gm_findings_add(out, GM_PAT_STRUCTURED, a->id, a->size - keep,
        gm_strf("%s: each of its %zu launches touches at most %.1f%% of its touched part "
                "(%s)", nm, a->nlaunches,
                100.0 * (double)m->max_launch_touched / (double)a->touched_units,
                gm_fmt_bytes(keep, b1, sizeof b1)),
        gm_strf("split the allocation at %s into the parts each kernel uses", site));
    if (!f)
        return -1;
    f->site1 = &a->alloc_site;
    return 0;
}

int gm_find_intra_patterns(const struct gm_report *r, const struct gm_pattern_opts *o,
                           struct gm_findings *out)
{
    for (size_t i = 0; i < r->nallocs; i++) {
        const struct gm_report_alloc *a = &r->allocs[i];
        struct gm_alloc_metrics m;
        gm_alloc_metrics(a, &m);
        if (!m.measured)
            continue;
        if (overalloc(a, &m, o, out) || nonuniform(a, &m, o, out) ||
            structured(a, &m, o, out))
            return -1;
    }
    return 0;
}
