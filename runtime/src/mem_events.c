/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Memory API events: allocations, frees, copies and sets, decoded from the
 * CUPTI parameter structs of the driver API (where every runtime call ends
 * up) and, for the main runtime calls, from the runtime API when no driver
 * call was seen inside them. Each becomes a timeline event attributed to
 * the user's outermost API call and its host call site. Copies and sets
 * also go to the tracer (trace_session.h), 2D/3D ones row by row. Depends
 * on CUPTI's generated parameter headers; never on LLVM.
 */
#include "rt.h"
#include "trace_session.h"
#include "gpumem/trace_io.h"

#include <cuda_runtime_api.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int current_device(void)
{
    CUdevice d = -1;
    GM_GUARD_BEGIN();
    if (gm_cu.cuCtxGetDevice(&d) != CUDA_SUCCESS) d = -1;
    GM_GUARD_END();
    return (int)d;
}

static void fill_common(struct gm_tl_event *e, int kind, uint64_t bytes, uint64_t stream)
{
    struct gm_tls *t = gm_tls();
    memset(e, 0, sizeof *e);
    e->kind = (uint8_t)kind;
    e->bytes = bytes;
    e->stream = stream;
    e->t_ns = gm_now_ns() - gm_st.t0_ns;
    e->tid = (uint32_t)syscall(SYS_gettid);
    e->device = (uint16_t)current_device();
    e->callsite = t->outer_site;
    e->api = gm_intern(t->outer_api ? t->outer_api : "?");
    t->outer_recorded = 1;
}

static void rec_alloc(uint64_t ptr, uint64_t size, int kind, uint64_t stream)
{
    if (!ptr) return;
    struct gm_tl_event e;
    fill_common(&e, GM_TL_ALLOC, size, stream);
    e.dst = ptr;
    uintptr_t path[GM_CALLPATH_MAX];
    gm_callsite_path(path, GM_CALLPATH_MAX); /* outside the lock: a stack walk */
    pthread_mutex_lock(&gm_st.lock);
    struct gm_alloc *a = gm_alloc_add(&gm_st.allocs, ptr, size, kind, (int16_t)e.device);
    if (a) {
        e.dst_alloc = a->id;
        a->alloc_site = e.callsite;
        memcpy(a->alloc_path, path, sizeof path);
        a->alloc_seq = gm_timeline_append(&gm_st.tl, &e);
    }
    pthread_mutex_unlock(&gm_st.lock);
}

static void rec_free(uint64_t ptr, uint64_t stream)
{
    if (!ptr) return;
    struct gm_tl_event e;
    fill_common(&e, GM_TL_FREE, 0, stream);
    e.dst = ptr;
    pthread_mutex_lock(&gm_st.lock);
    struct gm_alloc *a = gm_alloc_remove(&gm_st.allocs, ptr);
    if (a) {
        e.bytes = a->size;
        e.dst_alloc = a->id;
        a->free_site = e.callsite;
        a->free_seq = gm_timeline_append(&gm_st.tl, &e);
    } else {
        gm_timeline_append(&gm_st.tl, &e);
    }
    pthread_mutex_unlock(&gm_st.lock);
}

static int infer_dir(const struct gm_tl_event *e)
{
    if (e->dst_alloc && e->src_alloc) return GM_DIR_D2D;
    if (e->dst_alloc) return GM_DIR_H2D;
    if (e->src_alloc) return GM_DIR_D2H;
    return GM_DIR_UNKNOWN;
}

/* The trace's kind of a copy direction (0: not a device copy). */
static int trace_kind(int dir)
{
    switch (dir) {
    case GM_DIR_H2D: return GM_COPY_H2D;
    case GM_DIR_D2H: return GM_COPY_D2H;
    case GM_DIR_D2D: return GM_COPY_D2D;
    default: return 0;
    }
}

static void trace_copy(int dir, uint64_t dst, uint64_t src, uint64_t bytes)
{
    int kind = trace_kind(dir);
    if (kind) gm_trace_copy(kind, dst, src, bytes);
}

/* Records a copy; traces it too when trace is set (else the caller traces
 * its rows). Returns the direction (inferred from the allocations if unknown). */
