/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The HTML report's drill-down section (Rosen's views): the gm_drill
 * sample as JSON in the page, drawn by the page's script (report.js) as a
 * block/warp overview per launch, a warp's operations in order and one
 * operation's lanes with their sectors or banks and wavefronts. What each
 * operation costs is computed here (gm_drill_cost), not in the script.
 * Depends on the report headers and libc only.
 */
#include "html.h"
#include "svg.h"
#include "util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* A JSON string that is safe inside <script>: <, > and & as \u escapes. */
static void jstr(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20 || *p == '<' || *p == '>' || *p == '&')
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

/* (module, site) pairs the kept operations name, in first-use order. */
struct sites { size_t n, cap; uint64_t *key; };

static long site_index(struct sites *s, uint32_t module, uint32_t site)
{
    uint64_t k = (uint64_t)module << 32 | site;
    for (size_t i = 0; i < s->n; i++)
        if (s->key[i] == k)
            return (long)i;
    if (s->n == s->cap) {
        size_t nc = s->cap ? 2 * s->cap : 64;
        uint64_t *p = realloc(s->key, nc * sizeof *p);
        if (!p)
            return -1;
        s->key = p;
        s->cap = nc;
    }
    s->key[s->n] = k;
    return (long)s->n++;
}

static void op_json(FILE *f, const struct gm_drill_op *op, long site)
{
    struct gm_drill_cost c;
    gm_drill_cost(op, &c);
    uint64_t base = 0;
    for (int k = 0; k < 32; k++)
        if (op->active >> k & 1) {
            base = op->addr[k];
            break;
        }
    fprintf(f, "[%ld,%u,%u,%u,%" PRIu32 ",\"0x%" PRIx64 "\",%" PRIu32 ",%" PRIu32 ",[", site,
            op->kind, op->space, op->width, op->active, base, c.units, c.ideal);
    for (int k = 0; k < 32; k++)
        fprintf(f, "%s%" PRId64, k ? "," : "",
                op->active >> k & 1 ? (int64_t)(op->addr[k] - base) : 0);
    fputs("],[", f);
    for (int k = 0; k < 32; k++)
        fprintf(f, "%s%d", k ? "," : "", c.group[k] == 255 ? -1 : c.group[k]);
    fputs("],[", f);
    for (int k = 0; k < 32; k++)
        fprintf(f, "%s%d", k ? "," : "", c.bank[k] == 255 ? -1 : c.bank[k]);
    fputs("]]", f);
}

static void warps_json(FILE *f, const struct gm_drill_launch *l)
{
    fputs("\"warps\":[", f);
    for (size_t i = 0; i < l->nwarps; i++) {
        const struct gm_drill_warp *w = &l->warps[i];
        fprintf(f, "%s[%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
                   ",%" PRIu64 ",%" PRIu64 ",%" PRIu32 ",%d]",
                i ? "," : "", w->ops, w->lanes, w->requests, w->sectors, w->ideal_sectors,
                w->shared_ops, w->wavefronts, w->ideal_wavefronts, w->smid, w->detail);
    }
    fputs("]", f);
}

static void launch_json(FILE *f, const struct gm_drill_launch *l, struct sites *ss)
{
    char nm[512];
    fputs("{\"kernel\":", f);
    jstr(f, gm_demangle(l->kernel, nm, sizeof nm));
    fputs(",\"mangled\":", f);
    jstr(f, l->kernel);
    fprintf(f, ",\"seq\":%" PRIu64 ",\"grid\":[%u,%u,%u],\"block\":[%u,%u,%u],\"wpc\":%u,"
               "\"ctas_kept\":%u,\"ops\":%" PRIu64 ",\"ops_kept\":%" PRIu64 ",",
            l->seq, l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2],
            l->warps_per_cta, l->ctas_kept, l->ops, l->ops_kept);
    warps_json(f, l);
    fputs(",\"detail\":[", f);
    for (size_t k = 0; k < l->ndetail; k++) {
        const struct gm_drill_detail *t = &l->detail[k];
        fprintf(f, "%s{\"warp\":%zu,\"total\":%" PRIu64 ",\"ops\":[", k ? "," : "", t->warp,
                t->ops_total);
        for (size_t o = 0; o < t->nops; o++) {
            fputs(o ? ",\n" : "\n", f);
            op_json(f, &t->ops[o], site_index(ss, t->ops[o].module, t->ops[o].site));
        }
        fputs("]}", f);
    }
    fputs("]}", f);
}

static void sites_json(FILE *f, const struct gm_drill *d, const struct sites *ss,
                       const struct gm_srcview *v)
{
    char nm[512], a[48];
    fputs(",\"sites\":[", f);
    for (size_t i = 0; i < ss->n; i++) {
        uint32_t m = (uint32_t)(ss->key[i] >> 32), s = (uint32_t)ss->key[i];
        const struct gm_drill_site *t =
            m < d->nmodules && s < d->modules[m].nsites ? &d->modules[m].sites[s] : NULL;
        fputs(i ? ",\n[" : "\n[", f);
        jstr(f, t ? t->file : NULL);
        fprintf(f, ",%" PRIu32 ",", t ? t->line : 0);
        jstr(f, t && t->func ? gm_demangle(t->func, nm, sizeof nm) : NULL);
        fputc(',', f);
        jstr(f, t ? gm_srcview_anchor(v, t->file, t->line, a, sizeof a) : NULL);
        fprintf(f, ",%" PRIu32 "]", s);
    }
    fputs("]", f);
}

static void data(FILE *f, const struct gm_drill *d, const struct gm_srcview *v)
{
    struct sites ss = {0};
    fputs("{\"trace\":", f);
    jstr(f, d->trace);
    fputs(",\"gpu\":", f);
    jstr(f, d->gpu);
    fprintf(f, ",\"launches_total\":%" PRIu64 ",\"limits\":{\"launches\":%d,\"warps\":%d,"
               "\"detail\":%d,\"ops\":%d},\"launches\":[",
            d->launches_total, GM_DRILL_LAUNCHES, GM_DRILL_WARPS, GM_DRILL_DETAIL, GM_DRILL_OPS);
    for (size_t i = 0; i < d->nlaunches; i++) {
        fputs(i ? ",\n" : "\n", f);
        launch_json(f, &d->launches[i], &ss);
    }
    fputs("]", f);
    sites_json(f, d, &ss, v);
    fputs("}", f);
    free(ss.key);
}

void gm_drill_write_html(const struct gm_report *r, const struct gm_drill *d,
                         const struct gm_srcview *v, FILE *f)
{
    fputs("<section id=\"drill\">\n<h2>Drill-down: blocks, warps, operations, lanes</h2>\n", f);
    if (!d) {
        int traced = r->program.analyses && strstr(r->program.analyses, "trace");
        fprintf(f, "<p>No trace in this report. %s<code>gpumem report DIR --trace FILE.gmt "
                   "--format html</code> adds this view (docs/reports.md).</p>\n</section>\n",
                traced ? "The program was traced: " : "Build with <code>--gm-analyses=trace"
                "</code>, run with <code>GPUMEM_TRACE_FILE=FILE.gmt</code>, then ");
        return;
    }
    fputs("<p class=\"s\" id=\"drill-note\"></p>\n<div id=\"drill-ui\"><noscript>The "
          "drill-down views need JavaScript.</noscript></div>\n"
          "<script type=\"application/json\" id=\"gm-drill\">", f);
    data(f, d, v);
    fputs("</script>\n</section>\n", f);
}
