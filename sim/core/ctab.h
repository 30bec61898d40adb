/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Counter tables: struct gm_counts per allocation or site id, in pages of
 * GM_CT_PAGE entries allocated on first use, so memory follows the ids a
 * trace touches, not the number it claims (a module header may announce
 * millions of sites): the directory of page pointers grows to the highest
 * page touched (8 bytes per GM_CT_PAGE ids) and the pages used since the
 * last gm_ct_drain are listed. Out of memory: the counts go to a spare
 * entry and oom is set (the caller turns it into an error). Internal to
 * sim/core; no I/O.
 */
#ifndef GM_SIM_CTAB_H
#define GM_SIM_CTAB_H

#include "gpumem/sim.h"

#define GM_CT_BITS 8
#define GM_CT_PAGE (1u << GM_CT_BITS)

struct gm_ctab {
    struct gm_counts **pg;   /* npg pages or NULL */
    uint32_t npg;            /* directory entries */
    uint32_t *used, nused;             /* pages allocated (in order of first use) */
    size_t cap_used;
    int oom;
    struct gm_counts spare;  /* where counts go when a page cannot be allocated */
};

/* Entry id with its page allocated (and the directory grown): slow path. */
struct gm_counts *gm_ct_slow(struct gm_ctab *t, uint32_t id);
void gm_ct_destroy(struct gm_ctab *t);
/* Adds every used page into dst (and each entry into *sum if not NULL),
 * then frees the pages: t is all zero again. 0, or -1 (dst out of memory). */
int gm_ct_drain(struct gm_ctab *t, struct gm_ctab *dst, struct gm_counts *sum);

/* Entry id for counting. */
static inline __attribute__((always_inline)) struct gm_counts *gm_ct(struct gm_ctab *t, uint32_t id)
{
    uint32_t pg = id >> GM_CT_BITS;
    if (__builtin_expect(pg < t->npg && t->pg[pg] != NULL, 1)) return t->pg[pg] + (id & (GM_CT_PAGE - 1));
    return gm_ct_slow(t, id);
}

/* Entry id for reading: all zero when its page was never used. */
static inline const struct gm_counts *gm_ct_get(const struct gm_ctab *t, uint32_t id)
{
    static const struct gm_counts zero;
    const struct gm_counts *p = id >> GM_CT_BITS < t->npg ? t->pg[id >> GM_CT_BITS] : NULL;
    return p ? p + (id & (GM_CT_PAGE - 1)) : &zero;
}

#endif
