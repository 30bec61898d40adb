/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Drives libgpumem's CUPTI callbacks on a CPU with the test doubles in
 * mock/ (libcuda.so.1, libcupti.so.13): module load with a real cubin,
 * memory API events, launches through a CUfunction and a CUkernel handle
 * (the "kernel" adds per-warp counts into the counters the runtime set up,
 * as a memops handler would), a captured launch, a graph launch, a runtime
 * call without a driver call inside, then ends normally, with exit(3) or
 * with SIGSEGV. With MOCK_NATIVE=1 every kernel has an uninstrumented copy
 * (mock_cuda.c) that counts nothing (with MOCK_NATIVE_IGNORED=1 the mock
 * launches the kernel itself); the test prints how many launches ran one. tests/lit/runtime/mock-*.test check what the runtime wrote.
 * Usage: test_runtime_mock CUBIN normal|exit|crash|threads|spmv|abort|streams[-exit|-crash]
 */
#define _POSIX_C_SOURCE 200809L
#include <cuda.h>
#include <cupti.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gpumem/alloctab.h"
#include "gpumem/runtime.h"
#include "gpumem/trace.h"

void mock_cuda_define_global(const char *name, size_t size);
void *mock_cuda_global(const char *name);
long mock_cuda_live_buffers(void);
void mock_cuda_launch(CUstream s, void (*fn)(void *), void *arg);
void mock_cuda_hold(int on);
void mock_cuda_app_thread(void);
void mock_cuda_stream_destroy(CUstream s);
void mock_cuda_sync_all(void);
long mock_cuda_pending(void);
int mock_cuda_is_native(const void *handle);
int mock_cuda_launch_ok(const void *f, unsigned shmem);
int mock_cupti_fire(CUpti_CallbackDomain d, CUpti_CallbackId id, const void *data);
int mock_cupti_enabled(CUpti_CallbackDomain d, CUpti_CallbackId c);

#define MODID "0123456789abcdef"
#define CTX ((CUcontext)0x10)
enum { NSITES = 5, WARPS = 1000 };

/* What an allocations handler would do: warp w reads 4 bytes at every 16th
 * byte of the first KiB of the 4 KiB allocation at 0x10000000 (one 32 B
 * sector per access; 64 accesses in all, one per lane-group of 2 warps). */
static int g_touch_all; /* spmv mode: every range, every 16th byte */

/* What the handler does for one 4-byte read at off of range i (alloctab.h
 * version 2): bitmap bit, new-unit count, chunk count (the range's chunk
 * size); counted on "SM" rep. */
static void touch(const struct gm_alloctab *at, uint32_t i, uint64_t off, unsigned rep)
{
    const struct gm_alloc_range *r = &at->ranges[i];
    uint64_t g = off >> at->gran_shift;
    uint32_t cs = r->chunk_shift ? r->chunk_shift : at->chunk_shift;
    unsigned long long *c = &at->counters[((uint64_t)(rep & at->replica_mask) * at->n + i) * GM_ALLOC_NSLOTS];
    if (!(r->bitmap[g / 32] & (1u << (g % 32)))) c[GM_ALLOC_NEW_UNITS] += 1;
    r->bitmap[g / 32] |= 1u << (g % 32);
    r->chunks[(off >> cs) * GM_ALLOC_CHUNK_SLOTS + GM_ALLOC_CHUNK_READS] += 1;
}

static void touch_all(const struct gm_alloctab *at)
{
    for (uint32_t i = 0; i < at->n; i++)
        for (uint64_t off = 0; off < at->ranges[i].end - at->ranges[i].base; off += 16)
            touch(at, i, off, (unsigned)(off / 16) % 132);
}

static void kernel_allocations(void)
{
    const struct gm_alloctab *at = mock_cuda_global("gm_alloctab__allocations__" MODID);
    if (at && g_touch_all) touch_all(at);
    for (uint32_t i = 0; at && i < at->n; i++) {
        const struct gm_alloc_range *r = &at->ranges[i];
        if (r->base != 0x10000000) continue;
        for (uint64_t off = 0; off < 1024; off += 16) {
            unsigned rep = (unsigned)(off / 16) % 132;
            touch(at, i, off, rep);
            at->counters[((uint64_t)(rep & at->replica_mask) * at->n + i) * GM_ALLOC_NSLOTS + GM_ALLOC_READ_SECTORS] += 1;
        }
    }
}

