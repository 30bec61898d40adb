/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Known answers for the drill-down (gm_drill.h): what one warp operation
 * costs (sectors of global and local accesses, shared-memory wavefronts,
 * banks and the lane of each) on access patterns whose answer is known by
 * hand, and the sampling of launches, warps and operations. Depends on the
 * report library only.
 */
#include "check.h"
#include "gm_drill.h"
#include "gpumem/abi.h"

#include <stdlib.h>

/* Lane k at base + k * stride (bytes), lanes of `active`. */
static struct gm_drill_op op(uint8_t space, uint32_t width, uint64_t base, int64_t stride,
                             uint32_t active)
{
    struct gm_drill_op o = {.active = active, .width = width, .space = space, .kind = 1};
    for (int k = 0; k < 32; k++)
        o.addr[k] = active >> k & 1 ? base + (uint64_t)(k * stride) : 0;
    return o;
}

static struct gm_drill_cost cost(struct gm_drill_op o)
{
    struct gm_drill_cost c;
    gm_drill_cost(&o, &c);
    return c;
}

static void global(void)
{
    struct gm_drill_cost c = cost(op(GM_SPACE_GLOBAL, 4, 0x1000, 4, ~0u));
    CHECK_EQ(c.units, 4);                   /* 128 B, aligned: 4 sectors */
    CHECK_EQ(c.ideal, 4);
    CHECK_EQ(c.group[0], 0);
    CHECK_EQ(c.group[7], 0);
    CHECK_EQ(c.group[8], 1);
    CHECK_EQ(c.group[31], 3);
    c = cost(op(GM_SPACE_GLOBAL, 4, 0x1000, 4096, ~0u));   /* a column: one sector each */
    CHECK_EQ(c.units, 32);
    CHECK_EQ(c.ideal, 4);
    CHECK_EQ(c.group[31], 31);
    c = cost(op(GM_SPACE_GLOBAL, 4, 0x1004, 4, ~0u));      /* off by 4 B: 5 sectors */
    CHECK_EQ(c.units, 5);
    CHECK_EQ(c.group[6], 0);
    CHECK_EQ(c.group[7], 1);
    c = cost(op(GM_SPACE_GLOBAL, 16, 0x2000, 16, ~0u));    /* float4: 512 B */
    CHECK_EQ(c.units, 16);
    CHECK_EQ(c.ideal, 16);
    c = cost(op(GM_SPACE_GLOBAL, 8, 0x2004, 8, 1u));       /* one lane across two sectors */
    CHECK_EQ(c.units, 1);
    c = cost(op(GM_SPACE_GLOBAL, 8, 0x201c, 8, 1u));
    CHECK_EQ(c.units, 2);
    CHECK_EQ(c.ideal, 1);
    c = cost(op(GM_SPACE_GLOBAL, 4, 0x3000, 0, ~0u));      /* broadcast */
    CHECK_EQ(c.units, 1);
    CHECK_EQ(c.ideal, 4);
    c = cost(op(GM_SPACE_GLOBAL, 4, 0x1000, 4, 0xffffu));  /* half the warp */
    CHECK_EQ(c.units, 2);
    CHECK_EQ(c.ideal, 2);
    CHECK_EQ(c.group[20], 255);
    CHECK_EQ(c.bank[0], 255);               /* banks: shared memory only */
    /* local: the same offset in every lane is one contiguous 128 B span */
    c = cost(op(GM_SPACE_LOCAL, 4, 0x40, 0, ~0u));
    CHECK_EQ(c.units, 4);
    CHECK_EQ(c.ideal, 4);
    c = cost(op(GM_SPACE_CONST, 4, 0x40, 4, ~0u));         /* not counted */
    CHECK_EQ(c.units, 0);
    CHECK_EQ(c.ideal, 0);
}

static void shared(void)
{
    /* tile[threadIdx.x][j] of a 32 x 32 float tile: one bank, 32-way */
    struct gm_drill_cost c = cost(op(GM_SPACE_SHARED, 4, 0x100, 128, ~0u));
    CHECK_EQ(c.units, 32);
    CHECK_EQ(c.ideal, 1);
    CHECK_EQ(c.bank[0], 0);
    CHECK_EQ(c.bank[31], 0);
    CHECK_EQ(c.group[0], 0);
    CHECK_EQ(c.group[31], 31);
    c = cost(op(GM_SPACE_SHARED, 4, 0x100, 132, ~0u));     /* padded to 33: no conflict */
    CHECK_EQ(c.units, 1);
    CHECK_EQ(c.group[31], 0);
    CHECK_EQ(c.bank[1], 1);
    c = cost(op(GM_SPACE_SHARED, 4, 0x100, 8, ~0u));       /* stride 2 words: 2-way */
    CHECK_EQ(c.units, 2);
    CHECK_EQ(c.group[15], 0);
    CHECK_EQ(c.group[16], 1);
    CHECK_EQ(c.bank[16], 0);
    c = cost(op(GM_SPACE_SHARED, 4, 0x100, 0, ~0u));       /* broadcast */
    CHECK_EQ(c.units, 1);
    CHECK_EQ(c.group[31], 0);
    c = cost(op(GM_SPACE_SHARED, 8, 0x100, 8, ~0u));       /* doubles: two half warps */
    CHECK_EQ(c.units, 2);
    CHECK_EQ(c.ideal, 2);
    CHECK_EQ(c.group[15], 0);
    CHECK_EQ(c.group[16], 1);
    c = cost(op(GM_SPACE_SHARED, 16, 0x100, 16, ~0u));     /* float4: four quarter warps */
    CHECK_EQ(c.units, 4);
    CHECK_EQ(c.ideal, 4);
    c = cost(op(GM_SPACE_SHARED, 8, 0x100, 16, 0xffffu));  /* doubles, stride 2: 2-way, one phase */
    CHECK_EQ(c.units, 2);
    CHECK_EQ(c.ideal, 1);
}

