/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CUDA driver side of tracing (see trace_cuda.h). The ring lives in device
 * memory so the handler's atomics stay in L2; the drain thread copies the
 * header, the pending slots (for their commit words) and then again the
 * slots already seen committed, through a non-blocking stream that runs
 * while the kernel runs
 * (the pattern NVBit's channel uses). Depends on the CUDA headers and
 * libdl only; no CUPTI, no runtime core, no simulator.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include "trace_cuda.h"

#define PIN_HDR 0u
#define PIN_RI 64u
#define PIN_SCRATCH 128u
#define PIN_PTR 256u        /* the ring's address, then 8 zero bytes */
#define PIN_MARKS 512u      /* GM_TRACE_MARKS header copies */
#define PIN_SIZE (PIN_MARKS + GM_TRACE_MARKS * GM_TRACE_BUF_HDR_SIZE)

static _Thread_local int t_internal;

static struct {
    CUresult (*CtxGetCurrent)(CUcontext *);
    CUresult (*CtxSetCurrent)(CUcontext);
    CUresult (*CtxGetDevice)(CUdevice *);
    CUresult (*CtxGetStreamPriorityRange)(int *, int *);
    CUresult (*StreamCreateWithPriority)(CUstream *, unsigned, int);
    CUresult (*StreamSynchronize)(CUstream);
    CUresult (*StreamDestroy)(CUstream);
    CUresult (*MemAlloc)(CUdeviceptr *, size_t);
    CUresult (*MemFree)(CUdeviceptr);
    CUresult (*MemHostAlloc)(void **, size_t, unsigned);
    CUresult (*MemFreeHost)(void *);
    CUresult (*MemcpyHtoDAsync)(CUdeviceptr, const void *, size_t, CUstream);
    CUresult (*MemcpyDtoHAsync)(void *, CUdeviceptr, size_t, CUstream);
    CUresult (*MemsetD8Async)(CUdeviceptr, unsigned char, size_t, CUstream);
    CUresult (*EventCreate)(CUevent *, unsigned);
    CUresult (*EventRecord)(CUevent, CUstream);
    CUresult (*EventQuery)(CUevent);
    CUresult (*EventDestroy)(CUevent);
    CUresult (*StreamWaitEvent)(CUstream, CUevent, unsigned);
    CUresult (*KernelGetLibrary)(CUlibrary *, CUkernel);
    CUresult (*KernelGetFunction)(CUfunction *, CUkernel);
    CUresult (*LibraryGetGlobal)(CUdeviceptr *, size_t *, CUlibrary, const char *);
    CUresult (*FuncGetModule)(CUmodule *, CUfunction);
    CUresult (*ModuleGetGlobal)(CUdeviceptr *, size_t *, CUmodule, const char *);
    CUresult (*KernelGetAttribute)(int *, CUfunction_attribute, CUkernel, CUdevice);
    CUresult (*FuncGetAttribute)(int *, CUfunction_attribute, CUfunction);
    CUresult (*DeviceGetName)(char *, int, CUdevice);
    CUresult (*DeviceGetAttribute)(int *, CUdevice_attribute, CUdevice);
    CUresult (*GetErrorName)(CUresult, const char **);
} cu;

static const struct { const char *name; void **fn; } cu_syms[] = {
    { "cuCtxGetCurrent", (void **)&cu.CtxGetCurrent },
    { "cuCtxSetCurrent", (void **)&cu.CtxSetCurrent },
    { "cuCtxGetDevice", (void **)&cu.CtxGetDevice },
    { "cuCtxGetStreamPriorityRange", (void **)&cu.CtxGetStreamPriorityRange },
    { "cuStreamCreateWithPriority", (void **)&cu.StreamCreateWithPriority },
    { "cuStreamSynchronize", (void **)&cu.StreamSynchronize },
    { "cuStreamDestroy_v2", (void **)&cu.StreamDestroy },
    { "cuMemAlloc_v2", (void **)&cu.MemAlloc },
    { "cuMemFree_v2", (void **)&cu.MemFree },
    { "cuMemHostAlloc", (void **)&cu.MemHostAlloc },
    { "cuMemFreeHost", (void **)&cu.MemFreeHost },
    { "cuMemcpyHtoDAsync_v2", (void **)&cu.MemcpyHtoDAsync },
    { "cuMemcpyDtoHAsync_v2", (void **)&cu.MemcpyDtoHAsync },
    { "cuMemsetD8Async", (void **)&cu.MemsetD8Async },
    { "cuEventCreate", (void **)&cu.EventCreate },
    { "cuEventRecord", (void **)&cu.EventRecord },
    { "cuEventQuery", (void **)&cu.EventQuery },
    { "cuEventDestroy_v2", (void **)&cu.EventDestroy },
    { "cuStreamWaitEvent", (void **)&cu.StreamWaitEvent },
    { "cuKernelGetLibrary", (void **)&cu.KernelGetLibrary },
    { "cuKernelGetFunction", (void **)&cu.KernelGetFunction },
    { "cuLibraryGetGlobal", (void **)&cu.LibraryGetGlobal },
    { "cuFuncGetModule", (void **)&cu.FuncGetModule },
    { "cuModuleGetGlobal_v2", (void **)&cu.ModuleGetGlobal },
    { "cuKernelGetAttribute", (void **)&cu.KernelGetAttribute },
    { "cuFuncGetAttribute", (void **)&cu.FuncGetAttribute },
    { "cuDeviceGetName", (void **)&cu.DeviceGetName },
    { "cuDeviceGetAttribute", (void **)&cu.DeviceGetAttribute },
    { "cuGetErrorName", (void **)&cu.GetErrorName },
};

/* Every driver call of the tracer goes through CALL so callbacks can tell. */
#define CALL(expr) (t_internal++, gm__rc = (expr), t_internal--, gm__rc)
static _Thread_local CUresult gm__rc;

int gm_trace_cu_internal(void) { return t_internal; }

int gm_trace_cu_load(char *err, size_t errlen)
{
    if (cu.GetErrorName) return 0;
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!lib) lib = dlopen("libcuda.so.1", RTLD_NOW);
    if (!lib) {
        snprintf(err, errlen, "trace: cannot open libcuda.so.1: %s", dlerror());
        return -1;
    }
    for (size_t i = 0; i < sizeof cu_syms / sizeof cu_syms[0]; i++) {
        if (!(*cu_syms[i].fn = dlsym(lib, cu_syms[i].name))) {
            snprintf(err, errlen, "trace: libcuda lacks %s", cu_syms[i].name);
            memset(&cu, 0, sizeof cu);
            return -1;
        }
    }
    return 0;
}

