/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The id-keyed open-addressed table of idtab.h (linear probing,
 * backward-shift deletion). Depends on libc only.
 */
#include "idtab.h"

#include <stdlib.h>
#include <string.h>

#define FIRST_BITS 12
#define MAX_BITS 30

static unsigned char *slot(const struct gm_idtab *t, uint32_t i) { return t->slots + (size_t)i * t->esz; }
static uint32_t id_at(const struct gm_idtab *t, uint32_t i)
{
    uint32_t id;
    memcpy(&id, slot(t, i), sizeof id);
    return id;
}
static uint32_t mask(const struct gm_idtab *t) { return (1u << t->bits) - 1; }

uint32_t gm_idtab_home(const struct gm_idtab *t, uint32_t id)
{
    return (id * 2654435769u) >> (32 - t->bits);    /* Fibonacci hashing */
}

void *gm_idtab_find(const struct gm_idtab *t, uint32_t id)
{
    if (!t->slots || !id) return NULL;
    for (uint32_t i = gm_idtab_home(t, id);; i = (i + 1) & mask(t)) {
        uint32_t at = id_at(t, i);
        if (at == id) return slot(t, i);
        if (!at) return NULL;
    }
}

static void *place(struct gm_idtab *t, const void *e)
{
    uint32_t id;
    memcpy(&id, e, sizeof id);
    uint32_t i = gm_idtab_home(t, id);
    while (id_at(t, i)) i = (i + 1) & mask(t);
    memcpy(slot(t, i), e, t->esz);
    t->used++;
    return slot(t, i);
}

/* Doubles the slots (or makes the first ones); 0 on success. */
static int grow(struct gm_idtab *t)
{
    uint32_t nb = t->bits ? t->bits + 1 : FIRST_BITS;
    if (nb > MAX_BITS) return -1;
    unsigned char *ns = calloc((size_t)1 << nb, t->esz);
    if (!ns) return -1;
    struct gm_idtab old = *t;
    t->slots = ns, t->bits = nb, t->used = 0;
    for (uint32_t i = 0; old.slots && i <= mask(&old); i++)
        if (id_at(&old, i)) place(t, slot(&old, i));
    free(old.slots);
    return 0;
}

void *gm_idtab_add(struct gm_idtab *t, const void *e)
{
    if ((size_t)(t->used + 1) * 2 > ((size_t)1 << t->bits) && grow(t)) return NULL;
    return place(t, e);
}

/* Later entries of the probe run move back into the hole unless their
 * home lies cyclically in (hole, their slot]: then the hole does not cut
 * their probe path. */
void gm_idtab_del(struct gm_idtab *t, void *e)
{
    uint32_t i = (uint32_t)(((unsigned char *)e - t->slots) / t->esz), j = i;
    for (;;) {
        j = (j + 1) & mask(t);
        uint32_t id = id_at(t, j);
        if (!id) break;
        uint32_t k = gm_idtab_home(t, id);
        int stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
        if (!stays) {
            memcpy(slot(t, i), slot(t, j), t->esz);
            i = j;
        }
    }
    memset(slot(t, i), 0, t->esz);
    t->used--;
}

void gm_idtab_free(struct gm_idtab *t)
{
    free(t->slots);
    t->slots = NULL;
    t->bits = t->used = 0;
}
