/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gpumemcc: where clang's CUDA differs from nvcc in what a build sees, the
 * flags that give nvcc's behaviour: the predefined macros user code tests
 * (__NVCC__, __CUDACC_VER_MAJOR__/MINOR__/BUILD__ of the toolkit's nvcc), the
 * compatibility pre-include for .cu files (driver/gpumemcc/include/gpumem_nvcc_compat.h)
 * and host OpenMP linked with GCC's libgomp as nvcc's host compiler links it.
 * Depends on gpumemcc.h, libc and POSIX.
 */
#include <dirent.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gpumemcc.h"

/* "13.0.88" -> ver[3]; returns true when three numbers were read. */
static bool parse_version(const char *s, unsigned ver[3])
{
    return s && sscanf(s, "%u.%u.%u", &ver[0], &ver[1], &ver[2]) == 3;
}

/* CUDA 12: version.json names each component: "cuda_nvcc" : { ... "version" : "12.4.131" */
static bool version_from_json(const char *cuda, unsigned ver[3])
{
    char *path = gm_xasprintf("%s/version.json", cuda);
    FILE *f = fopen(path, "r");
    free(path);
    if (!f)
        return false;
    char buf[16384];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strstr(buf, "\"cuda_nvcc\"");
    p = p ? strstr(p, "\"version\"") : NULL;
    p = p ? strchr(p + 9, '"') : NULL;
    return p && parse_version(p + 1, ver);
}

/* CUDA 13: dist-info/nvidia_cuda_nvcc-13.0.88.dist-info */
static bool version_from_dist_info(const char *cuda, unsigned ver[3])
{
    char *path = gm_xasprintf("%s/dist-info", cuda);
    DIR *d = opendir(path);
    free(path);
    if (!d)
        return false;
    bool ok = false;
    for (struct dirent *e; !ok && (e = readdir(d));)
        if (!strncmp(e->d_name, "nvidia_cuda_nvcc-", 17))
            ok = parse_version(e->d_name + 17, ver);
    closedir(d);
    return ok;
}

/* Any toolkit: cuda.h's CUDA_VERSION (13000 -> 13.0; no build number). */
static bool version_from_cuda_h(const char *cuda, unsigned ver[3])
{
    char *path = gm_xasprintf("%s/include/cuda.h", cuda);
    FILE *f = fopen(path, "r");
    free(path);
    char line[256];
    unsigned v = 0;
    while (f && !v && fgets(line, sizeof line, f))
        if (sscanf(line, "#define CUDA_VERSION %u", &v) != 1)
            v = 0;
    if (f)
        fclose(f);
    ver[0] = v / 1000, ver[1] = v % 1000 / 10, ver[2] = 0;
    return v != 0;
}

int gm_compat_find(struct gm_toolchain *tc)
{
    unsigned *v = tc->nvcc_version;
    if (!version_from_json(tc->cuda, v) && !version_from_dist_info(tc->cuda, v) &&
        !version_from_cuda_h(tc->cuda, v))
        return gm_err("cannot tell the CUDA version of %s (no version.json, dist-info or CUDA_VERSION in cuda.h)",
                      tc->cuda);
    /* a missing header is clang's one-line "file not found", naming it */
    tc->compat_h = gm_xasprintf("%s/include/gpumem_nvcc_compat.h", tc->resource);
    return 0;
}

/* nvcc's host compiler (gcc) compiles -fopenmp for libgomp and links it.
 * clang generates OpenMP code for LLVM's libomp only: with -fopenmp=libgomp
 * it links libgomp (what nvcc's builds need at run time) and compiles the
 * host code without the OpenMP pragmas. Said once per run. */
void gm_compat_host_options(struct gm_opts *o)
{
    for (size_t i = 0; i < o->host.n; i++)
        if (!strcmp(o->host.v[i], "-fopenmp")) {
            free(o->host.v[i]);
            o->host.v[i] = gm_xstrdup("-fopenmp=libgomp");
            o->openmp_gomp = true;
        }
}

void gm_compat_warn(const struct gm_opts *o)
{
    if (o->openmp_gomp && !o->no_warn)
        fprintf(stderr, "gpumemcc: warning: -fopenmp: host code links GCC's libgomp as with nvcc, but clang "
                        "compiles OpenMP only for LLVM's libomp: host '#pragma omp' regions run on one thread "
                        "(-Xcompiler -fopenmp=libomp for parallel host code where libomp is installed)\n");
}

/* The directory of GCC's omp.h, which clang does not search: -idirafter adds
 * it after clang's own headers, so only headers clang lacks come from it. */
static char *gcc_omp_dir(const struct gm_toolchain *tc)
{
    const char *argv[] = {tc->clang, "-print-file-name=include/omp.h", NULL};
    char *p = gm_capture(argv);
    if (!p || p[0] != '/' || access(p, R_OK)) {
        free(p);
        return NULL;
    }
    char *dir = gm_xstrdup(dirname(p));
    free(p);
    return dir;
}

void gm_compat_flags(const struct gm_opts *o, const struct gm_toolchain *tc, enum gm_lang lang,
                     struct gm_strvec *cmd)
{
    const unsigned *v = tc->nvcc_version;
    gm_sv_pushf(cmd, "-D__CUDACC_VER_MAJOR__=%u", v[0]);
    gm_sv_pushf(cmd, "-D__CUDACC_VER_MINOR__=%u", v[1]);
    gm_sv_pushf(cmd, "-D__CUDACC_VER_BUILD__=%u", v[2]);
    if (lang == GM_LANG_CU) {
        gm_sv_push(cmd, "-include");
        gm_sv_push(cmd, tc->compat_h);
    } else {
        gm_sv_push(cmd, "-D__NVCC__=1"); /* no CUDA wrapper to keep it from */
    }
    if (o->openmp_gomp) {
        char *dir = gcc_omp_dir(tc);
        if (dir) {
            gm_sv_push(cmd, "-idirafter");
            gm_sv_push(cmd, dir);
        }
        free(dir);
    }
}
