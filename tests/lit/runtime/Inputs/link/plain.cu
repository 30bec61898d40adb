// SPDX-License-Identifier: Apache-2.0
// Link-style test input: code built by nvcc (or plain clang), not by
// gpumemcc, linked into the same program as instrumented objects: it runs,
// and is not measured. Returns 0 unless a GPU computed a wrong value.
#include <cstdio>

__global__ void fill(int *p, int v) { p[threadIdx.x] = v; }

extern "C" int gm_plain_run(void)
{
    int *p, h[32];
    if (cudaMalloc(&p, sizeof h) != cudaSuccess)
        return 0;
    fill<<<1, 32>>>(p, 7);
    int bad = cudaMemcpy(h, p, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess;
    for (int i = 0; i < 32 && !bad; i++)
        bad = h[i] != 7;
    cudaFree(p);
    printf("plain %s\n", bad ? "WRONG" : "ok");
    return bad;
}
