/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gpumem-sim output for scripts: per-launch, per-allocation and per-site
 * results as raw counters, key=value plus rates (--format counters), or
 * JSON (--format json; docs/sim.md lists the fields and the rate
 * definitions); the reference comparison. The tables people read are in
 * gpumem_sim_table.c. Reads results only; no simulation.
 */
#include <stddef.h>
#include <string.h>
#include "gpumem_sim.h"

#define F(x) {#x, offsetof(struct gm_counts, x)}
static const struct { const char *name; size_t off; } fields[] = {
    F(requests), F(sectors), F(ideal_sectors), F(l1_ld), F(l1_ld_hit), F(l1_st), F(l1_st_hit),
    F(l2_rd), F(l2_rd_hit), F(l2_wr), F(l2_wr_hit), F(l2_atom), F(l2_atom_hit), F(l2_far),
    F(dram_rd), F(dram_wr), F(shared_req), F(other_req)};
#define NF (sizeof fields / sizeof fields[0])

size_t gm_count_fields(void) { return NF; }

const char *gm_count_name(size_t i) { return fields[i].name; }

uint64_t gm_count_get(const struct gm_counts *c, size_t i)
{
    uint64_t v;
    memcpy(&v, (const char *)c + fields[i].off, sizeof v);
    return v;
}

static double pct(uint64_t a, uint64_t b) { return b ? 100.0 * (double)a / (double)b : 0.0; }
static uint64_t l2_acc(const struct gm_counts *c) { return c->l2_rd + c->l2_wr + c->l2_atom; }
static uint64_t l2_hit(const struct gm_counts *c) { return c->l2_rd_hit + c->l2_wr_hit + c->l2_atom_hit; }

static void text_counts(FILE *f, const struct gm_counts *c)
{
    for (size_t i = 0; i < NF; i++) fprintf(f, " %s=%llu", fields[i].name, (unsigned long long)gm_count_get(c, i));
    fputc('\n', f);
}

static void text_rates(FILE *f, const struct gm_counts *c, const struct gm_counts *tot)
{
    fprintf(f, "    L1 hit %.2f%% (loads)  L2 hit %.2f%%  coalescing %.2f%%  L2 share %.2f%%  DRAM share %.2f%%\n",
            pct(c->l1_ld_hit, c->l1_ld), pct(l2_hit(c), l2_acc(c)), pct(c->ideal_sectors, c->sectors),
            pct(l2_acc(c), l2_acc(tot)), pct(c->dram_rd + c->dram_wr, tot->dram_rd + tot->dram_wr));
}

static void totals(const struct gm_run *r, struct gm_counts *t)
{
    memset(t, 0, sizeof *t);
    for (size_t i = 0; i < r->nlaunches; i++) gm_counts_add(t, &r->launches[i].c);
    gm_counts_add(t, &r->final_wb);
}

static const char *site_name(const struct gm_run *r, uint32_t m, uint32_t s, char *buf, size_t n)
{
    const struct gm_trace_site *st = r->mod_sites[m] ? &r->mod_sites[m][s] : NULL;
    if (st && st->file[0]) snprintf(buf, n, "%s:%u:%u", st->file, st->line, st->column);
    else snprintf(buf, n, "%s#%u", r->mod_names[m], s);
    return buf;
}

void gm_print_text(FILE *f, const struct gm_run *r)
{
    struct gm_counts tot;
    totals(r, &tot);
    fprintf(f, "gpumem-sim: %s preset, %u SMs, L1 %u-way %s, L2 %llu KiB %u-way; trace GPU '%s'; %llu records, %llu dropped\n",
            r->preset, r->cfg.sm_count, r->cfg.l1_ways, r->cfg.l1_repl == GM_REPL_PLRU ? "plru" : "lru",
            (unsigned long long)(r->cfg.l2_bytes >> 10), r->cfg.l2_ways, r->gpu.name,
            (unsigned long long)r->records, (unsigned long long)r->dropped);
    for (size_t i = 0; i < r->nlaunches; i++) {
        const struct gm_run_launch *L = &r->launches[i];
        fprintf(f, "launch %llu %s%s L1=%uB:", (unsigned long long)L->l.seq, L->l.name,
                L->incomplete ? " (incomplete: the trace ends in it)" : "", gm_sim_l1_bytes(&r->cfg, L->l.carveout));
        text_counts(f, &L->c);
        text_rates(f, &L->c, &tot);
    }
    fprintf(f, "end write-back: dram_wr=%llu\n", (unsigned long long)r->final_wb.dram_wr);
    for (uint32_t id = 0; id < r->nlabels; id++) {
        const struct gm_counts *c = gm_sim_alloc_counts(r->sim, id);
        if (!c || (!c->requests && !c->sectors && !c->dram_wr)) continue;
        fprintf(f, "alloc %u %s:", id, r->labels[id]);
        text_counts(f, c);
        text_rates(f, c, &tot);
    }
    char buf[300];
    for (uint32_t m = 0; m < r->nmods; m++)
        for (uint32_t s = 0; s < r->mod_nsites[m]; s++) {
            const struct gm_counts *c = gm_sim_site_counts(r->sim, m, s);
            if (!c->requests && !c->shared_req && !c->other_req) continue;
            fprintf(f, "site %u.%u %s:", m, s, site_name(r, m, s, buf, sizeof buf));
            text_counts(f, c);
        }
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') fprintf(f, "\\%c", ch);
        else if (ch < 0x20) fprintf(f, "\\u%04x", ch);
        else fputc(ch, f);
    }
    fputc('"', f);
}

