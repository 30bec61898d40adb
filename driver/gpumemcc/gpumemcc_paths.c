/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gpumemcc: finds everything relative to its own executable (<exe>/../lib/gpumem,
 * <exe>/../include, <exe>/../lib) so the same binary works from the build tree
 * and from an install prefix, plus CUDA (CUDA_PATH, else /usr/local/cuda),
 * clang (GM_CLANG, else the configured one, else clang++-22 on PATH) and the
 * GCC installation of -ccbin. Depends on gpumemcc.h, libc and POSIX.
 */
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "gpumemcc.h"

#ifndef GM_CLANG_DEFAULT
#define GM_CLANG_DEFAULT "clang++-22"
#endif
#ifndef GM_INSTALL_LIBDIR
#define GM_INSTALL_LIBDIR "lib"
#endif

static bool is_dir(const char *p)
{
    struct stat st;
    return !stat(p, &st) && S_ISDIR(st.st_mode);
}

static bool is_exec(const char *p)
{
    struct stat st;
    return !stat(p, &st) && S_ISREG(st.st_mode) && !access(p, X_OK);
}

/* name with a '/' is taken as a path; otherwise searched on PATH. */
char *gm_which(const char *name)
{
    if (strchr(name, '/'))
        return is_exec(name) ? gm_xstrdup(name) : NULL;
    const char *path = getenv("PATH");
    struct gm_strvec dirs = {0};
    gm_sv_split(&dirs, path ? path : "/usr/bin:/bin", ':');
    char *found = NULL;
    for (size_t i = 0; i < dirs.n && !found; i++) {
        char *p = gm_xasprintf("%s/%s", dirs.v[i], name);
        if (is_exec(p))
            found = p;
        else
            free(p);
    }
    gm_sv_free(&dirs);
    return found;
}

static int find_self(struct gm_toolchain *tc)
{
    char buf[PATH_MAX];
    if (!realpath("/proc/self/exe", buf))
        return gm_err("cannot locate the gpumemcc executable (/proc/self/exe)");
    tc->exe = gm_xstrdup(buf);
    char *bindir = dirname(buf);
    tc->prefix = gm_xstrdup(dirname(bindir));
    tc->libdir = gm_xasprintf("%s/lib", tc->prefix);
    char *alt = gm_xasprintf("%s/%s", tc->prefix, GM_INSTALL_LIBDIR);
    char *alt_res = gm_xasprintf("%s/gpumem", alt);
    if (!is_dir(tc->libdir) || (strcmp(alt, tc->libdir) && is_dir(alt_res))) {
        free(tc->libdir);
        tc->libdir = gm_xstrdup(alt);
    }
    free(alt);
    free(alt_res);
    tc->resource = gm_xasprintf("%s/gpumem", tc->libdir);
    tc->include = gm_xasprintf("%s/include", tc->prefix);
    return 0;
}

static int find_cuda(struct gm_toolchain *tc)
{
    const char *env = getenv("CUDA_PATH");
    tc->cuda = gm_xstrdup(env && *env ? env : "/usr/local/cuda");
    static const char *need[] = {"include/cuda.h", "bin/ptxas", "bin/fatbinary"};
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++) {
        char *p = gm_xasprintf("%s/%s", tc->cuda, need[i]);
        int missing = access(p, F_OK);
        if (missing) {
            gm_err("CUDA toolkit not found: %s is missing (set CUDA_PATH)", p);
            free(p);
            return GM_EXIT_USAGE;
        }
        free(p);
    }
    /* CUDA 13 moved cub/, thrust/, cuda/std and nv/ here; nvcc.profile adds
     * it with -isystem, so nvcc users never name it. */
    char *cccl = gm_xasprintf("%s/include/cccl", tc->cuda);
    if (is_dir(cccl))
        tc->cccl = cccl;
    else
        free(cccl);
    return 0;
}

static int find_clang(struct gm_toolchain *tc)
{
    const char *env = getenv("GM_CLANG");
    if (env && *env) {
        if (!(tc->clang = gm_which(env)))
            return gm_err("GM_CLANG=%s: not an executable", env);
        return 0;
    }
    tc->clang = gm_which(GM_CLANG_DEFAULT);
    if (!tc->clang)
        tc->clang = gm_which("clang++-22");
    return tc->clang ? 0 : gm_err("clang++-22 not found (install clang-22 or set GM_CLANG)");
}

/* -ccbin g++-12: host code is compiled by clang against that GCC's libstdc++. */
static int find_ccbin(struct gm_toolchain *tc, const char *ccbin)
{
    char *path = gm_which(ccbin);
    if (!path)
        return gm_err("-ccbin: host compiler '%s' not found", ccbin);
    char *base = strrchr(path, '/');
    if (strstr(base ? base : path, "clang")) {
        free(path);
        return 0;
    }
    const char *argv[] = {path, "-print-libgcc-file-name", NULL};
    char *libgcc = gm_capture(argv);
    free(path);
    char *dir = libgcc ? gm_xstrdup(dirname(libgcc)) : NULL;
    char *crt = dir ? gm_xasprintf("%s/crtbegin.o", dir) : NULL;
    int ok = crt && !access(crt, F_OK);
    free(libgcc);
    free(crt);
    if (!ok) {
        free(dir);
        return gm_err("-ccbin %s: cannot find its GCC installation (-print-libgcc-file-name)", ccbin);
    }
    tc->gcc_install_dir = dir;
    return 0;
}

int gm_toolchain_find(struct gm_toolchain *tc, const struct gm_opts *o)
{
    memset(tc, 0, sizeof *tc);
    int rc = find_self(tc);
    if (!rc)
        rc = find_cuda(tc);
    if (!rc)
        rc = find_clang(tc);
    if (!rc && o->ccbin)
        rc = find_ccbin(tc, o->ccbin);
    return rc;
}

void gm_toolchain_free(struct gm_toolchain *tc)
{
    char **fields[] = {&tc->exe, &tc->prefix, &tc->resource, &tc->include, &tc->libdir,
                       &tc->cuda, &tc->clang, &tc->gcc_install_dir, &tc->cccl,
                       &tc->compat_h};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        free(*fields[i]);
        *fields[i] = NULL;
    }
}
