/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Report model: kernels, their summed per-site counters, and launches.
 * Depends on libc only.
 */
#include "sat.h"
#include "gm_report.h"
#include "grow.h"
#include "kindex.h"
#include "strpool.h"

#include <stdlib.h>
#include <string.h>

/* A hash index over (modid, name): finding a kernel is O(1), not a scan of
 * every kernel (the runtime looks one up per launch). Open addressing,
 * slots hold index + 1; rebuilt when it no longer covers every kernel. */
struct gm_report_kindex {
    size_t n, cap;          /* kernels indexed; slots (a power of two) */
    size_t *slot;
};

static size_t khash(uint64_t modid, const char *name)
{
    uint64_t h = 1469598103934665603ull ^ modid;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = (h ^ *p) * 1099511628211ull;
    return (size_t)(h ^ h >> 29);
}

static void kindex_put(struct gm_report_kindex *x, const struct gm_report *r, size_t i)
{
    size_t m = x->cap - 1, h = khash(r->kernels[i].modid, r->kernels[i].name) & m;
    while (x->slot[h])
        h = (h + 1) & m;
    x->slot[h] = i + 1;
}

/* The index, (re)built to cover every kernel; NULL when out of memory. */
static struct gm_report_kindex *kindex(const struct gm_report *r)
{
    struct gm_report_kindex *x = r->kindex;
    if (!x)
        return NULL;
    if (x->cap < 2 * r->nkernels + 2 || x->n > r->nkernels) {
        size_t cap = 16;
        while (cap < 4 * r->nkernels)
            cap *= 2;
        size_t *s = calloc(cap, sizeof *s);
        if (!s)
            return NULL;
        free(x->slot);
        *x = (struct gm_report_kindex){0, cap, s};
    }
    for (; x->n < r->nkernels; x->n++)
        kindex_put(x, r, x->n);
    return x;
}

struct gm_report_kernel *gm_report_find_kernel(const struct gm_report *r, uint64_t modid,
                                               const char *name)
{
    const struct gm_report_kindex *x = kindex(r);
    if (!x) { /* no index (out of memory): scan */
        for (size_t i = 0; i < r->nkernels; i++)
            if (r->kernels[i].modid == modid && strcmp(r->kernels[i].name, name) == 0)
                return &r->kernels[i];
        return NULL;
    }
    size_t m = x->cap - 1;
    for (size_t h = khash(modid, name) & m; x->slot[h]; h = (h + 1) & m) {
        struct gm_report_kernel *k = &r->kernels[x->slot[h] - 1];
        if (k->modid == modid && strcmp(k->name, name) == 0)
            return k;
    }
    return NULL;
}

void gm_report_kindex_free(struct gm_report *r)
{
    if (r->kindex)
        free(r->kindex->slot);
    free(r->kindex);
    r->kindex = NULL;
}

struct gm_report_kernel *gm_report_get_kernel(struct gm_report *r, uint64_t modid,
                                              const char *name)
{
    if (!r->kindex)
        r->kindex = calloc(1, sizeof *r->kindex); /* none: find scans */
    struct gm_report_kernel *k = gm_report_find_kernel(r, modid, name ? name : "");
    if (k)
        return k;
    k = GM_GROW(r->kernels, r->nkernels, r->cap_kernels);
    if (!k || gm_report_set_str(&k->name, name ? name : ""))
        return NULL;
    k->modid = modid;
    k->gpu_ns = -1;
    r->nkernels++;
    return k;
}

const struct gm_report_kcounters *gm_report_kernel_set(const struct gm_report_kernel *k,
                                                       const char *set)
{
    for (size_t i = 0; i < k->nsets; i++)
        if (strcmp(k->sets[i].set, set) == 0)
            return &k->sets[i];
    return NULL;
}

/* The kernel's totals for `set`, created zeroed; NULL on OOM or shape mismatch. */
static struct gm_report_kcounters *kset(struct gm_report_kernel *k, const char *set,
                                        uint32_t nsites, uint32_t nslots)
{
    struct gm_report_kcounters *c = (struct gm_report_kcounters *)gm_report_kernel_set(k, set);
    if (c)
        return (c->nsites == nsites && c->nslots == nslots) ? c : NULL;
    size_t cap = k->nsets;
    c = GM_GROW(k->sets, k->nsets, cap);
    if (!c)
        return NULL;
    size_t n = (size_t)nsites * nslots;
    c->v = calloc(n > 0 ? n : 1, sizeof *c->v);
    if (!c->v || gm_report_set_str(&c->set, set)) {
        free(c->v);
        return NULL;
    }
    c->nsites = nsites;
    c->nslots = nslots;
    k->nsets++;
    return c;
}

int gm_report_add_kernel_counters(struct gm_report_kernel *k, const char *set,
                                  uint32_t nsites, uint32_t nslots, const uint64_t *v)
{
    struct gm_report_kcounters *c = kset(k, set, nsites, nslots);
    if (!c)
        return -1;
    size_t n = (size_t)nsites * nslots;
    for (size_t i = 0; i < n; i++)
        c->v[i] = gm_sat_add(c->v[i], v[i]);
    return 0;
}

int gm_report_add_kernel_site_counters(struct gm_report_kernel *k, const char *set,
                                       uint32_t nsites, uint32_t nslots, uint32_t site,
                                       const uint64_t *v, uint32_t n)
{
    struct gm_report_kcounters *c = kset(k, set, nsites, nslots);
    if (!c || site >= nsites || n > nslots)
        return -1;
    uint64_t *row = c->v + (size_t)site * nslots;
    for (uint32_t i = 0; i < n; i++)
        row[i] = gm_sat_add(row[i], v[i]);
    return 0;
}

int gm_report_slot_is_or(const struct gm_report_counter_set *s, uint32_t slot)
{
    return s && s->or_slot && slot < s->nslots && s->or_slot[slot];
}

int gm_report_fold_kernel_counters(struct gm_report *r, struct gm_report_kernel *k,
                                   const char *set, uint32_t nsites, uint32_t nslots,
                                   const uint64_t *v)
{
    const struct gm_report_counter_set *def =
        gm_report_find_set(gm_report_find_module(r, k->modid), set);
    struct gm_report_kcounters *c = kset(k, set, nsites, nslots);
    if (!c)
        return -1;
    for (uint32_t s = 0; s < nslots; s++) {
        int mask = gm_report_slot_is_or(def, s);
        for (uint32_t i = 0; i < nsites; i++) {
            size_t x = (size_t)i * nslots + s;
            c->v[x] = mask ? (c->v[x] | v[x]) : gm_sat_add(c->v[x], v[x]);
        }
    }
    return 0;
}

struct gm_report_launch *gm_report_add_launch(struct gm_report *r, uint64_t seq,
                                              size_t kernel, const char *api)
{
    if (kernel >= r->nkernels)
        return NULL;
    struct gm_report_launch *l = GM_GROW(r->launches, r->nlaunches, r->cap_launches);
    int oom = 0;
    if (!l || (l->api = gm_report_intern(r, api, &oom), oom))
        return NULL;
    l->seq = seq;
    l->kernel = kernel;
    l->time_ns = -1;
    l->gpu_ns = -1;
    r->kernels[kernel].launches++;
    r->nlaunches++;
    return l;
}
