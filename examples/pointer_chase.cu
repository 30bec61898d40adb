// SPDX-License-Identifier: Apache-2.0
// Example: DELTA-style pointer-chase microbenchmark. One thread follows
// next[i] = (i + stride) % n through an array of n 32-bit indices for
// `steps` dependent loads, so every load's address is known in advance:
// with footprint n*4 bytes below/above a cache's capacity the miss ratio is
// known analytically. Prints ns per load as well. Usage:
// pointer_chase [n_elements] [stride_elements] [steps] [iters].
// Depends only on CUDA.
#include "example_util.h"

__global__ void chase(const unsigned *next, unsigned *out, int steps)
{
    unsigned j = 0, sum = 0;
    for (int s = 0; s < steps; s++) {
        j = next[j];
        sum += j;
    }
    out[0] = j;
    out[1] = sum;
}

struct ctx { const unsigned *next; unsigned *out; int steps; };

static void launch(void *p)
{
    struct ctx *c = (struct ctx *)p;
    chase<<<1, 1>>>(c->next, c->out, c->steps);
}

int main(int argc, char **argv)
{
    ex_usage(argc, argv, 4, "[n_elements (default 1048576)] [stride_elements (default 32)] "
                            "[steps (default 100000)] [iters (default 3)]");
    long n = ex_arg(argc, argv, 1, 1 << 20, "n_elements");
    long stride = ex_arg(argc, argv, 2, 32, "stride_elements");
    int steps = (int)ex_arg(argc, argv, 3, 100000, "steps");
    int iters = (int)ex_arg(argc, argv, 4, 3, "iters");
    size_t bytes = (size_t)n * sizeof(unsigned);
    unsigned *h = (unsigned *)ex_malloc(bytes);
    for (long i = 0; i < n; i++) h[i] = (unsigned)((i + stride) % n);
    struct ctx c = {0, 0, steps};
    unsigned *dnext, hout[2];
    EX_CHECK(cudaMalloc((void **)&dnext, bytes));
    EX_CHECK(cudaMalloc((void **)&c.out, sizeof(hout)));
    EX_CHECK(cudaMemcpy(dnext, h, bytes, cudaMemcpyHostToDevice));
    c.next = dnext;
    float ms = ex_time_ms(launch, &c, iters);
    EX_CHECK(cudaMemcpy(hout, c.out, sizeof(hout), cudaMemcpyDeviceToHost));
    printf("chase ns_per_load: %.2f\n", ms * 1e6 / steps);
    ex_report("chase", ex_fnv(EX_FNV_INIT, hout, sizeof(hout)), ms, iters + 1);
    EX_CHECK(cudaFree(dnext));
    EX_CHECK(cudaFree(c.out));
    free(h);
    return 0;
}
