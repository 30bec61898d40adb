/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gpumem-sim output for people (--format text, the default): a table of
 * kernels (one row per launch, demangled names) and one of allocations
 * (label or call site, size), with hit rates, sectors and traffic, and the
 * busiest source lines; and --format csv: every raw counter of every
 * launch, allocation and site, one row each (RFC 4180 quoting, so
 * templated names with commas stay one field). Demangling comes from
 * common/ (gm_demangle), CSV fields and byte counts from the report
 * library (report/: gm_csv_*, gm_fmt_bytes).
 * Reads results only; no simulation.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "gm_csv.h"
#include "gm_demangle.h"
#include "gm_grow.h"
#include "gpumem_sim.h"
#include "util.h"

static double pct(uint64_t a, uint64_t b) { return b ? 100.0 * (double)a / (double)b : 0.0; }
static uint64_t l2_acc(const struct gm_counts *c) { return c->l2_rd + c->l2_wr + c->l2_atom; }
static uint64_t l2_hit(const struct gm_counts *c) { return c->l2_rd_hit + c->l2_wr_hit + c->l2_atom_hit; }
static uint64_t dram(const struct gm_counts *c) { return c->dram_rd + c->dram_wr; }

static const char *rate(uint64_t a, uint64_t b, char *buf, size_t n)
{
    if (!b) snprintf(buf, n, "-");
    else snprintf(buf, n, "%.1f%%", pct(a, b));
    return buf;
}

static const char *mib(uint64_t sectors, char *buf, size_t n)
{
    return gm_fmt_bytes(sectors * GM_SECTOR_BYTES, buf, n);
}

#define COLS "%10s %10s %7s %7s %7s %11s %11s %7s"
static void head(FILE *f, const char *last)
{
    fprintf(f, "  " COLS "  %s\n", "requests", "sectors", "sec/req", "L1 hit", "L2 hit", "L2 traffic", "DRAM",
            "DRAM %", last);
}

/* One row: name, then requests, sectors, sectors per request, L1 (loads)
 * and L2 hit rates, L2 and DRAM traffic, share of all DRAM traffic. */
static void row(FILE *f, const char *name, const struct gm_counts *c, const struct gm_counts *tot)
{
    char q[32], r[32], l1[16], l2[16], t2[32], td[32], sh[16];
    snprintf(q, sizeof q, "%llu", (unsigned long long)c->requests);
    snprintf(r, sizeof r, "%llu", (unsigned long long)c->sectors);
    char spr[16];
    if (c->requests) snprintf(spr, sizeof spr, "%.2f", (double)c->sectors / (double)c->requests);
    else snprintf(spr, sizeof spr, "-");
    fprintf(f, "  " COLS "  %s\n", q, r, spr, rate(c->l1_ld_hit, c->l1_ld, l1, sizeof l1),
            rate(l2_hit(c), l2_acc(c), l2, sizeof l2), mib(l2_acc(c), t2, sizeof t2), mib(dram(c), td, sizeof td),
            rate(dram(c), dram(tot), sh, sizeof sh), name);
}

static void totals(const struct gm_run *r, struct gm_counts *t)
{
    memset(t, 0, sizeof *t);
    for (size_t i = 0; i < r->nlaunches; i++) gm_counts_add(t, &r->launches[i].c);
    gm_counts_add(t, &r->final_wb);
}

static const char *kernel_name(const struct gm_run_launch *L, char *buf, size_t n)
{
    char d[200];
    snprintf(buf, n, "#%llu %s%s", (unsigned long long)L->l.seq, gm_demangle(L->l.name, d, sizeof d),
             L->incomplete ? " (incomplete)" : "");
    return buf;
}

static const char *alloc_name(const struct gm_run *r, uint32_t id, char *buf, size_t n)
{
    char sz[32];
    if (!id) snprintf(buf, n, "(no allocation)");
    else snprintf(buf, n, "#%u %s (%s)", id, r->labels[id], gm_fmt_bytes(r->alloc_size[id], sz, sizeof sz));
    return buf;
}

static int site_used(const struct gm_counts *c) { return c->requests || c->shared_req || c->other_req; }

/* A source line: the sites of one file:line and function, summed. */
struct line { char name[400]; struct gm_counts c; };

static int by_name(const void *a, const void *b)
{
    return strcmp(((const struct line *)a)->name, ((const struct line *)b)->name);
}

static int by_sectors(const void *a, const void *b)
{
    uint64_t x = ((const struct line *)a)->c.sectors, y = ((const struct line *)b)->c.sectors;
    return x < y ? 1 : x > y ? -1 : strcmp(((const struct line *)a)->name, ((const struct line *)b)->name);
}

/* The source lines of every site that requested sectors, busiest first;
 * NULL when there are none, or with *n = SIZE_MAX when out of memory. */
static struct line *source_lines(const struct gm_run *r, size_t *n)
{
    size_t k = 0, cap = 0;
    *n = SIZE_MAX;
    struct line *v = NULL;
    for (uint32_t m = 0; m < r->nmods; m++)
        for (uint32_t s = 0; s < r->mod_nsites[m]; s++) {
            const struct gm_counts *c = gm_sim_site_counts(r->sim, m, s);
            if (!c->sectors) continue;
            if (GM_GROW_TO(v, cap, k + 1)) { free(v); return NULL; }   /* *n says why */
            const struct gm_trace_site *st = r->mod_sites[m] ? &r->mod_sites[m][s] : NULL;
            char d[160];
            if (st && st->file[0])
                snprintf(v[k].name, sizeof v[k].name, "%s:%u %s", st->file, st->line,
                         st->func[0] ? gm_demangle(st->func, d, sizeof d) : "");
            else snprintf(v[k].name, sizeof v[k].name, "%s#%u", r->mod_names[m], s);
            v[k++].c = *c;
        }
    *n = 0;
    if (!k) { free(v); return NULL; }
    qsort(v, k, sizeof *v, by_name);
    size_t u = 0;
    for (size_t i = 0; i < k; i++) {
        if (u && !strcmp(v[u - 1].name, v[i].name)) gm_counts_add(&v[u - 1].c, &v[i].c);
        else v[u++] = v[i];
    }
    qsort(v, u, sizeof *v, by_sectors);
    *n = u;
    return v;
}

