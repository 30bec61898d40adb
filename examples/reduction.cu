// SPDX-License-Identifier: Apache-2.0
// Example: sum reduction of n 32-bit unsigned integers. Each block of 256
// threads reduces 2*256 elements in shared memory (tree with sequential
// addressing, the last 32 with warp shuffles) and adds its partial sum with
// one atomicAdd; integer sums make the result exact in any order.
// Usage: reduction [n] [iters]. Depends only on CUDA.
#include "example_util.h"

#define BLOCK 256

__global__ void reduce_sum(const unsigned *in, unsigned long long *out, int n)
{
    __shared__ unsigned s[BLOCK];
    unsigned t = threadIdx.x;
    size_t i = (size_t)blockIdx.x * (2 * BLOCK) + t;
    unsigned v = 0;
    if (i < (size_t)n) v = in[i];
    if (i + BLOCK < (size_t)n) v += in[i + BLOCK];
    s[t] = v;
    __syncthreads();
    for (unsigned k = BLOCK / 2; k >= 32; k >>= 1) {
        if (t < k) s[t] = v = v + s[t + k];
        __syncthreads();
    }
    if (t < 32) {
        for (int k = 16; k > 0; k >>= 1) v += __shfl_down_sync(0xffffffffu, v, k);
        if (t == 0) atomicAdd(out, (unsigned long long)v);
    }
}

struct ctx { const unsigned *in; unsigned long long *out; int n; };

static void launch(void *p)
{
    struct ctx *c = (struct ctx *)p;
    int blocks = (int)(((size_t)c->n + 2 * BLOCK - 1) / (2 * BLOCK));
    cudaMemsetAsync(c->out, 0, sizeof(*c->out), 0);
    reduce_sum<<<blocks, BLOCK>>>(c->in, c->out, c->n);
}

int main(int argc, char **argv)
{
    ex_usage(argc, argv, 2, "[n (default 4194304)] [iters (default 10)]");
    int n = (int)ex_arg(argc, argv, 1, 1 << 22, "n");
    int iters = (int)ex_arg(argc, argv, 2, 10, "iters");
    size_t bytes = (size_t)n * sizeof(unsigned);
    unsigned *h = (unsigned *)ex_malloc(bytes), *din;
    uint64_t seed = 7, expect = 0;
    for (int i = 0; i < n; i++) expect += h[i] = ex_rand(&seed) & 0xffff;
    struct ctx c = {0, 0, n};
    EX_CHECK(cudaMalloc((void **)&din, bytes));
    EX_CHECK(cudaMalloc((void **)&c.out, sizeof(*c.out)));
    EX_CHECK(cudaMemcpy(din, h, bytes, cudaMemcpyHostToDevice));
    c.in = din;
    float ms = ex_time_ms(launch, &c, iters);
    unsigned long long got = 0;
    EX_CHECK(cudaMemcpy(&got, c.out, sizeof(got), cudaMemcpyDeviceToHost));
    if (got != expect) {
        fprintf(stderr, "reduce_sum: wrong sum %llu, expected %llu\n", got, (unsigned long long)expect);
        return 3;
    }
    ex_report("reduce_sum", ex_fnv(EX_FNV_INIT, &got, sizeof(got)), ms, iters + 1);
    EX_CHECK(cudaFree(din));
    EX_CHECK(cudaFree(c.out));
    free(h);
    return 0;
}
