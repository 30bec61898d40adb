/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal: everything the writers show, derived once from a report.
 * Depends on the report headers and libc only.
 */
#ifndef GM_REPORT_DERIVED_H
#define GM_REPORT_DERIVED_H

#include "gm_report_write.h"
#include "outfiles.h"

struct gm_derived {
    long nkernels, nlines, nbranches, nvalues;
    struct gm_kernel_stat *kernels;
    struct gm_line_stat *lines;
    struct gm_branch_stat *branches;
    struct gm_value_stat *values;
    struct gm_findings findings;
    int top;
    const struct gm_drill *drill;       /* from the write options (HTML) */
    const char *source_dirs;
    const struct gm_srcview *src;       /* set by the HTML writer */
};

int gm_derive(const struct gm_report *r, const struct gm_write_opts *o, struct gm_derived *d);
void gm_derived_free(struct gm_derived *d);
/* The writers over an already derived view (write_dir derives once for
 * every format). 0 or -1 (write error or out of memory). */
int gm_text_write(const struct gm_report *r, const struct gm_derived *d, FILE *f);
int gm_html_write(const struct gm_report *r, const struct gm_derived *d, FILE *f);
/* The HTML table of the 2*top largest allocations (html_allocs.c). */
void gm_html_allocs(const struct gm_report *r, int top, FILE *f);
/* Writes the CSV tables into dir as files of out (not yet committed). */
int gm_csv_write(const struct gm_report *r, const struct gm_derived *d, const char *dir,
                 struct gm_outfiles *out);

/* Printable kernel/function name: the mangled name as stored ("?" if none). */
const char *gm_name_or(const char *s, const char *dflt);
/* "file:line" of a device site into buf. */
const char *gm_devsite_str(const struct gm_report_site *s, char *buf, size_t len);
/* Peak of live allocated bytes over the timeline and the seq it occurs at. */
uint64_t gm_peak_bytes(const struct gm_report *r, uint64_t *at_seq);

#endif