/* What the trace handler does when the module's ring pointer is set (a
 * module built with --trace tables): TRACE_RECS fully coalesced 4-byte
 * loads of warps at 0x10000000 + 128 i, with the reservation protocol of
 * gpumem/trace.h (one "warp" at a time, so no atomics are needed). */
enum { TRACE_RECS = 3 };

static void kernel_trace(void)
{
    struct gm_trace_buf **bp = mock_cuda_global("gm_trace_buf__" MODID);
    struct gm_trace_buf *b = bp ? *bp : NULL;
    uint32_t *module = mock_cuda_global("gm_trace_module__" MODID);
    for (uint32_t i = 0; b && i < TRACE_RECS; i++) {
        b->records++;
        if (b->max_records && b->records > b->max_records) continue;
        while (b->write_index + 1 > b->read_index + b->capacity) {
            if (b->mode == GM_TRACE_MODE_DROP) break;
            struct timespec ts = {0, 100000};
            nanosleep(&ts, NULL);   /* back-pressure: the drain thread frees slots */
        }
        if (b->write_index + 1 > __atomic_load_n(&b->read_index, __ATOMIC_ACQUIRE) + b->capacity) {
            b->dropped++;
            continue;
        }
        uint64_t w = b->write_index++;
        struct gm_trace_rec *r = (void *)((char *)b + GM_TRACE_BUF_HDR_SIZE + (w % b->capacity) * GM_TRACE_REC_SIZE);
        memset(r, 0, sizeof *r);
        r->base = 0x10000000 + 128 * i;
        r->active = 0xffffffffu;
        r->module = (uint16_t)*module;
        r->width = 4;
        r->kind = GM_TRACE_LOAD;
        r->space = 1;
        for (int k = 0; k < 32; k++) r->delta[k] = 4 * k;
        __atomic_store_n(&r->commit, (uint32_t)(w + 1), __ATOMIC_RELEASE);
    }
}

/* The kernel, run in stream order (MOCK_ASYNC: when something waits for
 * it): one count per warp at sites 0,1,2 and 4, on "SM" w % 132, through
 * the counter pointer as it is when the kernel runs. MOCK_SPLIT=1 (a table
 * of mk_sitetab.py --split: sites 0-2 in vecadd, 3-4 in other): each
 * kernel counts at its own sites only. */
#define OTHER_BIT (1u << 31)    /* in the kernel's argument: "other" runs */
static unsigned g_warps = WARPS; /* of the next launch */

static void kernel(void *arg)
{
    unsigned warps = (unsigned)(uintptr_t)arg & ~OTHER_BIT, other = !!((uintptr_t)arg & OTHER_BIT);
    int split = getenv("MOCK_SPLIT") != NULL;
    unsigned long long *c = *(unsigned long long **)mock_cuda_global("gm_counters__memops__" MODID);
    uint32_t mask = *(uint32_t *)mock_cuda_global("__gm_replica_mask__" MODID);
    for (unsigned w = 0; c && w < warps; w++)
        for (unsigned s = 0; s < NSITES; s++)
            if (s != 3 && (!split || (s >= 3) == other)) c[(uint64_t)((w % 132) & mask) * NSITES + s]++;
    kernel_allocations();
    kernel_trace();
}

static CUstream launch_stream(CUpti_CallbackId id, const void *params)
{
    if (id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel) return ((const cuLaunchKernel_params *)params)->hStream;
    if (id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz) {
        CUstream s = ((const cuLaunchKernel_params *)params)->hStream;
        return s ? s : CU_STREAM_PER_THREAD;
    }
    if (id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx)
        return ((const cuLaunchKernelEx_params *)params)->config->hStream;
    return ((const cuGraphLaunch_params *)params)->hStream;
}

/* The kernel handle after the entry callbacks (they may have replaced it). */
static const void *launch_handle(CUpti_CallbackId id, const void *params)
{
    if (id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel || id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz)
        return ((const cuLaunchKernel_params *)params)->f;
    if (id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx) return ((const cuLaunchKernelEx_params *)params)->f;
    return NULL;
}

