/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Opens the CUDA driver (libcuda.so.1) and CUPTI (libcupti.so.13 or the
 * newest found) at run time and resolves the entry points libgpumem uses.
 * Run-time binding keeps an instrumented program startable where either is
 * missing: the runtime then steps aside. Depends on CUDA/CUPTI headers for
 * types only; never on LLVM.
 */
#include "rt.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

GM_HIDDEN struct gm_cuda_api gm_cu;

#define GM_STR_(x) #x
#define GM_STR(x) GM_STR_(x)

static void *open_first(const char *const *names)
{
    for (; *names; names++) {
        void *h = dlopen(*names, RTLD_NOW | RTLD_GLOBAL);
        if (h) return h;
    }
    return NULL;
}

static void *open_cupti(void)
{
    static const char *const plain[] = {"libcupti.so.13", "libcupti.so", NULL};
    void *h = open_first(plain);
    if (h) return h;
    const char *roots[] = {getenv("CUDA_PATH"), getenv("CUDA_HOME"), "/usr/local/cuda", NULL};
    char path[1024];
    for (int i = 0; i < 3; i++) {
        if (!roots[i]) continue;
        const char *sub[] = {"lib64/libcupti.so", "extras/CUPTI/lib64/libcupti.so"};
        for (int j = 0; j < 2; j++) {
            snprintf(path, sizeof path, "%s/%s", roots[i], sub[j]);
            if ((h = dlopen(path, RTLD_NOW | RTLD_GLOBAL))) return h;
        }
    }
    snprintf(path, sizeof path, "%s/libcupti.so", GM_CUDA_LIB64);
    return dlopen(path, RTLD_NOW | RTLD_GLOBAL);
}

int gm_cuda_api_load(char *err, size_t errlen)
{
    static const char *const cuda[] = {"libcuda.so.1", "libcuda.so", NULL};
    void *hc = open_first(cuda);
    if (!hc) {
        snprintf(err, errlen, "CUDA driver not found (libcuda.so.1: %s)", dlerror());
        return -1;
    }
    void *hp = open_cupti();
    if (!hp) {
        snprintf(err, errlen, "CUPTI not found (libcupti.so; set CUDA_PATH): %s", dlerror());
        return -1;
    }
#define GM_LOAD(lib, libname, fn)                                             \
    if (!(*(void **)&gm_cu.fn = dlsym(lib, GM_STR(fn)))) {                    \
        snprintf(err, errlen, "%s lacks %s (driver or CUPTI too old)",        \
                 libname, GM_STR(fn));                                        \
        return -1;                                                            \
    }
#define GM_LOAD_CU(fn) GM_LOAD(hc, "libcuda", fn)
#define GM_LOAD_CUPTI(fn) GM_LOAD(hp, "libcupti", fn)
    GM_CU_FUNCS(GM_LOAD_CU)
    GM_CUPTI_FUNCS(GM_LOAD_CUPTI)
    *(void **)&gm_cu.cuptiSubscribe_v2 = dlsym(hp, "cuptiSubscribe_v2"); /* CUDA 13+ */
#define GM_LOAD_OPTIONAL(fn) *(void **)&gm_cu.fn = dlsym(hp, GM_STR(fn));
    GM_CUPTI_ACTIVITY_FUNCS(GM_LOAD_OPTIONAL)
    return 0;
}

const char *gm_cu_err(CUresult r)
{
    const char *s = NULL;
    if (gm_cu.cuGetErrorString && gm_cu.cuGetErrorString(r, &s) == CUDA_SUCCESS && s) return s;
    return "unknown CUDA error";
}
