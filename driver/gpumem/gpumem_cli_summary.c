/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one-screen summary `gpumem profile` prints when the program ends:
 * how it ended, top kernels, worst-coalesced source lines, top findings
 * and where the full report is; and the check of --analyses against the
 * analyses the report lists. Reads report.json with the report library;
 * depends on it and libc only.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "gm_analysis.h"
#include "gm_report_json.h"
#include "gpumem_cli.h"

#define TOP_KERNELS 5
#define TOP_LINES 5
#define TOP_FINDINGS 3

static void ended(FILE *f, const char *prog, int status, const struct gm_report *r)
{
    fprintf(f, "gpumem profile: %s ", prog);
    if (WIFSIGNALED(status))
        fprintf(f, "was killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
        fprintf(f, "exited with status %d", WEXITSTATUS(status));
    const struct gm_report_program *p = &r->program;
    if (p->start_ns >= 0 && p->end_ns >= p->start_ns)
        fprintf(f, " after %.3f s", (double)(p->end_ns - p->start_ns) / 1e9);
    fprintf(f, "; analyses: %s\n", p->analyses && *p->analyses ? p->analyses : "(none)");
}

static void kernels(FILE *f, const struct gm_report *r)
{
    struct gm_kernel_stat *ks = NULL;
    long n = gm_kernel_stats(r, &ks);
    fprintf(f, "\nTop kernels (%ld kernels, %zu launches measured)\n", n < 0 ? 0 : n, r->nlaunches);
    if (n > 0)
        fprintf(f, "  %-44s %8s %10s %12s %12s %10s\n", "kernel", "launches", "gpu ms",
                "sectors/req", "excess sect", "divergent");
    for (long i = 0; i < n && i < TOP_KERNELS; i++) {
        const struct gm_kernel_stat *k = &ks[i];
        char nm[45], ms[32] = "-", spr[32] = "-";
        if (k->k->gpu_ns >= 0) snprintf(ms, sizeof ms, "%.3f", (double)k->k->gpu_ns / 1e6);
        if (k->mem_warps) snprintf(spr, sizeof spr, "%.2f", (double)k->sectors / (double)k->mem_warps);
        fprintf(f, "  %-44s %8" PRIu64 " %10s", gm_demangle(k->k->name, nm, sizeof nm),
                k->k->launches, ms);
        if (!k->instrumented)
            fprintf(f, " %12s\n", "(not instrumented)");
        else
            fprintf(f, " %12s %12" PRIu64 " %10" PRIu64 "\n", spr, k->excess_sectors,
                    k->br_divergent);
    }
    if (n > TOP_KERNELS) fprintf(f, "  ... %ld more\n", n - TOP_KERNELS);
    free(ks);
}

static void lines(FILE *f, const struct gm_report *r)
{
    struct gm_line_stat *ls = NULL;
    long n = gm_line_stats(r, &ls), shown = 0;
    fprintf(f, "\nWorst source lines (excess sectors: fetched beyond what the bytes need)\n");
    for (long i = 0; i < n && shown < TOP_LINES; i++) {
        const struct gm_line_stat *l = &ls[i];
        if (!l->excess_sectors && !l->excess_wavefronts) continue;
        if (!shown++)
            fprintf(f, "  %-36s %-28s %12s %12s %10s\n", "file:line", "kernel", "sectors/req",
                    "excess sect", "bank confl");
        char loc[64], nm[29];
        const char *file = *l->file ? l->file : "?";
        size_t fl = strlen(file);
        snprintf(loc, sizeof loc, "%s%s:%u", fl > 40 ? "..." : "", fl > 40 ? file + fl - 37 : file,
                 l->line);
        fprintf(f, "  %-36s %-28s %12.2f %12" PRIu64 " %10" PRIu64 "\n", loc,
                gm_demangle(l->kernel, nm, sizeof nm),
                l->warps ? (double)l->sectors / (double)l->warps : 0.0, l->excess_sectors,
                l->excess_wavefronts);
    }
    const char *an = r->program.analyses ? r->program.analyses : "";
    if (!shown && !strstr(an, "coalescing"))
        fprintf(f, "  (not measured: the program was built without the coalescing analysis)\n");
    else if (!shown)
        fprintf(f, "  (no access fetched more sectors than it needed)\n");
    free(ls);
}

static void findings(FILE *f, const struct gm_report *r)
{
    struct gm_findings fs = {0};
    if (gm_find_patterns(r, NULL, &fs) != 0) {
        fprintf(f, "\nTop findings: (out of memory)\n");
        return;
    }
    fprintf(f, "\nTop findings (%zu, by bytes at stake)\n", fs.n);
    for (size_t i = 0; i < fs.n && i < TOP_FINDINGS; i++) {
        char b[32];
        fprintf(f, "  %zu. [%s] %s: %s\n     -> %s\n", i + 1, gm_pattern_name(fs.v[i].pattern),
                gm_fmt_bytes(fs.v[i].bytes, b, sizeof b), fs.v[i].what, fs.v[i].suggestion);
    }
    if (!fs.n) fprintf(f, "  (none)\n");
    gm_findings_free(&fs);
}

/* Requested analyses the program was not built with: one line, 1; else 0.
 * "trace" has no counters: its trace file is checked by the caller. */
static int check_analyses(FILE *f, const struct gm_report *r, const char *want)
{
    const char *have = r->program.analyses ? r->program.analyses : "";
    char missing[512] = "";
    for (const char *p = want; p && *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
        size_t n = strcspn(p, ",");
        if (!n || (n == 5 && !strncmp(p, "trace", 5))) continue;
        int found = 0;
        for (const char *q = have; *q && !found; q += strcspn(q, ",") + (q[strcspn(q, ",")] == ','))
            found = strcspn(q, ",") == n && !strncmp(q, p, n);
        if (!found)
            snprintf(missing + strlen(missing), sizeof missing - strlen(missing), "%s%.*s",
                     *missing ? "," : "", (int)n, p);
    }
    if (!*missing) return 0;
    fprintf(f, "gpumem profile: the program was not built with --analyses %s (it has: %s); "
               "analyses are compiled in: rebuild with gpumemcc --gm-analyses=%s\n",
            missing, *have ? have : "none", want);
    return 1;
}

int gm_cli_summary(FILE *f, const char *json, const char *dir, const char *prog, int status,
                   const char *analyses)
{
    char err[8192];
    struct gm_report *r = gm_report_load_json(json, err, sizeof err);
    if (!r) {
        fprintf(f, "gpumem profile: %s\n", err);
        return 1;
    }
    ended(f, prog, status, r);
    kernels(f, r);
    lines(f, r);
    findings(f, r);
    uint64_t unobserved = 0;
    for (size_t i = 0; i < r->nunobserved; i++) unobserved += r->unobserved[i].count;
    if (unobserved)
        fprintf(f, "\n%" PRIu64 " launches not observed (summary.txt says why)\n", unobserved);
    fprintf(f, "\nFull report: %s/ (summary.txt, report.json, *.csv); as HTML:\n"
               "  gpumem report %s --format html -o %s\n", dir, json, dir);
    int rc = check_analyses(f, r, analyses);
    gm_report_free(r);
    return rc;
}
