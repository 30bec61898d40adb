/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gpumemcc: what build systems read from nvcc besides its compile results.
 * -v prints nvcc's "#$ NAME=value" lines (TOP, NVVMIR_LIBRARY_DIR, INCLUDES,
 * LIBRARIES, ...) before anything else, and one "-arch compute_XX" line per
 * architecture: CMake finds the toolkit, the implicit link line and the
 * default CUDA architectures from them. NVCC_PREPEND_FLAGS and
 * NVCC_APPEND_FLAGS are honoured as nvcc honours them. Depends on gpumemcc.h
 * and libc.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpumemcc.h"

static const char *cuda_root(void)
{
    const char *env = getenv("CUDA_PATH");
    return env && *env ? env : "/usr/local/cuda";
}

void gm_nvcc_env_print(void)
{
    const char *top = cuda_root(), *path = getenv("PATH");
    fprintf(stderr,
            "#$ _NVVM_BRANCH_=nvvm\n#$ _SPACE_= \n#$ _CUDART_=cudart\n#$ _HERE_=%s/bin\n"
            "#$ _THERE_=%s/bin\n#$ _TARGET_SIZE_=\n#$ _TARGET_DIR_=\n#$ TOP=%s\n"
            "#$ NVVMIR_LIBRARY_DIR=%s/nvvm/libdevice\n#$ PATH=%s\n"
            "#$ INCLUDES=\"-I%s/include\"  \n#$ LIBRARIES=  -L%s/lib64\n",
            top, top, top, top, path ? path : "", top, top);
}

/* nvcc's cicc and ptxas lines name the virtual architecture this way. */
void gm_nvcc_arch_print(const struct gm_opts *o)
{
    fputs("#$ _GPU_ARCHS_=", stderr);
    for (size_t i = 0; i < o->narchs; i++)
        fprintf(stderr, "%s-arch compute_%u%s", i ? " " : "", o->archs[i].sm, o->archs[i].suffix);
    fputc('\n', stderr);
}

/* Splits an environment value on blanks into sv (no quoting, as nvcc). */
static void split_env(struct gm_strvec *sv, const char *name)
{
    const char *v = getenv(name);
    for (; v && *v;) {
        size_t skip = strspn(v, " \t\n"), len = strcspn(v + skip, " \t\n");
        if (len) {
            char *item = strndup(v + skip, len);
            gm_sv_push(sv, item);
            free(item);
        }
        v += skip + len;
    }
}

int gm_nvcc_env_args(int *argc, char ***argv)
{
    struct gm_strvec pre = {0}, post = {0};
    split_env(&pre, "NVCC_PREPEND_FLAGS");
    split_env(&post, "NVCC_APPEND_FLAGS");
    if (!pre.n && !post.n)
        return 0;
    /* argv of the process: lives until exit, as do the copies */
    struct gm_strvec *all = calloc(1, sizeof *all);
    if (!all)
        return gm_err("out of memory");
    gm_sv_push(all, (*argv)[0]);
    gm_sv_append(all, &pre);
    for (int i = 1; i < *argc; i++)
        gm_sv_push(all, (*argv)[i]);
    gm_sv_append(all, &post);
    gm_sv_free(&pre);
    gm_sv_free(&post);
    *argc = (int)all->n;
    *argv = all->v;
    return 0;
}