static int fail(CUresult rc, const char *what, char *err, size_t errlen)
{
    const char *name = "?";
    if (cu.GetErrorName) cu.GetErrorName(rc, &name);
    if (err) snprintf(err, errlen, "trace: %s failed: %s", what, name);
    return -1;
}

static int sync(struct gm_trace_dev *d)
{
    return CALL(cu.StreamSynchronize(d->stream)) == CUDA_SUCCESS ? 0 : -1;
}

static int dev_fail(struct gm_trace_dev *d, const char *what, char *err, size_t errlen)
{
    fail(gm__rc, what, err, errlen);
    gm_trace_dev_close(d);
    return -1;
}

/* The ring cleared (commit words 0) and its header set, synchronously. */
static int dev_init_ring(struct gm_trace_dev *d, uint32_t mode, uint32_t spin_limit,
                         uint64_t max_records)
{
    struct gm_trace_buf h = { .capacity = d->capacity, .mode = mode, .spin_limit = spin_limit,
                              .max_records = max_records };
    memcpy(d->pinned + PIN_HDR, &h, sizeof h);
    if (CALL(cu.MemsetD8Async(d->buf, 0, GM_TRACE_BUF_HDR_SIZE + d->capacity * GM_TRACE_REC_SIZE,
                              d->stream)) ||
        CALL(cu.MemcpyHtoDAsync(d->buf, d->pinned + PIN_HDR, sizeof h, d->stream))) return -1;
    return sync(d);
}

