/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Self-contained HTML report (inline CSS, SVG and script, no external
 * assets): the text summary's tables plus plots of kernels, live device
 * memory over the timeline and findings; then the source view
 * (write_html_source.c) and the drill-down (write_html_drill.c), every
 * table row linked to its source line. Depends on the report headers and
 * libc only.
 */
#include "html.h"
#include "timeline.h"
#include "svg.h"
#include "util.h"

#include <inttypes.h>
#include <stdlib.h>

#define ESC(s) gm_html_esc(f, (s))

static void head(const struct gm_report *r, FILE *f)
{
    fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>gpumem report</title>\n"
          "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
          "td,th{border:1px solid #ccc;padding:2px 6px;font-size:12px}td.n{text-align:right}"
          "th{background:#eee}.s{color:#555}", f);
    fputs(gm_html_css, f);
    fputs("</style></head><body>\n<h1>gpumem report</h1>\n<p>", f);
    for (int i = 0; i < r->program.argc; i++) {
        ESC(r->program.argv[i]);
        fputc(' ', f);
    }
    fprintf(f, "<br>pid %" PRId64 ", ended: %s, status %d; analyses: ", r->program.pid,
            gm_report_end_name(r->program.end), r->program.exit_status);
    ESC(gm_name_or(r->program.analyses, "(none recorded)"));
    for (size_t i = 0; i < r->ndevices; i++) {
        fprintf(f, "<br>device %d: ", r->devices[i].ordinal);
        ESC(gm_name_or(r->devices[i].name, "?"));
    }
    fputs("</p>\n<nav id=\"tabs\"><a href=\"#summary\">Summary</a> <a href=\"#source\">Source"
          "</a> <a href=\"#drill\">Drill-down</a></nav>\n", f);
}

/* A table cell with a demangled name, the mangled one as its tooltip. */
static void name_cell(FILE *f, const char *mangled)
{
    char nm[512];
    fputs("<td title=\"", f);
    ESC(mangled);
    fputs("\">", f);
    ESC(gm_demangle(mangled, nm, sizeof nm));
    fputs("</td>", f);
}

static void row_start(FILE *f) { fputs("<tr>", f); }
static void cell(FILE *f, const char *s) { fputs("<td>", f); ESC(s); fputs("</td>", f); }
static void ncell(FILE *f, uint64_t v) { fprintf(f, "<td class=\"n\">%" PRIu64 "</td>", v); }
static void th(FILE *f, const char *cols) { fprintf(f, "<table><tr><th>%s</th></tr>\n", cols); }