static int rec_copy(uint64_t dst, uint64_t src, uint64_t bytes, int dir, uint64_t stream, int trace)
{
    struct gm_tl_event e;
    fill_common(&e, GM_TL_COPY, bytes, stream);
    e.dst = dst;
    e.src = src;
    pthread_mutex_lock(&gm_st.lock);
    struct gm_alloc *d = gm_alloc_find(&gm_st.allocs, dst);
    struct gm_alloc *s = gm_alloc_find(&gm_st.allocs, src);
    e.dst_alloc = d ? d->id : 0;
    e.src_alloc = s ? s->id : 0;
    e.dir = (uint8_t)(dir == GM_DIR_UNKNOWN ? infer_dir(&e) : dir);
    gm_timeline_append(&gm_st.tl, &e);
    pthread_mutex_unlock(&gm_st.lock);
    if (trace) trace_copy(e.dir, dst, src, bytes);
    return e.dir;
}

/* A memset of rows x width bytes, rows pitch apart (1D: one row). */
static void rec_set(uint64_t dst, uint64_t width, uint64_t rows, uint64_t pitch, uint64_t stream)
{
    uint64_t bytes = width * rows;
    struct gm_tl_event e;
    fill_common(&e, GM_TL_SET, bytes, stream);
    e.dst = dst;
    pthread_mutex_lock(&gm_st.lock);
    struct gm_alloc *d = gm_alloc_find(&gm_st.allocs, dst);
    e.dst_alloc = d ? d->id : 0;
    gm_timeline_append(&gm_st.tl, &e);
    pthread_mutex_unlock(&gm_st.lock);
    for (uint64_t y = 0; dst && y < rows; y++) gm_trace_copy(GM_COPY_SET, dst + y * pitch, 0, width);
}

/* Start address and length of one side of a 2D/3D copy descriptor. */
static uint64_t side_addr(CUmemorytype t, CUdeviceptr dev, const void *host, size_t x, size_t y,
                          size_t pitch)
{
    uint64_t base = (t == CU_MEMORYTYPE_HOST) ? (uint64_t)(uintptr_t)host : (uint64_t)dev;
    return base ? base + y * pitch + x : 0;
}

/* Traces rows of a 2D/3D copy: row r of each side starts pitch * r after
 * its first. Copies from or to CUDA arrays are not linear memory: not traced. */
static void trace_rows(int dir, CUmemorytype dt, uint64_t dst, uint64_t dpitch, CUmemorytype st,
                       uint64_t src, uint64_t spitch, uint64_t width, uint64_t rows)
{
    if (dt == CU_MEMORYTYPE_ARRAY || st == CU_MEMORYTYPE_ARRAY || !dst || !src) return;
    for (uint64_t r = 0; r < rows; r++) trace_copy(dir, dst + r * dpitch, src + r * spitch, width);
}

static void rec_copy2d(const CUDA_MEMCPY2D *c, uint64_t stream)
{
    if (!c) return;
    uint64_t dst = side_addr(c->dstMemoryType, c->dstDevice, c->dstHost, c->dstXInBytes, c->dstY,
                             c->dstPitch);
    uint64_t src = side_addr(c->srcMemoryType, c->srcDevice, c->srcHost, c->srcXInBytes, c->srcY,
                             c->srcPitch);
    int dir = rec_copy(dst, src, (uint64_t)c->WidthInBytes * c->Height, GM_DIR_UNKNOWN, stream, 0);
    trace_rows(dir, c->dstMemoryType, dst, c->dstPitch, c->srcMemoryType, src, c->srcPitch,
               c->WidthInBytes, c->Height);
}

/* A 3D copy's rows: Height rows per slice, slices Height(dst/src) rows apart. */
static void rec_copy3d(const CUDA_MEMCPY3D *c, uint64_t stream)
{
    if (!c) return;
    uint64_t dst = side_addr(c->dstMemoryType, c->dstDevice, c->dstHost, c->dstXInBytes,
                             c->dstY + c->dstZ * c->dstHeight, c->dstPitch);
    uint64_t src = side_addr(c->srcMemoryType, c->srcDevice, c->srcHost, c->srcXInBytes,
                             c->srcY + c->srcZ * c->srcHeight, c->srcPitch);
    int dir = rec_copy(dst, src, (uint64_t)c->WidthInBytes * c->Height * c->Depth, GM_DIR_UNKNOWN,
                       stream, 0);
    for (size_t z = 0; z < c->Depth; z++)
        trace_rows(dir, c->dstMemoryType, dst + z * c->dstHeight * c->dstPitch, c->dstPitch,
                   c->srcMemoryType, src + z * c->srcHeight * c->srcPitch, c->srcPitch,
                   c->WidthInBytes, c->Height);
}

#define P(type) ((const type *)cb->functionParams)
#define S(x) ((uint64_t)(uintptr_t)(x))
#define CASE2(a, b) case CUPTI_DRIVER_TRACE_CBID_##a: case CUPTI_DRIVER_TRACE_CBID_##b:

