/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Per-kernel, per-source-line, per-branch and per-value-site views of the
 * built-in counter sets (coalescing, divergence, values). Slots are found
 * by name (gm_slot_find); a set or slot a build lacks leaves its columns 0.
 * Depends on the report headers and libc only.
 */
#include "sat.h"
#include "util.h"
#include "gpumem/abi.h"

#include <stdlib.h>
#include <string.h>

#define MAXF 8

/* Slot names accepted for each quantity (first match wins). */
static const char *const N_WARPS[] = {"warps", "execs", "executions", NULL};
static const char *const N_THREADS[] = {"threads", "active_threads", NULL};
static const char *const N_SECTORS[] = {"sectors", "unique_sectors", NULL};
static const char *const N_LINES[] = {"lines", "unique_lines", NULL};
static const char *const N_IDEAL[] = {"ideal_sectors", "ideal", NULL};
static const char *const N_WAVES[] = {"wavefronts", NULL};
static const char *const N_IWAVES[] = {"ideal_wavefronts", NULL};
static const char *const N_TAKEN[] = {"taken", "taken_threads", NULL};
static const char *const N_NOTTAKEN[] = {"not_taken", "not_taken_threads", "fallthrough", NULL};
static const char *const N_DIVERGENT[] = {"divergent", "divergent_warps", "divergent_execs", NULL};
static const char *const N_UNIFORM[] = {"uniform", "scalar", "same", NULL};
/* values: "ones" = OR of the values (bits ever 1), "zeros" = OR of the
 * complemented values (bits ever 0), over the access width. */
static const char *const N_ONE[] = {"ones", NULL};
static const char *const N_ZERO[] = {"zeros", NULL};

int gm_slot_find(const struct gm_report_counter_set *set, const char *const *names)
{
    for (; set && *names; names++) {
        int i = gm_report_slot_index(set, *names);
        if (i >= 0)
            return i;
    }
    return -1;
}

/* One site's selected slots in one kernel. */
struct row {
    const struct gm_report_kernel *k;
    const struct gm_report_module *m;
    uint32_t site;
    uint64_t v[MAXF];
};

struct rows { size_t n, cap; struct row *v; };

static int rows_push(struct rows *rs, const struct row *r)
{
    if (rs->n == rs->cap) {
        size_t nc = rs->cap ? rs->cap * 2 : 64;
        struct row *p = realloc(rs->v, nc * sizeof *p);
        if (!p)
            return -1;
        rs->v = p;
        rs->cap = nc;
    }
    rs->v[rs->n++] = *r;
    return 0;
}

/* Rows with any non-zero selected slot, for counter set `set` of every
 * kernel; slot lists `want` (nf of them) are resolved per module. */
static int collect(const struct gm_report *r, const char *set, const char *const *const *want,
                   int nf, struct rows *out)
{
    for (size_t ki = 0; ki < r->nkernels; ki++) {
        const struct gm_report_kernel *k = &r->kernels[ki];
        const struct gm_report_kcounters *c = gm_report_kernel_set(k, set);
        const struct gm_report_module *m = gm_report_find_module(r, k->modid);
        const struct gm_report_counter_set *def = gm_report_find_set(m, set);
        if (!c || !def || def->nslots != c->nslots)
            continue;
        int idx[MAXF];
        for (int f = 0; f < nf; f++)
            idx[f] = gm_slot_find(def, want[f]);
        uint32_t ns = c->nsites < m->nsites ? c->nsites : (uint32_t)m->nsites;
        for (uint32_t s = 0; s < ns; s++) {
            struct row rw = {k, m, s, {0}};
            int any = 0;
            for (int f = 0; f < nf; f++) {
                rw.v[f] = idx[f] >= 0 ? c->v[(size_t)s * c->nslots + idx[f]] : 0;
                any |= rw.v[f] != 0;
            }
            if (any && rows_push(out, &rw))
                return -1;
        }
    }
    return 0;
}

/* ---- per kernel ---- */

