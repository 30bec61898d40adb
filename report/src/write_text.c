/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Human text summary of a report: run, top kernels, worst-coalesced source
 * lines, shared-memory bank conflicts, most divergent branches, scalar and
 * narrow values, allocation findings ranked by bytes at stake, unobserved
 * launches and notes. Depends on the report headers and libc only.
 */
#include "derived.h"
#include "util.h"
#include "gpumem/abi.h"

#include <inttypes.h>
#include <stdio.h>

static double pct(uint64_t a, uint64_t b) { return b ? 100.0 * (double)a / (double)b : 0; }

static void header(const struct gm_report *r, FILE *f)
{
    const struct gm_report_program *p = &r->program;
    fprintf(f, "gpumem report:");
    for (int i = 0; i < p->argc; i++)
        fprintf(f, " %s", p->argv[i]);
    fprintf(f, "%s\n", p->argc ? "" : " (program unknown)");
    fprintf(f, "  pid %" PRId64 ", ended: %s", p->pid, gm_report_end_name(p->end));
    if (p->end == GM_END_SIGNAL)
        fprintf(f, " (signal %d)", p->exit_status);
    else if (p->end != GM_END_UNKNOWN)
        fprintf(f, " (status %d)", p->exit_status);
    if (p->start_ns >= 0 && p->end_ns >= p->start_ns)
        fprintf(f, ", %.3f s", (double)(p->end_ns - p->start_ns) / 1e9);
    fprintf(f, "\n  analyses: %s\n", gm_name_or(p->analyses, "(none recorded)"));
    for (size_t i = 0; i < r->ndevices; i++) {
        const struct gm_report_device *d = &r->devices[i];
        fprintf(f, "  device %d: %s (sm_%d%d, %d SMs)\n", d->ordinal, gm_name_or(d->name, "?"),
                d->cc_major, d->cc_minor, d->sm_count);
    }
    fprintf(f, "  %zu kernels, %zu launches, %zu allocations, %zu timeline events\n",
            r->nkernels, r->nlaunches, r->nallocs, r->nevents);
}

static void kernels(const struct gm_derived *d, FILE *f)
{
    fprintf(f, "\nTop kernels\n");
    if (d->nkernels == 0) {
        fprintf(f, "  (no kernels)\n");
        return;
    }
    fprintf(f, "  %-40s %9s %12s %12s %12s %12s %10s %10s\n", "kernel", "launches", "gpu ms",
            "mem warps", "sectors", "excess", "br execs", "divergent");
    for (long i = 0; i < d->nkernels && i < d->top; i++) {
        const struct gm_kernel_stat *k = &d->kernels[i];
        char ms[32] = "-";
        if (k->k->gpu_ns >= 0)
            snprintf(ms, sizeof ms, "%.3f", (double)k->k->gpu_ns / 1e6);
        char nm[48];
        fprintf(f, "  %-40s %9" PRIu64 " %12s", gm_demangle(k->k->name, nm, sizeof nm),
                k->k->launches, ms);
        if (!k->instrumented)   /* counters unknown, not zero */
            fprintf(f, " %12s\n", "(not instrumented)");
        else
            fprintf(f, " %12" PRIu64 " %12" PRIu64 " %12" PRIu64 " %10" PRIu64 " %10" PRIu64 "\n",
                    k->mem_warps, k->sectors, k->excess_sectors, k->br_execs, k->br_divergent);
    }
}

static void lines(const struct gm_derived *d, FILE *f)
{
    fprintf(f, "\nWorst-coalesced source lines (excess sectors = sectors - ideal sectors)\n");
    int shown = 0;
    for (long i = 0; i < d->nlines && shown < d->top; i++) {
        const struct gm_line_stat *l = &d->lines[i];
        if (!l->excess_sectors)
            continue;
        if (!shown++)
            fprintf(f, "  %-32s %-28s %10s %12s %12s %12s %8s\n", "file:line", "kernel", "warps",
                    "sectors", "ideal", "excess", "sec/warp");
        char loc[400], nm[40];
        snprintf(loc, sizeof loc, "%s:%u", *l->file ? l->file : "?", l->line);
        fprintf(f, "  %-32s %-28s %10" PRIu64 " %12" PRIu64 " %12" PRIu64 " %12" PRIu64 " %8.2f\n",
                loc, gm_demangle(l->kernel, nm, sizeof nm), l->warps, l->sectors, l->ideal_sectors, l->excess_sectors,
                l->warps ? (double)l->sectors / (double)l->warps : 0);
    }
    if (!shown)
        fprintf(f, "  (no global/local access with excess sectors)\n");
}

static void banks(const struct gm_derived *d, FILE *f)
{
    int shown = 0;
    for (long i = 0; i < d->nlines && shown < d->top; i++) {
        const struct gm_line_stat *l = &d->lines[i];
        if (!l->excess_wavefronts)
            continue;
        if (!shown++)
            fprintf(f, "\nShared-memory bank conflicts (excess wavefronts)\n  %-32s %12s %12s %12s\n",
                    "file:line", "wavefronts", "ideal", "excess");
        char loc[400];
        snprintf(loc, sizeof loc, "%s:%u", *l->file ? l->file : "?", l->line);
        fprintf(f, "  %-32s %12" PRIu64 " %12" PRIu64 " %12" PRIu64 "\n", loc, l->wavefronts,
                l->ideal_wavefronts, l->excess_wavefronts);
    }
}

