/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Builds the drill-down sample (gm_drill.h) from a trace's operations in
 * two passes: per-warp summaries of the sampled launches, then the
 * operations of the chosen warps. Bounded by the GM_DRILL_* limits whatever
 * the trace's size. Depends on gm_drill.h, the ABI header and libc only.
 */
#include "gm_drill.h"
#include "gpumem/abi.h"
#include "gm_grow.h"

#include <stdlib.h>
#include <string.h>

static char *dup(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    return p ? memcpy(p, s, n) : NULL;
}

struct gm_drill *gm_drill_new(const char *trace, const char *gpu)
{
    struct gm_drill *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->trace = dup(trace ? trace : "");
    d->gpu = gpu && *gpu ? dup(gpu) : NULL;
    if (!d->trace || (gpu && *gpu && !d->gpu)) {
        gm_drill_free(d);
        return NULL;
    }
    return d;
}

void gm_drill_free(struct gm_drill *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->nmodules; i++) {
        struct gm_drill_module *m = &d->modules[i];
        for (size_t s = 0; s < m->nsites; s++) {
            free(m->sites[s].file);
            free(m->sites[s].func);
        }
        free(m->sites);
        free(m->name);
    }
    free(d->modules);
    for (size_t i = 0; i < d->nlaunches; i++) {
        struct gm_drill_launch *l = &d->launches[i];
        free(l->kernel);
        free(l->warps);
        for (size_t k = 0; k < l->ndetail; k++)
            free(l->detail[k].ops);
    }
    free(d->trace);
    free(d->gpu);
    free(d);
}

int gm_drill_module(struct gm_drill *d, uint64_t modid, const char *name, size_t n,
                    const struct gm_drill_site *sites)
{
    struct gm_drill_module *m = GM_GROW(d->modules, d->nmodules, d->cap_modules);
    if (!m)
        return -1;
    d->nmodules++;
    m->modid = modid;
    m->name = dup(name ? name : "");
    m->sites = calloc(n ? n : 1, sizeof *m->sites);
    if (!m->name || !m->sites)
        return -1;
    m->nsites = n;
    for (size_t i = 0; sites && i < n; i++) {
        m->sites[i].line = sites[i].line;
        m->sites[i].column = sites[i].column;
        m->sites[i].file = dup(sites[i].file);
        m->sites[i].func = dup(sites[i].func);
        if ((sites[i].file && !m->sites[i].file) || (sites[i].func && !m->sites[i].func))
            return -1;
    }
    return 0;
}

int gm_drill_launch(struct gm_drill *d, const char *kernel, uint64_t seq,
                    const uint32_t grid[3], const uint32_t block[3])
{
    d->launches_total++;
    if (d->nlaunches == GM_DRILL_LAUNCHES)
        return -1;
    int same = 0;
    for (size_t i = 0; i < d->nlaunches; i++)
        same += !strcmp(d->launches[i].kernel, kernel ? kernel : "");
    if (same >= GM_DRILL_PER_KERNEL)
        return -1;
    struct gm_drill_launch *l = &d->launches[d->nlaunches];
    memset(l, 0, sizeof *l);
    l->kernel = dup(kernel ? kernel : "");
    l->seq = seq;
    memcpy(l->grid, grid, sizeof l->grid);
    memcpy(l->block, block, sizeof l->block);
    uint64_t threads = (uint64_t)block[0] * block[1] * block[2];
    uint64_t wpc = (threads + 31) / 32, ctas = (uint64_t)grid[0] * grid[1] * grid[2];
    l->warps_per_cta = wpc && wpc <= 64 ? (uint32_t)wpc : 1;
    uint64_t keep = GM_DRILL_WARPS / l->warps_per_cta;
    l->ctas_kept = (uint32_t)(ctas && ctas < keep ? ctas : keep);
    l->nwarps = (size_t)l->ctas_kept * l->warps_per_cta;
    l->warps = calloc(l->nwarps, sizeof *l->warps);
    if (!l->kernel || !l->warps) {
        free(l->kernel);
        free(l->warps);
        return -2;
    }
    for (size_t i = 0; i < l->nwarps; i++) {
        struct gm_drill_warp *w = &l->warps[i];
        uint64_t c = i / l->warps_per_cta, gx = grid[0] ? grid[0] : 1, gy = grid[1] ? grid[1] : 1;
        w->cta[0] = (uint32_t)(c % gx);
        w->cta[1] = (uint32_t)(c / gx % gy);
        w->cta[2] = (uint32_t)(c / gx / gy);
        w->warp = (uint32_t)(i % l->warps_per_cta);
        w->detail = -1;
    }
    return (int)d->nlaunches++;
}

