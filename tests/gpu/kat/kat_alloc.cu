// SPDX-License-Identifier: Apache-2.0
// Known answers for "allocations": an array written at every k-th element,
// an array read in full twice, an allocation never used, one freed late
// (long after its last use). Host CUDA only; must not depend on gpumem.
// Derivations: README.md.
#include "kat.h"
#include <unistd.h>

#define N (1 << 20)            /* 4-byte elements per array: 4 MiB */
#define K 4                    /* every_kth touches element 0, K, 2K, ... */

__global__ void every_kth(float *a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[(size_t)i * K] = 1.0f;
}

__global__ void read_all(const float *b, float *sum)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = b[i];
    if (v != 0.0f) *sum = v;   /* b is all zero: never stores */
}

static void expect_alloc(const char *label, const char *counter, unsigned long long v)
{
    printf("expect allocation %s %s %llu\n", label, counter, v);
}

int main(void)
{
    float *a, *b, *never, *late, *sum;
    KAT_CHECK(cudaMalloc(&a, N * sizeof(float)));
    KAT_CHECK(cudaMalloc(&b, N * sizeof(float)));
    KAT_CHECK(cudaMalloc(&never, N * sizeof(float)));   /* no kernel, copy or set touches it */
    KAT_CHECK(cudaMalloc(&late, N * sizeof(float)));
    KAT_CHECK(cudaMalloc(&sum, sizeof(float)));
    KAT_CHECK(cudaMemset(b, 0, N * sizeof(float)));
    every_kth<<<N / K / 256, 256>>>(late);   /* the only use of `late` */
    every_kth<<<N / K / 256, 256>>>(a);
    read_all<<<N / 256, 256>>>(b, sum);
    read_all<<<N / 256, 256>>>(b, sum);
    kat_sync();
    usleep(200 * 1000);
    KAT_CHECK(cudaFree(late));               /* late deallocation: 3 launches and 200 ms later */
    KAT_CHECK(cudaFree(never));
    KAT_CHECK(cudaFree(a));
    KAT_CHECK(cudaFree(b));
    KAT_CHECK(cudaFree(sum));

    const unsigned long long bytes = N * 4ull, wr = N / K;
    /* a: 4 B granules touched = N/K; a warp writes 32 lanes 4K bytes apart
     * (16 B for K = 4): 32 * 16 B = 512 B = 16 sectors; N/K/32 warps */
    expect_alloc("a", "bytes", bytes);
    expect_alloc("a", "touched_granules_4B", wr);
    expect_alloc("a", "touched_share_permille", 1000 / K);
    expect_alloc("a", "largest_untouched_chunk_bytes", (K - 1) * 4);
    expect_alloc("a", "reads", 0);
    expect_alloc("a", "writes", wr);
    expect_alloc("a", "write_sectors", wr / 32 * (32 * 4 * K / 32));
    /* every 4 KiB chunk of a gets 4096 / (4K) writes: a flat histogram */
    expect_alloc("a", "writes_per_4KiB_chunk", 4096 / (4 * K));
    /* b: read in full by two launches */
    expect_alloc("b", "touched_granules_4B", N);
    expect_alloc("b", "reads", 2ull * N);
    expect_alloc("b", "read_sectors", 2ull * bytes / 32);
    expect_alloc("b", "writes", 0);
    expect_alloc("never", "touched_granules_4B", 0);
    expect_alloc("late", "writes", wr);
    printf("expect pattern unused_allocation never\n");
    printf("expect pattern late_deallocation late (freed 3 launches and >= 200 ms after its last use)\n");
    return 0;
}
