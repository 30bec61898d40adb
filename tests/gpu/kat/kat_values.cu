// SPDX-License-Identifier: Apache-2.0
// Known answers for "values": a load of a constant-valued array (1.0f
// everywhere), a load of in[i] = i, a load that differs between the two
// half-warps, and a store of a constant (block words: sites outside loops);
// loads in loops (register accumulators), 8-byte values whose halves vary
// separately, and half-warp loads with and without dynamic shared memory
// (without block words: direct path). Host CUDA only; must not depend on
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

/* register path: a load in a loop (run-time trip count) */
#define ITERS 16
static const int LOOP_LINE = __LINE__ + 6;
__global__ void v_loop(const unsigned *tab, unsigned *out, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = 0;
    for (int j = 0; j < iters; j++)
        s += tab[(size_t)j * N + i];
    out[i] = s;
}

/* 8-byte values, outside a loop (block path) and in one (register path) */
static const int WIDE_LINE = __LINE__ + 6;
static const int WIDE_LOOP_LINE = WIDE_LINE + 2;
__global__ void v_wide(const unsigned long long *w, unsigned long long *out, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long s = 0;
    s += w[i];
    for (int j = 1; j < iters; j++)
        s += w[(size_t)j * N + i];
    out[i] = s;
}

/* lanes 0..15 load; with dynamic shared memory there are no block words */
static const int PART_LINE = __LINE__ + 6;
__global__ void v_part(const unsigned *half, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = 5u;
    if ((threadIdx.x & 31) < 16)
        v = half[i];
    out[i] = v;
}

static const int DYN_LINE = __LINE__ + 7;
__global__ void v_dyn(const unsigned *half, unsigned *out)
{
    extern __shared__ unsigned sh[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = 5u;
    if ((threadIdx.x & 31) < 16)
        v = half[i];
    sh[threadIdx.x] = v;
    __syncwarp();
    out[i] = v + sh[threadIdx.x ^ 1];
}

static void expect_n(const char *k, int line, unsigned long long warps, unsigned long long uniform,
                     unsigned long long ones, unsigned long long zeros)
{
    kat_expect(k, __FILE__, line, "values.warps", warps);
    kat_expect(k, __FILE__, line, "values.uniform", uniform);
    kat_expect_hex(k, __FILE__, line, "values.ones", ones);
    kat_expect_hex(k, __FILE__, line, "values.zeros", zeros);
}

/* Row j of the loop tables (N elements each). */
static unsigned loop_value(unsigned j, unsigned i) { return (j & 1) ? 0x80000000u | i : 0x92340000u; }
static unsigned long long wide_value(unsigned j, unsigned i)
{
    if (j == 0) return (unsigned long long)i << 32 | 0xffffu;
    return (j & 1) ? 0x8000000000000001ull : (unsigned long long)(i & 1) << 40 | 0x8000000000000001ull;
}

/* The loop, wide and half-warp kernels (README.md). */
static void run_more(const unsigned *half, unsigned *out)
{
    static unsigned h_tab[ITERS * N];
    static unsigned long long h_wide[ITERS * N];
    for (unsigned j = 0; j < ITERS; j++)
        for (unsigned i = 0; i < N; i++) {
            h_tab[j * N + i] = loop_value(j, i);
            h_wide[j * N + i] = wide_value(j, i);
        }
    unsigned *tab;
    unsigned long long *wide, *wout;
    KAT_CHECK(cudaMalloc(&tab, sizeof h_tab));
    KAT_CHECK(cudaMalloc(&wide, sizeof h_wide));
    KAT_CHECK(cudaMalloc(&wout, N * sizeof *wout));
    KAT_CHECK(cudaMemcpy(tab, h_tab, sizeof h_tab, cudaMemcpyHostToDevice));
    KAT_CHECK(cudaMemcpy(wide, h_wide, sizeof h_wide, cudaMemcpyHostToDevice));
    v_loop<<<BLOCKS, THREADS>>>(tab, out, ITERS);
    v_wide<<<BLOCKS, THREADS>>>(wide, wout, ITERS);
    v_part<<<BLOCKS, THREADS>>>(half, out);
    v_dyn<<<BLOCKS, THREADS, THREADS * sizeof(unsigned)>>>(half, out);
    kat_sync();
    const unsigned long long W = N / 32;
    /* odd rows 0x80000000 | i (i < 2^14), even rows 0x92340000 */
    expect_n("v_loop", LOOP_LINE, W * ITERS, W * ITERS / 2, 0x92343fffu, 0x7fffffffu);
    /* row 0: high word i, low word 0xffff: never uniform */
    expect_n("v_wide", WIDE_LINE, W, 0, 0x00003fff0000ffffull, 0xffffffffffff0000ull);
    /* rows 1..15: odd 0x8000000000000001, even also bit 40 = i & 1 */
    expect_n("v_wide", WIDE_LOOP_LINE, W * (ITERS - 1), W * ITERS / 2, 0x8000010000000001ull, 0x7ffffffffffffffeull);
    /* lanes 0..15 load 0x0000ffff */
    expect_n("v_part", PART_LINE, W, W, 0x0000ffffu, 0xffff0000u);
    expect_n("v_dyn", DYN_LINE, W, W, 0x0000ffffu, 0xffff0000u);
    KAT_CHECK(cudaFree(tab)); KAT_CHECK(cudaFree(wide)); KAT_CHECK(cudaFree(wout));
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
    run_more(half, out);
    KAT_CHECK(cudaFree(ones)); KAT_CHECK(cudaFree(iota));
    KAT_CHECK(cudaFree(half)); KAT_CHECK(cudaFree(out));
    return 0;
}
