/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Uninstrumented copies (gpumemcc --gm-native-copies): finds kernel K's copy
 * K GM_NATIVE_SUFFIX next to K (same module for a CUfunction, same library
 * for a CUkernel; as a CUfunction of the current context either way), gives
 * it the attributes the program set on K, and puts it in place of K in a
 * launch's parameters at the driver API's entry callback, for launches that
 * run-time selection does not measure.
 * CUPTI hands the parameters as `const void *`; the driver launches what the
 * structure holds after the callback returns (tests/gpu/select.sh checks,
 * on the GPU, that the copy is what ran; collect.c and select.c check at
 * run time that the copies counted nothing). Graph launches are never
 * touched.
 * Depends on the CUDA driver API (via gm_cu) and CUPTI's parameter structs.
 */
#include "rt.h"

#include <stdlib.h>
#include <string.h>
#include "gpumem/sitetab.h"

/* Attributes a program sets on a kernel (cudaFuncSetAttribute) that a
 * launch needs the copy to have too: without the dynamic shared memory
 * limit, a launch with more than 48 KiB would fail. */
static const CUfunction_attribute g_attrs[4] = {
    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
    CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE};
enum { UNKNOWN = -0x7fffffff };

/* The copy as a CUfunction of the current context, and the kernel's own. */
static int find(void *fn, const char *twin, CUfunction *copy, CUfunction *orig)
{
    CUmodule mod;
    CUlibrary lib;
    CUkernel k;
    if (gm_cu.cuFuncGetModule(&mod, (CUfunction)fn) == CUDA_SUCCESS) {
        *orig = (CUfunction)fn;
        return gm_cu.cuModuleGetFunction(copy, mod, twin) == CUDA_SUCCESS;
    }
    return gm_cu.cuKernelGetLibrary(&lib, (CUkernel)fn) == CUDA_SUCCESS &&
           gm_cu.cuLibraryGetKernel(&k, lib, twin) == CUDA_SUCCESS &&
           gm_cu.cuKernelGetFunction(orig, (CUkernel)fn) == CUDA_SUCCESS &&
           gm_cu.cuKernelGetFunction(copy, k) == CUDA_SUCCESS;
}

void gm_native_lookup(struct gm_native *n, void *fn, const char *name)
{
    memset(n, 0, sizeof *n);
    n->known = 1;
    size_t len = strlen(name);
    char *twin = malloc(len + sizeof GM_NATIVE_SUFFIX);
    if (!twin) return;
    memcpy(twin, name, len);
    memcpy(twin + len, GM_NATIVE_SUFFIX, sizeof GM_NATIVE_SUFFIX);
    CUfunction copy = NULL, orig = NULL;
    if (!find(fn, twin, &copy, &orig)) copy = NULL;
    gm_debug("kernel %s: %s %s", name, twin, copy ? "found" : "absent (built without --gm-native-copies)");
    free(twin);
    n->copy = copy, n->orig = orig;
    for (int i = 0; copy && i < 4; i++)
        if (gm_cu.cuFuncGetAttribute(&n->attr[i], g_attrs[i], copy) != CUDA_SUCCESS) n->attr[i] = UNKNOWN;
}

/* The kernel's attribute values onto the copy where they differ; 0 if one
 * could not be read or set (then the kernel itself runs). */
static int mirror(struct gm_native *n)
{
    for (int i = 0; i < 4; i++) {
        int v;
        if (gm_cu.cuFuncGetAttribute(&v, g_attrs[i], n->orig) != CUDA_SUCCESS) {
            if (n->attr[i] == UNKNOWN) continue; /* neither has it (older driver) */
            return 0;
        }
        if (v == n->attr[i]) continue;
        if (gm_cu.cuFuncSetAttribute(n->copy, g_attrs[i], v) != CUDA_SUCCESS) return 0;
        n->attr[i] = v;
    }
    return 1;
}


int gm_native_switch(struct gm_native *n, CUpti_CallbackId cbid, const CUpti_CallbackData *cb)
{
    void *p = (void *)(uintptr_t)cb->functionParams; /* the driver's own copy of the arguments */
    if (!p || !n->copy || !mirror(n)) return 0;
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
        ((cuLaunchKernelEx_params *)p)->f = n->copy;
        return 1;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
        ((cuLaunchKernel_params *)p)->f = n->copy;
        return 1;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
        ((cuLaunchCooperativeKernel_params *)p)->f = n->copy;
        return 1;
    default:
        return 0;
    }
}