static void branches(const struct gm_derived *d, FILE *f)
{
    fprintf(f, "\nMost divergent branches\n");
    int shown = 0;
    for (long i = 0; i < d->nbranches && shown < d->top; i++) {
        const struct gm_branch_stat *b = &d->branches[i];
        if (!b->divergent)
            continue;
        if (!shown++)
            fprintf(f, "  %-32s %-28s %12s %12s %8s\n", "file:line", "function", "execs",
                    "divergent", "share");
        char loc[400], nm[40];
        fprintf(f, "  %-32s %-28s %12" PRIu64 " %12" PRIu64 " %7.1f%%\n",
                gm_devsite_str(b->s, loc, sizeof loc), gm_demangle(b->s->func, nm, sizeof nm), b->execs,
                b->divergent, pct(b->divergent, b->execs));
    }
    if (!shown)
        fprintf(f, "  (no divergent branch)\n");
}

static void values(const struct gm_derived *d, FILE *f)
{
    fprintf(f, "\nScalar and narrow values\n");
    int shown = 0;
    for (long i = 0; i < d->nvalues && shown < d->top; i++) {
        const struct gm_value_stat *v = &d->values[i];
        int narrow = v->have_bits && v->narrow_bits < v->width_bits;
        if (!v->uniform && !narrow)
            continue;
        if (!shown++)
            fprintf(f, "  %-32s %-6s %12s %9s %14s\n", "file:line", "kind", "warps", "uniform",
                    "varying bits");
        char loc[400], bits[32] = "-";
        if (v->have_bits)
            snprintf(bits, sizeof bits, "%u of %u", v->narrow_bits, v->width_bits);
        fprintf(f, "  %-32s %-6s %12" PRIu64 " %8.1f%% %14s\n", gm_devsite_str(v->s, loc, sizeof loc),
                (v->s->info & GM_INFO_STORE) ? "store" : "load", v->warps, pct(v->uniform, v->warps),
                bits);
    }
    if (!shown)
        fprintf(f, "  (no value profile)\n");
}

static void findings(const struct gm_report *r, const struct gm_derived *d, FILE *f)
{
    uint64_t at;
    char b[32];
    fprintf(f, "\nAllocation findings, by bytes at stake (peak allocated: %s)\n",
            gm_fmt_bytes(gm_peak_bytes(r, &at), b, sizeof b));
    if (!gm_launch_uses_known(r))
        fprintf(f, "  (which allocations kernels used was not recorded: only memory leaks are "
                   "reported)\n");
    size_t show = (size_t)d->top * 2;   /* findings matter most: twice the rows */
    for (size_t i = 0; i < d->findings.n && i < show; i++) {
        const struct gm_finding *x = &d->findings.v[i];
        fprintf(f, "  %2zu. [%s] %s at stake\n      %s\n      -> %s\n", i + 1,
                gm_pattern_name(x->pattern), gm_fmt_bytes(x->bytes, b, sizeof b), x->what,
                x->suggestion);
    }
    if (!d->findings.n)
        fprintf(f, "  (none)\n");
    else if (d->findings.n > show)
        fprintf(f, "  ... and %zu more (all in findings.csv; or use --top)\n", d->findings.n - show);
}

static void rest(const struct gm_report *r, FILE *f)
{
    char nm[256];
    if (r->nunobserved)
        fprintf(f, "\nLaunches not observed\n");
    for (size_t i = 0; i < r->nunobserved; i++)
        fprintf(f, "  %" PRIu64 " x %s: %s\n", r->unobserved[i].count,
                r->unobserved[i].kernel ? gm_demangle(r->unobserved[i].kernel, nm, sizeof nm)
                                        : "(unknown kernel)",
                gm_name_or(r->unobserved[i].reason, "?"));
    for (size_t i = 0; i < r->nmodules; i++)
        if (r->modules[i].n_asm_mem)
            fprintf(f, "\nNote: %s has %u inline-asm memory statements that were not instrumented\n",
                    gm_name_or(r->modules[i].source, "?"), r->modules[i].n_asm_mem);
    if (r->nnotes)
        fprintf(f, "\nNotes\n");
    for (size_t i = 0; i < r->nnotes; i++)
        fprintf(f, "  %s\n", r->notes[i]);
}

int gm_text_write(const struct gm_report *r, const struct gm_derived *d, FILE *f)
{
    header(r, f);
    kernels(d, f);
    lines(d, f);
    banks(d, f);
    branches(d, f);
    values(d, f);
    findings(r, d, f);
    rest(r, f);
    return ferror(f) ? -1 : 0;
}

int gm_report_write_text(const struct gm_report *r, const struct gm_write_opts *o, FILE *f)
{
    struct gm_derived d;
    if (gm_derive(r, o, &d))
        return -1;
    int rc = gm_text_write(r, &d, f);
    gm_derived_free(&d);
    return rc;
}