/* The kept warp an operation belongs to, or NULL (CTA not kept). */
static struct gm_drill_warp *warp_of(struct gm_drill_launch *l, const struct gm_drill_op *op)
{
    uint64_t gx = l->grid[0] ? l->grid[0] : 1, gy = l->grid[1] ? l->grid[1] : 1;
    if (op->cta[0] >= gx || op->cta[1] >= gy || op->warp >= l->warps_per_cta)
        return NULL;
    uint64_t c = op->cta[0] + gx * (op->cta[1] + gy * (uint64_t)op->cta[2]);
    return c < l->ctas_kept ? &l->warps[c * l->warps_per_cta + op->warp] : NULL;
}

static void site_add(struct gm_drill *d, const struct gm_drill_op *op,
                     const struct gm_drill_cost *c)
{
    if (op->module >= d->nmodules || op->site >= d->modules[op->module].nsites)
        return;
    struct gm_drill_site *s = &d->modules[op->module].sites[op->site];
    s->ops++;
    if (op->space == GM_SPACE_SHARED) {
        s->wavefronts += c->units;
        s->ideal_wavefronts += c->ideal;
    } else if (op->space == GM_SPACE_GLOBAL || op->space == GM_SPACE_LOCAL) {
        s->requests++;
        s->sectors += c->units;
        s->ideal_sectors += c->ideal;
    }
}

int gm_drill_op(struct gm_drill *d, int li, const struct gm_drill_op *op)
{
    if (li < 0 || (size_t)li >= d->nlaunches)
        return 0;
    struct gm_drill_launch *l = &d->launches[li];
    struct gm_drill_cost c;
    gm_drill_cost(op, &c);
    l->ops++;
    site_add(d, op, &c);
    struct gm_drill_warp *w = warp_of(l, op);
    if (!w)
        return 0;
    l->ops_kept++;
    w->smid = op->smid;
    w->ops++;
    w->lanes += (uint64_t)__builtin_popcount(op->active);
    if (op->space == GM_SPACE_SHARED) {
        w->shared_ops++;
        w->wavefronts += c.units;
        w->ideal_wavefronts += c.ideal;
    } else if (op->space == GM_SPACE_GLOBAL || op->space == GM_SPACE_LOCAL) {
        w->requests++;
        w->sectors += c.units;
        w->ideal_sectors += c.ideal;
    }
    return 0;
}

/* Index of the sampled launch of `kernel`, or -1. */
int gm_drill_kernel_launch(const struct gm_drill *d, const char *kernel)
{
    for (size_t i = 0; d && kernel && i < d->nlaunches; i++)
        if (!strcmp(d->launches[i].kernel, kernel))
            return (int)i;
    return -1;
}

uint64_t gm_drill_waste(const struct gm_drill_warp *w)
{
    uint64_t s = w->sectors > w->ideal_sectors ? w->sectors - w->ideal_sectors : 0;
    uint64_t b = w->wavefronts > w->ideal_wavefronts ? w->wavefronts - w->ideal_wavefronts : 0;
    return s + b;
}

static void add_detail(struct gm_drill_launch *l, size_t i)
{
    l->warps[i].detail = (int)l->ndetail;
    l->detail[l->ndetail++] = (struct gm_drill_detail){.warp = i};
}

/* The unchosen warp with operations and the most waste (first in block
 * order on ties), or nwarps. */
static size_t most_wasteful(const struct gm_drill_launch *l)
{
    size_t best = l->nwarps;
    for (size_t i = 0; i < l->nwarps; i++) {
        const struct gm_drill_warp *w = &l->warps[i];
        if (w->ops && w->detail < 0 &&
            (best == l->nwarps || gm_drill_waste(w) > gm_drill_waste(&l->warps[best])))
            best = i;
    }
    return best;
}

void gm_drill_choose(struct gm_drill *d)
{
    for (size_t li = 0; li < d->nlaunches; li++) {
        struct gm_drill_launch *l = &d->launches[li];
        size_t first = 0;
        while (first < l->nwarps && !l->warps[first].ops)
            first++;
        if (first < l->nwarps)
            add_detail(l, first);
        while (l->ndetail < GM_DRILL_DETAIL) {
            size_t i = most_wasteful(l);
            if (i == l->nwarps)
                break;
            add_detail(l, i);
        }
    }
    d->chosen = 1;
}

int gm_drill_op2(struct gm_drill *d, int li, const struct gm_drill_op *op)
{
    if (li < 0 || (size_t)li >= d->nlaunches)
        return 0;
    struct gm_drill_warp *w = warp_of(&d->launches[li], op);
    if (!w || w->detail < 0)
        return 0;
    struct gm_drill_detail *t = &d->launches[li].detail[w->detail];
    t->ops_total++;
    if (t->nops == GM_DRILL_OPS)
        return 0;
    struct gm_drill_op *o = GM_GROW(t->ops, t->nops, t->cap);
    if (!o)
        return -1;
    *o = *op;
    t->nops++;
    return 0;
}

int gm_drill_find_launch(const struct gm_drill *d, uint64_t seq)
{
    for (size_t i = 0; i < d->nlaunches; i++)
        if (d->launches[i].seq == seq)
            return (int)i;
    return -1;
}