static struct gm_drill_op at(struct gm_drill_op o, uint32_t cx, uint32_t warp)
{
    o.cta[0] = cx;
    o.warp = warp;
    return o;
}

/* One operation, pass 1 or 2. */
static int feed(struct gm_drill *d, int li, int pass, struct gm_drill_op o)
{
    return pass ? gm_drill_op2(d, li, &o) : gm_drill_op(d, li, &o);
}

static void sample(void)
{
    struct gm_drill *d = gm_drill_new("t.gmt", "GPU");
    CHECK(d != NULL);
    uint32_t grid[3] = {4, 1, 1}, block[3] = {64, 1, 1};
    CHECK_EQ(gm_drill_launch(d, "k", 0, grid, block), 0);
    CHECK_EQ(gm_drill_launch(d, "k", 1, grid, block), -1);       /* same kernel again */
    struct gm_drill_op good = op(GM_SPACE_GLOBAL, 4, 0x1000, 4, ~0u);
    struct gm_drill_op bad = op(GM_SPACE_GLOBAL, 4, 0x1000, 4096, ~0u);
    struct gm_drill_op bank = op(GM_SPACE_SHARED, 4, 0x0, 128, ~0u);
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < 3; i++)
            CHECK_EQ(feed(d, 0, pass, at(good, 0, 0)), 0);
        for (int i = 0; i < 2; i++)
            CHECK_EQ(feed(d, 0, pass, at(bad, 2, 1)), 0);
        CHECK_EQ(feed(d, 0, pass, at(bank, 3, 0)), 0);
        if (!pass)
            gm_drill_choose(d);
    }
    struct gm_drill_launch *l = &d->launches[0];
    CHECK_EQ(l->warps_per_cta, 2);
    CHECK_EQ(l->nwarps, 8);
    CHECK_EQ(l->ops, 6);
    CHECK_EQ(l->warps[0].ops, 3);
    CHECK_EQ(l->warps[0].sectors, 12);
    CHECK_EQ(l->warps[5].requests, 2);
    CHECK_EQ(l->warps[5].sectors, 64);
    CHECK_EQ(l->warps[5].ideal_sectors, 8);
    CHECK_EQ(l->warps[5].cta[0], 2);
    CHECK_EQ(l->warps[6].wavefronts, 32);
    CHECK_EQ(l->warps[6].ideal_wavefronts, 1);
    CHECK_EQ(gm_drill_waste(&l->warps[5]), 56);
    /* first warp, then by waste: 56 (warp 5), 31 (warp 6) */
    CHECK_EQ(l->ndetail, 3);
    CHECK_EQ(l->detail[0].warp, 0);
    CHECK_EQ(l->detail[1].warp, 5);
    CHECK_EQ(l->detail[2].warp, 6);
    CHECK_EQ(l->detail[1].nops, 2);
    CHECK_EQ(l->detail[1].ops_total, 2);
    CHECK_EQ(l->warps[1].detail, -1);
    CHECK_EQ(d->launches_total, 2);
    /* a large grid keeps its first blocks only, GM_DRILL_WARPS warps */
    uint32_t big[3] = {10000, 1, 1}, b256[3] = {256, 1, 1};
    CHECK_EQ(gm_drill_launch(d, "big", 7, big, b256), 1);
    l = &d->launches[1];
    CHECK_EQ(l->ctas_kept, GM_DRILL_WARPS / 8);
    CHECK_EQ(feed(d, 1, 0, at(good, 600, 0)), 0);
    CHECK_EQ(feed(d, 1, 0, at(good, 1, 3)), 0);
    CHECK_EQ(l->ops, 2);
    CHECK_EQ(l->ops_kept, 1);
    CHECK_EQ(l->warps[11].ops, 1);
    CHECK_EQ(gm_drill_find_launch(d, 7), 1);
    /* at most GM_DRILL_LAUNCHES launches, GM_DRILL_OPS operations a warp */
    char name[16];
    for (int i = 0; i < GM_DRILL_LAUNCHES + 2; i++) {
        snprintf(name, sizeof name, "k%d", i);
        int li = gm_drill_launch(d, name, 100 + (uint64_t)i, grid, block);
        CHECK(li == (i < GM_DRILL_LAUNCHES - 2 ? i + 2 : -1));
    }
    CHECK_EQ(d->nlaunches, GM_DRILL_LAUNCHES);
    gm_drill_free(d);

    d = gm_drill_new("t.gmt", NULL);
    CHECK_EQ(gm_drill_launch(d, "k", 0, grid, block), 0);
    CHECK_EQ(gm_drill_op(d, 0, &good), 0);
    gm_drill_choose(d);
    for (int i = 0; i < GM_DRILL_OPS + 5; i++)
        CHECK_EQ(gm_drill_op2(d, 0, &good), 0);
    CHECK_EQ(d->launches[0].detail[0].nops, GM_DRILL_OPS);
    CHECK_EQ(d->launches[0].detail[0].ops_total, GM_DRILL_OPS + 5);
    gm_drill_free(d);
}

int main(void)
{
    global();
    shared();
    sample();
    if (gm_failures)
        fprintf(stderr, "%d checks failed\n", gm_failures);
    return gm_failures != 0;
}