static void kernels(const struct gm_derived *d, FILE *f)
{
    fputs("<h2>Top kernels</h2>\n", f);
    size_t n = d->nkernels < d->top ? (size_t)d->nkernels : (size_t)d->top;
    const char **lab = calloc(n + 1, sizeof *lab);
    double *v = calloc(n + 1, sizeof *v);
    char (*names)[64] = calloc(n + 1, sizeof *names);
    int timed = n && d->kernels[0].k->gpu_ns >= 0;
    for (size_t i = 0; lab && v && names && i < n; i++) {
        lab[i] = gm_demangle(d->kernels[i].k->name, names[i], sizeof names[i]);
        v[i] = timed ? (double)d->kernels[i].k->gpu_ns / 1e6 : (double)d->kernels[i].excess_sectors;
    }
    if (lab && v && names && n)
        gm_svg_bars(f, timed ? "GPU time per kernel" : "Excess sectors per kernel", lab, v, n,
                    timed ? "ms" : "");
    free(lab);
    free(v);
    free(names);
    th(f, "kernel</th><th>launches</th><th>gpu ns</th><th>mem warps</th><th>sectors</th>"
          "<th>excess sectors</th><th>branch execs</th><th>divergent</th><th>worst line");
    for (size_t i = 0; i < n; i++) {
        const struct gm_kernel_stat *k = &d->kernels[i];
        row_start(f);
        name_cell(f, k->k->name);
        ncell(f, k->k->launches);
        fprintf(f, "<td class=\"n\">%" PRId64 "</td>", k->k->gpu_ns);
        if (k->instrumented) {
            ncell(f, k->mem_warps);
            ncell(f, k->sectors);
            ncell(f, k->excess_sectors);
            ncell(f, k->br_execs);
            ncell(f, k->br_divergent);
            gm_html_kernel_cells(f, d, k->k);
        } else {
            fputs("<td colspan=\"6\">not instrumented</td>", f);
        }
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

/* SASSI's active-threads x unique-sectors matrix of the top kernels. */
static void matrices(const struct gm_report *r, const struct gm_derived *d, FILE *f)
{
    uint64_t m[1024];
    int shown = 0;
    for (long i = 0; i < d->nkernels && shown < 3; i++) {
        if (!gm_kernel_matrix(r, d->kernels[i].k, m))
            continue;
        if (!shown++)
            fputs("<h2>Memory divergence (warp accesses by active threads and unique "
                  "sectors)</h2>\n", f);
        char nm[256], title[300];
        snprintf(title, sizeof title, "%s", gm_demangle(d->kernels[i].k->name, nm, sizeof nm));
        gm_svg_heatmap32(f, title, m, "unique 32 B sectors",
                         "active threads");
    }
}

static void lines(const struct gm_derived *d, FILE *f)
{
    fputs("<h2>Worst-coalesced source lines</h2>\n", f);
    th(f, "file:line</th><th>kernel</th><th>warps</th><th>sectors</th><th>ideal</th>"
          "<th>excess sectors</th><th>wavefronts</th><th>excess wavefronts");
    for (long i = 0; i < d->nlines && i < d->top; i++) {
        const struct gm_line_stat *l = &d->lines[i];
        row_start(f);
        gm_html_loc_cell(f, d->src, l->file, l->line);
        name_cell(f, l->kernel);
        ncell(f, l->warps);
        ncell(f, l->sectors);
        ncell(f, l->ideal_sectors);
        ncell(f, l->excess_sectors);
        ncell(f, l->wavefronts);
        ncell(f, l->excess_wavefronts);
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

static void branches(const struct gm_derived *d, FILE *f)
{
    fputs("<h2>Most divergent branches</h2>\n", f);
    th(f, "file:line</th><th>function</th><th>execs</th><th>divergent</th><th>share");
    for (long i = 0; i < d->nbranches && i < d->top; i++) {
        const struct gm_branch_stat *b = &d->branches[i];
        row_start(f);
        gm_html_loc_cell(f, d->src, b->s->file, b->s->line);
        name_cell(f, gm_name_or(b->s->func, "?"));
        ncell(f, b->execs);
        ncell(f, b->divergent);
        fprintf(f, "<td class=\"n\">%.1f%%</td></tr>\n",
                b->execs ? 100.0 * (double)b->divergent / (double)b->execs : 0);
    }
    fputs("</table>\n", f);
}

static void values(const struct gm_derived *d, FILE *f)
{
    fputs("<h2>Scalar and narrow values</h2>\n", f);
    th(f, "file:line</th><th>function</th><th>warps</th><th>uniform share</th><th>varying bits");
    for (long i = 0; i < d->nvalues && i < d->top; i++) {
        const struct gm_value_stat *v = &d->values[i];
        row_start(f);
        gm_html_loc_cell(f, d->src, v->s->file, v->s->line);
        name_cell(f, gm_name_or(v->s->func, "?"));
        ncell(f, v->warps);
        fprintf(f, "<td class=\"n\">%.1f%%</td>",
                v->warps ? 100.0 * (double)v->uniform / (double)v->warps : 0);
        if (v->have_bits)
            fprintf(f, "<td class=\"n\">%u of %u</td></tr>\n", v->narrow_bits, v->width_bits);
        else
            fputs("<td>-</td></tr>\n", f);
    }
    fputs("</table>\n", f);
}

static void memory_plot(const struct gm_report *r, FILE *f)
{
    size_t n = r->nevents;
    const struct gm_report_event **ev = gm_events_by_seq(r);
    double *x = calloc(n + 1, sizeof *x), *y = calloc(n + 1, sizeof *y);
    if (ev && x && y && n) {
        double live = 0;
        for (size_t i = 0; i < n; i++) {
            if (ev[i]->op == GM_OP_ALLOC)
                live += (double)ev[i]->bytes;
            else if (ev[i]->op == GM_OP_FREE)
                live -= (double)ev[i]->bytes;
            x[i] = (double)ev[i]->seq;
            y[i] = live > 0 ? live / 1048576.0 : 0;
        }
        fputs("<h2>Device memory over the timeline</h2>\n", f);
        gm_svg_steps(f, "Live allocated MiB", x, y, n, "timeline event seq", "MiB");
    }
    free(ev);
    free(x);
    free(y);
}

static void findings(const struct gm_report *r, const struct gm_derived *d, FILE *f)
{
    fputs("<h2>Allocation findings (by bytes at stake)</h2>\n", f);
    if (!gm_launch_uses_known(r))
        fputs("<p>Which allocations kernels used was not recorded: only memory leaks are "
              "reported.</p>\n", f);
    size_t n = d->findings.n < (size_t)d->top ? d->findings.n : (size_t)d->top;
    const char **lab = calloc(n + 1, sizeof *lab);
    double *v = calloc(n + 1, sizeof *v);
    char (*names)[64] = calloc(n + 1, sizeof *names);
    for (size_t i = 0; lab && v && names && i < n; i++) {
        snprintf(names[i], sizeof names[i], "%s #%" PRIu64,
                 gm_pattern_name(d->findings.v[i].pattern), d->findings.v[i].alloc);
        lab[i] = names[i];
        v[i] = (double)d->findings.v[i].bytes / 1048576.0;
    }
    if (lab && v && names && n)
        gm_svg_bars(f, "Bytes at stake", lab, v, n, "MiB");
    free(lab);
    free(v);
    free(names);
    th(f, "#</th><th>pattern</th><th>bytes at stake</th><th>finding</th><th>suggestion</th>"
          "<th>host site");
    for (size_t i = 0; i < d->findings.n; i++) {
        const struct gm_finding *x = &d->findings.v[i];
        fprintf(f, "<tr><td class=\"n\">%zu</td>", i + 1);
        cell(f, gm_pattern_name(x->pattern));
        ncell(f, x->bytes);
        cell(f, x->what);
        cell(f, x->suggestion);
        gm_html_loc_cell(f, d->src, x->site1 ? x->site1->file : NULL, x->site1 ? x->site1->line : 0);
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

static void notes(const struct gm_report *r, FILE *f)
{
    if (!r->nunobserved && !r->nnotes)
        return;
    fputs("<h2>Notes</h2>\n<ul>\n", f);
    for (size_t i = 0; i < r->nunobserved; i++) {
        fprintf(f, "<li>%" PRIu64 " launches not observed (", r->unobserved[i].count);
        ESC(gm_name_or(r->unobserved[i].kernel, "unknown kernel"));
        fputs("): ", f);
        ESC(r->unobserved[i].reason);
        fputs("</li>\n", f);
    }
    for (size_t i = 0; i < r->nnotes; i++) {
        fputs("<li>", f);
        ESC(r->notes[i]);
        fputs("</li>\n", f);
    }
    fputs("</ul>\n", f);
}

int gm_html_write(const struct gm_report *r, const struct gm_derived *dv, FILE *f)
{
    struct gm_derived dd = *dv, *d = &dd;
    struct gm_srcview *src = gm_srcview_build(r, dv);
    if (!src)
        return -1;
    dd.src = src;
    head(r, f);
    /* a page of a trace alone opens on the drill-down (report.js) */
    fputs(r->nkernels || r->nallocs || r->nevents ? "<section id=\"summary\">\n"
                                                  : "<section id=\"summary\" data-empty=\"1\">\n", f);
    kernels(d, f);
    matrices(r, d, f);
    lines(d, f);
    branches(d, f);
    values(d, f);
    memory_plot(r, f);
    gm_html_allocs(r, d->top, f);
    findings(r, d, f);
    notes(r, f);
    fputs("</section>\n", f);
    gm_srcview_write(src, f);
    gm_drill_write_html(r, d->drill, src, f);
    fprintf(f, "<script>%s</script>\n</body></html>\n", gm_html_js);
    gm_srcview_free(src);
    return ferror(f) ? -1 : 0;
}

int gm_report_write_html(const struct gm_report *r, const struct gm_write_opts *o, FILE *f)
{
    struct gm_derived d;
    if (gm_derive(r, o, &d))
        return -1;
    int rc = gm_html_write(r, &d, f);
    gm_derived_free(&d);
    return rc;
}