enum { C_WARPS, C_THREADS, C_SECTORS, C_LINES, C_IDEAL, C_WAVES, C_IWAVES, C_N };
static const char *const *const COAL[C_N] = {N_WARPS, N_THREADS, N_SECTORS, N_LINES,
                                              N_IDEAL, N_WAVES, N_IWAVES};
enum { B_EXECS, B_THREADS, B_TAKEN, B_NOTTAKEN, B_DIV, B_N };
static const char *const *const BR[B_N] = {N_WARPS, N_THREADS, N_TAKEN, N_NOTTAKEN, N_DIVERGENT};
enum { V_WARPS, V_UNIFORM, V_ONE, V_ZERO, V_N };
static const char *const *const VAL[V_N] = {N_WARPS, N_UNIFORM, N_ONE, N_ZERO};

static uint64_t excess(uint64_t have, uint64_t ideal) { return have > ideal ? have - ideal : 0; }

static int cmp_kernel(const void *pa, const void *pb)
{
    const struct gm_kernel_stat *a = pa, *b = pb;
    if (a->k->gpu_ns != b->k->gpu_ns)
        return a->k->gpu_ns < b->k->gpu_ns ? 1 : -1;
    if (a->mem_warps != b->mem_warps)
        return a->mem_warps < b->mem_warps ? 1 : -1;
    return strcmp(a->k->name, b->k->name);
}

long gm_kernel_stats(const struct gm_report *r, struct gm_kernel_stat **out)
{
    struct rows co = {0}, br = {0};
    struct gm_kernel_stat *ks = calloc(r->nkernels + 1, sizeof *ks);
    if (!ks || collect(r, "coalescing", COAL, C_N, &co) ||
        collect(r, "divergence", BR, B_N, &br)) {
        free(ks);
        free(co.v);
        free(br.v);
        return -1;
    }
    for (size_t i = 0; i < r->nkernels; i++) {
        ks[i].k = &r->kernels[i];
        ks[i].instrumented = gm_report_find_module(r, r->kernels[i].modid) != NULL;
    }
    for (size_t i = 0; i < co.n; i++) {
        struct gm_kernel_stat *s = &ks[co.v[i].k - r->kernels];
        const uint64_t *v = co.v[i].v;
        s->mem_warps = gm_sat_add(s->mem_warps, v[C_WARPS]);
        s->sectors = gm_sat_add(s->sectors, v[C_SECTORS]);
        s->ideal_sectors = gm_sat_add(s->ideal_sectors, v[C_IDEAL]);
        s->excess_sectors = gm_sat_add(s->excess_sectors, excess(v[C_SECTORS], v[C_IDEAL]));
        s->wavefronts = gm_sat_add(s->wavefronts, v[C_WAVES]);
        s->ideal_wavefronts = gm_sat_add(s->ideal_wavefronts, v[C_IWAVES]);
    }
    for (size_t i = 0; i < br.n; i++) {
        struct gm_kernel_stat *s = &ks[br.v[i].k - r->kernels];
        s->br_execs = gm_sat_add(s->br_execs, br.v[i].v[B_EXECS]);
        s->br_divergent = gm_sat_add(s->br_divergent, br.v[i].v[B_DIV]);
    }
    free(co.v);
    free(br.v);
    qsort(ks, r->nkernels, sizeof *ks, cmp_kernel);
    *out = ks;
    return (long)r->nkernels;
}

/* ---- per source line ---- */

static const char *site_file(const struct row *rw)
{
    const char *f = rw->m->sites[rw->site].file;
    return f ? f : "";
}

static int cmp_row_line(const void *pa, const void *pb)
{
    const struct row *a = pa, *b = pb;
    int c = strcmp(site_file(a), site_file(b));
    if (c)
        return c;
    uint32_t la = a->m->sites[a->site].line, lb = b->m->sites[b->site].line;
    if (la != lb)
        return la < lb ? -1 : 1;
    return a->k < b->k ? -1 : a->k > b->k; /* a line's kernels next to each other */
}

static int same_line(const struct row *a, const struct row *b)
{
    return strcmp(site_file(a), site_file(b)) == 0 &&
           a->m->sites[a->site].line == b->m->sites[b->site].line;
}

