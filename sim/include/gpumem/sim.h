/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gpumem cache simulator: coalescer -> per-SM L1 -> L2 -> DRAM counts, with
 * per-launch, per-allocation and per-site accounting. The model is stated
 * in docs/sim.md. No I/O and no option parsing in the core (gm_sim_config_set
 * parses one key=value for the front ends); configurations are checked once
 * by gm_sim_config_check, which returns a message or NULL. Pure C17 +
 * pthreads; no CUDA.
 */
#ifndef GPUMEM_SIM_H
#define GPUMEM_SIM_H

#include <stddef.h>
#include <stdint.h>
#include "gpumem/trace_io.h"

enum gm_repl { GM_REPL_LRU = 0, GM_REPL_PLRU = 1 };
/* What an L1 does with a store (always written through to L2). */
enum gm_wpol {
    GM_WPOL_ALLOCATE = 0,    /* allocate the line, mark the written bytes valid */
    GM_WPOL_NOALLOCATE = 1,  /* update a present line, never allocate */
    GM_WPOL_INVALIDATE = 2   /* evict a present line */
};
enum gm_fetch { GM_FETCH_SECTOR = 0, GM_FETCH_LINE = 1 };
/* Set index from the line number: its low bits (mod, the H100 L1), an XOR
 * fold of three 13-bit-shifted slices (xor, the H100 L2), or of 7-bit-shifted
 * slices (fold: spreads a 4 KiB-strided walk, but not what the H100 does at
 * the L1's capacity; docs/sim.md). */
enum gm_hash { GM_HASH_MOD = 0, GM_HASH_XOR = 1, GM_HASH_FOLD = 2 };
/* The L2 a launch starts with: as the previous launch and the copies in
 * between left it (warm), or written back and emptied (cold: what Nsight
 * Compute's default --cache-control all measures). */
enum gm_l2start { GM_L2_WARM = 0, GM_L2_COLD = 1 };

struct gm_sim_config {
    uint32_t sm_count;
    uint32_t l1_shared_bytes;    /* unified L1 + shared per SM */
    uint32_t carveout;           /* shared bytes when a launch does not say (0 = l1_bytes rules) */
    uint32_t l1_bytes;           /* fixed L1 size; 0 = l1_shared_bytes - carve-out */
    uint32_t l1_ways;
    enum gm_repl l1_repl;
    enum gm_wpol l1_write;
    enum gm_fetch l1_fetch;
    enum gm_hash l1_hash;
    uint64_t l2_bytes;
    uint32_t l2_ways;
    uint32_t l2_partitions;      /* partitions; SM s is near partition s % partitions */
    enum gm_repl l2_repl;
    enum gm_hash l2_hash;
    uint32_t l2_fill;            /* bytes an L2 read miss fetches from DRAM, aligned:
                                    32, 64 or 128 (0 = 32) */
    enum gm_l2start l2_launch;   /* warm (default) or cold L2 at each launch */
    uint32_t threads;            /* worker threads (1 = serial path) */
    uint32_t window;             /* records per parallel window */
};

#define GM_LINE_BYTES 128u
#define GM_SECTOR_BYTES 32u

/* Fills *c with a preset ("h100", "rtx2080ti"); returns 0 or -1 if unknown. */
int gm_sim_preset(struct gm_sim_config *c, const char *name);
/* Sets one parameter from "key" and "value" (docs/sim.md lists the keys).
 * Returns NULL or a one-line message. */
const char *gm_sim_config_set(struct gm_sim_config *c, const char *key, const char *value);
/* NULL if the configuration describes a possible cache, else why not.
 * carveout is the launch's shared-memory carve-out (0 = config default). */
const char *gm_sim_config_check(const struct gm_sim_config *c, uint32_t carveout);
/* L1 bytes a launch with this carve-out gets. */
uint32_t gm_sim_l1_bytes(const struct gm_sim_config *c, uint32_t carveout);

/* Counters of one level. Sectors are 32 B; "accesses" are sector lookups. */
struct gm_counts {
    uint64_t requests;           /* warp memory instructions (global/local) */
    uint64_t sectors;            /* unique sectors requested by the coalescer */
    uint64_t ideal_sectors;      /* ceil(active lanes * width / 32) per request */
    uint64_t l1_ld, l1_ld_hit;   /* L1 sector lookups by loads, hits */
    uint64_t l1_st, l1_st_hit;   /* stores: lookups, sector fully valid before */
    uint64_t l2_rd, l2_rd_hit;   /* L2 sector reads (L1 misses), hits */
    uint64_t l2_wr, l2_wr_hit;   /* L2 sector writes (write-through); every write
                                    hits (allocated without a fetch), as ncu counts */
    uint64_t l2_atom, l2_atom_hit; /* atomics (bypass L1) */
    uint64_t l2_far;             /* L2 sector accesses to a far partition */
    uint64_t dram_rd, dram_wr;   /* DRAM sectors read / written (evictions) */
    uint64_t shared_req;         /* shared-memory requests (not cached) */
    uint64_t other_req;          /* constant/param/unresolved: not simulated */
};
void gm_counts_add(struct gm_counts *dst, const struct gm_counts *src);

struct gm_sim;
/* NULL and *err set when the configuration is impossible. */
struct gm_sim *gm_sim_new(const struct gm_sim_config *c, const char **err);
void gm_sim_free(struct gm_sim *s);

/* Modules: sites of module m are counted separately (module index as in the
 * records); records of unknown modules or sites go to one "unknown" site. */
