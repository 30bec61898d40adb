/* SPDX-License-Identifier: Apache-2.0 */
/* Unit test of the id-keyed open-addressed table (runtime/src/idtab.c,
 * gputime.c's pending launches) against a plain array: collisions,
 * deletion inside a probe run and across the wrap-around from the last
 * slot to the first, growth, and random adds and deletes in a dense
 * cluster over the wrap-around. After each step every id is looked up and
 * every entry must be reachable from its home slot without crossing an
 * empty one. No CUDA. */
#include "idtab.h"

#include <stdio.h>
#include <string.h>

static int failures;
/* the first 20 failures are printed */
#define CHECK(c) do { if (!(c) && failures++ < 20) fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #c); } while (0)

struct ent { uint32_t id, val; uint64_t tag; };

/* The reference: ids[i] holds val[i] (0: absent). */
#define POOL 4096
static uint32_t ids[POOL], val[POOL];
static size_t npool, nlive;

static uint32_t xorshift(uint32_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 17, *s ^= *s << 5;
    return *s;   /* a permutation of the nonzero values: distinct ids */
}

static uint32_t slot_of(const struct gm_idtab *t, const void *e)
{
    return (uint32_t)(((const unsigned char *)e - t->slots) / t->esz);
}

static void add(struct gm_idtab *t, size_t i, uint32_t v)
{
    struct ent e = {ids[i], v, (uint64_t)v << 32 | ids[i]};
    struct ent *p = gm_idtab_add(t, &e);
    CHECK(p && p->id == ids[i] && p->val == v);
    val[i] = v;
    nlive++;
}

static void del(struct gm_idtab *t, size_t i)
{
    struct ent *p = gm_idtab_find(t, ids[i]);
    CHECK(p != NULL);
    if (p) gm_idtab_del(t, p);
    val[i] = 0;
    nlive--;
}

/* Table = reference, and every entry reachable from its home. */
static int same(const struct gm_idtab *t)
{
    int bad = failures;
    for (size_t i = 0; i < npool; i++) {
        const struct ent *p = gm_idtab_find(t, ids[i]);
        if (val[i]) CHECK(p && p->id == ids[i] && p->val == val[i] &&
                          p->tag == ((uint64_t)val[i] << 32 | ids[i]));
        else CHECK(p == NULL);
    }
    CHECK(t->used == nlive);
    size_t occupied = 0, nslots = (size_t)1 << t->bits;
    for (uint32_t s = 0; t->slots && s < nslots; s++) {
        const struct ent *e = (const struct ent *)(t->slots + s * t->esz);
        if (!e->id) {
            CHECK(e->val == 0 && e->tag == 0);          /* a vacated slot is zeroed */
            continue;
        }
        occupied++;
        for (uint32_t k = gm_idtab_home(t, e->id); k != s; k = (k + 1) & (uint32_t)(nslots - 1))
            CHECK(((const struct ent *)(t->slots + k * t->esz))->id != 0);
    }
    CHECK(occupied == nlive);
    return failures == bad;
}

/* A fresh pool of n ids whose home (in a table of t's size) satisfies ok. */
static void pick(const struct gm_idtab *t, size_t n, int (*ok)(uint32_t home), uint32_t *seed)
{
    memset(val, 0, sizeof val);
    npool = nlive = 0;
    while (npool < n) {
        uint32_t id = xorshift(seed);
        if (ok(gm_idtab_home(t, id))) ids[npool++] = id;
    }
}

/* An empty table with its first 4096 slots (homes depend on the size). */
static struct gm_idtab fresh(void)
{
    struct gm_idtab t = GM_IDTAB_INIT(struct ent);
    struct ent e = {7, 1, 0};
    CHECK(gm_idtab_add(&t, &e) && t.bits == 12);
    gm_idtab_del(&t, gm_idtab_find(&t, 7));
    CHECK(t.used == 0 && gm_idtab_find(&t, 7) == NULL);
    return t;
}

static uint32_t g_want;
static int home_is(uint32_t h) { return h == g_want; }
static int any(uint32_t h) { (void)h; return 1; }
static int near_wrap(uint32_t h) { return h >= 4090 || h < 6; }