int gm_trace_dev_open(struct gm_trace_dev *d, CUcontext ctx, uint64_t capacity, uint64_t batch,
                      uint32_t mode, uint32_t spin_limit, uint64_t max_records,
                      char *err, size_t errlen)
{
    int lo = 0, hi = 0;
    memset(d, 0, sizeof *d);
    d->ctx = ctx;
    d->capacity = capacity;
    d->batch = batch < capacity ? batch : capacity;
    if (CALL(cu.CtxGetDevice(&d->device))) return fail(gm__rc, "cuCtxGetDevice", err, errlen);
    if (CALL(cu.CtxGetStreamPriorityRange(&lo, &hi))) hi = 0;
    if (CALL(cu.StreamCreateWithPriority(&d->stream, CU_STREAM_NON_BLOCKING, hi)))
        return fail(gm__rc, "cuStreamCreateWithPriority", err, errlen);
    if (CALL(cu.MemAlloc(&d->buf, GM_TRACE_BUF_HDR_SIZE + capacity * GM_TRACE_REC_SIZE)))
        return dev_fail(d, "cuMemAlloc of the trace buffer", err, errlen);
    if (CALL(cu.MemHostAlloc((void **)&d->pinned, PIN_SIZE, 0)))
        return dev_fail(d, "cuMemHostAlloc of the drain staging", err, errlen);
    for (unsigned i = 0; i < GM_TRACE_STAGES; i++)
        if (CALL(cu.MemHostAlloc((void **)&d->stage[i], d->batch * GM_TRACE_REC_SIZE, 0)))
            return dev_fail(d, "cuMemHostAlloc of the drain staging", err, errlen);
    for (unsigned i = 0; i < GM_TRACE_MARKS; i++)
        if (CALL(cu.EventCreate(&d->ev[i], CU_EVENT_DISABLE_TIMING)))
            return dev_fail(d, "cuEventCreate", err, errlen);
    uint64_t ptr[2] = { (uint64_t)d->buf, 0 };
    memcpy(d->pinned + PIN_PTR, ptr, sizeof ptr);
    if (dev_init_ring(d, mode, spin_limit, max_records))
        return dev_fail(d, "setting up the trace buffer", err, errlen);
    return 0;
}

void gm_trace_dev_close(struct gm_trace_dev *d)
{
    for (unsigned i = 0; i < GM_TRACE_MARKS; i++)
        if (d->ev[i]) (void)CALL(cu.EventDestroy(d->ev[i]));
    for (unsigned i = 0; i < GM_TRACE_STAGES; i++)
        if (d->stage[i]) (void)CALL(cu.MemFreeHost(d->stage[i]));
    if (d->pinned) (void)CALL(cu.MemFreeHost(d->pinned));
    if (d->buf) (void)CALL(cu.MemFree(d->buf));
    if (d->stream) (void)CALL(cu.StreamDestroy(d->stream));
    memset(d, 0, sizeof *d);
}

int gm_trace_dev_bind(struct gm_trace_dev *d)
{
    return CALL(cu.CtxSetCurrent(d->ctx)) == CUDA_SUCCESS ? 0 : -1;
}

int gm_trace_dev_begin(struct gm_trace_dev *d, CUstream stream, int after)
{
    if (after >= 0 && CALL(cu.StreamWaitEvent(stream, d->ev[after], 0))) return -1;
    _Static_assert(offsetof(struct gm_trace_buf, records) == offsetof(struct gm_trace_buf, dropped) + 8,
                   "dropped and records are contiguous");
    return CALL(cu.MemsetD8Async(d->buf + offsetof(struct gm_trace_buf, dropped), 0, 16, stream)) ? -1 : 0;
}

int gm_trace_dev_after(struct gm_trace_dev *d, CUstream stream, unsigned slot)
{
    return CALL(cu.StreamWaitEvent(stream, d->ev[slot], 0)) ? -1 : 0;
}

int gm_trace_dev_mark(struct gm_trace_dev *d, CUstream stream, unsigned slot)
{
    unsigned char *m = d->pinned + PIN_MARKS + (size_t)slot * GM_TRACE_BUF_HDR_SIZE;
    if (CALL(cu.MemcpyDtoHAsync(m, d->buf, GM_TRACE_BUF_HDR_SIZE, stream))) return -1;
    return CALL(cu.EventRecord(d->ev[slot], stream)) ? -1 : 0;
}

