// SPDX-License-Identifier: Apache-2.0
// Known answers for "coalescing" on global memory: thread i loads in[i*s]
// (elements of w bytes) and stores out[i]; full warps and one partial warp.
// Host CUDA only; must not depend on gpumem. Derivations: README.md.
#include "kat.h"

/* A real 16-byte vector: clang copies int4 (a struct) with llvm.memcpy,
 * which would put the load on the store's line. */
typedef int v4i __attribute__((ext_vector_type(4)));
#include <stdint.h>

static const int LOAD_LINE = __LINE__ + 4;
template <typename T, int S>
__global__ void stride(const T *in, T *out)
{
    T v = in[(size_t)(blockIdx.x * blockDim.x + threadIdx.x) * S];
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
static const int STORE_LINE = LOAD_LINE + 1;

/* Distinct units (32 B sectors, 128 B lines) touched by k lanes at byte
 * offsets o + l*d (l = 0..k-1) from a unit-aligned base, each access
 * inside one unit: when d >= unit every lane has its own unit, otherwise
 * consecutive lanes skip no unit, so it is last unit - first unit + 1. */
static unsigned long long units(unsigned long long o, int k, unsigned long long d, unsigned long long unit)
{
    return d >= unit ? (unsigned long long)k : (o + (k - 1) * d) / unit - o / unit + 1;
}

struct kat_counts { unsigned long long warps, sectors, lines, ideal; };

/* Sum over the warps of the grid; lane byte stride d, w bytes per lane. */
static struct kat_counts grid_counts(int threads, int blocks, unsigned long long d, unsigned long long w)
{
    struct kat_counts c = {0, 0, 0, 0};
    for (int b = 0; b < blocks; b++)
        for (int t0 = 0; t0 < threads; t0 += 32) {
            int k = threads - t0 < 32 ? threads - t0 : 32;
            unsigned long long o = ((unsigned long long)b * threads + t0) * d;
            c.warps++;
            c.sectors += units(o, k, d, 32);
            c.lines += units(o, k, d, 128);
            c.ideal += (k * w + 31) / 32;
        }
    return c;
}

static void expect_site(const char *name, int line, unsigned long long n, struct kat_counts c)
{
    kat_expect(name, __FILE__, line, "coalescing.warps", c.warps);
    kat_expect(name, __FILE__, line, "coalescing.threads", n);
    kat_expect(name, __FILE__, line, "coalescing.sectors", c.sectors);
    kat_expect(name, __FILE__, line, "coalescing.lines", c.lines);
    kat_expect(name, __FILE__, line, "coalescing.ideal_sectors", c.ideal);
}

template <typename T, int S>
static void run(const char *name, int threads, int blocks)
{
    const unsigned long long w = sizeof(T), n = (unsigned long long)threads * blocks;
    T *in, *out;
    KAT_CHECK(cudaMalloc(&in, n * S * w));
    KAT_CHECK(cudaMalloc(&out, n * w));
    KAT_CHECK(cudaMemset(in, 0, n * S * w));
    stride<T, S><<<blocks, threads>>>(in, out);
    kat_sync();
    expect_site(name, LOAD_LINE, n, grid_counts(threads, blocks, S * w, w));
    expect_site(name, STORE_LINE, n, grid_counts(threads, blocks, w, w));
    KAT_CHECK(cudaFree(in));
    KAT_CHECK(cudaFree(out));
}

int main(void)
{
    /* 256 threads = 8 full warps; 100 = 3 full warps + 4 lanes */
    run<char, 1>("stride<char,1>", 256, 64);
    run<float, 1>("stride<float,1>", 256, 64);
    run<float, 2>("stride<float,2>", 256, 64);
    run<float, 3>("stride<float,3>", 256, 64);
    run<float, 8>("stride<float,8>", 256, 64);
    run<float, 33>("stride<float,33>", 256, 64);
    run<double, 1>("stride<double,1>", 256, 64);
    run<double, 5>("stride<double,5>", 256, 64);
    run<v4i, 1>("stride<int __vector(4),1>", 256, 64);
    run<v4i, 2>("stride<int __vector(4),2>", 256, 64);
    run<short, 2>("stride<short,2>", 100, 64);     /* partial warps */
    return 0;
}
