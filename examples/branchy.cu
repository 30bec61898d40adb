// SPDX-License-Identifier: Apache-2.0
// Example: branch divergence. Each thread takes lane-dependent paths: an
// if/else on lane parity (every warp diverges), a switch on lane % 4, a
// uniform branch on the block index (never diverges) and a data-dependent
// loop of 1 + (lane % 8) iterations. Integer arithmetic only, so the result
// is exact. Usage: branchy [n] [iters]. Depends only on CUDA.
#include "example_util.h"

__global__ void branchy(const unsigned *in, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned lane = threadIdx.x & 31u, v = in[i];
    if (lane & 1u)                  /* divergent: odd vs even lanes */
        v = v * 3u + 1u;
    else
        v = v ^ 0x5a5a5a5au;
    switch (lane & 3u) {            /* divergent: four ways */
    case 0: v += 11u; break;
    case 1: v = (v << 3) | (v >> 29); break;
    case 2: v -= lane; break;
    default: v *= 2654435761u; break;
    }
    if (blockIdx.x & 1u)            /* uniform per warp */
        v = ~v;
    for (unsigned k = 0; k <= (lane & 7u); k++)   /* lane-dependent trip count */
        v = v * 1664525u + 1013904223u;
    out[i] = v;
}

struct ctx { const unsigned *in; unsigned *out; int n; };

static void launch(void *p)
{
    struct ctx *c = (struct ctx *)p;
    branchy<<<(c->n + 255) / 256, 256>>>(c->in, c->out, c->n);
}

int main(int argc, char **argv)
{
    ex_usage(argc, argv, 2, "[n (default 1048576)] [iters (default 10)]");
    int n = (int)ex_arg(argc, argv, 1, 1 << 20, "n");
    int iters = (int)ex_arg(argc, argv, 2, 10, "iters");
    size_t bytes = (size_t)n * sizeof(unsigned);
    unsigned *h = (unsigned *)ex_malloc(bytes);
    uint64_t seed = 99;
    for (int i = 0; i < n; i++) h[i] = ex_rand(&seed);
    struct ctx c = {0, 0, n};
    unsigned *din;
    EX_CHECK(cudaMalloc((void **)&din, bytes));
    EX_CHECK(cudaMalloc((void **)&c.out, bytes));
    EX_CHECK(cudaMemcpy(din, h, bytes, cudaMemcpyHostToDevice));
    c.in = din;
    float ms = ex_time_ms(launch, &c, iters);
    ex_report("branchy", ex_fnv_dev(EX_FNV_INIT, c.out, bytes), ms, iters + 1);
    EX_CHECK(cudaFree(din));
    EX_CHECK(cudaFree(c.out));
    free(h);
    return 0;
}
