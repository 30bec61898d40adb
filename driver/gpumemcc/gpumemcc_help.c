/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gpumemcc: --help (generated from the option table, so every option is
 * listed) and --version. Depends on gpumemcc.h and libc only.
 */
#include <stdio.h>
#include <string.h>
#include "gpumemcc.h"

#ifndef GM_VERSION
#define GM_VERSION "unknown"
#endif

static void print_row(const struct gm_optdef *d)
{
    char names[96];
    const char *mv = d->metavar;
    if (d->lng && d->shrt && strcmp(d->lng, d->shrt))
        snprintf(names, sizeof names, "--%s, -%s%s%s", d->lng, d->shrt, mv ? " " : "", mv ? mv : "");
    else
        snprintf(names, sizeof names, "%s%s%s%s", d->shrt && !d->lng ? "-" : "--",
                 d->lng ? d->lng : d->shrt, mv ? "=" : "", mv ? mv : "");
    printf("  %-44s %s\n", names, d->help);
}

void gm_print_help(void)
{
    puts("Usage: gpumemcc [nvcc options] [--gm-* options] inputs (.cu .c .cpp .o .a .so)\n"
         "nvcc-compatible driver: compiles CUDA with clang and instruments device code with\n"
         "the gpumem pass. Values may follow as '-o x', '-o=x' or, for one-letter options,\n"
         "'-Ix'; long (--x) and short (-x) spellings are both accepted.\n");
    for (const struct gm_optdef *d = gm_optdefs; d->set; d++)
        if (d->help)
            print_row(d);
    puts("\nnvcc options that gpumemcc cannot honour are rejected by name:");
    int col = 2;
    fputs(" ", stdout);
    for (const struct gm_optdef *d = gm_optdefs; d->set; d++)
        if (!d->help && d->shrt && strcmp(d->shrt, "extended-lambda")) {
            col += (int)strlen(d->shrt) + 2;
            if (col > 78) {
                fputs("\n ", stdout);
                col = 2 + (int)strlen(d->shrt) + 2;
            }
            printf(" -%s", d->shrt);
        }
    puts("\n\nEnvironment: CUDA_PATH (CUDA toolkit, default /usr/local/cuda), GM_CLANG (clang++\n"
         "to use). Pass plugin, handler bitcode, headers and libgpumem are found relative to\n"
         "the gpumemcc executable (../lib/gpumem, ../include, ../lib). See docs/gpumemcc.md.");
}

/* The nvcc lines are what build systems match to treat gpumemcc as nvcc
 * (CMake: "nvcc: NVIDIA (R) Cuda compiler driver" and "V13.0.88"); the
 * version is that of the toolkit gpumemcc compiles against. */
void gm_print_version(const struct gm_toolchain *tc)
{
    const unsigned *v = tc->nvcc_version;
    printf("gpumemcc (gpumem) %s: nvcc-compatible driver, compiling with %s\n"
           "nvcc: NVIDIA (R) Cuda compiler driver (command line and version of the toolkit at %s)\n"
           "Cuda compilation tools, release %u.%u, V%u.%u.%u\n",
           GM_VERSION, tc->clang, tc->cuda, v[0], v[1], v[0], v[1], v[2]);
}
