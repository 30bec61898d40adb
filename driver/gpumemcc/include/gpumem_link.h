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
 * else "libgpumem.so" on the library search path. If none loads (or the
 * library named is not libgpumem: it lacks gm_flush_report), one line on
 * stderr names the cause and the program runs on unmeasured.
 * GPUMEM_DISABLE (set, non-empty, not "0") loads nothing.
 * Host code only; includes no header. Depends on glibc's dlopen, getenv,
 * write (glibc >= 2.34: dlopen is in libc, no -ldl needed).
 * docs/linking.md describes it.
 */
#ifndef GPUMEM_LINK_H
#define GPUMEM_LINK_H
#pragma GCC system_header

#if !defined(__CUDA_ARCH__) && defined(GM_LINK_RUNTIME)
#ifdef __cplusplus
#define GM_LINK_C extern "C"
#define GM_LINK_FN extern "C" inline
#else
#define GM_LINK_C extern
#define GM_LINK_FN static inline
#endif

/* libc under private names (asm labels): this header includes no header and
 * declares nothing a program could collide with or come to rely on, so the
 * program sees the same declarations as under --gm-off. glibc's values of
 * RTLD_NOW, RTLD_NOLOAD, RTLD_GLOBAL. */
GM_LINK_C void *gm_link_dlopen_(const char *file, int mode) __asm__("dlopen");
GM_LINK_C char *gm_link_dlerror_(void) __asm__("dlerror");
GM_LINK_C void *gm_link_dlsym_(void *handle, const char *name) __asm__("dlsym");
GM_LINK_C int gm_link_dlclose_(void *handle) __asm__("dlclose");
GM_LINK_C char *gm_link_getenv_(const char *name) __asm__("getenv");
GM_LINK_C long gm_link_write_(int fd, const void *buf, __SIZE_TYPE__ n) __asm__("write");
#define GM_LINK_OPEN (0x002 | 0x100)
#define GM_LINK_NOLOAD 0x004

/* appends s to buf (size cap, used *len) */
GM_LINK_FN void gm_link_cat_v1(char *buf, __SIZE_TYPE__ cap, __SIZE_TYPE__ *len, const char *s)
{
    __SIZE_TYPE__ n = __builtin_strlen(s);
    if (n > cap - 1 - *len)
        n = cap - 1 - *len;
    __builtin_memcpy(buf + *len, s, n);
    *len += n;
    buf[*len] = '\0';
}

/* 1 if path loads and is libgpumem; else 0, with the reason appended to msg */
GM_LINK_FN int gm_link_try_v1(const char *path, char *msg, __SIZE_TYPE__ *len)
{
    void *h = gm_link_dlopen_(path, GM_LINK_OPEN);
    if (h && gm_link_dlsym_(h, "gm_flush_report"))
        return 1;
    if (h) { /* some other library */
        gm_link_dlclose_(h);
        gm_link_cat_v1(msg, 600, len, path);
        gm_link_cat_v1(msg, 600, len, ": not libgpumem, no gm_flush_report");
    } else {
        gm_link_cat_v1(msg, 600, len, gm_link_dlerror_());
    }
    return 0;
}

/* One copy per linked image (an inline function: the linker merges them),
 * so several instrumented objects in one image try, and complain, once. */
GM_LINK_FN void gm_link_load_runtime_v1(const char *built)
{
    static int tried;
    if (tried)
        return;
    tried = 1;
    const char *off = gm_link_getenv_("GPUMEM_DISABLE");
    if (off && *off && !(off[0] == '0' && off[1] == '\0'))
        return;
    if (gm_link_dlopen_("libgpumem.so", GM_LINK_OPEN | GM_LINK_NOLOAD))
        return; /* already in the process: one runtime */
    const char *env = gm_link_getenv_("GPUMEM_RUNTIME");
    int by_env = env && *env;
    char msg[768] = "gpumem: cannot load the runtime (";
    __SIZE_TYPE__ len = __builtin_strlen(msg), first;
    if (gm_link_try_v1(by_env ? env : built, msg, &len))
        return;
    first = len; /* the reason reported is the first candidate's */
    if (!by_env && gm_link_try_v1("libgpumem.so", msg, &len))
        return;
    msg[len = first] = '\0';
    gm_link_cat_v1(msg, sizeof msg, &len, "); instrumented kernels run unmeasured "
                   "(set GPUMEM_RUNTIME to the path of libgpumem.so)\n");
    gm_link_write_(2, msg, len);
}

__attribute__((constructor(101))) static void gm_link_ctor(void)
{
    gm_link_load_runtime_v1(GM_LINK_RUNTIME);
}

#undef GM_LINK_C
#undef GM_LINK_FN
#undef GM_LINK_OPEN
#undef GM_LINK_NOLOAD
#endif
#endif
