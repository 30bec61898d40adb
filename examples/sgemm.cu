// SPDX-License-Identifier: Apache-2.0
// Example: naive SGEMM C = A * B for n x n row-major matrices, one thread per
// element of C in 16x16 blocks, inner loop over k with two global loads.
// Inputs are small integers (0..7), so every sum is exact for n <= 4096.
// Usage: sgemm [n (multiple of 16)] [iters]. Depends only on CUDA.
#include "example_util.h"

__global__ void sgemm_naive(const float *a, const float *b, float *c, int n)
{
    int row = blockIdx.y * 16 + threadIdx.y;
    int col = blockIdx.x * 16 + threadIdx.x;
    float sum = 0.0f;
    for (int k = 0; k < n; k++) sum += a[row * n + k] * b[k * n + col];
    c[row * n + col] = sum;
}

struct ctx { const float *a, *b; float *c; int n; };

static void launch(void *p)
{
    struct ctx *x = (struct ctx *)p;
    dim3 grid(x->n / 16, x->n / 16), block(16, 16);
    sgemm_naive<<<grid, block>>>(x->a, x->b, x->c, x->n);
}

int main(int argc, char **argv)
{
    ex_usage(argc, argv, 2, "[n (multiple of 16, default 512)] [iters (default 5)]");
    int n = (int)ex_arg(argc, argv, 1, 512, "n");
    int iters = (int)ex_arg(argc, argv, 2, 5, "iters");
    if (n % 16 || n > 4096) {
        fprintf(stderr, "%s: n must be a multiple of 16 and at most 4096\n", argv[0]);
        return 1;
    }
    size_t elems = (size_t)n * n, bytes = elems * sizeof(float);
    float *ha = (float *)ex_malloc(bytes), *hb = (float *)ex_malloc(bytes);
    uint64_t seed = 2024;
    for (size_t i = 0; i < elems; i++) {
        ha[i] = (float)(ex_rand(&seed) & 7u);
        hb[i] = (float)(ex_rand(&seed) & 7u);
    }
    struct ctx x = {0, 0, 0, n};
    float *da, *db;
    EX_CHECK(cudaMalloc((void **)&da, bytes));
    EX_CHECK(cudaMalloc((void **)&db, bytes));
    EX_CHECK(cudaMalloc((void **)&x.c, bytes));
    EX_CHECK(cudaMemcpy(da, ha, bytes, cudaMemcpyHostToDevice));
    EX_CHECK(cudaMemcpy(db, hb, bytes, cudaMemcpyHostToDevice));
    x.a = da;
    x.b = db;
    float ms = ex_time_ms(launch, &x, iters);
    ex_report("sgemm_naive", ex_fnv_dev(EX_FNV_INIT, x.c, bytes), ms, iters + 1);
    EX_CHECK(cudaFree(da));
    EX_CHECK(cudaFree(db));
    EX_CHECK(cudaFree(x.c));
    free(ha);
    free(hb);
    return 0;
}
