/* SPDX-License-Identifier: Apache-2.0 */
/* Unit test of the allocation range table (runtime/src/alloc.c): lookup by
 * address, free, overlap retirement, pending names. No CUDA. */
#include "rt_core.h"

#include <stdio.h>
#include <string.h>

static int failures;
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #c); failures++; } } while (0)

int main(void)
{
    struct gm_alloc_table t;
    gm_alloc_init(&t);
    struct gm_alloc *a = gm_alloc_add(&t, 0x1000, 0x100, GM_ALLOC_DEVICE, 0);
    struct gm_alloc *c = gm_alloc_add(&t, 0x3000, 0x10, GM_ALLOC_MANAGED, 0);
    struct gm_alloc *b = gm_alloc_add(&t, 0x2000, 0x800, GM_ALLOC_DEVICE, 1);
    CHECK(a && b && c && a->id == 1 && c->id == 2 && b->id == 3);
    CHECK(gm_alloc_find(&t, 0x0fff) == NULL);
    CHECK(gm_alloc_find(&t, 0x1000) == a);
    CHECK(gm_alloc_find(&t, 0x10ff) == a);
    CHECK(gm_alloc_find(&t, 0x1100) == NULL);
    CHECK(gm_alloc_find(&t, 0x27ff) == b);
    CHECK(gm_alloc_find(&t, 0x300f) == c);
    CHECK(gm_alloc_find(&t, 0x3010) == NULL);
    /* free: only by exact base */
    CHECK(gm_alloc_remove(&t, 0x2001) == NULL);
    CHECK(gm_alloc_remove(&t, 0x2000) == b && !b->live);
    CHECK(gm_alloc_find(&t, 0x2000) == NULL && t.nlive == 2 && t.n == 3);
    /* a new allocation over a live one we never saw freed retires it */
    struct gm_alloc *d = gm_alloc_add(&t, 0x1080, 0x100, GM_ALLOC_ASYNC, 0);
    CHECK(d && !a->live && gm_alloc_find(&t, 0x1000) == NULL && gm_alloc_find(&t, 0x1100) == d);
    /* names: now, and pending for an address not yet allocated */
    CHECK(gm_alloc_set_label(&t, 0x1090, "d buffer") == 0 && d->label && !strcmp(d->label, "d buffer"));
    CHECK(gm_alloc_set_label(&t, 0x9000, "later") == 1);
    struct gm_alloc *e = gm_alloc_add(&t, 0x9000, 64, GM_ALLOC_DEVICE, 0);
    CHECK(e && e->label && !strcmp(e->label, "later"));
    CHECK(gm_alloc_set_label(&t, 0, "x") == -1 && gm_alloc_set_label(&t, 0x9000, NULL) == -1);
    /* many allocations: lookup stays right */
    for (uint64_t i = 0; i < 1000; i++) gm_alloc_add(&t, 0x100000 + i * 0x200, 0x100, 0, 0);
    CHECK(gm_alloc_find(&t, 0x100000 + 500 * 0x200 + 0xff)->base == 0x100000 + 500 * 0x200);
    CHECK(gm_alloc_find(&t, 0x100000 + 500 * 0x200 + 0x100) == NULL);
    gm_alloc_destroy(&t);
    if (failures) return 1;
    printf("alloc: ok\n");
    return 0;
}