static void json_counts(FILE *f, const struct gm_counts *c)
{
    fputc('{', f);
    for (size_t i = 0; i < NF; i++)
        fprintf(f, "%s\"%s\":%llu", i ? "," : "", fields[i].name, (unsigned long long)gm_count_get(c, i));
    fprintf(f, ",\"l1_hit_rate\":%.4f,\"l2_hit_rate\":%.4f,\"coalescing\":%.4f}",
            pct(c->l1_ld_hit, c->l1_ld), pct(l2_hit(c), l2_acc(c)), pct(c->ideal_sectors, c->sectors));
}

void gm_print_json(FILE *f, const struct gm_run *r)
{
    fprintf(f, "{\"version\":1,\"preset\":");
    json_str(f, r->preset);
    fprintf(f, ",\"gpu\":");
    json_str(f, r->gpu.name);
    fprintf(f, ",\"records\":%llu,\"dropped\":%llu,\"complete\":%s,\"launches\":[",
            (unsigned long long)r->records, (unsigned long long)r->dropped, r->torn ? "false" : "true");
    for (size_t i = 0; i < r->nlaunches; i++) {
        fprintf(f, "%s{\"seq\":%llu,", i ? "," : "", (unsigned long long)r->launches[i].l.seq);
        if (r->launches[i].incomplete) fprintf(f, "\"incomplete\":true,");
        fprintf(f, "\"name\":");
        json_str(f, r->launches[i].l.name);
        fprintf(f, ",\"counts\":");
        json_counts(f, &r->launches[i].c);
        fputc('}', f);
    }
    fprintf(f, "],\"end_writeback_dram_wr\":%llu,\"allocations\":[", (unsigned long long)r->final_wb.dram_wr);
    for (uint32_t id = 0; id < r->nlabels; id++) {
        fprintf(f, "%s{\"id\":%u,\"label\":", id ? "," : "", id);
        json_str(f, r->labels[id]);
        fprintf(f, ",\"counts\":");
        json_counts(f, gm_sim_alloc_counts(r->sim, id));
        fputc('}', f);
    }
    fprintf(f, "],\"sites\":[");
    int first = 1;
    char buf[300];
    for (uint32_t m = 0; m < r->nmods; m++)
        for (uint32_t s = 0; s < r->mod_nsites[m]; s++) {
            const struct gm_counts *c = gm_sim_site_counts(r->sim, m, s);
            if (!c->requests && !c->shared_req && !c->other_req) continue;
            fprintf(f, "%s{\"module\":%u,\"site\":%u,\"where\":", first ? "" : ",", m, s);
            json_str(f, site_name(r, m, s, buf, sizeof buf));
            fprintf(f, ",\"counts\":");
            json_counts(f, c);
            fputc('}', f);
            first = 0;
        }
    fprintf(f, "]}\n");
}

/* Compares the fast simulator with the reference model (after the end
 * write-back: per launch, the write-back with the traffic of no launch,
 * per allocation); 0 when identical. */
int gm_ref_compare(FILE *f, const struct gm_run *r)
{
    int bad = 0;
    for (size_t k = 0; k < NF; k++) {
        uint64_t a = gm_count_get(&r->final_wb, k), b = gm_count_get(&r->ref_final_wb, k);
        if (a != b) {
            fprintf(f, "reference differs: end write-back %s: fast %llu, reference %llu\n", fields[k].name,
                    (unsigned long long)a, (unsigned long long)b);
            bad = 1;
        }
    }
    for (size_t i = 0; i < r->nlaunches; i++)
        for (size_t k = 0; k < NF; k++) {
            uint64_t a = gm_count_get(&r->launches[i].c, k), b = gm_count_get(&r->ref_launch[i], k);
            if (a != b) {
                fprintf(f, "reference differs: launch %zu %s: fast %llu, reference %llu\n", i,
                        fields[k].name, (unsigned long long)a, (unsigned long long)b);
                bad = 1;
            }
        }
    for (uint32_t id = 0; id < r->nlabels; id++)
        for (size_t k = 0; k < NF; k++) {
            if (!strcmp(fields[k].name, "shared_req") || !strcmp(fields[k].name, "other_req")) continue;
            uint64_t a = gm_count_get(gm_sim_alloc_counts(r->sim, id), k), b = gm_count_get(gm_ref_alloc_counts(r->ref, id), k);
            if (a != b) {
                fprintf(f, "reference differs: allocation %u %s: fast %llu, reference %llu\n", id,
                        fields[k].name, (unsigned long long)a, (unsigned long long)b);
                bad = 1;
            }
        }
    if (!bad) fprintf(f, "reference: identical\n");
    return bad;
}
