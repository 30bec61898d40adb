/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The DrGPUM pattern dispatcher: default thresholds, running every
 * detector (object-level, analysis_objects.c; intra-object,
 * analysis_intra.c) and ordering what they found. Depends on the
 * analyses and the findings list (names.c); only the derived analyses
 * (derived.c) call it.
 */
#include "util.h"

#include <stdlib.h>

void gm_pattern_opts_default(struct gm_pattern_opts *o)
{
    o->early_gap = 1;
    o->late_gap = 1;
    o->idle_gap = 8;
    o->overalloc_max_touched = 0.5;
    o->nonuniform_buckets = 4;
    o->structured_max_share = 0.5;
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
