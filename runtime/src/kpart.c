/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kernels of a module told apart by site. When every site of a site table
 * lies in a kernel (GM_SITE_IN_KERNEL), a count at a site belongs to that
 * kernel whatever else ran: the module's counters may then take launches
 * of all its kernels at once and be split by site when read (collect.c),
 * with no read between launches of different kernels. This file finds the
 * runs of sites per kernel and keeps the launch tally per kernel name.
 * Pure C: must not depend on CUDA, CUPTI or LLVM.
 */
#include "rt_core.h"

#include <stdlib.h>
#include <string.h>

int gm_kpart_build(const struct gm_rt_sitetab *t, struct gm_kpart **out, uint32_t *nout)
{
    uint32_t n = t->hdr->nsites, runs = 0;
    *out = NULL;
    *nout = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!(t->sites[i].flags & GM_SITE_IN_KERNEL)) return 0; /* a shared or unknown site */
        if (!i || t->sites[i].func_str != t->sites[i - 1].func_str) runs++;
    }
    if (!runs) return 0;
    struct gm_kpart *p = calloc(runs, sizeof *p);
    if (!p) return -1;
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (i && t->sites[i].func_str == t->sites[i - 1].func_str) {
            p[k - 1].hi = i + 1;
            continue;
        }
        p[k++] = (struct gm_kpart){.lo = i, .hi = i + 1,
                                   .name = gm_intern(gm_sitetab_str(t, t->sites[i].func_str))};
    }
    *out = p;
    *nout = runs;
    return 0;
}

int gm_ktally_add(struct gm_ktally *t, const char *name)
{
    for (uint32_t i = 0; i < t->n; i++)
        if (t->v[i].name == name) {
            t->v[i].launches++;
            return 0;
        }
    if (t->n == t->cap) {
        uint32_t cap = t->cap ? 2 * t->cap : 4;
        void *v = realloc(t->v, cap * sizeof *t->v);
        if (!v) return -1;
        t->v = v;
        t->cap = cap;
    }
    t->v[t->n++] = (struct gm_klaunches){.name = name, .launches = 1};
    return 0;
}

void gm_ktally_free(struct gm_ktally *t)
{
    free(t->v);
    *t = (struct gm_ktally){0};
}