void gm_print_table(FILE *f, const struct gm_run *r)
{
    struct gm_counts tot;
    char name[400];
    totals(r, &tot);
    fprintf(f, "gpumem-sim: %s preset, %u SMs, L1 %u-way %s, L2 %llu KiB %u-way; trace GPU '%s'; %llu records, %llu dropped\n",
            r->preset, r->cfg.sm_count, r->cfg.l1_ways, r->cfg.l1_repl == GM_REPL_PLRU ? "plru" : "lru",
            (unsigned long long)(r->cfg.l2_bytes >> 10), r->cfg.l2_ways, r->gpu.name,
            (unsigned long long)r->records, (unsigned long long)r->dropped);
    fprintf(f, "\nKernels (one row per launch; L1 hit: loads; traffic: 32 B sectors)\n");
    head(f, "launch kernel");
    for (size_t i = 0; i < r->nlaunches; i++) row(f, kernel_name(&r->launches[i], name, sizeof name), &r->launches[i].c, &tot);
    struct gm_counts wb = {0};
    wb.dram_wr = r->final_wb.dram_wr;
    row(f, "(dirty L2 sectors written back at the end)", &wb, &tot);
    fprintf(f, "\nAllocations (all launches)\n");
    head(f, "allocation: label or call site (size)");
    for (uint32_t id = 0; id < r->nlabels; id++) {
        const struct gm_counts *c = gm_sim_alloc_counts(r->sim, id);
        if (c && (c->requests || c->sectors || c->dram_wr)) row(f, alloc_name(r, id, name, sizeof name), c, &tot);
    }
    size_t n = 0;
    struct line *v = source_lines(r, &n);
    if (n == SIZE_MAX) fprintf(f, "\n(source lines left out: out of memory)\n");
    if (!v) return;
    fprintf(f, "\nSource lines with the most sectors (%zu of %zu)\n", n < 10 ? n : 10, n);
    head(f, "file:line function");
    for (size_t i = 0; i < n && i < 10; i++) row(f, v[i].name, &v[i].c, &tot);
    free(v);
}

static void csv_row(FILE *f, const char *table, uint64_t id, const char *name, const char *where,
                    const struct gm_counts *c)
{
    gm_csv_str(f, table, 0);
    gm_csv_u64(f, id, 0);
    gm_csv_str(f, name, 0);
    gm_csv_str(f, where, 0);
    for (size_t i = 0; i < gm_count_fields(); i++) gm_csv_u64(f, gm_count_get(c, i), 0);
    gm_csv_dbl(f, pct(c->l1_ld_hit, c->l1_ld), 0);
    gm_csv_dbl(f, pct(l2_hit(c), l2_acc(c)), 1);
}

/* The header of csv_row's fields, the counters named as in every format. */
static void csv_head(FILE *f)
{
    fputs("table,id,name,where,", f);
    for (size_t i = 0; i < gm_count_fields(); i++) fprintf(f, "%s,", gm_count_name(i));
    fputs("l1_hit_rate,l2_hit_rate\n", f);
}

/* table: launch (id = sequence number, name = demangled kernel), alloc
 * (id, name = label, where = size in bytes), site (id = module << 32 |
 * site, name = file:line:column or module#site, where = function), end
 * (the final write-back). */
void gm_print_csv(FILE *f, const struct gm_run *r)
{
    char name[400], where[400];
    csv_head(f);
    for (size_t i = 0; i < r->nlaunches; i++) {
        const struct gm_run_launch *L = &r->launches[i];
        csv_row(f, "launch", L->l.seq, gm_demangle(L->l.name, name, sizeof name),
                L->incomplete ? "incomplete" : "", &L->c);
    }
    csv_row(f, "end", 0, "end write-back", "", &r->final_wb);
    for (uint32_t id = 0; id < r->nlabels; id++) {
        snprintf(where, sizeof where, "%llu", (unsigned long long)(id ? r->alloc_size[id] : 0));
        csv_row(f, "alloc", id, r->labels[id], where, gm_sim_alloc_counts(r->sim, id));
    }
    for (uint32_t m = 0; m < r->nmods; m++)
        for (uint32_t s = 0; s < r->mod_nsites[m]; s++) {
            const struct gm_counts *c = gm_sim_site_counts(r->sim, m, s);
            if (!site_used(c)) continue;
            const struct gm_trace_site *st = r->mod_sites[m] ? &r->mod_sites[m][s] : NULL;
            if (st && st->file[0]) snprintf(name, sizeof name, "%s:%u:%u", st->file, st->line, st->column);
            else snprintf(name, sizeof name, "%s#%u", r->mod_names[m], s);
            char d[300];
            gm_demangle(st && st->func[0] ? st->func : "", d, sizeof d);
            csv_row(f, "site", (uint64_t)m << 32 | s, name, d, c);
        }
}
