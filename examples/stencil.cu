// SPDX-License-Identifier: Apache-2.0
// Example: 5-point stencil on an n x n float grid (n a multiple of 32),
// out = 0.5*c + 0.125*(north+south+east+west) on interior points, one thread
// per point in 32x8 blocks; boundary points are not written. Inputs are
// integers 0..255, so every result is exact. Usage: stencil [n] [iters].
// Depends only on CUDA.
#include "example_util.h"

__global__ void stencil5(const float *in, float *out, int n)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x > 0 && x < n - 1 && y > 0 && y < n - 1) {
        size_t i = (size_t)y * n + x;
        out[i] = 0.5f * in[i] + 0.125f * (in[i - n] + in[i + n] + in[i - 1] + in[i + 1]);
    }
}

struct ctx { const float *in; float *out; int n; };

static void launch(void *p)
{
    struct ctx *c = (struct ctx *)p;
    dim3 grid(c->n / 32, c->n / 8), block(32, 8);
    stencil5<<<grid, block>>>(c->in, c->out, c->n);
}

int main(int argc, char **argv)
{
    ex_usage(argc, argv, 2, "[n (multiple of 32, default 2048)] [iters (default 10)]");
    int n = (int)ex_arg(argc, argv, 1, 2048, "n");
    int iters = (int)ex_arg(argc, argv, 2, 10, "iters");
    if (n % 32) {
        fprintf(stderr, "%s: n must be a multiple of 32\n", argv[0]);
        return 1;
    }
    size_t bytes = (size_t)n * n * sizeof(float);
    float *h = (float *)ex_malloc(bytes);
    uint64_t seed = 5;
    for (size_t i = 0; i < (size_t)n * n; i++) h[i] = (float)(ex_rand(&seed) & 255u);
    struct ctx c = {0, 0, n};
    float *din;
    EX_CHECK(cudaMalloc((void **)&din, bytes));
    EX_CHECK(cudaMalloc((void **)&c.out, bytes));
    EX_CHECK(cudaMemcpy(din, h, bytes, cudaMemcpyHostToDevice));
    EX_CHECK(cudaMemset(c.out, 0, bytes));
    c.in = din;
    float ms = ex_time_ms(launch, &c, iters);
    ex_report("stencil5", ex_fnv_dev(EX_FNV_INIT, c.out, bytes), ms, iters + 1);
    EX_CHECK(cudaFree(din));
    EX_CHECK(cudaFree(c.out));
    free(h);
    return 0;
}
