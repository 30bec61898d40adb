/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gpumem allocation table (contract: runtime -> allocations handler), version 2.
 *
 * The device-visible list of live allocations that the `allocations`
 * analysis (handlers/builtin/allocations.cu) uses to attribute each access
 * to an allocation, set address-bitmap bits and count accesses. Plain C, no
 * includes beyond <stdint.h>; shared by the runtime (host C) and the handler
 * (CUDA device code). Must not depend on CUDA, LLVM or the runtime.
 *
 * Where it lives. allocations.cu defines
 *     __constant__ struct gm_alloctab gm_alloctab__allocations;
 * (zero-initialised: n == 0 means "no table", the handler then does
 * nothing). Like every handler data global whose name starts with "gm_",
 * the pass renames it per module to gm_alloctab__allocations__<modid> and
 * lists it in the module's site table (struct gm_sitetab_global, flags 0,
 * size == sizeof(struct gm_alloctab)). GM_ALLOCTAB_SYM is the name before
 * renaming.
 *
 * Who writes what, and when.
 *   runtime, at each launch entry of a kernel whose module has the symbol,
 *   before the kernel can run (in the launch's stream order):
 *     - builds ranges[] from its live allocations: sorted by base ascending,
 *       non-overlapping, end > base, base a multiple of 32 (every CUDA
 *       allocator returns 256 B-aligned memory; the handler relies on it
 *       to keep an aligned access inside one bitmap word); uploads it to
 *       device memory;
 *     - allocates (once per allocation, may reuse) the bitmap
 *       (GM_ALLOC_BITMAP_WORDS words) and the chunk counters
 *       (GM_ALLOC_NCHUNKS(size, chunk_shift) * GM_ALLOC_CHUNK_SLOTS) of each
 *       range; zeroes the chunk counters and counters[] (replicas * n *
 *       GM_ALLOC_NSLOTS) for this launch, and the bitmap either for this
 *       launch (a per-launch bitmap) or once (a cumulative one: the runtime
 *       chooses per range, the handler does not care);
 *     - copies the first n ranges' bounds into cbase/cend when n <=
 *       GM_ALLOC_NCONST (nconst = n; else nconst = 0);
 *     - writes struct gm_alloctab into the module global (cuMemcpyHtoD to
 *       the address from cuLibraryGetGlobal / cuModuleGetGlobal).
 *   handler, while the kernel runs: reads the table and ranges; sets bitmap
 *     bits (atomic OR) and adds the number of bits it set for the first time
 *     to GM_ALLOC_NEW_UNITS; adds to chunk counters and counters.
 *     It never writes the table or ranges.
 *   runtime, at launch exit: copies chunks and counters back, and the
 *     bitmap when it is per-launch or when NEW_UNITS says it changed; sums
 *     counters over replicas; ORs the bitmap into the allocation's union
 *     (per-launch bitmaps show structured access, the union touched share
 *     and fragmentation).
 * Allocations not in ranges[] (e.g. made by another library before the
 * runtime attached) are not counted; the handler ignores their addresses.
 * All pointers are device pointers; a NULL bitmap or chunks pointer turns
 * that part off for the range.
 */
#ifndef GPUMEM_ALLOCTAB_H
#define GPUMEM_ALLOCTAB_H

#include <stdint.h>

#define GM_ALLOCTAB_VERSION 2u
#define GM_ALLOCTAB_SYM "gm_alloctab__allocations"

/* Per-allocation counters, per replica: counters[(r * n + i) * GM_ALLOC_NSLOTS + slot]
 * with r = %smid & replica_mask and i the index in ranges[]. Sectors are
 * unique 32 B sectors of the allocation touched by one warp access, summed
 * over warp accesses (an atomic counts as a read and as a write). New units:
 * bitmap bits this launch set that were clear before (granules). */
enum gm_alloc_slot {
    GM_ALLOC_READ_SECTORS = 0,
    GM_ALLOC_WRITE_SECTORS = 1,
    GM_ALLOC_NEW_UNITS = 2,
    GM_ALLOC_NSLOTS = 3
};

/* Chunk counters: per chunk of (1 << chunk_shift) bytes from base,
 * chunks[c * GM_ALLOC_CHUNK_SLOTS + slot]: thread-level accesses (one per
 * active lane per access). Summed over chunks they are the allocation's
 * reads and writes; their distribution is the access-count histogram. */
enum gm_alloc_chunk_slot {
    GM_ALLOC_CHUNK_READS = 0,
    GM_ALLOC_CHUNK_WRITES = 1,
    GM_ALLOC_CHUNK_SLOTS = 2
};

struct gm_alloc_range {
    uint64_t base;                  /* first byte (device address) */
    uint64_t end;                   /* one past the last byte */
    uint32_t *bitmap;               /* 1 bit per granule, bit g%32 of word g/32, g = (addr-base) >> gran_shift */
    unsigned long long *chunks;     /* GM_ALLOC_NCHUNKS * GM_ALLOC_CHUNK_SLOTS counters */
    uint32_t id;                    /* runtime's allocation id (for its reports) */
    uint32_t chunk_shift;           /* log2 chunk size of this range (>= 5); 0: the table's */
};

/* Ranges mirrored in constant memory (cbase/cend) when n is at most this. */
#define GM_ALLOC_NCONST 16

struct gm_alloctab {
    uint32_t version;               /* GM_ALLOCTAB_VERSION */
    uint32_t n;                     /* entries in ranges[]; 0 = handler off */
    uint32_t gran_shift;            /* log2 bitmap granularity in bytes (2 = 4 B, the default) */
    uint32_t chunk_shift;           /* log2 chunk size in bytes, >= 5 (12 = 4 KiB, the default) */
    uint32_t replica_mask;          /* replicas of counters[] - 1 (a power of two - 1) */
    uint32_t nconst;                /* n when cbase/cend hold the ranges' bounds, else 0 */
    const struct gm_alloc_range *ranges; /* device array [n], sorted by base */
    unsigned long long *counters;   /* device array [replicas][n][GM_ALLOC_NSLOTS] */
    uint64_t cbase[GM_ALLOC_NCONST];/* ranges[k].base, k < nconst */
    uint64_t cend[GM_ALLOC_NCONST]; /* ranges[k].end, k < nconst */
};

/* Sizes the runtime allocates for a range of `bytes` bytes. */
#define GM_ALLOC_GRANULES(bytes, gran_shift) \
    (((uint64_t)(bytes) + (1ull << (gran_shift)) - 1) >> (gran_shift))
#define GM_ALLOC_BITMAP_WORDS(bytes, gran_shift) \
    ((GM_ALLOC_GRANULES(bytes, gran_shift) + 31) / 32)
/* The bitmap buffer holds one spare word more, zeroed: an access of at most
 * 32 B that runs past the end of the range may set bits past its last
 * granule (the handler clips only memory intrinsics); readers ignore them. */
#define GM_ALLOC_NCHUNKS(bytes, chunk_shift) \
    (((uint64_t)(bytes) + (1ull << (chunk_shift)) - 1) >> (chunk_shift))

#endif /* GPUMEM_ALLOCTAB_H */