static int driver_alloc(CUpti_CallbackId cbid, const CUpti_CallbackData *cb)
{
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2:
        rec_alloc(*P(cuMemAlloc_v2_params)->dptr, P(cuMemAlloc_v2_params)->bytesize, GM_ALLOC_DEVICE, 0);
        return 1;
    case CUPTI_DRIVER_TRACE_CBID_cuMemAllocManaged:
        rec_alloc(*P(cuMemAllocManaged_params)->dptr, P(cuMemAllocManaged_params)->bytesize, GM_ALLOC_MANAGED, 0);
        return 1;
    case CUPTI_DRIVER_TRACE_CBID_cuMemAllocPitch_v2: {
        const cuMemAllocPitch_v2_params *p = P(cuMemAllocPitch_v2_params);
        rec_alloc(*p->dptr, (uint64_t)*p->pPitch * p->Height, GM_ALLOC_PITCH, 0);
        return 1;
    }
    CASE2(cuMemAllocAsync, cuMemAllocAsync_ptsz)
        rec_alloc(*P(cuMemAllocAsync_params)->dptr, P(cuMemAllocAsync_params)->bytesize,
                  GM_ALLOC_ASYNC, S(P(cuMemAllocAsync_params)->hStream));
        return 1;
    CASE2(cuMemAllocFromPoolAsync, cuMemAllocFromPoolAsync_ptsz)
        rec_alloc(*P(cuMemAllocFromPoolAsync_params)->dptr, P(cuMemAllocFromPoolAsync_params)->bytesize,
                  GM_ALLOC_ASYNC, S(P(cuMemAllocFromPoolAsync_params)->hStream));
        return 1;
    case CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2:
        rec_free(P(cuMemFree_v2_params)->dptr, 0);
        return 1;
    CASE2(cuMemFreeAsync, cuMemFreeAsync_ptsz)
        rec_free(P(cuMemFreeAsync_params)->dptr, S(P(cuMemFreeAsync_params)->hStream));
        return 1;
    default:
        return 0;
    }
}

