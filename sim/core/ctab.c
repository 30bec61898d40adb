/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Counter tables (ctab.h): directory growth, pages on first use, and the
 * drain that moves a worker's counts into the merged table. No I/O.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "ctab.h"
#include "gm_grow.h"

/* Grows the directory to cover page pg (geometrically); 0 or -1. */
static int grow_dir(struct gm_ctab *t, uint32_t pg)
{
    size_t n = t->npg;
    if (pg == UINT32_MAX || GM_GROW_TO(t->pg, n, (size_t)pg + 1)) return -1;
    memset(t->pg + t->npg, 0, (n - t->npg) * sizeof *t->pg);
    t->npg = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
    return 0;
}

static struct gm_counts *new_page(struct gm_ctab *t, uint32_t pg)
{
    if (pg >= t->npg && grow_dir(t, pg)) return NULL;
    if (GM_GROW_TO(t->used, t->cap_used, (size_t)t->nused + 1)) return NULL;
    struct gm_counts *p = calloc(GM_CT_PAGE, sizeof *p);
    if (!p) return NULL;
    t->pg[pg] = p;
    t->used[t->nused++] = pg;
    return p;
}

struct gm_counts *gm_ct_slow(struct gm_ctab *t, uint32_t id)
{
    struct gm_counts *p = new_page(t, id >> GM_CT_BITS);
    if (!p) { t->oom = 1; return &t->spare; }
    return p + (id & (GM_CT_PAGE - 1));
}

void gm_ct_destroy(struct gm_ctab *t)
{
    for (uint32_t i = 0; i < t->nused; i++) free(t->pg[t->used[i]]);
    free(t->pg);
    free(t->used);
    memset(t, 0, sizeof *t);
}

int gm_ct_drain(struct gm_ctab *t, struct gm_ctab *dst, struct gm_counts *sum)
{
    int rc = 0;
    for (uint32_t i = 0; i < t->nused; i++) {
        uint32_t pg = t->used[i];
        struct gm_counts *src = t->pg[pg], *d = pg < dst->npg ? dst->pg[pg] : NULL;
        if (!d && !(d = new_page(dst, pg))) rc = -1;
        for (uint32_t k = 0; k < GM_CT_PAGE; k++) {
            if (sum) gm_counts_add(sum, &src[k]);
            if (d) gm_counts_add(&d[k], &src[k]);
        }
        free(src);
        t->pg[pg] = NULL;
    }
    t->nused = 0;
    return rc;
}
