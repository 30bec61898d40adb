// SPDX-License-Identifier: Apache-2.0
// Known answers for site groups (docs/pass.md, pass/group.c): one warp per
// block loads four words p[0], p[32], p[5], p[67] of shared memory from one
// base p = &s[idx(lane)], consecutive sites of one block whose addresses
// differ by constants, so the default analyses (the NAME.ool build:
// coalescing and divergence) count them with one group call; the .inst
// build (values, allocations too: no group handler) counts each site on
// its own. Lane patterns: conflict-free stride, 2-way (minimod-cuda's 8 x 4
// tile of a 16-word row), 4-way, broadcast, and a partial warp of 24
// lanes. A shift of every lane by the same number of words moves all of
// them by the same number of banks, so each site takes the wavefronts of
// p[0]. Host CUDA only; must not depend on gpumem.
#include "kat.h"

#define BLOCKS 8
#define WORDS 2048

/* Word of lane l: 0 stride 1 (1 wavefront), 1 rows of 8 lanes 16 words
 * apart (lanes l and l + 16 share banks: 2), 2 rows of 8 lanes 32 words
 * apart (4 lanes a bank: 4), 3 one word for all (broadcast: 1), 4 as 1
 * (launched with 24 lanes: lanes 16-23 share banks with 0-7: 2). */
__device__ __forceinline__ int word(int mode, int l)
{
    return mode == 0 ? l : mode == 1 || mode == 4 ? (l % 8) + (l / 8) * 16
         : mode == 2 ? (l % 8) + (l / 8) * 32 : 0;
}

static const int FIRST_LINE = __LINE__ + 10;
template <int MODE>
__global__ void grp(float *out)
{
    __shared__ float s[WORDS];
    int l = threadIdx.x;
    for (int i = l; i < WORDS; i += blockDim.x)
        s[i] = (float)i;
    __syncthreads();
    const float *p = &s[word(MODE, l)];
    float a = p[0];
    float b = p[32];
    float c = p[5];
    float d = p[67];
    out[blockIdx.x * blockDim.x + l] = a + b + c + d;
}

template <int MODE>
static void run(const char *name, int threads, int ways)
{
    float *out;
    KAT_CHECK(cudaMalloc(&out, BLOCKS * 32 * sizeof(float)));
    grp<MODE><<<BLOCKS, threads>>>(out);
    kat_sync();
    for (int line = FIRST_LINE; line < FIRST_LINE + 4; line++) {
        kat_expect(name, __FILE__, line, "coalescing.warps", BLOCKS);
        kat_expect(name, __FILE__, line, "coalescing.threads", (unsigned long long)BLOCKS * threads);
        kat_expect(name, __FILE__, line, "coalescing.wavefronts", (unsigned long long)BLOCKS * ways);
        kat_expect(name, __FILE__, line, "coalescing.ideal_wavefronts", BLOCKS);
    }
    KAT_CHECK(cudaFree(out));
}

int main(void)
{
    run<0>("grp<0>", 32, 1);   /* conflict-free stride */
    run<1>("grp<1>", 32, 2);   /* 2-way */
    run<2>("grp<2>", 32, 4);   /* 4-way */
    run<3>("grp<3>", 32, 1);   /* broadcast */
    run<4>("grp<4>", 24, 2);   /* partial warp, 2-way */
    return 0;
}
