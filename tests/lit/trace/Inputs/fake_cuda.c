/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A fake libcuda.so.1 for testing the tracer's host side on a CPU: "device"
 * memory is host memory, copies are memcpy, streams are synchronous, module
 * globals are host variables registered by the test (fake_cuda_set_global).
 * Only the entry points runtime/trace_cuda.c resolves. Test input only.
 */
#include <cuda.h>
#include <stdlib.h>
#include <string.h>

static struct { const char *name; void *addr; size_t size; } g_globals[16];
static int g_nglobals;

void fake_cuda_set_global(const char *name, void *addr, size_t size)
{
    g_globals[g_nglobals].name = name;
    g_globals[g_nglobals].addr = addr;
    g_globals[g_nglobals++].size = size;
}

CUresult cuCtxGetCurrent(CUcontext *c) { *c = (CUcontext)0x1; return CUDA_SUCCESS; }
CUresult cuCtxSetCurrent(CUcontext c) { (void)c; return CUDA_SUCCESS; }
CUresult cuCtxGetDevice(CUdevice *d) { *d = 0; return CUDA_SUCCESS; }
CUresult cuCtxGetStreamPriorityRange(int *lo, int *hi) { *lo = 0; *hi = -1; return CUDA_SUCCESS; }
CUresult cuStreamCreateWithPriority(CUstream *s, unsigned f, int p)
{
    (void)f; (void)p;
    *s = (CUstream)0x2;
    return CUDA_SUCCESS;
}
CUresult cuStreamSynchronize(CUstream s) { (void)s; return CUDA_SUCCESS; }
CUresult cuStreamDestroy_v2(CUstream s) { (void)s; return CUDA_SUCCESS; }
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n)
{
    void *m = aligned_alloc(256, (n + 255) / 256 * 256);
    if (!m) return CUDA_ERROR_OUT_OF_MEMORY;
    memset(m, 0xab, n);     /* garbage, as fresh device memory may be */
    *p = (CUdeviceptr)m;
    return CUDA_SUCCESS;
}
CUresult cuMemFree_v2(CUdeviceptr p) { free((void *)p); return CUDA_SUCCESS; }
CUresult cuMemHostAlloc(void **p, size_t n, unsigned f)
{
    (void)f;
    *p = calloc(1, n);
    return *p ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}
CUresult cuMemFreeHost(void *p) { free(p); return CUDA_SUCCESS; }
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr d, const void *s, size_t n, CUstream st)
{
    (void)st;
    memcpy((void *)d, s, n);
    return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoHAsync_v2(void *d, CUdeviceptr s, size_t n, CUstream st)
{
    (void)st;
    memcpy(d, (const void *)s, n);
    return CUDA_SUCCESS;
}
CUresult cuMemsetD8Async(CUdeviceptr d, unsigned char v, size_t n, CUstream st)
{
    (void)st;
    memset((void *)d, v, n);
    return CUDA_SUCCESS;
}
CUresult cuKernelGetLibrary(CUlibrary *l, CUkernel k) { (void)l; (void)k; return CUDA_ERROR_INVALID_HANDLE; }
CUresult cuKernelGetFunction(CUfunction *f, CUkernel k) { (void)f; (void)k; return CUDA_ERROR_INVALID_HANDLE; }
CUresult cuLibraryGetGlobal(CUdeviceptr *p, size_t *n, CUlibrary l, const char *s)
{
    (void)p; (void)n; (void)l; (void)s;
    return CUDA_ERROR_INVALID_HANDLE;
}
CUresult cuFuncGetModule(CUmodule *m, CUfunction f) { (void)f; *m = (CUmodule)0x3; return CUDA_SUCCESS; }
CUresult cuModuleGetGlobal_v2(CUdeviceptr *p, size_t *n, CUmodule m, const char *name)
{
    (void)m;
    for (int i = 0; i < g_nglobals; i++) {
        if (strcmp(g_globals[i].name, name)) continue;
        *p = (CUdeviceptr)g_globals[i].addr;
        *n = g_globals[i].size;
        return CUDA_SUCCESS;
    }
    return CUDA_ERROR_NOT_FOUND;
}
CUresult cuKernelGetAttribute(int *v, CUfunction_attribute a, CUkernel k, CUdevice d)
{
    (void)v; (void)a; (void)k; (void)d;
    return CUDA_ERROR_INVALID_HANDLE;
}
CUresult cuFuncGetAttribute(int *v, CUfunction_attribute a, CUfunction f)
{
    (void)f;
    *v = a == CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES ? 8192 : -1;
    return CUDA_SUCCESS;
}
CUresult cuDeviceGetName(char *n, int len, CUdevice d)
{
    (void)d;
    strncpy(n, "Fake GPU", (size_t)len);
    return CUDA_SUCCESS;
}
CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d)
{
    (void)d;
    switch (a) {
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *v = 9; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *v = 0; break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *v = 132; break;
    case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE: *v = 50 << 20; break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR: *v = 228 << 10; break;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR: *v = 2048; break;
    default: *v = 0;
    }
    return CUDA_SUCCESS;
}
CUresult cuGetErrorName(CUresult r, const char **s) { (void)r; *s = "CUDA_ERROR_FAKE"; return CUDA_SUCCESS; }
/* events: streams are synchronous, so an event is complete once recorded */
CUresult cuEventCreate(CUevent *e, unsigned f)
{
    (void)f;
    *e = (CUevent)calloc(1, 8);
    return *e ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}
CUresult cuEventRecord(CUevent e, CUstream s) { (void)e; (void)s; return CUDA_SUCCESS; }
CUresult cuEventQuery(CUevent e) { (void)e; return CUDA_SUCCESS; }
CUresult cuEventDestroy_v2(CUevent e) { free(e); return CUDA_SUCCESS; }
CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned f) { (void)s; (void)e; (void)f; return CUDA_SUCCESS; }
