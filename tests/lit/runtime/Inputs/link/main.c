// SPDX-License-Identifier: Apache-2.0
// Link-style test input: a C main (linked by gcc, clang, an MPI wrapper)
// calling kern.cu's entry point; with -DGM_LINK_MIXED also plain.cu's.
// "main: start" on stderr shows whether the runtime started before main.
#include <stdio.h>

int gm_link_run(int n);
int gm_plain_run(void);

int main(void)
{
    fprintf(stderr, "main: start\n");
    int rc = 0;
#ifdef GM_LINK_MIXED
    rc |= gm_plain_run();
#endif
    rc |= gm_link_run(1 << 16);
    return rc;
}