/* Dynamic shared memory of a launch (0 for a graph). */
static unsigned launch_shmem(CUpti_CallbackId id, const void *params)
{
    if (id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel || id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz)
        return ((const cuLaunchKernel_params *)params)->sharedMemBytes;
    if (id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx)
        return ((const cuLaunchKernelEx_params *)params)->config->sharedMemBytes;
    return 0;
}

/* An uninstrumented copy: counts nothing. MOCK_NATIVE_IGNORED=1: a driver
 * that launches what the program passed, whatever the callbacks wrote. */
static long g_native_runs, g_failed_launches;
static void native_kernel(void *arg) { (void)arg; g_native_runs++; }

static void api(CUpti_CallbackDomain dom, CUpti_CallbackId id, const char *name, void *params,
                const char *sym)
{
    int ret = 0; /* CUDA_SUCCESS and cudaSuccess are both 0 */
    CUpti_CallbackData cb = {.functionName = name, .functionParams = params,
                             .functionReturnValue = &ret, .symbolName = sym, .context = CTX};
    cb.callbackSite = CUPTI_API_ENTER;
    mock_cupti_fire(dom, id, &cb);
    int launch = id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel || id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx ||
                 id == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch || id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz;
    const void *f = launch ? launch_handle(id, params) : NULL;
    if (f && !mock_cuda_launch_ok(f, launch_shmem(id, params))) { /* the driver refuses it */
        ret = CUDA_ERROR_INVALID_VALUE;
        g_failed_launches++;
    } else if (launch)
        mock_cuda_launch(launch_stream(id, params),
                         mock_cuda_is_native(launch_handle(id, params)) && !getenv("MOCK_NATIVE_IGNORED")
                             ? native_kernel : kernel,
                         (void *)(uintptr_t)(g_warps | (sym && !strcmp(sym, "_Z5otherv") ? OTHER_BIT : 0)));
    cb.callbackSite = CUPTI_API_EXIT;
    mock_cupti_fire(dom, id, &cb);
}
#define DRV(id, p, sym) api(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_##id, #id, p, sym)

static void *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    static char buf[1 << 20];
    *n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    return buf;
}

static void load_module(const char *cubin)
{
    size_t n = 0;
    void *img = read_all(cubin, &n);
    if (!img) { fprintf(stderr, "test: cannot read %s\n", cubin); exit(2); }
    mock_cuda_define_global("__gm_sitetab__" MODID, 8);
    mock_cuda_define_global("gm_counters__memops__" MODID, 8);
    mock_cuda_define_global("__gm_replica_mask__" MODID, 4);
    mock_cuda_define_global("gm_alloctab__allocations__" MODID, sizeof(struct gm_alloctab));
    mock_cuda_define_global("gm_trace_buf__" MODID, 8);
    mock_cuda_define_global("gm_trace_module__" MODID, 4);
    CUpti_ModuleResourceData md = {.moduleId = 1, .cubinSize = n, .pCubin = img};
    CUpti_ResourceData rd = {.context = CTX, .resourceDescriptor = &md};
    mock_cupti_fire(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED, &rd);
}

static void memory_events(void)
{
    CUdeviceptr a = 0x10000000, b = 0x20000000;
    cuMemAlloc_v2_params pa = {.dptr = &a, .bytesize = 4096};
    DRV(cuMemAlloc_v2, &pa, NULL);
    cuMemAlloc_v2_params pb = {.dptr = &b, .bytesize = 8192};
    DRV(cuMemAlloc_v2, &pb, NULL);
    gm_name_allocation((void *)0x20000010, "B buffer");
    static char host[256];
    cuMemcpyHtoD_v2_params cp = {.dstDevice = a + 16, .srcHost = host, .ByteCount = 256};
    DRV(cuMemcpyHtoD_v2, &cp, NULL);
    cuMemsetD8_v2_params ms = {.dstDevice = b, .uc = 0, .N = 8192};
    DRV(cuMemsetD8_v2, &ms, NULL);
    cuMemcpyDtoD_v2_params dd = {.dstDevice = b + 100, .srcDevice = a, .ByteCount = 64};
    DRV(cuMemcpyDtoD_v2, &dd, NULL);
}

