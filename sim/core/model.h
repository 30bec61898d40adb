/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal state of the simulator (struct gm_sim) and the per-record model
 * shared by the serial and the parallel drivers. Internal to sim/core.
 */
#ifndef GM_SIM_MODEL_H
#define GM_SIM_MODEL_H

#include <pthread.h>
#include <time.h>
#include "barrier.h"
#include "coalesce.h"
#include "ctab.h"
#include "live.h"

enum { GM_OP_READ = 0, GM_OP_WRITE = 1, GM_OP_ATOM = 2 };

/* One coalesced line access, the unit of the cache model: produced by the
 * coalescing pass, consumed by the L1/L2 pass. */
struct gm_lacc {
    uint64_t line;
    uint32_t bytes[4];     /* requested bytes per sector */
    uint32_t alloc, site;   /* adjacent, 8-byte aligned: fold() compares them as one word */
    uint32_t rec;
    uint32_t l1set, l2set;  /* set indices, computed once */
    uint16_t dig;           /* gm_dig(line + 1), computed once for L1 and L2 */
    uint16_t sm;
    uint8_t smask, op;
    int8_t l2hint;          /* serial: L2 way holding the line when prefetched, or -1 */
    uint8_t l2vic, l2abs;   /* serial: LRU victim way then (>= ways: unknown); 1 = the
                               line is certainly absent (it was when prefetched and no
                               access since touched it) */
    /* outcome, folded into the counters after the buffer (serial: L2 too):
     * sectors (set by the line loop), L1 hits, L2 sectors, L2 hits, DRAM
     * reads, far L2 sectors; 8-byte aligned, summed as one vector */
    uint8_t ns __attribute__((aligned(8))), l1h, l2n, l2h, dr, far;
};

/* One L2 line request: the sectors in mask, ascending, each with its bytes. */
struct gm_l2req {
    uint64_t line;
    uint32_t bytes[4];
    uint32_t alloc, site, set, rec;
    uint16_t smid, dig;
    uint8_t mask, op;
};

struct gm_reqvec { struct gm_l2req *v; size_t n, cap; };

/* Line accesses buffered between the two passes (small: stays in the CPU's
 * caches). A record is coalesced only while the buffer holds at most GM_LBUF
 * entries; each 16 B piece of it adds at most GM_COAL_MAX lines (32 lanes x
 * 5 local words) and the buffer is run through the caches between pieces
 * once it holds more than GM_LBUF, so it never holds more than
 * GM_LBUF + GM_COAL_MAX (GM_REC_LINES leaves room to spare). */
#define GM_REC_LINES (2 * GM_COAL_MAX)
#define GM_LBUF 1024
/* Prefetch distances in line accesses: tag rows (and small sets' state)
 * GM_AHEAD2 ahead, then the L2 way's state (found in the now cached tag
 * row) GM_AHEAD ahead: the L2 line state is too wide to fetch whole. */
#define GM_AHEAD 6
#define GM_AHEAD2 12

/* A window of the parallel driver is a list of pieces of at most GM_JBLK
 * records of the fed array; record i of piece b has index
 * b << GM_JBLK_SHIFT | i (the order of L2 requests). */
#define GM_JBLK_SHIFT 13
#define GM_JBLK (1u << GM_JBLK_SHIFT)
struct gm_jblk { const struct gm_access *recs; long n; };

/* Phases of a threaded window, timed per thread (gm_sim_thread_times). */
enum { GM_PH_DECODE = 0, GM_PH_BUCKET = 1, GM_PH_L1 = 2, GM_PH_L2 = 3, GM_PH_N = 4 };

struct gm_worker {
    struct gm_ctab allocs, sites;       /* thread-local counters (pages on first use) */
    struct gm_coal coal;
    struct gm_lacc buf[GM_LBUF + GM_REC_LINES];
    uint32_t nbuf;
    uint64_t hit_base, hit_end;         /* last allocation found (lookup cache) */
    uint32_t hit_id;
    struct gm_reqvec *out;              /* parallel: per L2 group */
    size_t cnt_base;                    /* parallel: bucketing */
    size_t *cnt;                        /* counts per owner (threads entries) */
    uint32_t *sm_cnt;                   /* parallel: this window's records per SM (bucketed by this thread) */
    const struct gm_l2req **merged;     /* parallel: own group's requests in order */
    size_t nmerged_cap;
    int oom;
    double ph[GM_PH_N];                 /* parallel: seconds of work in each phase of the current window */
    char pad[64];   /* workers lie side by side: keep this one's fields off the next one's cache lines */
};