int gm_trace_dev_marked(struct gm_trace_dev *d, unsigned slot, struct gm_trace_buf *h)
{
    CUresult rc = CALL(cu.EventQuery(d->ev[slot]));
    if (rc == CUDA_ERROR_NOT_READY) return 0;
    if (rc != CUDA_SUCCESS) return -1;
    memcpy(h, d->pinned + PIN_MARKS + (size_t)slot * GM_TRACE_BUF_HDR_SIZE, sizeof *h);
    return 1;
}

int gm_trace_dev_point(struct gm_trace_dev *d, CUdeviceptr global, int on, CUstream stream)
{
    const unsigned char *v = d->pinned + PIN_PTR + (on ? 0 : 8);   /* never rewritten */
    return CALL(cu.MemcpyHtoDAsync(global, v, 8, stream)) ? -1 : 0;
}

int gm_trace_dev_quiesce(struct gm_trace_dev *d)
{
    struct { uint32_t mode, spin_limit; uint64_t max_records; } q = { GM_TRACE_MODE_DROP, 1, 1 };
    _Static_assert(offsetof(struct gm_trace_buf, spin_limit) == offsetof(struct gm_trace_buf, mode) + 4 &&
                   offsetof(struct gm_trace_buf, max_records) == offsetof(struct gm_trace_buf, mode) + 8,
                   "mode, spin_limit, max_records are contiguous");
    if (!d->buf) return 0;
    return gm_trace_dev_write(d, d->buf + offsetof(struct gm_trace_buf, mode), &q, sizeof q);
}

int gm_trace_dev_write(struct gm_trace_dev *d, CUdeviceptr addr, const void *src, size_t n)
{
    if (n > PIN_PTR - PIN_SCRATCH) return -1;
    memcpy(d->pinned + PIN_SCRATCH, src, n);
    if (CALL(cu.MemcpyHtoDAsync(addr, d->pinned + PIN_SCRATCH, n, d->stream))) return -1;
    return sync(d);
}

/* ---- ring access (gm_trace_dev_ops) ---- */

static int op_header(void *dev, struct gm_trace_buf *out)
{
    struct gm_trace_dev *d = dev;
    if (CALL(cu.MemcpyDtoHAsync(d->pinned + PIN_HDR, d->buf, sizeof *out, d->stream)) || sync(d))
        return -1;
    memcpy(out, d->pinned + PIN_HDR, sizeof *out);
    return 0;
}

static CUdeviceptr slot_addr(const struct gm_trace_dev *d, uint64_t pos)
{
    return d->buf + GM_TRACE_BUF_HDR_SIZE + pos * GM_TRACE_REC_SIZE;
}

/* out is one of the pinned staging buffers: the copy engine writes it
 * directly (a plain 1D copy, which runs while kernels run). */
static int op_slots(void *dev, uint64_t pos, uint64_t n, void *out)
{
    struct gm_trace_dev *d = dev;
    if (CALL(cu.MemcpyDtoHAsync(out, slot_addr(d, pos), n * GM_TRACE_REC_SIZE, d->stream)) ||
        sync(d)) return -1;
    return 0;
}

/* Not waited for: the next read on the same stream (always before the
 * pinned word is rewritten) orders it. */
static int op_read_index(void *dev, uint64_t ri)
{
    struct gm_trace_dev *d = dev;
    memcpy(d->pinned + PIN_RI, &ri, sizeof ri);
    return CALL(cu.MemcpyHtoDAsync(d->buf + offsetof(struct gm_trace_buf, read_index),
                                   d->pinned + PIN_RI, sizeof ri, d->stream)) ? -1 : 0;
}

const struct gm_trace_dev_ops gm_trace_cuda_ops = { op_header, op_slots, op_read_index };

/* ---- module globals and descriptions ---- */

static int found(CUresult rc) { return rc == CUDA_SUCCESS ? 0 : rc == CUDA_ERROR_NOT_FOUND ? 1 : -1; }

/* As the runtime resolves launch handles: a CUfunction's module, a
 * CUkernel's function in this context and its module, else its library. */