static void launches(void)
{
    /* MOCK_KERNEL_NAME: the name the first launch reports (a C++ name with
     * commas, for the CSV writers) */
    const char *name = getenv("MOCK_KERNEL_NAME");
    cuLaunchKernel_params lk = {.f = (CUfunction)0x5000, .gridDimX = 125, .gridDimY = 1, .gridDimZ = 1,
                                .blockDimX = 256, .blockDimY = 1, .blockDimZ = 1};
    DRV(cuLaunchKernel, &lk, name ? name : "_Z6vecaddPKfS0_Pfi");
    CUlaunchConfig cfg = {.gridDimX = 125, .gridDimY = 1, .gridDimZ = 1, .blockDimX = 256,
                          .blockDimY = 1, .blockDimZ = 1};
    cuLaunchKernelEx_params lx = {.config = &cfg, .f = (CUfunction)0x42}; /* a CUkernel */
    DRV(cuLaunchKernelEx, &lx, "_Z6vecaddPKfS0_Pfi");
    cuLaunchKernel_params cap = lk;
    cap.hStream = (CUstream)0xcafe; /* capturing: must be left alone */
    cuStreamBeginCapture_v2_params bc = {.hStream = cap.hStream}; /* the runtime counts captures */
    DRV(cuStreamBeginCapture_v2, &bc, NULL);
    int ret = 0;
    CUpti_CallbackData cb = {.functionName = "cuLaunchKernel", .functionParams = &cap,
                             .functionReturnValue = &ret, .context = CTX};
    cb.callbackSite = CUPTI_API_ENTER;
    mock_cupti_fire(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &cb);
    cb.callbackSite = CUPTI_API_EXIT;
    mock_cupti_fire(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &cb);
    CUgraph graph;
    cuStreamEndCapture_params ec = {.hStream = cap.hStream, .phGraph = &graph};
    DRV(cuStreamEndCapture, &ec, NULL);
    /* mock_cuda's graph (3 kernel nodes, one in a child graph) */
    CUgraphExec exec = (CUgraphExec)0x77;
    cuGraphInstantiateWithFlags_params gi = {.phGraphExec = &exec, .hGraph = (CUgraph)0x66};
    DRV(cuGraphInstantiateWithFlags, &gi, NULL);
    cuGraphLaunch_params gl = {.hGraph = exec, .hStream = NULL};
    DRV(cuGraphLaunch, &gl, NULL); /* runs the captured vecadd once more */
}

static void frees(void)
{
    cuMemFree_v2_params f = {.dptr = 0x10000000};
    DRV(cuMemFree_v2, &f, NULL);
    /* a runtime call with no driver call inside is decoded from its own params */
    void *p = (void *)0x30000000;
    cudaMalloc_v3020_params rm = {.devPtr = &p, .size = 100};
    api(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020, "cudaMalloc", &rm, NULL);
}

/* A program's error path: cudaGetErrorString and cuGetErrorString arrive
 * with functionReturnValue NULL (they return no error code); the runtime
 * must not read it (regression: spmv.alloc died with SIGSEGV on the H100
 * after its kernel failed, before the program printed its error). */
static void error_path(void)
{
    CUpti_CallbackData cb = {.functionName = "cudaGetErrorString", .context = CTX};
    for (int site = 0; site < 2; site++) {
        cb.callbackSite = site ? CUPTI_API_EXIT : CUPTI_API_ENTER;
        cb.functionName = "cudaGetErrorString";
        mock_cupti_fire(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaGetErrorString_v3020, &cb);
    }
    for (int site = 0; site < 2; site++) {
        cb.callbackSite = site ? CUPTI_API_EXIT : CUPTI_API_ENTER;
        cb.functionName = "cuGetErrorString";
        mock_cupti_fire(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuGetErrorString, &cb);
    }
}

/* spmv's allocations at 2^21 rows, 16 per row on average (examples/spmv.cu):
 * CSR rowptr/col/val, ELL col/val (32 x rows), x, y; then 3 launches. */
