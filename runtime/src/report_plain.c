/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Plain-text outputs straight from the runtime's tables: the per-kernel,
 * per-site counter table (stderr at exit; what issue 2's count_memops GPU
 * test reads) and CSV dumps of counters and the API timeline, written with
 * the report library's CSV writer (gm_csv.h: quoted where a name holds a
 * comma, as templated C++ names do). Called with the runtime lock held.
 * Depends on the runtime core, gm_csv.h, gm_demangle.h and libc.
 */
#include "rt.h"
#include "gm_csv.h"
#include "gm_demangle.h"

#include <stdlib.h>
#include <string.h>

#define GM_MAX_COLS 8 /* wider counter sets are summed in the table (CSV has all) */

/* k-th comma-separated slot name, or "sK". */
static void slot_name(const struct gm_rt_sitetab *t, const struct gm_sitetab_global *g,
                      uint32_t k, char *buf, size_t len)
{
    const char *s = gm_sitetab_str(t, g->slotnames_str);
    for (uint32_t i = 0; i < k && s; i++) {
        s = strchr(s, ',');
        if (s) s++;
    }
    size_t n = s ? gm_slot_name_len(s) : 0; /* without an "|or" suffix */
    if (n) snprintf(buf, len, "%.*s", (int)n, s);
    else snprintf(buf, len, "s%u", k);
}

static const char *set_name(const struct gm_rt_sitetab *t, const struct gm_sitetab_global *g)
{
    const char *n = gm_sitetab_str(t, g->name_str);
    size_t p = strlen(GM_COUNTERS_PREFIX);
    return strncmp(n, GM_COUNTERS_PREFIX, p) == 0 ? n + p : n;
}

static void print_header(FILE *f, const struct gm_kstat *k)
{
    fprintf(f, "gpumem:   %5s  %-28s %-18s", "site", "location", "event");
    for (uint32_t j = 0; j < k->nsets; j++) {
        const struct gm_sitetab_global *g = k->set_g[j];
        char nm[64];
        if (g->slots > GM_MAX_COLS) {
            fprintf(f, " %16s", set_name(k->tab, g));
            continue;
        }
        for (uint32_t s = 0; s < g->slots; s++) {
            char col[160];
            slot_name(k->tab, g, s, nm, sizeof nm);
            snprintf(col, sizeof col, "%s.%s", set_name(k->tab, g), nm);
            fprintf(f, " %16s", col);
        }
    }
    fputc('\n', f);
}

static int site_shown(const struct gm_kstat *k, uint32_t site)
{
    const struct gm_site *s = &k->tab->sites[site];
    if (!strcmp(gm_sitetab_str(k->tab, s->func_str), k->name)) return 1;
    for (uint32_t j = 0; j < k->nsets; j++)
        for (uint32_t sl = 0; sl < k->set_g[j]->slots; sl++)
            if (k->sums[j][(size_t)site * k->set_g[j]->slots + sl]) return 1;
    return 0;
}

static void print_site(FILE *f, const struct gm_kstat *k, uint32_t site)
{
    const struct gm_site *s = &k->tab->sites[site];
    char loc[512], ev[64];
    snprintf(loc, sizeof loc, "%s:%u:%u", gm_sitetab_str(k->tab, s->file_str), s->line, s->column);
    gm_site_describe(s, ev, sizeof ev);
    fprintf(f, "gpumem:   %5u  %-28s %-18s", site, loc, ev);
    for (uint32_t j = 0; j < k->nsets; j++) {
        uint32_t slots = k->set_g[j]->slots;
        const uint64_t *row = k->sums[j] + (size_t)site * slots;
        if (slots > GM_MAX_COLS) {
            uint64_t sum = 0;
            for (uint32_t sl = 0; sl < slots; sl++) sum += row[sl];
            fprintf(f, " %16llu", (unsigned long long)sum);
            continue;
        }
        for (uint32_t sl = 0; sl < slots; sl++) fprintf(f, " %16llu", (unsigned long long)row[sl]);
    }
    fputc('\n', f);
}

static void print_kernel(FILE *f, const struct gm_kstat *k)
{
    char *dm = gm_demangle_dup(k->name);
    fprintf(f, "gpumem: kernel %s [%s, module %016llx, %s] %llu launch%s\n", dm ? dm : k->name,
            k->name, (unsigned long long)k->tab->modid, gm_sitetab_str(k->tab, k->tab->hdr->source_str),
            (unsigned long long)k->launches, k->launches == 1 ? "" : "es");
    free(dm);
    if (k->tab->hdr->n_asm_mem)
        fprintf(f, "gpumem:   (%u inline-asm memory statements in this module are not instrumented)\n",
                k->tab->hdr->n_asm_mem);
    print_header(f, k);
    for (uint32_t site = 0; site < k->tab->hdr->nsites; site++)
        if (site_shown(k, site)) print_site(f, k, site);
}

