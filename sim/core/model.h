/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal state of the simulator (struct gm_sim) and the per-record model
 * shared by the serial and the parallel drivers. Internal to sim/core.
 */
#ifndef GM_SIM_MODEL_H
#define GM_SIM_MODEL_H

#include <pthread.h>
#include "coalesce.h"

enum { GM_OP_READ = 0, GM_OP_WRITE = 1, GM_OP_ATOM = 2 };

struct gm_l2req {
    uint64_t line;
    uint32_t bytes, alloc, site, set, rec;
    uint16_t smid;
    uint8_t sector, op;
};

struct gm_reqvec { struct gm_l2req *v; size_t n, cap; size_t pos; };

struct gm_worker {
    struct gm_counts *allocs, *sites;   /* thread-local counters */
    uint32_t nallocs, nsites;
    struct gm_coal coal;
    struct gm_reqvec *out;              /* parallel: per L2 group */
    size_t cnt_base;                    /* parallel: bucketing */
    size_t *cnt;                        /* counts per owner (threads entries) */
    int oom;
};

struct gm_live { uint64_t base, end; uint32_t id; };

struct gm_sim {
    struct gm_sim_config cfg;
    struct gm_cache l2;
    struct gm_cache *l1;                /* sm_count */
    uint32_t *l1_gen, gen;              /* lazy reset per launch */
    uint64_t l1_bytes;                  /* of the current launch */
    char *l1_arena;                     /* all SMs' L1 state, huge pages */
    size_t l1_stride, l1_arena_bytes;
    struct gm_live *live;               /* sorted by base */
    uint32_t nlive, cap_live, nallocs;
    uint32_t *mod_base, *mod_n, nmods;  /* site index = mod_base[m] + site; 0 = unknown */
    uint32_t nsites;
    uint32_t have_allocs, have_sites;
    uint64_t part_fm;                   /* fastdiv constant for sets per partition (0: 1 set each) */
    struct gm_worker *w;                /* cfg.threads workers */
    struct gm_counts *allocs, *sites;   /* merged */
    /* parallel driver */
    pthread_t *tid;
    pthread_barrier_t bar;
    const struct gm_access *job;
    size_t njob;
    uint32_t *idx;                      /* record indices bucketed by owner */
    uint8_t *own;                       /* owner of each record */
    size_t idx_cap;
    int stop;
};

/* L2 partition of a set: set / (sets / partitions), by multiplication. */
static inline uint32_t gm_partition(const struct gm_sim *s, uint32_t set)
{
    return s->part_fm ? (uint32_t)(((unsigned __int128)s->part_fm * set) >> 64) : set;
}

/* Record processing. emit == NULL: serial (L2 accessed at once). */
void gm_model_record(struct gm_sim *s, struct gm_worker *w, const struct gm_access *a,
                     uint32_t rec, int parallel);
/* Prefetches the L1 and L2 tag rows of a record's first line (a record
 * GM_PREFETCH_AHEAD ahead of the one being simulated). */
#define GM_PREFETCH_AHEAD 8
void gm_model_prefetch(const struct gm_sim *s, const struct gm_access *a);
void gm_model_l2(struct gm_sim *s, struct gm_worker *w, const struct gm_l2req *q);
int gm_parallel_start(struct gm_sim *s);
void gm_parallel_stop(struct gm_sim *s);
void gm_parallel_feed(struct gm_sim *s, const struct gm_access *recs, size_t n);
uint32_t gm_alloc_lookup(const struct gm_sim *s, uint64_t addr);

#endif
