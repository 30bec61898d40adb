// SPDX-License-Identifier: Apache-2.0
// Cache-policy microbenchmarks for the simulator's H100 parameters (issue 4
// item 5): each kernel is launched once on a fresh buffer and profiled by
// tests/gpu/trace/ncu.sh (caches flushed before each kernel); the hit counts
// ncu reports per kernel answer one question each:
//   mb_sector   one thread reads sector 0 of 1024 lines (128 KiB), then
//               sectors 1, 2, 3: L1 fetch granularity (sector vs line) and
//               L2 fill granularity (32 B / 64 B / 128 B) from the hit counts.
//   mb_st_ld    one warp stores 1024 full lines, then loads them: does a
//               store allocate in L1 (load hits) and how L2 counts writes.
//   mb_st_part  one thread stores 4 B into 1024 lines, then loads those 4 B
//               and then the rest of each sector: byte-mask allocation.
//   mb_ld_st_ld one warp loads 1024 lines, stores them, loads them again:
//               does a store to a present line keep it valid in L1.
//   mb_st_seq   one warp, lane l stores words 0..31 of line l in order:
//               is a store hit "line present" (31/32) or "sector present"
//               (28/32)?
//   mb_st_conc  8 warps of a block, warp w stores word w of the lane's
//               line, 32 times over 32 line groups (transpose's pattern):
//               store hits when the sector was allocated by another warp.
//   mb_ways     one thread reads W lines that map to one L1 set candidate
//               (stride = L1 bytes / ways), twice: L1 associativity.
// Loads and stores are inline PTX (ld.global.ca / st.global.wb) so the
// compiler can neither merge nor drop them. Depends on CUDA only.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__device__ __forceinline__ unsigned ld_ca(const unsigned *p)
{
    unsigned v;
    asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

__device__ __forceinline__ void st_wb(unsigned *p, unsigned v)
{
    asm volatile("st.global.wb.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

#define LINES 1024
#define WORDS_PER_LINE 32

__global__ void mb_sector(const unsigned *a, unsigned *out)
{
    unsigned s = 0;
    for (int sec = 0; sec < 4; sec++)
        for (int l = 0; l < LINES; l++) s += ld_ca(a + l * WORDS_PER_LINE + sec * 8);
    out[0] = s;
}

__global__ void mb_st_ld(unsigned *a, unsigned *out)
{
    unsigned s = 0;
    for (int l = 0; l < LINES; l++) st_wb(a + l * WORDS_PER_LINE + threadIdx.x, l);
    for (int l = 0; l < LINES; l++) s += ld_ca(a + l * WORDS_PER_LINE + threadIdx.x);
    out[threadIdx.x] = s;
}

__global__ void mb_st_part(unsigned *a, unsigned *out)
{
    unsigned s = 0;
    for (int l = 0; l < LINES; l++) st_wb(a + l * WORDS_PER_LINE, l);
    for (int l = 0; l < LINES; l++) s += ld_ca(a + l * WORDS_PER_LINE);
    for (int l = 0; l < LINES; l++) s += ld_ca(a + l * WORDS_PER_LINE + 1);
    out[0] = s;
}

__global__ void mb_ld_st_ld(unsigned *a, unsigned *out)
{
    unsigned s = 0;
    for (int l = 0; l < LINES; l++) s += ld_ca(a + l * WORDS_PER_LINE + threadIdx.x);
    for (int l = 0; l < LINES; l++) st_wb(a + l * WORDS_PER_LINE + threadIdx.x, s);
    for (int l = 0; l < LINES; l++) s += ld_ca(a + l * WORDS_PER_LINE + threadIdx.x);
    out[threadIdx.x] = s;
}

__global__ void mb_st_seq(unsigned *a)
{
    for (int w = 0; w < WORDS_PER_LINE; w++) st_wb(a + threadIdx.x * WORDS_PER_LINE + w, w);
}

__global__ void mb_st_conc(unsigned *a)
{
    unsigned w = threadIdx.x / 32, l = threadIdx.x % 32;
    for (int g = 0; g < 32; g++) st_wb(a + (g * 32 + l) * WORDS_PER_LINE + w, g);
}

// Reads n lines spaced stride bytes apart, twice.
__global__ void mb_ways(const unsigned *a, unsigned *out, int n, int stride)
{
    unsigned s = 0;
    for (int r = 0; r < 2; r++)
        for (int i = 0; i < n; i++) s += ld_ca(a + (size_t)i * (stride / 4));
    out[0] = s;
}

static void check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "cachemb: %s: %s\n", what, cudaGetErrorString(e));
        exit(1);
    }
}

int main(int argc, char **argv)
{
    // mb_ways stride: L1 bytes / assumed ways; n lines (argv: stride n).
    int stride = argc > 1 ? atoi(argv[1]) : 229376 / 4;
    int n = argc > 2 ? atoi(argv[2]) : 8;
    size_t big = (size_t)64 << 20;
    unsigned *a, *out;
    check(cudaMalloc(&a, big), "cudaMalloc");
    check(cudaMalloc(&out, 4096), "cudaMalloc");
    check(cudaMemset(a, 1, big), "cudaMemset");
    unsigned *b = a + (8 << 20) / 4, *c = a + (16 << 20) / 4, *d = a + (24 << 20) / 4;
    mb_sector<<<1, 1>>>(a, out);
    mb_st_ld<<<1, 32>>>(b, out);
    mb_st_part<<<1, 1>>>(c, out);
    mb_ld_st_ld<<<1, 32>>>(d, out);
    mb_st_seq<<<1, 32>>>(a + (40 << 20) / 4);
    mb_st_conc<<<1, 256>>>(a + (48 << 20) / 4);
    mb_ways<<<1, 1>>>(a + (32 << 20) / 4, out, n, stride);
    check(cudaDeviceSynchronize(), "kernels");
    printf("cachemb: ok (ways stride %d n %d)\n", stride, n);
    return 0;
}
