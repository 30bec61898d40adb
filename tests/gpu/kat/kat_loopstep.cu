// SPDX-License-Identifier: Apache-2.0
// Known answers for "coalescing" at sites inside loops, where the loop-step
// fast path counts repeated warp executions (pass/loopinv.c): a fixed
// address (computed once per thread: D = 0 for the whole kernel) and an
// address that advances by 128 B per iteration, in shared and in global
// memory, a local array stored at 4 B steps and a grid-stride loop
// (D = 4 x blockDim.x x gridDim.x), with full warps
// and partial warps of 30 and 20 threads (the sorted-lane path for partial
// warps). Volatile accesses keep every access in the loop;
// the loops stay rolled (two loop sites: both inlined, with accumulators).
// Host CUDA only; must not depend on gpumem. Derivations: README.md.
#include "kat.h"

#define BLOCKS 8
#define ITERS 37

static const int SH_FIXED_LINE = __LINE__ + 10;
template <int ST>
__global__ void loop_shared(float *out, int n)
{
    __shared__ float s[32 * 32 + 32 * ITERS];
    volatile float *vs = s;
    int l = threadIdx.x;
    float acc = 0.f;
#pragma unroll 1
    for (int k = 0; k < n; k++) {
        acc += vs[l * ST];
        acc += vs[32 * 32 + l + 32 * k];
    }
    out[blockIdx.x * 32 + l] = acc;
}
static const int SH_STEP_LINE = SH_FIXED_LINE + 1;

static const int GL_FIXED_LINE = __LINE__ + 9;
template <int T>
__global__ void loop_global(const float *in, float *out, int n)
{
    const volatile float *vin = in;
    int l = threadIdx.x;
    float acc = 0.f;
#pragma unroll 1
    for (int k = 0; k < n; k++) {
        acc += vin[l];
        acc += vin[32 + l + 32 * k];
    }
    out[blockIdx.x * 32 + l] = acc;
}
static const int GL_STEP_LINE = GL_FIXED_LINE + 1;

static const int LOC_LINE = __LINE__ + 8;
template <int T>
__global__ void loop_local(float *out, int n)
{
    volatile float t[64];
    int l = threadIdx.x;
#pragma unroll 1
    for (int k = 0; k < n; k++)
        t[k] = (float)k;
    out[blockIdx.x * 32 + l] = t[l];
}

