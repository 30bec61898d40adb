// SPDX-License-Identifier: Apache-2.0
// Known answers for "divergence": a uniform branch (per block), a fully
// divergent one (odd/even lanes), one taken by 5 lanes of each warp, and a
// switch on the lane (divergent) and on the block (uniform). Host CUDA
// only; must not depend on gpumem. Derivations: README.md.
#include "kat.h"

#define THREADS 256
#define BLOCKS 64
#define N (THREADS * BLOCKS)

/* An empty volatile asm on one side cannot be speculated, so the compiler
 * keeps a real branch (without it, clang turns each if/else into selects
 * and one store). The asm has no memory operands: no site of its own. */
#define KEEP_BRANCH() asm volatile("")
static const int UNIFORM_LINE = __LINE__ + 4;
__global__ void br_uniform(int *a, int *b)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockIdx.x & 1) { KEEP_BRANCH(); a[i] = i; } else b[i] = -i;
}

static const int DIVERGENT_LINE = __LINE__ + 4;
__global__ void br_divergent(int *a, int *b)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x & 1) { KEEP_BRANCH(); a[i] = i; } else b[i] = -i;
}

static const int FIVE_LINE = __LINE__ + 4;
__global__ void br_five(int *a, int *b)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if ((threadIdx.x & 31) < 5) { KEEP_BRANCH(); a[i] = i; } else b[i] = -i;
}

static const int SWITCH_LANE_LINE = __LINE__ + 4;
__global__ void sw_lane(int *a, int *b, int *c, int *d)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    switch (threadIdx.x & 7) {   /* cases 0..2, default 3..7 */
    case 0: a[i] = i; break;
    case 1: b[i] = 2 * i; break;
    case 2: c[i] = 3 * i; break;
    default: d[i] = 4 * i; break;
    }
}

static const int SWITCH_BLOCK_LINE = __LINE__ + 4;
__global__ void sw_block(int *a, int *b, int *c, int *d)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    switch (blockIdx.x & 7) {
    case 0: a[i] = i; break;
    case 1: b[i] = 2 * i; break;
    case 2: c[i] = 3 * i; break;
    default: d[i] = 4 * i; break;
    }
}

/* taken/not_taken are reported for the IR condition, which the compiler may
 * have inverted: the pair is given as "A|B" (either order is right). */
static void expect_branch(const char *k, int line, unsigned long long taken, unsigned long long divergent)
{
    const unsigned long long warps = N / 32;
    kat_expect(k, __FILE__, line, "divergence.execs", warps);
    kat_expect(k, __FILE__, line, "divergence.threads", N);
    printf("expect %s %s:%d divergence.taken|not_taken %llu|%llu\n", k, __FILE__, line, taken, N - taken);
    kat_expect(k, __FILE__, line, "divergence.divergent", divergent);
}

int main(void)
{
    int *a, *b, *c, *d;
    KAT_CHECK(cudaMalloc(&a, N * sizeof(int)));
    KAT_CHECK(cudaMalloc(&b, N * sizeof(int)));
    KAT_CHECK(cudaMalloc(&c, N * sizeof(int)));
    KAT_CHECK(cudaMalloc(&d, N * sizeof(int)));
    br_uniform<<<BLOCKS, THREADS>>>(a, b);
    br_divergent<<<BLOCKS, THREADS>>>(a, b);
    br_five<<<BLOCKS, THREADS>>>(a, b);
    sw_lane<<<BLOCKS, THREADS>>>(a, b, c, d);
    sw_block<<<BLOCKS, THREADS>>>(a, b, c, d);
    kat_sync();
    expect_branch("br_uniform", UNIFORM_LINE, N / 2, 0);          /* odd blocks */
    expect_branch("br_divergent", DIVERGENT_LINE, N / 2, N / 32); /* 16 lanes per warp */
    expect_branch("br_five", FIVE_LINE, 5 * (N / 32), N / 32);
    /* a switch: "taken" = lanes going to a case, "not_taken" = to the
     * default; which value is the default depends on the compiler */
    expect_branch("sw_lane", SWITCH_LANE_LINE, 3 * (N / 8), N / 32);
    expect_branch("sw_block", SWITCH_BLOCK_LINE, 3 * (N / 8), 0);
    KAT_CHECK(cudaFree(a)); KAT_CHECK(cudaFree(b));
    KAT_CHECK(cudaFree(c)); KAT_CHECK(cudaFree(d));
    return 0;
}