/* Ids that collide: one probe run, deleted from its middle, front and end. */
static void collisions(uint32_t *seed)
{
    struct gm_idtab t = fresh();
    g_want = 100;
    pick(&t, 6, home_is, seed);
    for (size_t i = 0; i < 6; i++) add(&t, i, 10 + (uint32_t)i);
    CHECK(slot_of(&t, gm_idtab_find(&t, ids[5])) == 105);
    CHECK(same(&t));
    del(&t, 2);                                         /* middle of the run */
    CHECK(same(&t));
    CHECK(slot_of(&t, gm_idtab_find(&t, ids[5])) == 104);
    del(&t, 0);                                         /* its front */
    CHECK(same(&t));
    del(&t, 5);                                         /* its end */
    CHECK(same(&t));
    for (size_t i = 0; i < 6; i++)
        if (val[i]) del(&t, i);
    CHECK(same(&t) && t.used == 0);
    gm_idtab_free(&t);
}

/* A run from the last slots into the first ones: entries homed at 4094,
 * 4095 and 0 interleaved, deleted so that some move back across the
 * wrap-around and some must stay. */
static void wrap_around(uint32_t *seed)
{
    struct gm_idtab t = fresh();
    uint32_t homes[] = {4094, 4095, 4095, 0, 4094};     /* -> slots 4094 4095 0 1 2 */
    uint32_t got[5];
    for (size_t i = 0; i < 5; i++) {
        g_want = homes[i];
        pick(&t, 1, home_is, seed);
        got[i] = ids[0];
    }
    memcpy(ids, got, sizeof got);
    npool = 5;
    for (size_t i = 0; i < 5; i++) add(&t, i, 20 + (uint32_t)i);
    uint32_t want_slot[] = {4094, 4095, 0, 1, 2};
    for (size_t i = 0; i < 5; i++) CHECK(slot_of(&t, gm_idtab_find(&t, ids[i])) == want_slot[i]);
    del(&t, 0);     /* at 4095, 0, 1: homes after the hole, they stay; at 2 (home 4094): moves to 4094 */
    CHECK(same(&t));
    CHECK(slot_of(&t, gm_idtab_find(&t, ids[4])) == 4094);
    CHECK(slot_of(&t, gm_idtab_find(&t, ids[2])) == 0);
    del(&t, 1);     /* the entry at 0 (home 4095) moves back across the wrap, then the one at 1 (home 0) */
    CHECK(same(&t));
    CHECK(slot_of(&t, gm_idtab_find(&t, ids[2])) == 4095);
    CHECK(slot_of(&t, gm_idtab_find(&t, ids[3])) == 0);
    gm_idtab_free(&t);
}

/* Past half full the table doubles; every entry survives the move. */
static void growth(uint32_t *seed)
{
    struct gm_idtab t = fresh();
    pick(&t, 3000, any, seed);
    for (size_t i = 0; i < 3000; i++) {
        add(&t, i, (uint32_t)i + 1);
        if (i == 2047) CHECK(t.bits == 12);
        if (i == 2048) CHECK(t.bits == 13);
    }
    CHECK(same(&t));
    for (size_t i = 0; i < 3000; i += 2) del(&t, i);
    CHECK(same(&t) && t.bits == 13);
    gm_idtab_free(&t);
}

/* Random adds and deletes of ids all homed in 12 slots around the
 * wrap-around (runs of hundreds of entries), checked after every step. */
static void random_cluster(uint32_t *seed)
{
    struct gm_idtab t = fresh();
    pick(&t, 600, near_wrap, seed);
    uint32_t r = 12345;
    for (uint32_t step = 1; step <= 20000 && !failures; step++) {
        size_t i = xorshift(&r) % npool;
        if (!val[i]) add(&t, i, step);
        else if (xorshift(&r) & 1) del(&t, i);
        if (step % 16 == 0 || step > 19900) same(&t);
    }
    CHECK(t.bits == 12 && nlive > 100);                 /* stayed one dense table */
    gm_idtab_free(&t);
}

int main(void)
{
    uint32_t seed = 2463534242u;
    collisions(&seed);
    wrap_around(&seed);
    growth(&seed);
    random_cluster(&seed);
    if (failures) return 1;
    printf("idtab: ok\n");
    return 0;
}