static const int GS_LINE = __LINE__ + 9;
template <int T>
__global__ void loop_gridstride(const float *in, float *out, int n)
{
    const volatile float *vin = in;
    int stride = (int)(blockDim.x * gridDim.x);
    float acc = 0.f;
#pragma unroll 1
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        acc += vin[i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

static int gcd(int a, int b) { return b ? gcd(b, a % b) : a; }

/* One warp per block runs each site ITERS times. Shared, 4 B: lane l of
 * the fixed site uses word l*ST, bank (l*ST) mod 32: gcd(ST, 32) words per
 * used bank (1 for ST = 0, a broadcast); the stepping site reads 32
 * consecutive words: 1 wavefront. */
template <int ST>
static void run_shared(const char *name)
{
    float *out;
    KAT_CHECK(cudaMalloc(&out, BLOCKS * 32 * sizeof(float)));
    loop_shared<ST><<<BLOCKS, 32>>>(out, ITERS);
    kat_sync();
    unsigned long long execs = (unsigned long long)BLOCKS * ITERS;
    kat_expect(name, __FILE__, SH_FIXED_LINE, "coalescing.warps", execs);
    kat_expect(name, __FILE__, SH_FIXED_LINE, "coalescing.wavefronts", execs * (ST ? gcd(ST, 32) : 1));
    kat_expect(name, __FILE__, SH_FIXED_LINE, "coalescing.ideal_wavefronts", execs);
    kat_expect(name, __FILE__, SH_STEP_LINE, "coalescing.warps", execs);
    kat_expect(name, __FILE__, SH_STEP_LINE, "coalescing.wavefronts", execs);
    kat_expect(name, __FILE__, SH_STEP_LINE, "coalescing.ideal_wavefronts", execs);
    KAT_CHECK(cudaFree(out));
}

/* A coalesced site's rows: execs warp executions of T threads, sec
 * sectors and one line each. */
static void expect_rows(const char *name, int line, unsigned long long execs, int T,
                        unsigned long long sec)
{
    kat_expect(name, __FILE__, line, "coalescing.warps", execs);
    kat_expect(name, __FILE__, line, "coalescing.threads", execs * T);
    kat_expect(name, __FILE__, line, "coalescing.sectors", execs * sec);
    kat_expect(name, __FILE__, line, "coalescing.lines", execs);
}

/* T threads read T consecutive floats from a 128 B-aligned offset (in is
 * 256 B aligned; the stepping site starts at 128 B and moves 128 B per
 * iteration): ceil(4T / 32) sectors, 1 line, ideal = sectors. */
template <int T>
static void run_global(const char *name)
{
    float *in, *out;
    KAT_CHECK(cudaMalloc(&in, (32 + 32 * ITERS) * sizeof(float)));
    KAT_CHECK(cudaMemset(in, 0, (32 + 32 * ITERS) * sizeof(float)));
    KAT_CHECK(cudaMalloc(&out, BLOCKS * 32 * sizeof(float)));
    loop_global<T><<<BLOCKS, T>>>(in, out, ITERS);
    kat_sync();
    unsigned long long execs = (unsigned long long)BLOCKS * ITERS, sec = (4 * T + 31) / 32;
    for (int line = GL_FIXED_LINE; line <= GL_STEP_LINE; line++) {
        expect_rows(name, line, execs, T, sec);
        kat_expect(name, __FILE__, line, "coalescing.ideal_sectors", execs * sec);
    }
    KAT_CHECK(cudaFree(in));
    KAT_CHECK(cudaFree(out));
}

/* Local memory as the hardware interleaves it (4 B words across the
 * warp's lanes): T lanes storing the same 4 B local offset cover 4T
 * consecutive bytes of one 128 B row: ceil(4T / 32) sectors, 1 line. */
template <int T>
static void run_local(const char *name)
{
    float *out;
    KAT_CHECK(cudaMalloc(&out, BLOCKS * 32 * sizeof(float)));
    loop_local<T><<<BLOCKS, T>>>(out, ITERS);
    kat_sync();
    unsigned long long execs = (unsigned long long)BLOCKS * ITERS, sec = (4 * T + 31) / 32;
    expect_rows(name, LOC_LINE, execs, T, sec);
    KAT_CHECK(cudaFree(out));
}

/* A grid-stride loop (D = 4 x blockDim.x x gridDim.x = 1024 B, uniform:
 * blockDim and gridDim): T threads per block, n = BLOCKS x T x ITERS, so
 * each warp runs ITERS times and reads T consecutive floats from a 128 B-
 * aligned address each time: ceil(4T / 32) sectors, 1 line. */
template <int T>
static void run_gridstride(const char *name)
{
    int n = BLOCKS * T * ITERS;
    float *in, *out;
    KAT_CHECK(cudaMalloc(&in, n * sizeof(float)));
    KAT_CHECK(cudaMemset(in, 0, n * sizeof(float)));
    KAT_CHECK(cudaMalloc(&out, BLOCKS * T * sizeof(float)));
    loop_gridstride<T><<<BLOCKS, T>>>(in, out, n);
    kat_sync();
    unsigned long long execs = (unsigned long long)BLOCKS * ITERS, sec = (4 * T + 31) / 32;
    expect_rows(name, GS_LINE, execs, T, sec);
    kat_expect(name, __FILE__, GS_LINE, "coalescing.ideal_sectors", execs * sec);
    KAT_CHECK(cudaFree(in));
    KAT_CHECK(cudaFree(out));
}

int main(void)
{
    run_shared<1>("loop_shared<1>");    /* conflict-free: 1 */
    run_shared<2>("loop_shared<2>");    /* 2-way: 2 */
    run_shared<32>("loop_shared<32>");  /* 32-way: 32 */
    run_shared<0>("loop_shared<0>");    /* broadcast: 1 */
    run_global<32>("loop_global<32>");  /* full warp: 4 sectors */
    run_global<30>("loop_global<30>");  /* partial warp: 4 sectors */
    run_local<32>("loop_local<32>");    /* 4 B steps of a local array: 4 sectors */
    run_local<20>("loop_local<20>");    /* partial warp: 3 sectors */
    run_gridstride<32>("loop_gridstride<32>");  /* D = 1024 B: 4 sectors */
    return 0;
}
