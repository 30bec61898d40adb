/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Computes the derived views every writer shows (kernels, lines, branches,
 * values, findings) once. Depends on the report headers and libc only.
 */
#include "sat.h"
#include "derived.h"
#include "timeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int gm_derive(const struct gm_report *r, const struct gm_write_opts *o, struct gm_derived *d)
{
    memset(d, 0, sizeof *d);
    d->top = o && o->top > 0 ? o->top : 10;
    d->drill = o ? o->drill : NULL;
    d->source_dirs = o ? o->source_dirs : NULL;
    d->nkernels = gm_kernel_stats(r, &d->kernels);
    d->nlines = d->nkernels < 0 ? -1 : gm_line_stats(r, &d->lines);
    d->nbranches = d->nlines < 0 ? -1 : gm_branch_stats(r, &d->branches);
    d->nvalues = d->nbranches < 0 ? -1 : gm_value_stats(r, &d->values);
    if (d->nvalues < 0 || gm_find_patterns(r, o ? o->patterns : NULL, &d->findings)) {
        gm_derived_free(d);
        return -1;
    }
    return 0;
}

void gm_derived_free(struct gm_derived *d)
{
    free(d->kernels);
    free(d->lines);
    free(d->branches);
    free(d->values);
    gm_findings_free(&d->findings);
    memset(d, 0, sizeof *d);
}

const char *gm_name_or(const char *s, const char *dflt) { return s && *s ? s : dflt; }

const char *gm_devsite_str(const struct gm_report_site *s, char *buf, size_t len)
{
    if (!s || !s->file || !*s->file)
        snprintf(buf, len, "?");
    else
        snprintf(buf, len, "%s:%u", s->file, s->line);
    return buf;
}

uint64_t gm_peak_bytes(const struct gm_report *r, uint64_t *at_seq)
{
    const struct gm_report_event **ev = gm_events_by_seq(r);
    uint64_t live = 0, peak = 0;
    *at_seq = 0;
    if (!ev)
        return 0;
    for (size_t i = 0; i < r->nevents; i++) {
        if (ev[i]->op == GM_OP_ALLOC)
            live = gm_sat_add(live, ev[i]->bytes);
        else if (ev[i]->op == GM_OP_FREE)
            live -= ev[i]->bytes < live ? ev[i]->bytes : live;
        if (live > peak) {
            peak = live;
            *at_seq = ev[i]->seq;
        }
    }
    free(ev);
    return peak;
}
