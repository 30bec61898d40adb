// SPDX-License-Identifier: Apache-2.0
// Example: the bank-conflict trio. Matrix transpose of an n x n float matrix
// (n a multiple of 32), three kernels: naive (uncoalesced stores), tiled
// through shared memory (32-way bank conflicts on the column reads), and
// tiled with one column of padding (no conflicts). 32x8 thread blocks, each
// thread moves 4 elements. Usage: transpose [n] [iters]. Depends only on CUDA.
#include "example_util.h"

#define TILE 32
#define ROWS 8

__global__ void transpose_naive(float *out, const float *in, int n)
{
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[x * n + (y + j)] = in[(y + j) * n + x];
}

__global__ void transpose_tiled(float *out, const float *in, int n)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transpose_padded(float *out, const float *in, int n)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

struct ctx { float *out; const float *in; int n, which; };

static void launch(void *p)
{
    struct ctx *c = (struct ctx *)p;
    dim3 grid(c->n / TILE, c->n / TILE), block(TILE, ROWS);
    if (c->which == 0) transpose_naive<<<grid, block>>>(c->out, c->in, c->n);
    if (c->which == 1) transpose_tiled<<<grid, block>>>(c->out, c->in, c->n);
    if (c->which == 2) transpose_padded<<<grid, block>>>(c->out, c->in, c->n);
}

int main(int argc, char **argv)
{
    static const char *names[3] = {"transpose_naive", "transpose_tiled", "transpose_padded"};
    ex_usage(argc, argv, 2, "[n (multiple of 32, default 1024)] [iters (default 10)]");
    int n = (int)ex_arg(argc, argv, 1, 1024, "n");
    int iters = (int)ex_arg(argc, argv, 2, 10, "iters");
    if (n % TILE || n > 32768) {   /* int indices: n * n < 2^31 */
        fprintf(stderr, "%s: n must be a multiple of %d and at most 32768\n", argv[0], TILE);
        return 1;
    }
    size_t bytes = (size_t)n * n * sizeof(float);
    float *h = (float *)ex_malloc(bytes), *din;
    uint64_t seed = 42;
    for (size_t i = 0; i < (size_t)n * n; i++) h[i] = (float)(ex_rand(&seed) & 0xffff);
    struct ctx c = {0, 0, n, 0};
    EX_CHECK(cudaMalloc((void **)&din, bytes));
    EX_CHECK(cudaMalloc((void **)&c.out, bytes));
    EX_CHECK(cudaMemcpy(din, h, bytes, cudaMemcpyHostToDevice));
    c.in = din;
    for (c.which = 0; c.which < 3; c.which++) {
        EX_CHECK(cudaMemset(c.out, 0, bytes));
        float ms = ex_time_ms(launch, &c, iters);
        ex_report(names[c.which], ex_fnv_dev(EX_FNV_INIT, c.out, bytes), ms, iters + 1);
    }
    EX_CHECK(cudaFree(din));
    EX_CHECK(cudaFree(c.out));
    free(h);
    return 0;
}