static int driver_copy(CUpti_CallbackId cbid, const CUpti_CallbackData *cb)
{
    switch (cbid) {
    CASE2(cuMemcpyHtoD_v2, cuMemcpyHtoD_v2_ptds)
        rec_copy(P(cuMemcpyHtoD_v2_params)->dstDevice, S(P(cuMemcpyHtoD_v2_params)->srcHost),
                 P(cuMemcpyHtoD_v2_params)->ByteCount, GM_DIR_H2D, 0, 1);
        return 1;
    CASE2(cuMemcpyHtoDAsync_v2, cuMemcpyHtoDAsync_v2_ptsz)
        rec_copy(P(cuMemcpyHtoDAsync_v2_params)->dstDevice, S(P(cuMemcpyHtoDAsync_v2_params)->srcHost),
                 P(cuMemcpyHtoDAsync_v2_params)->ByteCount, GM_DIR_H2D,
                 S(P(cuMemcpyHtoDAsync_v2_params)->hStream), 1);
        return 1;
    CASE2(cuMemcpyDtoH_v2, cuMemcpyDtoH_v2_ptds)
        rec_copy(S(P(cuMemcpyDtoH_v2_params)->dstHost), P(cuMemcpyDtoH_v2_params)->srcDevice,
                 P(cuMemcpyDtoH_v2_params)->ByteCount, GM_DIR_D2H, 0, 1);
        return 1;
    CASE2(cuMemcpyDtoHAsync_v2, cuMemcpyDtoHAsync_v2_ptsz)
        rec_copy(S(P(cuMemcpyDtoHAsync_v2_params)->dstHost), P(cuMemcpyDtoHAsync_v2_params)->srcDevice,
                 P(cuMemcpyDtoHAsync_v2_params)->ByteCount, GM_DIR_D2H,
                 S(P(cuMemcpyDtoHAsync_v2_params)->hStream), 1);
        return 1;
    CASE2(cuMemcpyDtoD_v2, cuMemcpyDtoD_v2_ptds)
        rec_copy(P(cuMemcpyDtoD_v2_params)->dstDevice, P(cuMemcpyDtoD_v2_params)->srcDevice,
                 P(cuMemcpyDtoD_v2_params)->ByteCount, GM_DIR_D2D, 0, 1);
        return 1;
    CASE2(cuMemcpyDtoDAsync_v2, cuMemcpyDtoDAsync_v2_ptsz)
        rec_copy(P(cuMemcpyDtoDAsync_v2_params)->dstDevice, P(cuMemcpyDtoDAsync_v2_params)->srcDevice,
                 P(cuMemcpyDtoDAsync_v2_params)->ByteCount, GM_DIR_D2D,
                 S(P(cuMemcpyDtoDAsync_v2_params)->hStream), 1);
        return 1;
    CASE2(cuMemcpy, cuMemcpy_ptds)
        rec_copy(P(cuMemcpy_params)->dst, P(cuMemcpy_params)->src, P(cuMemcpy_params)->ByteCount,
                 GM_DIR_UNKNOWN, 0, 1);
        return 1;
    CASE2(cuMemcpyAsync, cuMemcpyAsync_ptsz)
        rec_copy(P(cuMemcpyAsync_params)->dst, P(cuMemcpyAsync_params)->src,
                 P(cuMemcpyAsync_params)->ByteCount, GM_DIR_UNKNOWN,
                 S(P(cuMemcpyAsync_params)->hStream), 1);
        return 1;
    CASE2(cuMemcpyPeer, cuMemcpyPeer_ptds)
        rec_copy(P(cuMemcpyPeer_params)->dstDevice, P(cuMemcpyPeer_params)->srcDevice,
                 P(cuMemcpyPeer_params)->ByteCount, GM_DIR_D2D, 0, 1);
        return 1;
    CASE2(cuMemcpy2D_v2, cuMemcpy2D_v2_ptds)
    CASE2(cuMemcpy2DUnaligned_v2, cuMemcpy2DUnaligned_v2_ptds)
        rec_copy2d(P(cuMemcpy2D_v2_params)->pCopy, 0);
        return 1;
    CASE2(cuMemcpy2DAsync_v2, cuMemcpy2DAsync_v2_ptsz)
        rec_copy2d(P(cuMemcpy2DAsync_v2_params)->pCopy, S(P(cuMemcpy2DAsync_v2_params)->hStream));
        return 1;
    CASE2(cuMemcpy3D_v2, cuMemcpy3D_v2_ptds)
        rec_copy3d(P(cuMemcpy3D_v2_params)->pCopy, 0);
        return 1;
    CASE2(cuMemcpy3DAsync_v2, cuMemcpy3DAsync_v2_ptsz)
        rec_copy3d(P(cuMemcpy3DAsync_v2_params)->pCopy, S(P(cuMemcpy3DAsync_v2_params)->hStream));
        return 1;
    default:
        return 0;
    }
}

/* cuMemsetD{8,16,32}: same layout up to N (the value is padded to 8 bytes). */
static int driver_set(CUpti_CallbackId cbid, const CUpti_CallbackData *cb)
{
    unsigned el = 0, two_d = 0, async = 0;
    switch (cbid) {
    CASE2(cuMemsetD8_v2, cuMemsetD8_v2_ptds) el = 1; break;
    CASE2(cuMemsetD16_v2, cuMemsetD16_v2_ptds) el = 2; break;
    CASE2(cuMemsetD32_v2, cuMemsetD32_v2_ptds) el = 4; break;
    CASE2(cuMemsetD8Async, cuMemsetD8Async_ptsz) el = 1; async = 1; break;
    CASE2(cuMemsetD16Async, cuMemsetD16Async_ptsz) el = 2; async = 1; break;
    CASE2(cuMemsetD32Async, cuMemsetD32Async_ptsz) el = 4; async = 1; break;
    CASE2(cuMemsetD2D8_v2, cuMemsetD2D8_v2_ptds) el = 1; two_d = 1; break;
    CASE2(cuMemsetD2D16_v2, cuMemsetD2D16_v2_ptds) el = 2; two_d = 1; break;
    CASE2(cuMemsetD2D32_v2, cuMemsetD2D32_v2_ptds) el = 4; two_d = 1; break;
    CASE2(cuMemsetD2D8Async, cuMemsetD2D8Async_ptsz) el = 1; two_d = async = 1; break;
    CASE2(cuMemsetD2D16Async, cuMemsetD2D16Async_ptsz) el = 2; two_d = async = 1; break;
    CASE2(cuMemsetD2D32Async, cuMemsetD2D32Async_ptsz) el = 4; two_d = async = 1; break;
    default: return 0;
    }
    if (two_d) {
        const cuMemsetD2D8Async_params *p = P(cuMemsetD2D8Async_params);
        rec_set(p->dstDevice, (uint64_t)p->Width * el, p->Height, p->dstPitch, async ? S(p->hStream) : 0);
    } else {
        const cuMemsetD8Async_params *p = P(cuMemsetD8Async_params);
        rec_set(p->dstDevice, (uint64_t)p->N * el, 1, 0, async ? S(p->hStream) : 0);
    }
    return 1;
}

