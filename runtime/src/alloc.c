/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Allocation range table: every device allocation the runtime saw, plus the
 * live ones sorted by base address for O(log n) address -> allocation
 * lookup. Not thread-safe (the caller holds the runtime lock).
 * Pure C + uthash: must not depend on CUDA, CUPTI or LLVM.
 */
#include "rt_core.h"

#include <stdlib.h>
#include <string.h>
#include <uthash.h>
#include "gm_grow.h"
#include "gm_search.h"

struct gm_pending_name {
    uint64_t ptr;
    char *label;
    UT_hash_handle hh;
};

void gm_alloc_init(struct gm_alloc_table *t)
{
    memset(t, 0, sizeof *t);
}

void gm_alloc_destroy(struct gm_alloc_table *t)
{
    for (size_t i = 0; i < t->n; i++) {
        free(t->all[i]->label);
        free(t->all[i]);
    }
    struct gm_pending_name *p, *tmp;
    HASH_ITER(hh, t->pending, p, tmp) {
        HASH_DEL(t->pending, p);
        free(p->label);
        free(p);
    }
    free(t->all);
    free(t->live);
    memset(t, 0, sizeof *t);
}

struct base_key { const struct gm_alloc_table *t; uint64_t addr; };
static int base_at_most(const void *ctx, size_t i)
{
    const struct base_key *k = ctx;
    return k->t->live[i]->base <= k->addr;
}

/* Index of the first live allocation with base > addr. */
static size_t upper_bound(const struct gm_alloc_table *t, uint64_t addr)
{
    struct base_key k = {t, addr};
    return gm_partition_point(t->nlive, base_at_most, &k);
}

struct gm_alloc *gm_alloc_find(const struct gm_alloc_table *t, uint64_t addr)
{
    size_t i = upper_bound(t, addr);
    if (i == 0) return NULL;
    struct gm_alloc *a = t->live[i - 1];
    return addr - a->base < (a->size ? a->size : 1) ? a : NULL;
}

static void live_erase(struct gm_alloc_table *t, size_t i)
{
    t->live[i]->live = 0;
    memmove(&t->live[i], &t->live[i + 1], (t->nlive - i - 1) * sizeof *t->live);
    t->nlive--;
}

/* Retire live allocations overlapping [base, base+size): frees we missed. */
static void retire_overlaps(struct gm_alloc_table *t, uint64_t base, uint64_t size)
{
    uint64_t end = base + (size ? size : 1);
    size_t i = upper_bound(t, base);
    if (i > 0 && t->live[i - 1]->base + t->live[i - 1]->size > base) i--;
    while (i < t->nlive && t->live[i]->base < end) live_erase(t, i);
}

static void apply_pending(struct gm_alloc_table *t, struct gm_alloc *a)
{
    struct gm_pending_name *p;
    HASH_FIND(hh, t->pending, &a->base, sizeof a->base, p);
    if (!p) return;
    HASH_DEL(t->pending, p);
    free(a->label);
    a->label = p->label;
    free(p);
}

struct gm_alloc *gm_alloc_add(struct gm_alloc_table *t, uint64_t base, uint64_t size,
                              int kind, int device)
{
    if (GM_GROW_TO(t->all, t->cap, t->n + 1) || GM_GROW_TO(t->live, t->livecap, t->nlive + 1))
        return NULL;
    struct gm_alloc *a = calloc(1, sizeof *a);
    if (!a) return NULL;
    retire_overlaps(t, base, size);
    a->id = t->n + 1;
    a->base = base;
    a->size = size;
    a->kind = kind;
    a->device = device;
    a->live = 1;
    t->all[t->n++] = a;
    size_t i = upper_bound(t, base);
    memmove(&t->live[i + 1], &t->live[i], (t->nlive - i) * sizeof *t->live);
    t->live[i] = a;
    t->nlive++;
    apply_pending(t, a);
    return a;
}

struct gm_alloc *gm_alloc_remove(struct gm_alloc_table *t, uint64_t base)
{
    size_t i = upper_bound(t, base);
    if (i == 0 || t->live[i - 1]->base != base) return NULL;
    struct gm_alloc *a = t->live[i - 1];
    live_erase(t, i - 1);
    return a;
}

int gm_alloc_set_label(struct gm_alloc_table *t, uint64_t ptr, const char *label)
{
    if (!label || !ptr) return -1;
    char *copy = strdup(label);
    if (!copy) return -1;
    struct gm_alloc *a = gm_alloc_find(t, ptr);
    if (a) {
        free(a->label);
        a->label = copy;
        return 0;
    }
    struct gm_pending_name *p;
    HASH_FIND(hh, t->pending, &ptr, sizeof ptr, p);
    if (!p) {
        p = calloc(1, sizeof *p);
        if (!p) {
            free(copy);
            return -1;
        }
        p->ptr = ptr;
        HASH_ADD(hh, t->pending, ptr, sizeof p->ptr, p);
    }
    free(p->label);
    p->label = copy;
    return 1;
}