static void spmv_like(void)
{
    static const uint64_t sizes[7] = {8388612, 138412032, 138412032, 268435456, 268435456,
                                      8388608, 8388608};
    for (int i = 0; i < 7; i++) {
        CUdeviceptr p = 0x7f0000000000ull + (CUdeviceptr)i * 0x20000000ull;
        cuMemAlloc_v2_params pa = {.dptr = &p, .bytesize = sizes[i]};
        DRV(cuMemAlloc_v2, &pa, NULL);
    }
    g_touch_all = 1;
    for (int k = 0; k < 3; k++) {
        cuLaunchKernel_params lk = {.f = (CUfunction)0x5000, .gridDimX = 16384, .gridDimY = 1,
                                    .gridDimZ = 1, .blockDimX = 128, .blockDimY = 1, .blockDimZ = 1};
        DRV(cuLaunchKernel, &lk, "_Z6vecaddPKfS0_Pfi");
    }
    g_touch_all = 0;
    /* the program frees them: the next launch frees their bitmaps and
     * chunk counters (2 device buffers each), the results stay */
    long before = mock_cuda_live_buffers();
    for (int i = 0; i < 7; i++) {
        cuMemFree_v2_params f = {.dptr = 0x7f0000000000ull + (CUdeviceptr)i * 0x20000000ull};
        DRV(cuMemFree_v2, &f, NULL);
    }
    cuLaunchKernel_params lk = {.f = (CUfunction)0x5000, .gridDimX = 1, .gridDimY = 1, .gridDimZ = 1,
                                .blockDimX = 32, .blockDimY = 1, .blockDimZ = 1};
    DRV(cuLaunchKernel, &lk, "_Z6vecaddPKfS0_Pfi");
    printf("test: device buffers freed after the frees: %ld\n", before - mock_cuda_live_buffers());
}

/* Host threads launching and allocating at once: launches are serialised by
 * the runtime, so every thread's counts must add up exactly. */
static void *thread_main(void *arg)
{
    CUdeviceptr p = 0x40000000 + (CUdeviceptr)(uintptr_t)arg * 0x100000;
    for (int k = 0; k < 10; k++) {
        cuMemAlloc_v2_params pa = {.dptr = &p, .bytesize = 256};
        DRV(cuMemAlloc_v2, &pa, NULL);
        cuLaunchKernel_params lk = {.f = (CUfunction)0x5000, .gridDimX = 125, .gridDimY = 1,
                                    .gridDimZ = 1, .blockDimX = 256, .blockDimY = 1, .blockDimZ = 1};
        DRV(cuLaunchKernel, &lk, "_Z6vecaddPKfS0_Pfi");
        cuMemFree_v2_params f = {.dptr = p};
        DRV(cuMemFree_v2, &f, NULL);
    }
    return NULL;
}

static void threads(void)
{
    pthread_t t[4];
    for (uintptr_t i = 0; i < 4; i++) pthread_create(&t[i], NULL, thread_main, (void *)i);
    for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
}

/* Two kernels of one module on several streams and host threads, kernels
 * left in flight at the end (run with MOCK_ASYNC=1: the mock runs stream
 * work only when something waits, streams in an adversarial order). vecadd
 * counts 1000 warps per launch, "other" 300: each kernel's totals must be
 * exact although they share the module's counters. */
static void launch_on(CUstream s, const char *sym, unsigned warps)
{
    cuLaunchKernel_params lk = {.f = (CUfunction)(uintptr_t)(sym[3] == 'v' ? 0x5000 : 0x6000),
                                .gridDimX = 1, .gridDimY = 1, .gridDimZ = 1, .blockDimX = 32,
                                .blockDimY = 1, .blockDimZ = 1, .hStream = s};
    g_warps = warps;
    DRV(cuLaunchKernel, &lk, sym);
}

#define VECADD "_Z6vecaddPKfS0_Pfi"
#define OTHER "_Z5otherv"

static void *ptsz_main(void *arg)
{
    (void)arg;
    mock_cuda_app_thread();
    for (int k = 0; k < 5; k++) {
        cuLaunchKernel_params lk = {.f = (CUfunction)0x5000, .gridDimX = 1, .gridDimY = 1, .gridDimZ = 1,
                                    .blockDimX = 32, .blockDimY = 1, .blockDimZ = 1};
        api(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
            "cuLaunchKernel_ptsz", &lk, VECADD);
    }
    return NULL;
}

