/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Per-kernel accumulation of counters: one entry per (kernel name, module),
 * one dense nsites x slots array per counter set, summed over launches.
 * Called with the runtime lock held. Depends on the runtime core only.
 */
#include "rt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gm_kstat *gm_kstat_get(const char *name, const struct gm_rt_sitetab *tab)
{
    char key[1024];
    snprintf(key, sizeof key, "%s\n%016llx", name, (unsigned long long)tab->modid);
    struct gm_kstat *k;
    HASH_FIND_STR(gm_st.kstats, key, k);
    if (k) return k;
    uint32_t n = tab->hdr->nglobals;
    if (!(k = calloc(1, sizeof *k)) || !(k->key = strdup(key)) ||
        !(k->set_g = calloc(n + 1, sizeof *k->set_g)) || !(k->sums = calloc(n + 1, sizeof *k->sums)) ||
        !(k->or_slots = calloc(n + 1, sizeof *k->or_slots))) {
        if (k) free(k->key), free(k->set_g), free(k->sums);
        free(k);
        return NULL;
    }
    k->name = name;
    k->tab = tab;
    k->gpu_ns = -1;
    HASH_ADD_KEYPTR(hh, gm_st.kstats, k->key, strlen(k->key), k);
    return k;
}

/* Index of g's totals in k, created on first use; -1 if out of memory. */
static int set_index(struct gm_kstat *k, const struct gm_sitetab_global *g)
{
    for (uint32_t i = 0; i < k->nsets; i++)
        if (k->set_g[i] == g) return (int)i;
    if (k->nsets >= k->tab->hdr->nglobals) return -1;
    int err = 0;
    uint8_t *ors = gm_slot_or_flags(gm_sitetab_str(k->tab, g->slotnames_str), g->slots, &err);
    uint64_t *v = err ? NULL : calloc((size_t)k->tab->hdr->nsites * g->slots + 1, sizeof *v);
    if (!v) {
        free(ors);
        return -1;
    }
    k->set_g[k->nsets] = g;
    k->or_slots[k->nsets] = ors;
    k->sums[k->nsets] = v;
    return (int)k->nsets++;
}

/* Replicas and launches fold alike: sums, ORs for the "|or" slots. */
void gm_kstat_add_sites(struct gm_kstat *k, const struct gm_sitetab_global *g, const uint64_t *host,
                        uint32_t replicas, uint32_t lo, uint32_t hi)
{
    int i = set_index(k, g);
    if (i >= 0)
        gm_counters_fold_sites(k->sums[i], host, replicas, k->tab->hdr->nsites, g->slots, k->or_slots[i],
                               lo, hi);
}

void gm_kstat_add(struct gm_kstat *k, const struct gm_sitetab_global *g, const uint64_t *host,
                  uint32_t replicas)
{
    gm_kstat_add_sites(k, g, host, replicas, 0, k->tab->hdr->nsites);
}