struct gm_sim {
    struct gm_sim_config cfg;
    struct gm_cache l2;
    struct gm_cache *l1;                /* sm_count */
    uint32_t *l1_gen, gen;              /* lazy reset per launch */
    uint64_t *l1_touched;               /* per SM, l1_words words: a byte per set, 1 when inserted
                                           into since its last reset (only those are cleared at the
                                           next; the L1's touched bytes) */
    uint32_t l1_words;
    uint32_t *l1_geo, geo;              /* per SM: the L1 geometry its state has (0: none) */
    uint64_t l1_bytes;                  /* of the current launch */
    char *l1_arena;                     /* all SMs' L1 state, huge pages */
    size_t l1_stride, l1_arena_bytes;
    struct gm_liveset live;             /* live allocations (live.h) */
    uint32_t nallocs;                   /* ids given so far (id 0: none) */
    uint32_t *mod_base, *mod_n, nmods;  /* site index = mod_base[m] + site; 0 = unknown */
    size_t cap_mod_base, cap_mod_n;
    uint32_t nsites;
    uint64_t part_fm;                   /* fastdiv constant for sets per partition (0: 1 set each) */
    uint64_t grp_fm;                    /* fastmod constant for threads (L2 set group = set % threads) */
    uint8_t *near;                      /* sm_count: the partition near each SM (sm % partitions) */
    struct gm_worker *w;                /* cfg.threads workers */
    struct gm_ctab allocs, sites;       /* merged */
    /* parallel driver */
    pthread_t *tid;
    uint32_t started;                   /* worker threads created (tid[1..started]) */
    struct gm_bar bar;                  /* spin-then-sleep barrier (barrier.h) */
    struct gm_jblk *jb;                 /* the window: blocks of up to GM_JBLK records */
    uint32_t njb, jb_max;               /* blocks in the window; most a window holds */
    void (*run_fn)(void *ctx, uint32_t worker, uint32_t workers);   /* gm_sim_run_workers */
    void *run_ctx;
    uint32_t *idx;                      /* record indices (block << GM_JBLK_SHIFT | i) bucketed by owner */
    uint8_t *own;                       /* owner of each record, by the same index */
    uint8_t *sm_owner;                  /* sm_count: the thread owning each SM's L1 (per window) */
    uint64_t *sm_key;                   /* sm_count: scratch of rebalance() */
    int stop;
    const char *err;                    /* sticky: counts can no longer be exact */
    struct gm_counts between;           /* traffic of no launch (cold-start write-backs) */
    double t_coal, t_model;             /* seconds in each pass (serial feed) */
    struct gm_sim_ptimes pt;            /* threaded windows: wall, busy and slowest-thread seconds */
};

static inline double gm_mono(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* L2 partition of a set: set / (sets / partitions), by multiplication. */
static inline uint32_t gm_partition(const struct gm_sim *s, uint32_t set)
{
    return s->part_fm ? (uint32_t)(((unsigned __int128)s->part_fm * set) >> 64) : set;
}

/* Pass 1: coalesces a record into w->buf (and counts requests). */
void gm_model_coalesce(struct gm_sim *s, struct gm_worker *w, const struct gm_access *a, uint32_t rec);
/* Serial pass 1 over recs[i..n) (record index 0) while w->buf has room
 * (at most GM_LBUF entries); returns the index of the first record left. */
size_t gm_model_coalesce_run(struct gm_sim *s, struct gm_worker *w, const struct gm_access *recs, size_t i, size_t n);
/* Pass 2: runs w->buf through the L1s and (serial) the L2, or (parallel)
 * queues the L2 requests per set group; empties w->buf. */
void gm_model_lines(struct gm_sim *s, struct gm_worker *w, int parallel);
/* An L2 request with what the prefetch GM_AHEAD requests earlier found. */
struct gm_l2hint { int way; uint32_t vic; int absent; };
/* Outcome of L2 accesses: sectors, hits, DRAM reads, far sectors. */
struct gm_l2res { uint32_t n, h, f, far; };
/* The threaded L2 phase: runs group requests q[0..k) (record order)
 * through the L2 and counts them. */
void gm_model_l2_run(struct gm_sim *s, struct gm_worker *w, const struct gm_l2req *const *q, size_t k);
/* A copy or memset between launches: chunk by chunk (up to the next line
 * end of either side), the source's line read (rd) then the
 * destination's written (wr) through the L2. */
void gm_model_copy(struct gm_sim *s, struct gm_worker *w, int rd, uint64_t rs, int wr, uint64_t ws, uint64_t n);
int gm_parallel_start(struct gm_sim *s);
void gm_parallel_stop(struct gm_sim *s);
void gm_parallel_feed(struct gm_sim *s, const struct gm_access *recs, size_t n);

#endif