static void streams(void)
{
    CUstream s1 = (CUstream)0x101, s2 = (CUstream)0x102, s3 = (CUstream)0x103;
    mock_cuda_sync_all();
    mock_cuda_hold(1);
    for (int k = 0; k < 3; k++) launch_on(s1, VECADD, 1000);
    launch_on(s2, VECADD, 1000);
    launch_on(s3, OTHER, 300);      /* flush: waits for s1 and s2 */
    launch_on(s3, OTHER, 300);
    launch_on(s1, OTHER, 300);      /* ordered after the flush on s3 */
    launch_on(s2, VECADD, 1000);    /* flush on s2 */
    launch_on(NULL, VECADD, 1000);
    printf("test: host went on with %ld stream operations queued\n", mock_cuda_pending());
    pthread_t t[2];
    for (uintptr_t i = 0; i < 2; i++) pthread_create(&t[i], NULL, ptsz_main, (void *)i);
    for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
    launch_on(s3, OTHER, 300);
    /* s2 is destroyed with "other" still queued on it and its handle comes
     * back as a new stream: the flush there must still wait for it */
    launch_on(s2, OTHER, 300);
    cuStreamDestroy_v2_params sd = {.hStream = s2};
    DRV(cuStreamDestroy_v2, &sd, NULL);
    mock_cuda_stream_destroy(s2);
    launch_on(s2, VECADD, 1000);
    printf("test: %ld stream operations in flight at the end\n", mock_cuda_pending());
    mock_cuda_hold(0);
}

/* Host cost of the runtime per launch (mock driver calls cost ~nothing):
 * 20,000 launches of one kernel on one stream through the runtime API's
 * and the driver API's callbacks, as cudaLaunchKernel delivers them. */
static void bench(void)
{
    struct timespec t0, t1, c0, c1;
    enum { LAUNCHES = 20000 };
    cuLaunchKernel_params lk = {.f = (CUfunction)0x5000, .gridDimX = 64, .gridDimY = 1, .gridDimZ = 1,
                                .blockDimX = 256, .blockDimY = 1, .blockDimZ = 1, .hStream = (CUstream)0x101};
    g_warps = 1;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < LAUNCHES; i++) {
        int ret = 0;
        CUpti_CallbackData rt = {.functionName = "cudaLaunchKernel", .functionReturnValue = &ret, .context = CTX};
        rt.callbackSite = CUPTI_API_ENTER;
        mock_cupti_fire(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &rt);
        DRV(cuLaunchKernel, &lk, VECADD);
        rt.callbackSite = CUPTI_API_EXIT;
        mock_cupti_fire(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &rt);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
    double ns = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) / LAUNCHES;
    double cpu = ((double)(c1.tv_sec - c0.tv_sec) * 1e9 + (double)(c1.tv_nsec - c0.tv_nsec)) / LAUNCHES;
    fprintf(stderr, "test: runtime host cost %.0f ns per launch (%d launches)\n", ns, LAUNCHES);
    fprintf(stderr, "test: launching thread's CPU time %.0f ns per launch\n", cpu);
}

/* Copies around a traced launch (run with a --trace site table): a pitched
 * 2D copy into B (3 rows of 16 bytes, 64 apart), an asynchronous
 * device-to-host copy, a launch, then a 2D memset (2 rows of 8 x 4 bytes,
 * 256 apart) and a runtime-API memcpy with no driver call inside. */
static void copies(void)
{
    static char host[256];
    CUDA_MEMCPY2D c2 = {.srcMemoryType = CU_MEMORYTYPE_HOST, .srcHost = host, .srcPitch = 16,
                        .dstMemoryType = CU_MEMORYTYPE_DEVICE, .dstDevice = 0x20000000,
                        .dstXInBytes = 8, .dstY = 1, .dstPitch = 64, .WidthInBytes = 16, .Height = 3};
    cuMemcpy2D_v2_params p2 = {.pCopy = &c2};
    DRV(cuMemcpy2D_v2, &p2, NULL);
    cuMemcpyDtoHAsync_v2_params dh = {.dstHost = host, .srcDevice = 0x20000000, .ByteCount = 100,
                                      .hStream = (CUstream)0x101};
    DRV(cuMemcpyDtoHAsync_v2, &dh, NULL);
    cuLaunchKernel_params lk = {.f = (CUfunction)0x5000, .gridDimX = 1, .gridDimY = 1, .gridDimZ = 1,
                                .blockDimX = 32, .blockDimY = 1, .blockDimZ = 1};
    mock_cuda_sync_all();
    mock_cuda_hold(1);      /* MOCK_ASYNC: the drain thread cannot run stream work meanwhile */
    DRV(cuLaunchKernel, &lk, VECADD);
    printf("test: traced launch left %ld stream operations queued\n", mock_cuda_pending());
    mock_cuda_hold(0);
    cuMemsetD2D32_v2_params m2 = {.dstDevice = 0x20000400, .dstPitch = 256, .ui = 7, .Width = 8, .Height = 2};
    DRV(cuMemsetD2D32_v2, &m2, NULL);
    cudaMemcpy_v3020_params rc = {.dst = (void *)0x20001000, .src = host, .count = 32,
                                  .kind = cudaMemcpyHostToDevice};
    api(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020, "cudaMemcpy", &rc, NULL);
    /* the program synchronises before it ends (MOCK_ASYNC runs stream work
     * only when something waits; on a GPU kernels finish by themselves) */
    mock_cuda_sync_all();
}

