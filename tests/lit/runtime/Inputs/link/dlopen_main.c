// SPDX-License-Identifier: Apache-2.0
// Link-style test input: a host-only C program that loads shared libraries
// of instrumented objects with dlopen (RTLD_LOCAL, as a Python extension or
// a plugin host does) and calls each one's gm_link_run. With
// -DGM_LINK_LATE (linked with -lcudart) it initialises CUDA first, so the
// runtime arrives in a process whose CUDA context exists already.
#include <dlfcn.h>
#include <stdio.h>

#ifdef GM_LINK_LATE
int cudaFree(void *p);
#endif

int main(int argc, char **argv)
{
    fprintf(stderr, "main: start\n");
    int rc = argc < 2 ? 2 : 0;
#ifdef GM_LINK_LATE
    fprintf(stderr, "main: cudaFree(0) = %d\n", cudaFree(0));
#endif
    for (int i = 1; i < argc && !rc; i++) {
        void *h = dlopen(argv[i], RTLD_NOW | RTLD_LOCAL);
        int (*run)(int) = h ? (int (*)(int))dlsym(h, "gm_link_run") : NULL;
        if (!run) {
            fprintf(stderr, "main: %s\n", dlerror());
            return 2;
        }
        rc = run(1 << 16);
    }
    return rc;
}
