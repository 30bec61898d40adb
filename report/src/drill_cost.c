/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What one traced warp memory operation costs, lane by lane: unique 32 B
 * sectors (global, local) or shared-memory wavefronts and banks, by the
 * coalescing handler's rules (handlers/builtin/gm_warp_sets.h), for the
 * drill-down views. Depends on gm_drill.h, the ABI header and libc only.
 */
#include "gm_drill.h"
#include "gpumem/abi.h"

#include <stdlib.h>
#include <string.h>

/* Bytes of one lane counted (memory intrinsics can be longer). */
#define MAX_LANE_BYTES 4096u
#define MAX_SECTORS (32u * (MAX_LANE_BYTES / 32u + 1u))

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The local-memory layout: each thread's 4 B words interleave across the
 * warp's lanes (gm_local_phys). */
static uint64_t local_phys(uint64_t off, unsigned lane)
{
    return ((off >> 2) << 7) | ((uint64_t)lane << 2) | (off & 3);
}

static void sectors(const struct gm_drill_op *op, struct gm_drill_cost *c)
{
    static _Thread_local uint64_t all[MAX_SECTORS];
    uint64_t first[32];
    uint32_t w = op->width ? op->width : 1, n = 0, lanes = 0;
    if (w > MAX_LANE_BYTES)
        w = MAX_LANE_BYTES;
    for (unsigned k = 0; k < 32; k++) {
        if (!(op->active >> k & 1))
            continue;
        uint64_t a = op->space == GM_SPACE_LOCAL ? local_phys(op->addr[k], k) : op->addr[k];
        first[k] = a >> 5;
        for (uint64_t s = a >> 5; s <= (a + w - 1) >> 5; s++)
            all[n++] = s;
        lanes++;
    }
    qsort(all, n, sizeof *all, cmp_u64);
    uint32_t u = 0;
    for (uint32_t i = 0; i < n; i++)
        u += i == 0 || all[i] != all[i - 1];
    c->units = u;
    c->ideal = (uint32_t)(((uint64_t)lanes * w + 31) / 32);
    /* group: order of first appearance of each lane's first sector */
    uint64_t seen[32];
    uint32_t nseen = 0;
    for (unsigned k = 0; k < 32; k++) {
        if (!(op->active >> k & 1))
            continue;
        uint32_t g = 0;
        while (g < nseen && seen[g] != first[k])
            g++;
        if (g == nseen)
            seen[nseen++] = first[k];
        c->group[k] = (uint8_t)g;
    }
}

static void wavefronts(const struct gm_drill_op *op, struct gm_drill_cost *c)
{
    uint32_t w = op->width;
    unsigned ws = w <= 4 ? 2 : (w <= 8 ? 3 : 4);   /* log2 of the unit */
    unsigned pl = 7 - ws;                          /* log2 lanes per phase */
    unsigned per = 1u << pl, base = 0;
    c->units = c->ideal = 0;
    for (unsigned p = 0; p < 32 / per; p++) {
        uint32_t units[32], nunits = 0, most = 0;
        uint8_t rank[32];                          /* unit i's rank on its bank */
        for (unsigned k = p * per; k < (p + 1) * per; k++) {
            if (!(op->active >> k & 1))
                continue;
            uint32_t u = (uint32_t)((op->addr[k] & 0x3fffffffu) >> ws), i = 0;
            while (i < nunits && units[i] != u)
                i++;
            if (i == nunits) {
                uint32_t r = 0;
                for (uint32_t j = 0; j < nunits; j++)
                    r += (units[j] & (per - 1)) == (u & (per - 1));
                units[nunits] = u;
                rank[nunits++] = (uint8_t)r;
                most = r + 1 > most ? r + 1 : most;
            }
            c->group[k] = (uint8_t)(base + rank[i]);
            c->bank[k] = (uint8_t)((op->addr[k] >> 2) & 31);
        }
        if (nunits) {
            c->units += most;
            c->ideal++;
            base += most;
        }
    }
}

void gm_drill_cost(const struct gm_drill_op *op, struct gm_drill_cost *c)
{
    memset(c, 0, sizeof *c);
    memset(c->group, 255, sizeof c->group);
    memset(c->bank, 255, sizeof c->bank);
    if (!op->active)
        return;
    if (op->space == GM_SPACE_SHARED)
        wavefronts(op, c);
    else if (op->space == GM_SPACE_GLOBAL || op->space == GM_SPACE_LOCAL)
        sectors(op, c);
}