static int cmp_line(const void *pa, const void *pb)
{
    const struct gm_line_stat *a = pa, *b = pb;
    if (a->excess_sectors != b->excess_sectors)
        return a->excess_sectors < b->excess_sectors ? 1 : -1;
    if (a->excess_wavefronts != b->excess_wavefronts)
        return a->excess_wavefronts < b->excess_wavefronts ? 1 : -1;
    int c = strcmp(a->file, b->file);
    return c ? c : (a->line < b->line ? -1 : a->line > b->line);
}

static void line_add(struct gm_line_stat *l, const struct row *rw)
{
    const uint64_t *v = rw->v;
    l->warps = gm_sat_add(l->warps, v[C_WARPS]);
    l->threads = gm_sat_add(l->threads, v[C_THREADS]);
    l->sectors = gm_sat_add(l->sectors, v[C_SECTORS]);
    l->lines = gm_sat_add(l->lines, v[C_LINES]);
    l->ideal_sectors = gm_sat_add(l->ideal_sectors, v[C_IDEAL]);
    l->excess_sectors = gm_sat_add(l->excess_sectors, excess(v[C_SECTORS], v[C_IDEAL]));
    l->wavefronts = gm_sat_add(l->wavefronts, v[C_WAVES]);
    l->ideal_wavefronts = gm_sat_add(l->ideal_wavefronts, v[C_IWAVES]);
    l->excess_wavefronts = gm_sat_add(l->excess_wavefronts, excess(v[C_WAVES], v[C_IWAVES]));
}

long gm_line_stats(const struct gm_report *r, struct gm_line_stat **out)
{
    struct rows co = {0};
    if (collect(r, "coalescing", COAL, C_N, &co))
        return free(co.v), -1;
    if (co.n)
        qsort(co.v, co.n, sizeof *co.v, cmp_row_line);
    struct gm_line_stat *ls = calloc(co.n + 1, sizeof *ls);
    if (!ls)
        return free(co.v), -1;
    long n = 0;
    for (size_t i = 0; i < co.n; i++) {
        int first = i == 0 || !same_line(&co.v[i - 1], &co.v[i]);
        if (first) {
            ls[n].file = site_file(&co.v[i]);
            ls[n].line = co.v[i].m->sites[co.v[i].site].line;
            ls[n].kernel = co.v[i].k->name;
            n++;
        }
        struct gm_line_stat *l = &ls[n - 1];
        l->nkernels += first || co.v[i - 1].k != co.v[i].k;
        line_add(l, &co.v[i]);
    }
    free(co.v);
    qsort(ls, (size_t)n, sizeof *ls, cmp_line);
    *out = ls;
    return n;
}

/* ---- per module site (branches, values) ---- */

static int cmp_row_site(const void *pa, const void *pb)
{
    const struct row *a = pa, *b = pb;
    if (a->m != b->m)
        return a->m < b->m ? -1 : 1;
    return a->site < b->site ? -1 : a->site > b->site;
}

/* Sums rows of the same (module, site) into the first; returns the count. */
static size_t merge_sites(struct rows *rs, int nf)
{
    if (rs->n)
        qsort(rs->v, rs->n, sizeof *rs->v, cmp_row_site);
    size_t n = 0;
    for (size_t i = 0; i < rs->n; i++) {
        if (n && cmp_row_site(&rs->v[n - 1], &rs->v[i]) == 0) {
            for (int f = 0; f < nf; f++)
                rs->v[n - 1].v[f] = gm_sat_add(rs->v[n - 1].v[f], rs->v[i].v[f]);
        } else {
            rs->v[n++] = rs->v[i];
        }
    }
    return n;
}

static int cmp_branch(const void *pa, const void *pb)
{
    const struct gm_branch_stat *a = pa, *b = pb;
    if (a->divergent != b->divergent)
        return a->divergent < b->divergent ? 1 : -1;
    double sa = a->execs ? (double)a->divergent / (double)a->execs : 0;
    double sb = b->execs ? (double)b->divergent / (double)b->execs : 0;
    if (sa != sb)
        return sa < sb ? 1 : -1;
    return cmp_row_site(&(struct row){0, a->m, a->site, {0}}, &(struct row){0, b->m, b->site, {0}});
}

