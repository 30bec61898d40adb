/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Drill-down data for the HTML report (Rosen's views): from a warp-level
 * trace, a bounded sample of launches, per-warp summaries of their blocks,
 * and a few warps' memory operations with every lane's address, plus what
 * each operation costs (unique 32 B sectors for global and local memory,
 * serialised wavefronts and banks for shared memory). The gpumem CLI fills
 * it from a trace file (`gpumem report --trace FILE.gmt`); the HTML writer
 * embeds it. Depends on libc only: the caller converts trace records into
 * gm_drill_op, so the report library needs no trace reader and no CUDA.
 *
 * Two passes over the same operations, launch by launch:
 *   pass 1: gm_drill_launch (returns the launch's index or -1: not sampled),
 *           gm_drill_op for each operation of a sampled launch;
 *   gm_drill_choose picks the warps whose operations are kept;
 *   pass 2: gm_drill_op2 for the operations of the same launches again.
 * Bounds (all stated in the view): the first GM_DRILL_LAUNCHES launches of
 * distinct kernels, up to GM_DRILL_WARPS warps per launch (whole blocks in
 * block order), GM_DRILL_DETAIL warps per launch with their operations (the
 * first warp and the most wasteful ones), GM_DRILL_OPS operations each.
 */
#ifndef GM_DRILL_H
#define GM_DRILL_H

#include <stddef.h>
#include <stdint.h>

#define GM_DRILL_LAUNCHES 8
#define GM_DRILL_PER_KERNEL 1
#define GM_DRILL_WARPS 4096
#define GM_DRILL_DETAIL 8
#define GM_DRILL_OPS 256

/* One warp memory instruction (trace record, lane addresses resolved). */
struct gm_drill_op {
    uint64_t addr[32];          /* lane k's address if bit k of active is set */
    uint32_t active;
    uint32_t site;              /* site id in module `module`'s table */
    uint32_t module;            /* trace module index (gm_drill_module) */
    uint32_t cta[3];
    uint32_t warp;              /* warp index inside the CTA */
    uint32_t smid;
    uint32_t width;             /* bytes per lane */
    uint8_t kind;               /* GM_TRACE_LOAD | _STORE | _ATOMIC (trace.h) */
    uint8_t space;              /* enum gm_space (abi.h) */
};

/* What one operation costs. Global and local memory: units = unique 32 B
 * sectors of the union of the lanes' byte ranges (local addresses mapped
 * to the per-warp interleaved layout, as the coalescing handler does),
 * ideal = ceil(active lanes x width / 32), group[k] = the order of lane
 * k's first sector among the operation's sectors. Shared memory: units =
 * wavefronts (the coalescing handler's rule: 32 banks of 4 B, accesses of
 * 8 B per half warp, 16 B per quarter warp; lanes of one W-byte unit share
 * it; a phase takes as many wavefronts as the most distinct units on one
 * bank), ideal = phases with lanes, group[k] = the wavefront (from 0) that
 * serves lane k, bank[k] = (addr >> 2) % 32. Other spaces: units = ideal
 * = 0. Inactive lanes: group and bank 255. */
struct gm_drill_cost {
    uint32_t units, ideal;
    uint8_t group[32], bank[32];
};
void gm_drill_cost(const struct gm_drill_op *op, struct gm_drill_cost *c);

/* One warp of a sampled launch, summed over its operations. */
struct gm_drill_warp {
    uint32_t cta[3], warp, smid;
    uint64_t ops, lanes;        /* operations; active lanes summed */
    uint64_t requests, sectors, ideal_sectors;      /* global and local */
    uint64_t shared_ops, wavefronts, ideal_wavefronts;
    int detail;                 /* index into the launch's detail warps, or -1 */
};
/* Excess sectors + excess wavefronts of a warp (what ranks detail warps). */
uint64_t gm_drill_waste(const struct gm_drill_warp *w);

struct gm_drill_detail {
    size_t warp;                /* index into the launch's warps */
    uint64_t ops_total;         /* operations the warp made (nops kept) */
    size_t nops, cap;
    struct gm_drill_op *ops;
};

struct gm_drill_launch {
    char *kernel;               /* mangled name */
    uint64_t seq;               /* launch seq in the trace */
    uint32_t grid[3], block[3];
    uint32_t warps_per_cta, ctas_kept; /* CTAs with linear index < ctas_kept are kept */
    uint64_t ops, ops_kept;     /* operations of the launch; of kept CTAs */
    size_t nwarps;              /* ctas_kept * warps_per_cta; warp i is warp
                                 * i % warps_per_cta of CTA i / warps_per_cta
                                 * (linear index x + y*gx + z*gx*gy) */
    struct gm_drill_warp *warps;
    size_t ndetail;
    struct gm_drill_detail detail[GM_DRILL_DETAIL];
};

/* A site of a traced module; the sums are over every operation of the
 * sampled launches at the site (pass 1), all their blocks. */
struct gm_drill_site {
    uint32_t line, column;
    char *file, *func;
    uint64_t ops, requests, sectors, ideal_sectors; /* requests: global and local ops */
    uint64_t wavefronts, ideal_wavefronts;
};
struct gm_drill_module {
    uint64_t modid;
    char *name;
    size_t nsites;
    struct gm_drill_site *sites;
};

struct gm_drill {
    char *trace;                /* the trace file's name */
    char *gpu;                  /* the GPU it was recorded on, or NULL */
    uint64_t launches_total;    /* launches in the trace */
    size_t nmodules, cap_modules;
    struct gm_drill_module *modules;
    size_t nlaunches;
    struct gm_drill_launch launches[GM_DRILL_LAUNCHES];
    int chosen;                 /* gm_drill_choose ran */
};

/* NULL when out of memory. */
struct gm_drill *gm_drill_new(const char *trace, const char *gpu);
void gm_drill_free(struct gm_drill *d);
/* Module index = order of the calls (the trace's module index). sites may
 * be NULL (n sites without locations). 0, or -1 when out of memory. */
int gm_drill_module(struct gm_drill *d, uint64_t modid, const char *name, size_t n,
                    const struct gm_drill_site *sites);
/* Counts a launch (pass 1); returns its sample index, or -1 when it is not
 * sampled (limit reached, or its kernel already has GM_DRILL_PER_KERNEL),
 * or -2 when out of memory. */
int gm_drill_launch(struct gm_drill *d, const char *kernel, uint64_t seq,
                    const uint32_t grid[3], const uint32_t block[3]);
/* Pass 1: one operation of sampled launch li. 0, or -1 out of memory. */
int gm_drill_op(struct gm_drill *d, int li, const struct gm_drill_op *op);
/* Picks each launch's detail warps: the first warp with operations, then
 * the warps with the most excess sectors + excess wavefronts (ties: block
 * order), then the next warps in block order. */
void gm_drill_choose(struct gm_drill *d);
/* Pass 2: keeps the operation when its warp is a detail warp (the first
 * GM_DRILL_OPS of each). 0, or -1 out of memory. */
int gm_drill_op2(struct gm_drill *d, int li, const struct gm_drill_op *op);
/* The sample index of the launch with trace seq `seq`, or -1. */
int gm_drill_find_launch(const struct gm_drill *d, uint64_t seq);

/* Index of the drill-down launch of a kernel (mangled name), or -1. */
int gm_drill_kernel_launch(const struct gm_drill *d, const char *kernel);

#endif
