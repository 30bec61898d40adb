// SPDX-License-Identifier: Apache-2.0
// Host emulation of the CUDA warp intrinsics the handlers use, for the CPU
// tests in handlers/emu (C++17, tests only; never part of a handler build).
// Each active lane of a warp execution is a host thread; a warp collective
// is a rendezvous of exactly the lanes of its mask (matched by the k-th
// call with that mask), so a lane that skips a collective its mask expects,
// or calls one without being in the mask, is reported as an error instead
// of silently working. Pre-include it (-include gm_emu.h) before the SDK.
#ifndef GM_EMU_H
#define GM_EMU_H
#define GM_HOST_EMULATION 1
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define __device__
#define __constant__
#define __global__
#define __forceinline__ inline

namespace gm_emu {
extern thread_local uint32_t lane, active, smid;
/* All lanes of mask call this with their value; out[l] gets lane l's. */
void exchange(uint32_t mask, uint64_t v, uint64_t out[32]);
} // namespace gm_emu

static inline uint32_t gm_lane(void) { return gm_emu::lane; }
static inline uint32_t gm_smid(void) { return gm_emu::smid; }
static inline uint32_t gm_warpid(void) { return 0; }
static inline uint32_t gm_lanemask_lt(void) { return (1u << gm_emu::lane) - 1; }

static inline uint32_t __activemask(void) { return gm_emu::active; }
static inline int __popc(uint32_t x) { return __builtin_popcount(x); }
static inline int __ffs(uint32_t x) { return __builtin_ffs((int)x); }
static inline int __clz(uint32_t x) { return x ? __builtin_clz(x) : 32; }

static inline uint32_t __ballot_sync(uint32_t mask, int pred)
{
    uint64_t v[32];
    gm_emu::exchange(mask, pred != 0, v);
    uint32_t r = 0;
    for (int l = 0; l < 32; l++) if ((mask >> l & 1) && v[l]) r |= 1u << l;
    return r;
}
static inline int __all_sync(uint32_t mask, int pred) { return __ballot_sync(mask, pred) == mask; }
static inline uint32_t __match_any_sync(uint32_t mask, uint64_t x)
{
    uint64_t v[32];
    gm_emu::exchange(mask, x, v);
    uint32_t r = 0;
    for (int l = 0; l < 32; l++) if ((mask >> l & 1) && v[l] == x) r |= 1u << l;
    return r;
}
static inline uint32_t __match_any_sync(uint32_t mask, unsigned long long x) { return __match_any_sync(mask, (uint64_t)x); }
static inline uint32_t __match_any_sync(uint32_t mask, uint32_t x) { return __match_any_sync(mask, (uint64_t)x); }
static inline uint32_t __match_any_sync(uint32_t mask, int x) { return __match_any_sync(mask, (uint64_t)(uint32_t)x); }
template <typename F> static inline uint32_t gm_emu_reduce(uint32_t mask, uint32_t x, uint32_t init, F f)
{
    uint64_t v[32];
    gm_emu::exchange(mask, x, v);
    uint32_t r = init;
    for (int l = 0; l < 32; l++) if (mask >> l & 1) r = f(r, (uint32_t)v[l]);
    return r;
}
static inline uint32_t __reduce_add_sync(uint32_t m, uint32_t x) { return gm_emu_reduce(m, x, 0u, [](uint32_t a, uint32_t b) { return a + b; }); }
static inline uint32_t __reduce_or_sync(uint32_t m, uint32_t x) { return gm_emu_reduce(m, x, 0u, [](uint32_t a, uint32_t b) { return a | b; }); }
static inline uint32_t __reduce_min_sync(uint32_t m, uint32_t x) { return gm_emu_reduce(m, x, ~0u, [](uint32_t a, uint32_t b) { return a < b ? a : b; }); }
static inline uint32_t __reduce_max_sync(uint32_t m, uint32_t x) { return gm_emu_reduce(m, x, 0u, [](uint32_t a, uint32_t b) { return a > b ? a : b; }); }
template <typename T> static inline T __shfl_sync(uint32_t mask, T x, int src)
{
    uint64_t v[32];
    gm_emu::exchange(mask, (uint64_t)x, v);
    if (!(mask >> src & 1)) { fprintf(stderr, "emu: shfl from lane %d outside mask %08x\n", src, mask); abort(); }
    return (T)v[src];
}

template <typename T> static inline T __shfl_up_sync(uint32_t mask, T x, unsigned d)
{
    uint64_t v[32];
    gm_emu::exchange(mask, (uint64_t)x, v);
    uint32_t src = gm_emu::lane >= d ? gm_emu::lane - d : gm_emu::lane;
    if (!(mask >> src & 1)) { fprintf(stderr, "emu: shfl_up from lane %u outside mask %08x\n", src, mask); abort(); }
    return (T)v[src];
}
template <typename T> static inline T __shfl_xor_sync(uint32_t mask, T x, int m)
{
    uint64_t v[32];
    gm_emu::exchange(mask, (uint64_t)x, v);
    uint32_t src = gm_emu::lane ^ (uint32_t)m;
    if (!(mask >> src & 1)) { fprintf(stderr, "emu: shfl_xor from lane %u outside mask %08x\n", src, mask); abort(); }
    return (T)v[src];
}

template <typename T> static inline T __ldg(const T *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
template <typename T> static inline T __ldcg(const T *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
static inline unsigned long long atomicAdd(unsigned long long *p, unsigned long long v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
static inline unsigned long long atomicOr(unsigned long long *p, unsigned long long v) { return __atomic_fetch_or(p, v, __ATOMIC_RELAXED); }
static inline uint32_t atomicOr(uint32_t *p, uint32_t v) { return __atomic_fetch_or(p, v, __ATOMIC_RELAXED); }
static inline uint32_t atomicAdd(uint32_t *p, uint32_t v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
static inline uint32_t atomicCAS(uint32_t *p, uint32_t cmp, uint32_t v)
{
    __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    return cmp;
}
static inline uint32_t atomicCAS_block(uint32_t *p, uint32_t cmp, uint32_t v) { return atomicCAS(p, cmp, v); }

/* Emulated address spaces of generic addresses: shared below 2^32 (above
 * 2^31), local in [2^30, 2^31), everything else global. */
static inline int __isShared(const void *p) { uint64_t a = (uint64_t)p; return a >= (1ull << 31) && a < (1ull << 32); }
static inline int __isLocal(const void *p) { uint64_t a = (uint64_t)p; return a >= (1ull << 30) && a < (1ull << 31); }
static inline int __isConstant(const void *p) { (void)p; return 0; }
static inline int __isGlobal(const void *p) { return !__isShared(p) && !__isLocal(p); }
#endif
