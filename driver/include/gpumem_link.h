/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gpumemcc's link preinclude: makes every instrumented object carry its
 * runtime, so a program whose objects came from `gpumemcc -c` is measured
 * whatever tool links it (gcc, g++, clang, an MPI wrapper, ar, g++ -shared
 * and dlopen). gpumemcc adds `-include` of this file and
 * -DGM_LINK_RUNTIME="<its libdir>/libgpumem.so" to host compilations of
 * instrumented CUDA sources (not with --gm-off).
 *
 * Before any ordinary constructor of the image it is linked into (priority
 * 101: before the CUDA registration constructors, so the runtime subscribes
 * to CUPTI before the first module load or launch), it loads libgpumem
 * unless one is loaded already (a gpumemcc link, another instrumented object
 * or library): GPUMEM_RUNTIME if set, else the path recorded at build time,
 * else "libgpumem.so" on the library search path. If none loads, one line
 * on stderr names the cause and the program runs on unmeasured.
 * GPUMEM_DISABLE (set, non-empty, not "0") loads nothing.
 * Host code only; depends on libc's dlopen (glibc >= 2.34: no -ldl needed).
 * docs/linking.md describes it.
 */
#ifndef GPUMEM_LINK_H
#define GPUMEM_LINK_H
#pragma GCC system_header

#if !defined(__CUDA_ARCH__) && defined(GM_LINK_RUNTIME)
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
#define GM_LINK_FN extern "C" inline
#else
#define GM_LINK_FN static inline
#endif

#define GM_LINK_FLAGS (RTLD_NOW | RTLD_GLOBAL)

/* One copy per linked image (an inline function: the linker merges them),
 * so several instrumented objects try, and complain, once. */
GM_LINK_FN void gm_link_load_runtime_v1(const char *built)
{
    static int tried;
    if (tried)
        return;
    tried = 1;
    const char *off = getenv("GPUMEM_DISABLE");
    if (off && *off && strcmp(off, "0") != 0)
        return;
    if (dlopen("libgpumem.so", GM_LINK_FLAGS | RTLD_NOLOAD))
        return; /* already in the process: one runtime */
    const char *env = getenv("GPUMEM_RUNTIME");
    const char *path = env && *env ? env : built;
    char why[512];
    if (dlopen(path, GM_LINK_FLAGS))
        return;
    snprintf(why, sizeof why, "%s", dlerror());
    if (!(env && *env) && dlopen("libgpumem.so", GM_LINK_FLAGS))
        return;
    fprintf(stderr, "gpumem: cannot load the runtime (%s); instrumented kernels run "
            "unmeasured (set GPUMEM_RUNTIME to the path of libgpumem.so)\n", why);
}

__attribute__((constructor(101))) static void gm_link_ctor(void)
{
    gm_link_load_runtime_v1(GM_LINK_RUNTIME);
}

#undef GM_LINK_FN
#undef GM_LINK_FLAGS
#endif
#endif
