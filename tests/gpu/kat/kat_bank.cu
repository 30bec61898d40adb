// SPDX-License-Identifier: Apache-2.0
// Known answers for shared-memory wavefronts ("coalescing" on shared
// sites): one warp per block stores s[lane * ST] and loads it back, for
// 4, 8 and 16-byte elements and several strides (ST = 0 is a broadcast).
// Host CUDA only; must not depend on gpumem. Derivations: README.md; the
// same numbers should come from Nsight Compute (command in README.md).
#include "kat.h"

#define BLOCKS 16
/* A real 16-byte vector (float4, a struct, is copied with llvm.memcpy). */
typedef float v4f __attribute__((ext_vector_type(4)));

__device__ __forceinline__ void mk(float *v, int l) { *v = (float)l; }
__device__ __forceinline__ void mk(double *v, int l) { *v = (double)l; }
__device__ __forceinline__ void mk(v4f *v, int l) { *v = (v4f)(float)l; }

static const int STORE_LINE = __LINE__ + 8;
template <typename T, int ST>
__global__ void bank(T *out)
{
    __shared__ T s[32 * (ST ? ST : 1)];
    int l = threadIdx.x;
    T v;
    mk(&v, l);
    s[l * ST] = v;
    __syncwarp();
    T r = s[l * ST];
    out[blockIdx.x * 32 + l] = r;
}
static const int LOAD_LINE = STORE_LINE + 2;

static int gcd(int a, int b) { return b ? gcd(b, a % b) : a; }

/* W = max(w, 4) bytes per unit; a phase is 128/W lanes (the whole warp for
 * 4 B, a half warp for 8 B, a quarter warp for 16 B). Lane l of a phase
 * uses unit l*ST, bank group (l*ST) mod P: gcd(ST, P) distinct units share
 * each used group, so a phase takes gcd(ST, P) wavefronts (1 for ST = 0). */
template <typename T, int ST>
static void run(const char *name)
{
    T *out;
    KAT_CHECK(cudaMalloc(&out, BLOCKS * 32 * sizeof(T)));
    bank<T, ST><<<BLOCKS, 32>>>(out);
    kat_sync();
    int w = sizeof(T) < 4 ? 4 : (int)sizeof(T), p = 128 / w, phases = 32 / p;
    unsigned long long per_warp = phases * (ST ? gcd(ST, p) : 1);
    for (int line = STORE_LINE; line <= LOAD_LINE; line += LOAD_LINE - STORE_LINE) {
        kat_expect(name, __FILE__, line, "coalescing.warps", BLOCKS);
        kat_expect(name, __FILE__, line, "coalescing.wavefronts", BLOCKS * per_warp);
        kat_expect(name, __FILE__, line, "coalescing.ideal_wavefronts", BLOCKS * phases);
    }
    KAT_CHECK(cudaFree(out));
}

int main(void)
{
    run<float, 1>("bank<float,1>");     /* conflict-free: 1 */
    run<float, 2>("bank<float,2>");     /* 2-way: 2 */
    run<float, 32>("bank<float,32>");   /* 32-way: 32 */
    run<float, 33>("bank<float,33>");   /* padded: 1 */
    run<float, 0>("bank<float,0>");     /* broadcast: 1 */
    run<double, 1>("bank<double,1>");   /* 2 half warps: 2 */
    run<double, 2>("bank<double,2>");   /* 2-way per half warp: 4 */
    run<v4f, 1>("bank<float __vector(4),1>");   /* 4 quarter warps: 4 */
    run<v4f, 2>("bank<float __vector(4),2>");   /* 2-way per quarter warp: 8 */
    return 0;
}
