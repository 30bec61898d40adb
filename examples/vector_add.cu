// SPDX-License-Identifier: Apache-2.0
// Example: vector add c = a + b of n floats, one element per thread
// (three global memory sites, each executed n/32 times per launch when n is
// a multiple of 32). Usage: vector_add [n] [iters]. Depends only on CUDA.
#include "example_util.h"

__global__ void vadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

struct ctx { const float *a, *b; float *c; int n; };

static void launch(void *p)
{
    struct ctx *x = (struct ctx *)p;
    vadd<<<(x->n + 255) / 256, 256>>>(x->a, x->b, x->c, x->n);
}

int main(int argc, char **argv)
{
    ex_usage(argc, argv, 2, "[n (default 1048576)] [iters (default 10)]");
    int n = (int)ex_arg(argc, argv, 1, 1 << 20, "n");
    int iters = (int)ex_arg(argc, argv, 2, 10, "iters");
    size_t bytes = (size_t)n * sizeof(float);
    float *ha = (float *)ex_malloc(bytes), *hb = (float *)ex_malloc(bytes);
    for (int i = 0; i < n; i++) {          /* small integers: sums are exact */
        ha[i] = (float)(i % 1000);
        hb[i] = (float)((i * 7) % 1000);
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
    uint64_t sum = ex_fnv_dev(EX_FNV_INIT, x.c, bytes);
    ex_report("vadd", sum, ms, iters + 1);
    EX_CHECK(cudaFree(da));
    EX_CHECK(cudaFree(db));
    EX_CHECK(cudaFree(x.c));
    free(ha);
    free(hb);
    return 0;
}
