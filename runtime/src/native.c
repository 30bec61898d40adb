/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Uninstrumented copies (gpumemcc --gm-native-copies): finds kernel K's copy
 * K GM_NATIVE_SUFFIX next to K (same module for a CUfunction, same library
 * for a CUkernel, so the copy is a handle of the kind the program passed),
 * and puts it in place of K in a launch's parameters at the driver API's
 * entry callback, for launches that run-time selection does not measure.
 * CUPTI hands the parameters as `const void *`; the driver launches what the
 * structure holds after the callback returns (tests/gpu/select.sh checks,
 * on the GPU, that the copy is what ran). Graph launches are never touched.
 * Depends on the CUDA driver API (via gm_cu) and CUPTI's parameter structs.
 */
#include "rt.h"

#include <stdlib.h>
#include <string.h>
#include "gpumem/sitetab.h"

void *gm_native_lookup(void *fn, const char *name)
{
    size_t n = strlen(name);
    char *twin = malloc(n + sizeof GM_NATIVE_SUFFIX);
    if (!twin) return NULL;
    memcpy(twin, name, n);
    memcpy(twin + n, GM_NATIVE_SUFFIX, sizeof GM_NATIVE_SUFFIX);
    void *found = NULL;
    CUmodule mod;
    CUlibrary lib;
    CUfunction f;
    CUkernel k;
    if (gm_cu.cuFuncGetModule(&mod, (CUfunction)fn) == CUDA_SUCCESS) {
        if (gm_cu.cuModuleGetFunction(&f, mod, twin) == CUDA_SUCCESS) found = f;
    } else if (gm_cu.cuKernelGetLibrary(&lib, (CUkernel)fn) == CUDA_SUCCESS &&
               gm_cu.cuLibraryGetKernel(&k, lib, twin) == CUDA_SUCCESS) {
        found = k;
    }
    gm_debug("kernel %s: %s %s", name, twin, found ? "found" : "absent (built without --gm-native-copies)");
    free(twin);
    return found;
}

int gm_native_substitute(CUpti_CallbackId cbid, const CUpti_CallbackData *cb, void *native)
{
    void *p = (void *)(uintptr_t)cb->functionParams; /* the driver's own copy of the arguments */
    if (!p || !native) return 0;
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
        ((cuLaunchKernelEx_params *)p)->f = (CUfunction)native;
        return 1;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
        ((cuLaunchKernel_params *)p)->f = (CUfunction)native;
        return 1;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
        ((cuLaunchCooperativeKernel_params *)p)->f = (CUfunction)native;
        return 1;
    default:
        return 0;
    }
}
