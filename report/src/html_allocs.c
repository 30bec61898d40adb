/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The HTML report's allocation table: the largest allocations with their
 * label, API, size, where each was allocated (function and file:line), the
 * call path above that place (alloc_path) and where it was freed.
 * Depends on the report headers, svg.h (escaping) and libc.
 */
#include "derived.h"
#include "svg.h"
#include "util.h"

#include <inttypes.h>
#include <stdlib.h>

static int by_size(const void *a, const void *b)
{
    const struct gm_report_alloc *x = *(const struct gm_report_alloc *const *)a;
    const struct gm_report_alloc *y = *(const struct gm_report_alloc *const *)b;
    if (x->size != y->size) return x->size < y->size ? 1 : -1;
    return x->id > y->id ? 1 : x->id < y->id ? -1 : 0;
}

static void site_cell(FILE *f, const struct gm_report_hostsite *h)
{
    char loc[600];
    fputs("<td>", f);
    if (h->file) {
        if (h->func) {
            gm_html_esc(f, h->func);
            fputs(" &mdash; ", f);
        }
        gm_html_esc(f, gm_hostsite_str(h, loc, sizeof loc));
    } else {
        fputs("-", f);
    }
    fputs("</td>", f);
}

void gm_html_allocs(const struct gm_report *r, int top, FILE *f)
{
    if (!r->nallocs) return;
    const struct gm_report_alloc **v = malloc(r->nallocs * sizeof *v);
    if (!v) return;
    for (size_t i = 0; i < r->nallocs; i++) v[i] = &r->allocs[i];
    qsort(v, r->nallocs, sizeof *v, by_size);
    size_t n = r->nallocs < (size_t)top * 2 ? r->nallocs : (size_t)top * 2;
    fprintf(f, "<h2>Largest allocations (%zu of %zu)</h2>\n", n, r->nallocs);
    fputs("<table><tr><th>allocation</th><th>bytes</th><th>API</th><th>allocated at</th>"
          "<th>called from</th><th>freed at</th></tr>\n", f);
    for (size_t i = 0; i < n; i++) {
        const struct gm_report_alloc *a = v[i];
        char nm[300];
        fputs("<tr><td>", f);
        gm_html_esc(f, gm_alloc_label(a, nm, sizeof nm));
        fprintf(f, "</td><td class=\"n\">%" PRIu64 "</td><td>", a->size);
        gm_html_esc(f, gm_name_or(a->api, "?"));
        fputs("</td>", f);
        site_cell(f, &a->alloc_site);
        fputs("<td>", f);
        gm_html_esc(f, gm_name_or(a->alloc_path, "-"));
        fputs("</td>", f);
        if (a->freed) site_cell(f, &a->free_site);
        else fputs("<td>never freed</td>", f);
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
    free(v);
}