/* Launches from two lines of one function (same stack depth, same API):
 * each timeline event must name its own line (the runtime caches where
 * the caller's return address lies on the stack, never the address). */
#define FIRE_LAUNCH(cb) do { \
        (cb).callbackSite = CUPTI_API_ENTER; \
        mock_cupti_fire(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &(cb)); \
        (cb).callbackSite = CUPTI_API_EXIT; \
        mock_cupti_fire(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &(cb)); \
    } while (0)

static void sites(void)
{
    int ret = 0;
    cuLaunchKernel_params lk = {.f = (CUfunction)0x5000, .gridDimX = 1, .gridDimY = 1, .gridDimZ = 1,
                                .blockDimX = 32, .blockDimY = 1, .blockDimZ = 1};
    CUpti_CallbackData cb = {.functionName = "cuLaunchKernel", .functionParams = &lk,
                             .functionReturnValue = &ret, .symbolName = VECADD, .context = CTX};
    for (int i = 0; i < 3; i++) {
        FIRE_LAUNCH(cb); /* site A */
        FIRE_LAUNCH(cb); /* site B */
    }
}

/* The CUDA runtime linked statically (libcudart_static.a): its API
 * functions (cuda*), its internal ones (libcudart_static_<hash>) and the
 * compiler's launch stubs (__device_stub__) sit in the program itself. The
 * call site is the line that called into them (mock-cudart-sites.test). */
static CUdeviceptr g_fake_ptr = 0x40000000;
__attribute__((noinline)) void libcudart_static_0123456789abcdef(size_t n)
{
    CUdeviceptr p = g_fake_ptr;
    g_fake_ptr += 0x100000;
    cuMemAlloc_v2_params pa = {.dptr = &p, .bytesize = n};
    int ret = 0;
    CUpti_CallbackData cb = {.functionName = "cudaMalloc", .functionParams = &pa,
                             .functionReturnValue = &ret, .context = CTX};
    cb.callbackSite = CUPTI_API_ENTER;
    mock_cupti_fire(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2, &cb);
    cb.callbackSite = CUPTI_API_EXIT;
    mock_cupti_fire(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2, &cb);
}
__attribute__((noinline)) int cudaMallocLike(size_t n)
{
    libcudart_static_0123456789abcdef(n);
    __asm__ volatile("" ::: "memory"); /* keep this frame (no tail call) */
    return 0;
}
/* as cuda_runtime.h's template cudaMalloc<T>: inlined into the caller */
static inline __attribute__((always_inline)) void cudaInlineWrapper(size_t n)
{
    libcudart_static_0123456789abcdef(n);
}
void fake_launch_stub(void) __asm__("_Z25__device_stub__fakeKernelPf");
__attribute__((noinline)) void fake_launch_stub(void)
{
    int ret = 0;
    cuLaunchKernel_params lk = {.f = (CUfunction)0x5000, .gridDimX = 1, .gridDimY = 1, .gridDimZ = 1,
                                .blockDimX = 32, .blockDimY = 1, .blockDimZ = 1};
    CUpti_CallbackData cb = {.functionName = "cudaLaunchKernel", .functionParams = &lk,
                             .functionReturnValue = &ret, .symbolName = VECADD, .context = CTX};
    FIRE_LAUNCH(cb);
    __asm__ volatile("" ::: "memory");
}