void gm_on_driver_mem(CUpti_CallbackId cbid, const CUpti_CallbackData *cb)
{
    /* functionReturnValue may be NULL: never read it unchecked (a failed
     * kernel sends the program into calls it makes only on errors) */
    const CUresult *ret = cb->functionReturnValue;
    if (!ret || *ret != CUDA_SUCCESS) return;
    if (!driver_alloc(cbid, cb) && !driver_copy(cbid, cb)) driver_set(cbid, cb);
}

#define RCASE2(a, b) case CUPTI_RUNTIME_TRACE_CBID_##a: case CUPTI_RUNTIME_TRACE_CBID_##b:

static int kind_dir(enum cudaMemcpyKind k)
{
    switch (k) {
    case cudaMemcpyHostToDevice: return GM_DIR_H2D;
    case cudaMemcpyDeviceToHost: return GM_DIR_D2H;
    case cudaMemcpyDeviceToDevice: return GM_DIR_D2D;
    case cudaMemcpyHostToHost: return GM_DIR_H2H;
    default: return GM_DIR_UNKNOWN;
    }
}

/* Runtime calls decoded only when no driver-level event was seen inside. */
void gm_on_runtime_mem(CUpti_CallbackId cbid, const CUpti_CallbackData *cb)
{
    struct gm_tls *t = gm_tls();
    if (t->api_depth != 1 || t->outer_recorded) return;
    const cudaError_t *ret = cb->functionReturnValue; /* NULL for some calls */
    if (!ret || *ret != cudaSuccess) return;
    switch (cbid) {
    case CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020:
        rec_alloc(S(*P(cudaMalloc_v3020_params)->devPtr), P(cudaMalloc_v3020_params)->size, GM_ALLOC_DEVICE, 0);
        break;
    case CUPTI_RUNTIME_TRACE_CBID_cudaMallocManaged_v6000:
        rec_alloc(S(*P(cudaMallocManaged_v6000_params)->devPtr), P(cudaMallocManaged_v6000_params)->size,
                  GM_ALLOC_MANAGED, 0);
        break;
    RCASE2(cudaMallocAsync_v11020, cudaMallocAsync_ptsz_v11020)
        rec_alloc(S(*P(cudaMallocAsync_v11020_params)->devPtr), P(cudaMallocAsync_v11020_params)->size,
                  GM_ALLOC_ASYNC, S(P(cudaMallocAsync_v11020_params)->hStream));
        break;
    case CUPTI_RUNTIME_TRACE_CBID_cudaFree_v3020:
        rec_free(S(P(cudaFree_v3020_params)->devPtr), 0);
        break;
    RCASE2(cudaFreeAsync_v11020, cudaFreeAsync_ptsz_v11020)
        rec_free(S(P(cudaFreeAsync_v11020_params)->devPtr), S(P(cudaFreeAsync_v11020_params)->hStream));
        break;
    RCASE2(cudaMemcpy_v3020, cudaMemcpy_ptds_v7000)
        rec_copy(S(P(cudaMemcpy_v3020_params)->dst), S(P(cudaMemcpy_v3020_params)->src),
                 P(cudaMemcpy_v3020_params)->count, kind_dir(P(cudaMemcpy_v3020_params)->kind), 0, 1);
        break;
    RCASE2(cudaMemcpyAsync_v3020, cudaMemcpyAsync_ptsz_v7000)
        rec_copy(S(P(cudaMemcpyAsync_v3020_params)->dst), S(P(cudaMemcpyAsync_v3020_params)->src),
                 P(cudaMemcpyAsync_v3020_params)->count, kind_dir(P(cudaMemcpyAsync_v3020_params)->kind),
                 S(P(cudaMemcpyAsync_v3020_params)->stream), 1);
        break;
    RCASE2(cudaMemset_v3020, cudaMemset_ptds_v7000)
        rec_set(S(P(cudaMemset_v3020_params)->devPtr), P(cudaMemset_v3020_params)->count, 1, 0, 0);
        break;
    RCASE2(cudaMemsetAsync_v3020, cudaMemsetAsync_ptsz_v7000)
        rec_set(S(P(cudaMemsetAsync_v3020_params)->devPtr), P(cudaMemsetAsync_v3020_params)->count, 1,
                0, S(P(cudaMemsetAsync_v3020_params)->stream));
        break;
    default:
        break;
    }
}
