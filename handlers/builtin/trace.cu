// SPDX-License-Identifier: Apache-2.0
/*
 * Built-in analysis `trace` (gpumemcc --gm-analyses=trace): one record per
 * warp memory instruction into the runtime's device ring buffer, following
 * the reservation protocol of gpumem/trace.h (contract 3).
 *
 * Device code only: depends on the handler SDK and the trace contract,
 * never on the runtime or the simulator. Rules kept: no shared memory, no
 * __syncthreads, divergent-safe (every warp intrinsic uses the active mask).
 * The leader lane reserves the slot(s) and writes the record's fixed part;
 * every active lane writes its own address delta (one coalesced store
 * instead of 32 shuffles); commit words are written last, after a fence.
 */
#include <gpumem/handler.h>
#include <gpumem/trace.h>

/* Renamed per module by the pass (gm_trace_buf__<modid>); written by the
 * runtime: NULL when this launch is not traced. */
extern "C" {
__constant__ struct gm_trace_buf *gm_trace_buf;
__constant__ uint32_t gm_trace_module;
}

GM_INL uint32_t gm_trace_kind(uint32_t info)
{
    uint32_t k = 0;
    if (info & GM_INFO_LOAD) k |= GM_TRACE_LOAD;
    if (info & GM_INFO_STORE) k |= GM_TRACE_STORE;
    if (info & GM_INFO_ATOMIC) k |= GM_TRACE_ATOMIC;
    return k;
}

/* Bytes per thread; memory intrinsics of unknown length carry it in value. */
GM_INL uint32_t gm_trace_width(uint32_t info, uint64_t value)
{
    uint32_t w = GM_INFO_WIDTH(info);
    if (w == 0 && (info & GM_INFO_MEMINTR)) w = value < 65535u ? (uint32_t)value : 65535u;
    return w;
}

/* Drop mode: reserve n slots only when they are free (a CAS loop; the
 * ring is drained only after the kernel, so a full ring drops at once). */
GM_INL int gm_trace_reserve_drop(struct gm_trace_buf *b, uint32_t n, uint64_t *slot)
{
    volatile uint64_t *wi = &b->write_index, *ri = &b->read_index;
    for (;;) {
        uint64_t w = *wi;
        if (w + n > *ri + b->capacity) {
            atomicAdd((unsigned long long *)&b->dropped, 1ull);
            return 0;
        }
        if (atomicCAS((unsigned long long *)&b->write_index, w, w + n) == w) {
            *slot = w;
            return 1;
        }
    }
}

/* Leader only. Returns 1 with *slot set when n slots are reserved and free,
 * 0 when the record is not written (over the cap, dropped and counted, or
 * given up after spin_limit polls: its slots stay uncommitted and the host
 * counts them lost). Block mode reserves with one fetch-and-add and then
 * waits for the host to free the slots: a CAS loop on write_index
 * let one warp of each round of contending CASes succeed (bench/trace
 * small mode, 2,048 warps a launch: 0.5 M records/s on the H100; with the
 * fetch-and-add 26.1 M/s). `records` is counted only under a cap (the host
 * derives it otherwise). */
GM_INL int gm_trace_reserve(struct gm_trace_buf *b, uint32_t n, uint64_t *slot)
{
    if (b->max_records &&
        atomicAdd((unsigned long long *)&b->records, 1ull) >= b->max_records) return 0;
    if (b->mode == GM_TRACE_MODE_DROP) return gm_trace_reserve_drop(b, n, slot);
    uint64_t w = atomicAdd((unsigned long long *)&b->write_index, (unsigned long long)n);
    volatile uint64_t *ri = &b->read_index;
    uint64_t cap = b->capacity;
    for (uint32_t polls = 0; w + n > *ri + cap; polls++) {
        if (b->spin_limit && polls >= b->spin_limit) return 0;
        __nanosleep(256);
    }
    *slot = w;
    return 1;
}

GM_INL char *gm_trace_slot(struct gm_trace_buf *b, uint64_t i)
{
    uint64_t cap = b->capacity;
    uint64_t pos = (cap & (cap - 1)) == 0 ? (i & (cap - 1)) : i % cap;
    return (char *)b + GM_TRACE_BUF_HDR_SIZE + pos * GM_TRACE_REC_SIZE;
}

/* Leader only: the record's fixed part and zero deltas of inactive lanes. */
GM_INL void gm_trace_fill(struct gm_trace_rec *r, struct gm_trace_ext *x, uint32_t site,
                          uint64_t base, uint32_t active, uint32_t info, uint64_t value)
{
    r->base = base;
    r->site = site;
    r->active = active;
    r->cta_x = blockIdx.x;
    r->cta_y = (uint16_t)blockIdx.y;
    r->cta_z = (uint16_t)blockIdx.z;
    r->smid = (uint16_t)gm_smid();
    r->module = (uint16_t)gm_trace_module;
    r->width = (uint16_t)gm_trace_width(info, value);
    r->warp_slot = (uint8_t)gm_warpid();
    r->warp = (uint8_t)((threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) / 32);
    r->kind = (uint8_t)gm_trace_kind(info);
    r->space = (uint8_t)gm_resolve_space(base, info);
    r->flags = (uint8_t)((x ? GM_TRACE_F_EXT : 0) | ((info & GM_INFO_NC) ? GM_TRACE_F_NC : 0));
    r->reserved = 0;
    for (uint32_t m = ~active; m; m &= m - 1) {
        uint32_t k = __ffs(m) - 1;
        r->delta[k] = 0;
        if (x) x->hi[k] = 0;
    }
}

GM_BEFORE_MEM(trace)
{
    struct gm_trace_buf *b = gm_trace_buf;
    if (!b) return;
    uint32_t active = __activemask();
    uint32_t lane = gm_lane();
    uint32_t leader = gm_leader_of(active);
    uint64_t base = __shfl_sync(active, (unsigned long long)addr, leader);
    int64_t d = (int64_t)(addr - base);
    int wide = __any_sync(active, d != (int64_t)(int32_t)d);
    uint64_t w = 0;
    int ok = 0;
    if (lane == leader) ok = gm_trace_reserve(b, wide ? 2u : 1u, &w);
    if (!__shfl_sync(active, ok, leader)) return;
    w = __shfl_sync(active, (unsigned long long)w, leader);
    struct gm_trace_rec *r = (struct gm_trace_rec *)gm_trace_slot(b, w);
    struct gm_trace_ext *x = wide ? (struct gm_trace_ext *)gm_trace_slot(b, w + 1) : 0;
    r->delta[lane] = (int32_t)d;
    if (x) x->hi[lane] = (int32_t)(d >> 32);
    if (lane == leader) gm_trace_fill(r, x, site, base, active, info, value);
    __threadfence();
    __syncwarp(active);
    if (lane == leader) {
        if (x) *(volatile uint32_t *)&x->commit = (uint32_t)(w + 2);
        *(volatile uint32_t *)&r->commit = (uint32_t)(w + 1);
    }
}