long gm_branch_stats(const struct gm_report *r, struct gm_branch_stat **out)
{
    struct rows br = {0};
    if (collect(r, "divergence", BR, B_N, &br))
        return free(br.v), -1;
    size_t n = merge_sites(&br, B_N);
    struct gm_branch_stat *bs = calloc(n + 1, sizeof *bs);
    if (!bs)
        return free(br.v), -1;
    for (size_t i = 0; i < n; i++) {
        const uint64_t *v = br.v[i].v;
        bs[i] = (struct gm_branch_stat){br.v[i].m, br.v[i].site, &br.v[i].m->sites[br.v[i].site],
                                        v[B_EXECS], v[B_THREADS], v[B_TAKEN], v[B_NOTTAKEN], v[B_DIV]};
    }
    free(br.v);
    qsort(bs, n, sizeof *bs, cmp_branch);
    *out = bs;
    return (long)n;
}

static int cmp_value(const void *pa, const void *pb)
{
    const struct gm_value_stat *a = pa, *b = pb;
    double sa = a->warps ? (double)a->uniform / (double)a->warps : 0;
    double sb = b->warps ? (double)b->uniform / (double)b->warps : 0;
    if (sa != sb)
        return sa < sb ? 1 : -1;
    if (a->warps != b->warps)
        return a->warps < b->warps ? 1 : -1;
    return cmp_row_site(&(struct row){0, a->m, a->site, {0}}, &(struct row){0, b->m, b->site, {0}});
}

long gm_value_stats(const struct gm_report *r, struct gm_value_stat **out)
{
    struct rows vs = {0};
    if (collect(r, "values", VAL, V_N, &vs))
        return free(vs.v), -1;
    size_t n = merge_sites(&vs, V_N);
    struct gm_value_stat *st = calloc(n + 1, sizeof *st);
    if (!st)
        return free(vs.v), -1;
    for (size_t i = 0; i < n; i++) {
        const struct row *rw = &vs.v[i];
        const struct gm_report_counter_set *def = gm_report_find_set(rw->m, "values");
        struct gm_value_stat *s = &st[i];
        s->m = rw->m;
        s->site = rw->site;
        s->s = &rw->m->sites[rw->site];
        s->warps = rw->v[V_WARPS];
        s->uniform = rw->v[V_UNIFORM];
        s->have_bits = gm_slot_find(def, N_ONE) >= 0 && gm_slot_find(def, N_ZERO) >= 0;
        uint32_t w = GM_INFO_WIDTH(s->s->info) * 8;
        s->width_bits = w > 64 || w == 0 ? 64 : w;
        uint64_t mask = s->width_bits == 64 ? ~0ull : (1ull << s->width_bits) - 1;
        s->const_one = s->have_bits ? mask & ~rw->v[V_ZERO] : 0;  /* never 0 */
        s->const_zero = s->have_bits ? mask & ~rw->v[V_ONE] : 0;  /* never 1 */
        int konst = __builtin_popcountll((s->const_one | s->const_zero) & mask);
        s->narrow_bits = s->have_bits ? s->width_bits - (uint32_t)konst : s->width_bits;
    }
    free(vs.v);
    qsort(st, n, sizeof *st, cmp_value);
    *out = st;
    return (long)n;
}

int gm_kernel_matrix(const struct gm_report *r, const struct gm_report_kernel *k,
                     uint64_t m[1024])
{
    memset(m, 0, 1024 * sizeof *m);
    const struct gm_report_kcounters *c = gm_report_kernel_set(k, "coalescing_matrix");
    (void)r;
    if (!c || c->nslots != 1024)
        return 0;
    for (uint32_t s = 0; s < c->nsites; s++)
        for (uint32_t i = 0; i < 1024; i++)
            m[i] = gm_sat_add(m[i], c->v[(size_t)s * 1024 + i]);
    return 1;
}