int gm_trace_cu_global(CUfunction f, const char *sym, CUdeviceptr *addr, size_t *size)
{
    CUlibrary lib;
    CUmodule mod;
    CUfunction kf;
    if (CALL(cu.FuncGetModule(&mod, f)) == CUDA_SUCCESS ||
        (CALL(cu.KernelGetFunction(&kf, (CUkernel)f)) == CUDA_SUCCESS &&
         CALL(cu.FuncGetModule(&mod, kf)) == CUDA_SUCCESS))
        return found(CALL(cu.ModuleGetGlobal(addr, size, mod, sym)));
    if (CALL(cu.KernelGetLibrary(&lib, (CUkernel)f)) == CUDA_SUCCESS)
        return found(CALL(cu.LibraryGetGlobal(addr, size, lib, sym)));
    return -1;
}

int gm_trace_cu_current(CUcontext *ctx, CUdevice *dev)
{
    if (CALL(cu.CtxGetCurrent(ctx)) || !*ctx) return -1;
    return CALL(cu.CtxGetDevice(dev)) == CUDA_SUCCESS ? 0 : -1;
}

static int dev_attr(CUdevice dev, CUdevice_attribute a)
{
    int v = 0;
    return CALL(cu.DeviceGetAttribute(&v, a, dev)) == CUDA_SUCCESS ? v : 0;
}

/* Unified L1 + shared bytes per SM by compute capability (not queryable). */
static uint32_t l1_shared_bytes(int major, int minor)
{
    int cc = major * 10 + minor;
    switch (cc) {
    case 70: case 72: case 80: case 87: return cc >= 80 ? 192u << 10 : 128u << 10;
    case 75: return 96u << 10;
    case 86: case 89: return 128u << 10;
    case 90: case 100: case 103: return 256u << 10;
    default: return 0;
    }
}

int gm_trace_cu_gpu(CUdevice dev, struct gm_trace_gpu *g)
{
    memset(g, 0, sizeof *g);
    if (CALL(cu.DeviceGetName(g->name, (int)sizeof g->name - 1, dev))) return -1;
    g->cc_major = (uint32_t)dev_attr(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    g->cc_minor = (uint32_t)dev_attr(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    g->sm_count = (uint32_t)dev_attr(dev, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    g->l2_bytes = (uint64_t)dev_attr(dev, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
    g->l1_shared_bytes = l1_shared_bytes((int)g->cc_major, (int)g->cc_minor);
    return 0;
}

static int func_attr(CUfunction f, CUdevice dev, CUfunction_attribute a, int *v)
{
    CUfunction kf;
    if (CALL(cu.FuncGetAttribute(v, a, f)) == CUDA_SUCCESS) return 0;
    if (CALL(cu.KernelGetFunction(&kf, (CUkernel)f)) == CUDA_SUCCESS &&
        CALL(cu.FuncGetAttribute(v, a, kf)) == CUDA_SUCCESS) return 0;
    return CALL(cu.KernelGetAttribute(v, a, (CUkernel)f, dev)) == CUDA_SUCCESS ? 0 : -1;
}

/* Smallest Hopper/Ampere carve-out step (KiB) holding `need` bytes, at
 * least 32 KiB: Nsight Compute showed 32 KiB for a kernel without shared
 * memory on the H100 (launch__shared_mem_config_size). */
static uint32_t carveout_for(uint64_t need, uint32_t max_kib)
{
    static const uint32_t steps[] = { 32, 64, 100, 132, 164, 196, 228 };
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
        if (steps[i] <= max_kib && ((uint64_t)steps[i] << 10) >= need) return steps[i] << 10;
    return max_kib << 10;
}

int gm_trace_cu_launch(CUfunction f, CUdevice dev, struct gm_trace_launch *l)
{
    int st = 0, pref = -1;
    if (func_attr(f, dev, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, &st)) return -1;
    func_attr(f, dev, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, &pref);
    l->static_shared = (uint32_t)st;
    uint32_t max_kib = (uint32_t)dev_attr(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR) >> 10;
    uint64_t per_block = (uint64_t)st + l->dyn_shared;
    uint64_t threads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    uint64_t max_threads = (uint64_t)dev_attr(dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
    uint64_t blocks = threads ? max_threads / threads : 1;
    if (blocks > 32) blocks = 32;
    uint64_t need = per_block ? blocks * (per_block + 1024) : 0;
    if (pref >= 0 && pref <= 100) {
        uint64_t want = (uint64_t)max_kib * 1024 * (uint64_t)pref / 100;
        if (want > need) need = want;
    }
    l->carveout = max_kib ? carveout_for(need, max_kib) : 0;
    return 0;
}
