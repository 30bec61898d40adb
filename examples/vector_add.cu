// SPDX-License-Identifier: Apache-2.0
// Example: vector add c = a + b of n floats. vadd: one element per thread
// (three global memory sites, each executed n/32 times per launch when n is
// a multiple of 32); vadd4: one float4 per thread (three 16-byte vector
// sites, ld.global.nc.v4, each n/128 times when n is a multiple of 128).
// Usage: vector_add [n] [iters]. Depends only on CUDA.
#include "example_util.h"

__global__ void vadd(const float *__restrict__ a, const float *__restrict__ b,
                     float *__restrict__ c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

__global__ void vadd4(const float4 *__restrict__ a, const float4 *__restrict__ b,
                      float4 *__restrict__ c, int n4)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 x = a[i], y = b[i];
        c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
}

struct ctx { const float *a, *b; float *c; int n, which; };

static void launch(void *p)
{
    struct ctx *x = (struct ctx *)p;
    int n4 = x->n / 4;
    if (x->which == 0)
        vadd<<<(x->n + 255) / 256, 256>>>(x->a, x->b, x->c, x->n);
    else
        vadd4<<<(n4 + 255) / 256, 256>>>((const float4 *)x->a, (const float4 *)x->b,
                                         (float4 *)x->c, n4);
}

int main(int argc, char **argv)
{
    ex_usage(argc, argv, 2, "[n (multiple of 4, default 1048576)] [iters (default 10)]");
    int n = (int)ex_arg(argc, argv, 1, 1 << 20, "n");
    int iters = (int)ex_arg(argc, argv, 2, 10, "iters");
    size_t bytes = (size_t)n * sizeof(float);
    float *ha = (float *)ex_malloc(bytes), *hb = (float *)ex_malloc(bytes);
    for (int i = 0; i < n; i++) {          /* small integers: sums are exact */
        ha[i] = (float)(i % 1000);
        hb[i] = (float)((i * 7) % 1000);
    }
    if (n % 4) {
        fprintf(stderr, "%s: n must be a multiple of 4\n", argv[0]);
        return 1;
    }
    struct ctx x = {0, 0, 0, n, 0};
    float *da, *db;
    EX_CHECK(cudaMalloc((void **)&da, bytes));
    EX_CHECK(cudaMalloc((void **)&db, bytes));
    EX_CHECK(cudaMalloc((void **)&x.c, bytes));
    EX_CHECK(cudaMemcpy(da, ha, bytes, cudaMemcpyHostToDevice));
    EX_CHECK(cudaMemcpy(db, hb, bytes, cudaMemcpyHostToDevice));
    x.a = da;
    x.b = db;
    static const char *names[2] = {"vadd", "vadd4"};
    for (x.which = 0; x.which < 2; x.which++) {
        EX_CHECK(cudaMemset(x.c, 0, bytes));
        float ms = ex_time_ms(launch, &x, iters);
        ex_report(names[x.which], ex_fnv_dev(EX_FNV_INIT, x.c, bytes), ms, iters + 1);
    }
    EX_CHECK(cudaFree(da));
    EX_CHECK(cudaFree(db));
    EX_CHECK(cudaFree(x.c));
    free(ha);
    free(hb);
    return 0;
}
