/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gpumem handler SDK: the one header a handler file includes.
 *
 * A handler file is CUDA C (C-style: no classes, no templates needed) that
 * gpumemcc compiles to LLVM bitcode and links into every instrumented device
 * module (`gpumemcc --gm-handler=my.cu`). It defines handlers for events with
 * the macros below and may declare per-site counters with GM_COUNTERS.
 *
 *   #include <gpumem/handler.h>
 *   GM_COUNTERS(memops, 1);                       // 1 counter per site
 *   GM_BEFORE_MEM(memops) {                       // site, addr, info, value
 *       unsigned long long *c = gm_site_counters(gm_counters__memops, site, 1);
 *       if (c && gm_is_leader()) atomicAdd(c, 1ull); // once per warp execution
 *   }
 *
 * Events (arguments are passed by value; see gpumem/abi.h for bit layouts):
 *   GM_BEFORE_MEM(name)    before a load/store/atomic/memory intrinsic:
 *                          uint32_t site, uint64_t addr, uint32_t info, uint64_t value
 *   GM_AFTER_LOAD(name)    after a load (value = loaded value): same arguments
 *   GM_BEFORE_BRANCH(name) before a conditional branch or switch:
 *                          uint32_t site, uint32_t info, uint32_t dir
 *   GM_KERNEL_ENTRY(name)  at kernel entry: uint32_t site
 *   GM_KERNEL_EXIT(name)   before each return of a kernel: uint32_t site
 *
 * Rules (SASSI's): a handler
 *   - may be called from divergent code: use __activemask(), never a full
 *     mask, for warp intrinsics;
 *   - must not call __syncthreads() or use shared memory;
 *   - must fit in 16 registers (tests/lit/handlers checks every bundled one
 *     with ptxas -v for sm_90);
 *   - must not assume the runtime is present: counter pointers are NULL when
 *     the runtime could not attach (e.g. another tool holds CUPTI); check them.
 * A handler is inlined at sites inside loops of kernels, within a code growth
 * budget; every other site calls one out-of-line copy of the event's
 * handlers (pass/outline.c). GM_SLOW helpers stay out of line everywhere.
 * Names starting with
 * gm_ / __gm_ are reserved for gpumem.
 *
 * Counters: GM_COUNTERS(name, slots) declares `gm_counters__name`, a pointer
 * the runtime sets to zeroed device memory of
 *   replicas x nsites x slots  unsigned long long
 * (replica-major; one replica per SM, selected by %smid & __gm_replica_mask).
 * At kernel exit the runtime sums the replicas and reports them per site.
 */
#ifndef GPUMEM_HANDLER_H
#define GPUMEM_HANDLER_H

#include <stdint.h>
#include "gpumem/abi.h"

#define GM_DEV extern "C" __device__ __attribute__((used))
#define GM_INL static __device__ __forceinline__
/* A helper kept out of line (one copy per module, however many sites call
 * it): for the rare or heavy part of a handler, so that what is inlined at
 * every site stays small. */
#ifndef GM_SLOW /* tests/lit/handlers/regbudget.test defines it inline */
#ifndef GM_HOST_EMULATION
#define GM_SLOW static __device__ __noinline__
#else
#define GM_SLOW static
#endif
#endif

#define GM_BEFORE_MEM(name) \
    GM_DEV void gm_before_mem__##name(uint32_t site, uint64_t addr, uint32_t info, uint64_t value)
#define GM_AFTER_LOAD(name) \
    GM_DEV void gm_after_load__##name(uint32_t site, uint64_t addr, uint32_t info, uint64_t value)
#define GM_BEFORE_BRANCH(name) \
    GM_DEV void gm_before_branch__##name(uint32_t site, uint32_t info, uint32_t dir)
#define GM_KERNEL_ENTRY(name) GM_DEV void gm_kernel_entry__##name(uint32_t site)
#define GM_KERNEL_EXIT(name)  GM_DEV void gm_kernel_exit__##name(uint32_t site)

/* Defined by the pass in each instrumented module. */
extern "C" __device__ const uint32_t __gm_nsites;
extern "C" __constant__ uint32_t __gm_replica_mask;

#define GM_COUNTERS_(name, nslots, flags, names)                         \
    extern "C" {                                                          \
    __constant__ unsigned long long *gm_counters__##name;                 \
    extern __device__ const uint32_t gm_nslots__##name;                   \
    extern __device__ const char gm_slotnames__##name[];                  \
    __device__ __attribute__((used)) const uint32_t gm_nslots__##name = (nslots) | (flags); \
    __device__ __attribute__((used)) const char gm_slotnames__##name[] = names; \
    }                                                                     \
    enum { gm_slots__##name = (nslots) }
/* Per-SM replicated counters, slot names "a,b,c" for reports. */
#define GM_COUNTERS_NAMED(name, nslots, names) GM_COUNTERS_(name, nslots, 0u, names)
#define GM_COUNTERS(name, nslots) GM_COUNTERS_(name, nslots, 0u, "")
/* One replica: for large per-site arrays (e.g. 32x32 matrices); index with
 * gm_site_counters_single. */
#define GM_COUNTERS_SINGLE(name, nslots, names) GM_COUNTERS_(name, nslots, GM_NSLOTS_SINGLE, names)

/* ---- register accumulators (optional; see docs/analyses.md, Speed) ----
 * GM_ACCUM(name) defines gm_accum__name(site): in a kernel, for a site inside
 * a loop, the pass replaces each call with a pointer to GM_ACCUM_WORDS
 * uint32_t words, zero at kernel entry, private to the thread and the site,
 * that SROA keeps in registers; and before every return of the kernel it
 * calls the handler's GM_ACCUM_FLUSH(name)(site, acc) so the words reach
 * memory. Anywhere else (sites outside loops, functions that are not
 * kernels, builds without the pass) the call returns NULL: update memory
 * directly. Keeps per-event memory updates out of hot loops. (The stub
 * reads site in its asm so the optimiser keeps the constant argument.) */
#define GM_ACCUM_WORDS 6
#define GM_ACCUM_FN_PREFIX "gm_accum__"
#define GM_ACCUM_FLUSH_PREFIX "gm_accum_flush__"
#ifndef GM_HOST_EMULATION
#define GM_ACCUM(name) \
    extern "C" __device__ __noinline__ __attribute__((used)) uint32_t *gm_accum__##name(uint32_t site) \
    { uint32_t *p; asm volatile("mov.u64 %0, 0; // %1" : "=l"(p) : "r"(site)); return p; }
#else /* handlers/emu supplies per-lane words */
uint32_t *gm_emu_accum(const char *name, uint32_t site);
#define GM_ACCUM(name) \
    extern "C" uint32_t *gm_accum__##name(uint32_t site) { return gm_emu_accum(#name, site); }
#endif
#define GM_ACCUM_FLUSH(name) GM_DEV void gm_accum_flush__##name(uint32_t site, uint32_t *acc)
/* GM_ACCUM_STEP(name): the pass may store loop steps into name's
 * accumulators (abi.h, GM_ACCUM_STEP_*); without it those words stay 0. */
#ifndef GM_HOST_EMULATION
#define GM_ACCUM_STEP(name) \
    extern "C" __device__ __noinline__ __attribute__((used)) void gm_accum_step__##name(void) {}
#else
#define GM_ACCUM_STEP(name)
#endif
/* Keeps a flush loop rolled (fewer registers at kernel exit). */
#ifndef GM_HOST_EMULATION
#define GM_ROLLED _Pragma("unroll 1")
#else
#define GM_ROLLED
#endif

/* ---- site groups (optional; see docs/pass.md, step 8) ----
 * GM_BEFORE_MEM_GROUP(name)(site, n, addr, info): the pass may call it once,
 * out of line, in place of GM_BEFORE_MEM(name) at the n >= 2 sites site,
 * site + 1, ..., site + n - 1 when every handler of the event defines one
 * and those sites are loads or stores (no memory intrinsics) of one basic
 * block, in that order, with no call between them (the same lanes run them
 * all), of the global, shared or local space, whose info words agree in
 * every bit that the handlers (both kinds) read (info is the first's), and at
 * each site every lane's address is its address at the first site (addr)
 * plus one constant per site: a multiple of GM_GROUP_GRAIN_GLOBAL bytes
 * (global) or GM_GROUP_GRAIN bytes (shared, local). The call is made at the
 * first site, the loaded or stored values are not passed; the handler must
 * count exactly what the n calls of GM_BEFORE_MEM(name) would. */
#define GM_GROUP_GRAIN_GLOBAL 128
#define GM_GROUP_GRAIN 4
#define GM_BEFORE_MEM_GROUP(name) \
    GM_DEV void gm_before_mem_group__##name(uint32_t site, uint32_t n, uint64_t addr, uint32_t info)

/* ---- block accumulators (optional; see docs/analyses.md, Speed) ----
 * GM_BLOCK(name) defines gm_block__name(site, words): in a kernel, for a
 * site outside loops (it runs at most once per thread), the pass replaces
 * each call with a pointer to `words` (a constant) uint32_t words in shared
 * memory, private to the thread block and the site, zero at kernel entry;
 * handlers add to them with shared atomics (32-bit: a block's sums for one
 * execution per thread fit). Before every return of the kernel, the pass
 * calls gm_block_last__name(base): in the threads of the group that brings
 * the block's count of returned threads to its size, that group's mask,
 * elsewhere 0; then, for every site, the handler's
 * GM_BLOCK_FLUSH(name)(site, words, last), which adds the block's sums to
 * memory when last != 0 (every earlier thread has returned: the sums are
 * final). A flush must take its lanes from `last`, never from
 * __activemask(): under independent thread scheduling the lanes may reach
 * consecutive flushes as separate groups (measured on the H100: a site's
 * sums added twice). Anywhere else (loops, functions that are not kernels,
 * kernels with dynamic shared memory or over the shared budget, builds
 * without the pass) the call returns NULL: update memory directly. A thread
 * that never returns (trap, asm exit) leaves its block's sums unflushed. */
#define GM_BLOCK_FN_PREFIX "gm_block__"
#define GM_BLOCK_INIT_PREFIX "gm_block_init__"
#define GM_BLOCK_LAST_PREFIX "gm_block_last__"
#define GM_BLOCK_FLUSH_PREFIX "gm_block_flush__"
#ifndef GM_HOST_EMULATION
#define GM_BLOCK_STUB(name) \
    extern "C" __device__ __noinline__ __attribute__((used)) uint32_t *gm_block__##name(uint32_t site, uint32_t words) \
    { uint32_t *p; asm volatile("mov.u64 %0, 0; // %1 %2" : "=l"(p) : "r"(site), "r"(words)); return p; }
/* Zeroes the block's words (base[0] counts returned threads) and waits for
 * the whole block: the pass calls it at kernel entry, where every thread is. */
#define GM_BLOCK_INIT(name) \
    GM_DEV void gm_block_init__##name(uint32_t *base, uint32_t nwords) \
    { \
        uint32_t t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); \
        for (uint32_t i = t; i < nwords; i += blockDim.x * blockDim.y * blockDim.z) base[i] = 0; \
        __syncthreads(); \
    }
/* The mask of the group of threads that returns last in its block, else 0. */
#define GM_BLOCK_LAST(name) \
    GM_DEV uint32_t gm_block_last__##name(uint32_t *base) \
    { \
        uint32_t mask = __activemask(), n = __popc(mask), old = 0; \
        __threadfence_block(); \
        __syncwarp(mask); \
        if (gm_is_leader_of(mask)) old = atomicAdd(base, n); \
        old = __shfl_sync(mask, old, gm_leader_of(mask)); \
        uint32_t last = old + n == blockDim.x * blockDim.y * blockDim.z ? mask : 0u; \
        if (last) __threadfence_block(); \
        return last; \
    }
#define GM_BLOCK(name) GM_BLOCK_STUB(name) GM_BLOCK_INIT(name) GM_BLOCK_LAST(name)
#else /* handlers/emu supplies block words */
uint32_t *gm_emu_block(const char *name, uint32_t site, uint32_t words);
#define GM_BLOCK(name) \
    extern "C" uint32_t *gm_block__##name(uint32_t site, uint32_t words) { return gm_emu_block(#name, site, words); }
#endif
#define GM_BLOCK_FLUSH(name) GM_DEV void gm_block_flush__##name(uint32_t site, uint32_t *words, uint32_t last)
/* A block word as another thread left it (before the flush). */
GM_INL uint32_t gm_block_word(const uint32_t *w, uint32_t i) { return *(const volatile uint32_t *)(w + i); }

/* ---- warp and thread helpers (all inline, no shared memory) ---- */

#ifndef GM_HOST_EMULATION /* tests: handlers/emu runs handlers on the CPU and defines these */
GM_INL uint32_t gm_lane(void) { uint32_t r; asm("mov.u32 %0, %%laneid;" : "=r"(r)); return r; }
GM_INL uint32_t gm_smid(void) { uint32_t r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }
GM_INL uint32_t gm_warpid(void) { uint32_t r; asm volatile("mov.u32 %0, %%warpid;" : "=r"(r)); return r; }
GM_INL uint32_t gm_lanemask_lt(void) { uint32_t r; asm("mov.u32 %0, %%lanemask_lt;" : "=r"(r)); return r; }
#endif

/* Mask of threads of this warp executing the call together. */
GM_INL uint32_t gm_active(void) { return __activemask(); }
/* Lowest active lane: the warp's leader for one-per-warp updates. */
GM_INL uint32_t gm_leader_of(uint32_t mask) { return __ffs(mask) - 1; }
GM_INL int gm_is_leader_of(uint32_t mask) { return (mask & gm_lanemask_lt()) == 0; }
GM_INL int gm_is_leader(void) { return gm_is_leader_of(__activemask()); }
/* Number of active lanes for which pred is true. */
GM_INL uint32_t gm_ballot_count(uint32_t mask, int pred) { return __popc(__ballot_sync(mask, pred)); }
/* Number of distinct values of v among the active lanes (match_any). */
GM_INL uint32_t gm_unique_count(uint32_t mask, uint64_t v)
{
    uint32_t peers = __match_any_sync(mask, (unsigned long long)v);
    /* a lane counts when it is the lowest lane of its group */
    return gm_ballot_count(mask, (peers & gm_lanemask_lt()) == 0);
}

/* Space of an address at run time (resolves GM_SPACE_GENERIC). */
GM_INL uint32_t gm_resolve_space(uint64_t addr, uint32_t info)
{
    uint32_t s = GM_INFO_SPACE(info);
    if (s != GM_SPACE_GENERIC) return s;
    const void *p = (const void *)addr;
    if (__isGlobal(p)) return GM_SPACE_GLOBAL;
    if (__isShared(p)) return GM_SPACE_SHARED;
    if (__isLocal(p)) return GM_SPACE_LOCAL;
    if (__isConstant(p)) return GM_SPACE_CONST;
    return GM_SPACE_GENERIC;
}

/* This SM's row of counters for a site, or NULL when the runtime is absent. */
GM_INL unsigned long long *gm_site_counters(unsigned long long *base, uint32_t site, uint32_t slots)
{
    if (!base) return 0;
    uint32_t r = gm_smid() & __gm_replica_mask;
    return base + ((uint64_t)r * __gm_nsites + site) * slots;
}

GM_INL unsigned long long *gm_site_counters_single(unsigned long long *base, uint32_t site, uint32_t slots)
{
    return base ? base + (uint64_t)site * slots : 0;
}

#endif /* GPUMEM_HANDLER_H */
