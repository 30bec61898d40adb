// SPDX-License-Identifier: Apache-2.0
// Source of tests/lit/report/Inputs/small.json (a hand-written report):
// its sites and host call sites name these lines (app.cu:10, 11, 12, 20,
// 50..59, 70, 71), so the browser test's source view has text to show.
#include <cuda_runtime.h>

__global__ void copy(float *out, float *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i * 4];                 // strided: 16 sectors per request
    out[i] = v;
    if (v > 0.5f) out[i] = 1.0f - v;     // divergent half the time
}

__global__ void tileF(void)
{
    __shared__ float t[32][32];
    t[threadIdx.y][threadIdx.x] = threadIdx.x;
    __syncthreads();
    float x = t[threadIdx.x][threadIdx.y]; // bank conflicts
    (void)x;
}

int main(int argc, char **argv)
{
    float *a, *b, *c, h[2048];
    (void)argc, (void)argv;
    // (lines 28-49 left blank: the calls below sit on the report's lines)





















    cudaMalloc((void **)&a, 4096);
    cudaMalloc((void **)&b, 8192);   // "output"
    cudaMemcpy(a, h, 4096, cudaMemcpyHostToDevice);
    copy<<<4, 32>>>(b, a);
    cudaMalloc((void **)&c, 1024);   // never used, never freed
    cudaMemcpy(h, b, 8192, cudaMemcpyDeviceToHost);
    copy<<<4, 32>>>(b, a);
    cudaMemset(b, 0, 8192);
    cudaMemcpy(h, b, 8192, cudaMemcpyDeviceToHost);
    tileF<<<1, dim3(32, 32)>>>();










    cudaFree(a);
    cudaFree(b);
    return 0;
}
