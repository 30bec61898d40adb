// SPDX-License-Identifier: Apache-2.0
// Known answers for "allocations": an array written at every k-th element,
// an array read in full twice, an allocation never used, one freed late
// (long after its last use). Host CUDA only; must not depend on gpumem.
// Derivations: README.md.
#include "kat.h"
#include <unistd.h>

/* Labels the allocations in the report when the gpumem runtime is linked
 * (weak: the program also runs without it). */
extern "C" void gm_name_allocation(const void *ptr, const char *label) __attribute__((weak));
static void name(const void *p, const char *label) { if (gm_name_allocation) gm_name_allocation(p, label); }

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
    name(a, "a"), name(b, "b"), name(never, "never"), name(late, "late"), name(sum, "sum");
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
    /* counter names are the report's (docs/report-schema.md, access) */
    /* a: 4 B units touched = N/K; a warp writes 32 lanes 4K bytes apart
     * (16 B for K = 4): 32 * 16 B = 512 B = 16 sectors; N/K/32 warps */
    expect_alloc("a", "size", bytes);
    expect_alloc("a", "touched_units", wr);
    expect_alloc("a", "largest_untouched_units", K - 1);
    expect_alloc("a", "reads", 0);
    expect_alloc("a", "writes", wr);
    expect_alloc("a", "sectors", wr / 32 * (32 * 4 * K / 32));
    /* every 4 KiB chunk of a gets 4096 / (4K) = 256 accesses: all
     * bytes/4096 chunks fall in histogram bucket 9 (256 <= c < 512) */
    expect_alloc("a", "hist_chunk", 4096);
    expect_alloc("a", "hist[9]", bytes / 4096);
    /* b: read in full by two launches */
    expect_alloc("b", "touched_units", N);
    expect_alloc("b", "reads", 2ull * N);
    expect_alloc("b", "sectors", 2ull * bytes / 32);
    expect_alloc("b", "writes", 0);
    expect_alloc("never", "touched_units", 0);
    expect_alloc("late", "writes", wr);
    printf("expect pattern unused_allocation never\n");
    printf("expect pattern late_deallocation late (freed 3 launches and >= 200 ms after its last use)\n");
    return 0;
}
