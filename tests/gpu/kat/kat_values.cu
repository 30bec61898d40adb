// SPDX-License-Identifier: Apache-2.0
// Known answers for "values": a load of a constant-valued array (1.0f
// everywhere), a load of in[i] = i, a load that differs between the two
// half-warps, and a store of a constant. Host CUDA only; must not depend on
// gpumem. Derivations: README.md.
#include "kat.h"
#include <stdint.h>

#define THREADS 256
#define BLOCKS 64
#define N (THREADS * BLOCKS)   /* 16384 = 2^14 */

static const int CONST_LINE = __LINE__ + 5;
static const int STORE_LINE = CONST_LINE + 1;
__global__ void v_const(const unsigned *ones, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = ones[i];
    out[i] = v == 0x3f800000u ? 7u : v;   /* stores 7: every element is 1.0f */
}

/* one memory site per source line: the report sums the sites of a line */
static const int IOTA_LINE = __LINE__ + 4;
__global__ void v_iota(const unsigned *iota, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = iota[i];
    out[i] = v * 3u;
}

static const int HALF_LINE = __LINE__ + 4;
__global__ void v_half(const unsigned *half, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = half[i];
    out[i] = v + 1u;
}

static void expect_values(const char *k, int line, unsigned long long uniform,
                          unsigned long long ones, unsigned long long zeros)
{
    kat_expect(k, __FILE__, line, "values.warps", N / 32);
    kat_expect(k, __FILE__, line, "values.uniform", uniform);
    kat_expect_hex(k, __FILE__, line, "values.ones", ones);
    kat_expect_hex(k, __FILE__, line, "values.zeros", zeros);
}

int main(void)
{
    static unsigned h_ones[N], h_iota[N], h_half[N];
    for (unsigned i = 0; i < N; i++) {
        h_ones[i] = 0x3f800000u;                      /* 1.0f */
        h_iota[i] = i;
        h_half[i] = (i & 16) ? 0xffff0000u : 0x0000ffffu;
    }
    unsigned *ones, *iota, *half, *out;
    KAT_CHECK(cudaMalloc(&ones, sizeof h_ones));
    KAT_CHECK(cudaMalloc(&iota, sizeof h_iota));
    KAT_CHECK(cudaMalloc(&half, sizeof h_half));
    KAT_CHECK(cudaMalloc(&out, sizeof h_ones));
    KAT_CHECK(cudaMemcpy(ones, h_ones, sizeof h_ones, cudaMemcpyHostToDevice));
    KAT_CHECK(cudaMemcpy(iota, h_iota, sizeof h_iota, cudaMemcpyHostToDevice));
    KAT_CHECK(cudaMemcpy(half, h_half, sizeof h_half, cudaMemcpyHostToDevice));
    v_const<<<BLOCKS, THREADS>>>(ones, out);
    v_iota<<<BLOCKS, THREADS>>>(iota, out);
    v_half<<<BLOCKS, THREADS>>>(half, out);
    kat_sync();
    /* 4-byte values: ones = bits ever 1, zeros = bits ever 0 (32 bits) */
    expect_values("v_const", CONST_LINE, N / 32, 0x3f800000u, 0xffffffffu & ~0x3f800000u);
    expect_values("v_const", STORE_LINE, N / 32, 7u, 0xffffffffu & ~7u);
    /* i < 2^14: bits 0..13 take both values, bits 14..31 are always 0 */
    expect_values("v_iota", IOTA_LINE, 0, N - 1, 0xffffffffu);
    expect_values("v_half", HALF_LINE, 0, 0xffffffffu, 0xffffffffu);
    KAT_CHECK(cudaFree(ones)); KAT_CHECK(cudaFree(iota));
    KAT_CHECK(cudaFree(half)); KAT_CHECK(cudaFree(out));
    return 0;
}
