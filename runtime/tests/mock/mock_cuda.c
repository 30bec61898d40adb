/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Test double of the CUDA driver (built as libcuda.so.1) for running
 * libgpumem's CUPTI logic on a machine without a GPU: "device memory" is
 * host memory, module globals are named host buffers the test defines,
 * stream operations complete at once. Only the entry points libgpumem
 * uses exist. Used only by runtime/tests; depends on cuda.h for types.
 */
#include <cuda.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MOCK_API __attribute__((visibility("default")))

struct global { char name[128]; void *mem; size_t size; };
static struct global g_globals[64];
static int g_nglobals;
static int g_sms = 132;
static CUmodule g_module = (CUmodule)0x1000;

MOCK_API void mock_cuda_define_global(const char *name, size_t size)
{
    struct global *g = &g_globals[g_nglobals++];
    strncpy(g->name, name, sizeof g->name - 1);
    g->mem = calloc(1, size);
    g->size = size;
}

MOCK_API void *mock_cuda_global(const char *name)
{
    for (int i = 0; i < g_nglobals; i++)
        if (!strcmp(g_globals[i].name, name)) return g_globals[i].mem;
    return NULL;
}

MOCK_API void mock_cuda_set_sms(int n) { g_sms = n; }

MOCK_API CUresult cuCtxGetCurrent(CUcontext *c) { *c = (CUcontext)0x10; return CUDA_SUCCESS; }
MOCK_API CUresult cuCtxGetDevice(CUdevice *d) { *d = 0; return CUDA_SUCCESS; }
MOCK_API CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d)
{
    (void)d;
    *v = a == CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT ? g_sms
       : a == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR ? 9
       : a == CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE ? 50 << 20 : 0;
    return CUDA_SUCCESS;
}
MOCK_API CUresult cuDeviceGetName(char *n, int len, CUdevice d) { (void)d; strncpy(n, "Mock H100", (size_t)len); return CUDA_SUCCESS; }
MOCK_API CUresult cuDeviceTotalMem(size_t *b, CUdevice d) { (void)d; *b = 1ull << 34; return CUDA_SUCCESS; }
/* handles below 0x100 are "CUkernels": cuFuncGetModule rejects them, as CUDA 13 does */
MOCK_API CUresult cuFuncGetModule(CUmodule *m, CUfunction f)
{
    if ((uintptr_t)f < 0x100) return CUDA_ERROR_INVALID_HANDLE;
    *m = g_module;
    return CUDA_SUCCESS;
}
MOCK_API CUresult cuFuncGetName(const char **n, CUfunction f) { (void)f; (void)n; return CUDA_ERROR_INVALID_HANDLE; }
MOCK_API CUresult cuKernelGetFunction(CUfunction *f, CUkernel k)
{
    *f = (CUfunction)((uintptr_t)k + 0x100);
    return CUDA_SUCCESS;
}
MOCK_API CUresult cuKernelGetLibrary(CUlibrary *l, CUkernel k) { (void)k; *l = (CUlibrary)0x2000; return CUDA_SUCCESS; }
MOCK_API CUresult cuKernelGetName(const char **n, CUkernel k) { (void)k; *n = "mock_kernel"; return CUDA_SUCCESS; }

static CUresult get_global(CUdeviceptr *dp, size_t *sz, const char *name)
{
    for (int i = 0; i < g_nglobals; i++) {
        if (strcmp(g_globals[i].name, name)) continue;
        if (dp) *dp = (CUdeviceptr)(uintptr_t)g_globals[i].mem;
        if (sz) *sz = g_globals[i].size;
        return CUDA_SUCCESS;
    }
    return CUDA_ERROR_NOT_FOUND;
}
MOCK_API CUresult cuLibraryGetGlobal(CUdeviceptr *dp, size_t *sz, CUlibrary l, const char *name) { (void)l; return get_global(dp, sz, name); }
MOCK_API CUresult cuModuleGetGlobal(CUdeviceptr *dp, size_t *sz, CUmodule m, const char *name)
{
    return m == g_module ? get_global(dp, sz, name) : CUDA_ERROR_INVALID_HANDLE;
}
static long g_live; /* device buffers allocated and not freed */
MOCK_API long mock_cuda_live_buffers(void) { return g_live; }
MOCK_API CUresult cuMemAlloc(CUdeviceptr *p, size_t n)
{
    void *m = calloc(1, n ? n : 1);
    *p = (CUdeviceptr)(uintptr_t)m;
    g_live += m != NULL;
    return m ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}
MOCK_API CUresult cuMemFree(CUdeviceptr p) { g_live -= p != 0; free((void *)(uintptr_t)p); return CUDA_SUCCESS; }
MOCK_API CUresult cuMemcpyHtoD(CUdeviceptr d, const void *s, size_t n) { memcpy((void *)(uintptr_t)d, s, n); return CUDA_SUCCESS; }
MOCK_API CUresult cuMemcpyDtoH(void *d, CUdeviceptr s, size_t n) { memcpy(d, (void *)(uintptr_t)s, n); return CUDA_SUCCESS; }
MOCK_API CUresult cuMemsetD8Async(CUdeviceptr d, unsigned char v, size_t n, CUstream s)
{
    (void)s;
    memset((void *)(uintptr_t)d, v, n);
    return CUDA_SUCCESS;
}
/* MOCK_SYNC_FAIL set: every kernel "faults" (the sticky error of a bad access) */
MOCK_API CUresult cuStreamSynchronize(CUstream s) { (void)s; return getenv("MOCK_SYNC_FAIL") ? CUDA_ERROR_ILLEGAL_ADDRESS : CUDA_SUCCESS; }
MOCK_API CUresult cuStreamIsCapturing(CUstream s, CUstreamCaptureStatus *st)
{
    *st = (uintptr_t)s == 0xcafe ? CU_STREAM_CAPTURE_STATUS_ACTIVE : CU_STREAM_CAPTURE_STATUS_NONE;
    return CUDA_SUCCESS;
}
MOCK_API CUresult cuGetErrorString(CUresult r, const char **s) { (void)r; *s = "mock error"; return CUDA_SUCCESS; }
/* events: the mock's "kernel" takes 1.5 ms */
MOCK_API CUresult cuEventCreate(CUevent *e, unsigned int f) { (void)f; *e = (CUevent)calloc(1, 8); return CUDA_SUCCESS; }
MOCK_API CUresult cuEventRecord(CUevent e, CUstream s) { (void)e, (void)s; return CUDA_SUCCESS; }
MOCK_API CUresult cuEventElapsedTime(float *ms, CUevent a, CUevent b) { (void)a, (void)b; *ms = 1.5f; return CUDA_SUCCESS; }
MOCK_API CUresult cuEventDestroy(CUevent e) { free(e); return CUDA_SUCCESS; }