/* (named cuda..., but not cuda[A-Z]...: the user's own code) */
__attribute__((noinline)) static void cudart_sites(void)
{
    cudaMallocLike(1100); /* cudart site A */
    cudaMallocLike(1200); /* cudart site B */
    libcudart_static_0123456789abcdef(1300); /* cudart site C */
    fake_launch_stub(); /* cudart site D */
    cudaInlineWrapper(1400); /* cudart site E */
    __asm__ volatile("" ::: "memory");
}

/* Two kernels of one module alternating 50 times over two streams while
 * the collector cannot make progress: more flushes in flight than staging
 * blocks, so flushes wait for older ones (back-pressure); counts exact. */
static void alternate(void)
{
    mock_cuda_sync_all();
    mock_cuda_hold(1);
    for (int k = 0; k < 25; k++) {
        launch_on((CUstream)0x101, VECADD, 1000);
        launch_on((CUstream)0x102, OTHER, 300);
    }
    printf("test: %ld stream operations in flight at the end\n", mock_cuda_pending());
    mock_cuda_hold(0);
}

/* A kernel the program allowed 64 KiB of dynamic shared memory
 * (cudaFuncSetAttribute), launched 4 times with 60 KiB: a launch of its
 * copy needs the same attribute, or the driver refuses it. */
static void bigshm(void)
{
    cuFuncSetAttribute((CUfunction)0x5000, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 64 << 10);
    for (int k = 0; k < 4; k++) {
        cuLaunchKernel_params lk = {.f = (CUfunction)0x5000, .gridDimX = 1, .gridDimY = 1, .gridDimZ = 1,
                                    .blockDimX = 32, .blockDimY = 1, .blockDimZ = 1,
                                    .sharedMemBytes = 60 << 10};
        DRV(cuLaunchKernel, &lk, VECADD);
    }
}

int main(int argc, char **argv)
{
    if (argc < 3) { fprintf(stderr, "usage: test_runtime_mock CUBIN normal|exit|crash|threads|spmv\n"); return 2; }
    load_module(argv[1]);
    if (!strcmp(argv[2], "spmv")) spmv_like();
    memory_events();
    launches();
    frees();
    error_path();
    if (!strcmp(argv[2], "threads")) threads();
    if (!strncmp(argv[2], "streams", 7)) streams();
    if (!strcmp(argv[2], "streams-destroy")) { /* cudaDeviceReset with kernels in flight */
        CUpti_ResourceData rd = {.context = CTX};
        mock_cupti_fire(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING, &rd);
        printf("test: context destroyed, %ld stream operations left\n", mock_cuda_pending());
    }
    if (!strcmp(argv[2], "bench")) bench();
    if (!strcmp(argv[2], "alternate")) alternate();
    if (!strcmp(argv[2], "quiet")) { /* which driver callbacks the runtime kept */
#define SHOW(n) printf("test: %s %s\n", #n, \
                       mock_cupti_enabled(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_##n) ? "on" : "off")
        SHOW(cuLaunchKernel); SHOW(cuLaunchKernel_ptsz); SHOW(cuMemAlloc_v2); SHOW(cuMemcpyHtoD_v2);
        SHOW(cuStreamDestroy_v2); SHOW(cuEventRecord); SHOW(cuStreamIsCapturing); SHOW(cuCtxGetDevice);
        SHOW(cuStreamWaitEvent); SHOW(cuGetErrorString);
    }
    if (!strcmp(argv[2], "sites")) sites();
    if (!strcmp(argv[2], "cudart")) cudart_sites();
    if (!strcmp(argv[2], "trace")) copies();
    if (!strcmp(argv[2], "bigshm")) bigshm();
    if (getenv("MOCK_NATIVE")) {
        mock_cuda_sync_all();
        printf("test: %ld launches ran uninstrumented copies, %ld launches failed\n", g_native_runs,
               g_failed_launches);
    }
    printf("test: done\n");
    fflush(stdout);
    if (!strcmp(argv[2], "exit") || !strcmp(argv[2], "streams-exit")) exit(3);
    if (!strcmp(argv[2], "crash") || !strcmp(argv[2], "streams-crash")) raise(SIGSEGV);
    if (!strcmp(argv[2], "abort")) abort();
    return 0;
}