void gm_report_plain(FILE *f)
{
    fprintf(f, "gpumem: %llu kernel launches (%llu instrumented), %llu graph launches and "
            "%llu launches captured into graphs (graph kernels counted as [CUDA graph]), "
            "%zu allocations, %zu API events\n",
            (unsigned long long)gm_st.launches, (unsigned long long)gm_st.inst_launches,
            (unsigned long long)gm_st.graph_launches, (unsigned long long)gm_st.captured_launches,
            gm_st.allocs.n, gm_st.tl.n);
    if (gm_st.tl.dropped)
        fprintf(f, "gpumem: timeline limit of %zu events reached (GPUMEM_MAX_EVENTS): %llu later "
                "events not recorded; counters include them\n", gm_st.tl.limit,
                (unsigned long long)gm_st.tl.dropped);
    struct gm_kstat *k, *tmp;
    HASH_ITER(hh, gm_st.kstats, k, tmp) print_kernel(f, k);
}

void gm_report_counters_csv(FILE *f)
{
    gm_csv_header(f, "kernel,module,site,file,line,column,event,set,slot,value");
    struct gm_kstat *k, *tmp;
    HASH_ITER(hh, gm_st.kstats, k, tmp) {
        for (uint32_t j = 0; j < k->nsets; j++) {
            const struct gm_sitetab_global *g = k->set_g[j];
            for (uint32_t site = 0; site < k->tab->hdr->nsites; site++) {
                const struct gm_site *s = &k->tab->sites[site];
                char ev[64], nm[64];
                gm_site_describe(s, ev, sizeof ev);
                for (uint32_t sl = 0; sl < g->slots; sl++) {
                    uint64_t v = k->sums[j][(size_t)site * g->slots + sl];
                    if (!v) continue;
                    slot_name(k->tab, g, sl, nm, sizeof nm);
                    char mod[24];
                    snprintf(mod, sizeof mod, "%016llx", (unsigned long long)k->tab->modid);
                    gm_csv_str(f, k->name, 0);
                    gm_csv_str(f, mod, 0);
                    gm_csv_u64(f, site, 0);
                    gm_csv_str(f, gm_sitetab_str(k->tab, s->file_str), 0);
                    gm_csv_u64(f, s->line, 0);
                    gm_csv_u64(f, s->column, 0);
                    gm_csv_str(f, ev, 0);
                    gm_csv_str(f, set_name(k->tab, g), 0);
                    gm_csv_str(f, nm, 0);
                    gm_csv_u64(f, v, 1);
                }
            }
        }
    }
}

void gm_report_timeline_csv(FILE *f, int symbolize)
{
    gm_csv_header(f, "seq,t_ns,kind,api,dir,bytes,dst,dst_alloc,src,src_alloc,stream,device,"
                     "tid,kernel,callsite");
    for (size_t i = 0; i < gm_st.tl.n; i++) {
        const struct gm_tl_event *e = &gm_st.tl.ev[i];
        struct gm_symbolized sym;
        char site[1200];
        gm_callsite_resolve(e->callsite, &sym, symbolize);
        snprintf(site, sizeof site, "%s:%u %s", sym.file, sym.line, sym.func);
        gm_csv_u64(f, e->seq, 0);
        gm_csv_u64(f, e->t_ns, 0);
        gm_csv_str(f, gm_tl_kind_name(e->kind), 0);
        gm_csv_str(f, e->api, 0);
        gm_csv_str(f, gm_tl_dir_name(e->dir), 0);
        gm_csv_u64(f, e->bytes, 0);
        gm_csv_hex(f, e->dst, 0);
        gm_csv_u64(f, e->dst_alloc, 0);
        gm_csv_hex(f, e->src, 0);
        gm_csv_u64(f, e->src_alloc, 0);
        gm_csv_hex(f, e->stream, 0);
        gm_csv_u64(f, e->device, 0);
        gm_csv_u64(f, e->tid, 0);
        gm_csv_str(f, e->kernel, 0);
        gm_csv_quoted(f, site, 1);
    }
}