int gm_sim_add_module(struct gm_sim *s, uint32_t module, uint32_t nsites);
/* Allocations: accesses are attributed to the live allocation containing the
 * address (id 0 = none). Returns the id (>= 1) or -1. */
int gm_sim_alloc(struct gm_sim *s, uint64_t base, uint64_t size);
void gm_sim_release(struct gm_sim *s, uint64_t base);
/* A copy or memset between launches: its source lines are read through L2
 * (filled from DRAM on a miss), its destination lines written into L2
 * (allocated, dirty, owned by the allocation there), as a kernel's
 * accesses would, in 128 B chunks. Not a launch's traffic: the DRAM
 * sectors it reads and the write-backs it causes count to the allocations
 * and to the end write-back line. */
void gm_sim_copy(struct gm_sim *s, const struct gm_trace_copy *c);

/* One launch: L1s start empty, L2 keeps its state across launches (with
 * l2_launch=cold its dirty sectors are written back, counted as DRAM
 * writes of their allocations and sites but of no launch, and it starts
 * empty).
 * begin returns NULL or a message (impossible L1 for this carve-out). */
const char *gm_sim_begin(struct gm_sim *s, uint32_t carveout);
/* feed: records of the launch in progress, GM_LANES_COMPACT ones among them
 * (gpumem/trace_io.h; as gm_replay_compact makes them). */
void gm_sim_feed(struct gm_sim *s, const struct gm_access *recs, size_t n);
/* Runs fn(ctx, worker, workers) once on each of the simulator's worker
 * threads (the caller is worker 0; one thread: just the call) and returns
 * when all have returned: work the caller splits by worker, e.g. decoding
 * trace blocks ahead (gpumem/replay.h). Not during a feed. */
void gm_sim_run_workers(struct gm_sim *s, void (*fn)(void *ctx, uint32_t worker, uint32_t workers), void *ctx);
/* Trace blocks worth decoding ahead at a time (threads > 1: at least two
 * per worker; else 1). */
size_t gm_sim_window_blocks(const struct gm_sim *s);
/* Seconds (wall clock) the serial feed spent coalescing records into line
 * accesses and running them through the caches, summed over all feeds. */
void gm_sim_times(const struct gm_sim *s, double *coalesce_s, double *model_s);
/* Where the time of threaded runs (threads > 1) goes, summed over their
 * windows (each gm_sim_run_workers call and each window of a feed), in
 * seconds: wall = the windows' elapsed time (on the calling thread);
 * per phase (decode: gm_sim_run_workers' work, e.g. decoding trace blocks;
 * bucket: records sorted to the threads owning their SMs; l1: coalescing
 * and the L1s; l2: the L2 set groups), busy = summed over the threads, and
 * slowest = the longest thread's, window by window (the critical path;
 * wall - the sum of slowest = waiting at the phases' barriers). */
struct gm_sim_ptimes { double wall, busy[4], slowest[4]; };
void gm_sim_thread_times(const struct gm_sim *s, struct gm_sim_ptimes *t);
/* NULL, or why the counts are no longer exact (out of memory in a threaded
 * feed); sticky: later feeds do nothing. Check it before gm_sim_end. */
const char *gm_sim_error(const struct gm_sim *s);
/* Ends the launch, adds its totals into *launch (may be NULL); 0. If
 * gm_sim_error() is set: adds nothing and returns -1 (the counts are not
 * exact; say gm_sim_error() to the user). */
int gm_sim_end(struct gm_sim *s, struct gm_counts *launch);
/* Writes back all dirty L2 sectors (counted as DRAM writes of the
 * allocations/sites that dirtied them); call at the end of the trace.
 * *into also gets the earlier traffic of no launch (cold-start
 * write-backs). */
void gm_sim_flush_l2(struct gm_sim *s, struct gm_counts *into);

/* Cumulative counters (all launches so far). */
const struct gm_counts *gm_sim_alloc_counts(const struct gm_sim *s, uint32_t id);
uint32_t gm_sim_nallocs(const struct gm_sim *s);
/* site counters: module, site -> NULL if unknown; the unknown bucket is
 * gm_sim_site_counts(s, UINT32_MAX, 0). */
const struct gm_counts *gm_sim_site_counts(const struct gm_sim *s, uint32_t module, uint32_t site);

/* The straightforward reference model (sim/ref): same model, no tricks,
 * one thread; used to prove the fast path exact. */
struct gm_ref;
struct gm_ref *gm_ref_new(const struct gm_sim_config *c);
void gm_ref_free(struct gm_ref *r);
/* The allocation's id (1, 2, ...), or -1 when out of memory. */
int gm_ref_alloc(struct gm_ref *r, uint64_t base, uint64_t size);
void gm_ref_release(struct gm_ref *r, uint64_t base);
void gm_ref_begin(struct gm_ref *r, uint32_t carveout);
void gm_ref_copy(struct gm_ref *r, const struct gm_trace_copy *c);
void gm_ref_feed(struct gm_ref *r, const struct gm_access *recs, size_t n);
void gm_ref_end(struct gm_ref *r, struct gm_counts *launch);
/* As gm_sim_flush_l2: the end-of-trace write-back into the allocations,
 * and *into gets it plus the earlier traffic of no launch. */
void gm_ref_flush_l2(struct gm_ref *r, struct gm_counts *into);
const struct gm_counts *gm_ref_alloc_counts(const struct gm_ref *r, uint32_t id);

#endif /* GPUMEM_SIM_H */
