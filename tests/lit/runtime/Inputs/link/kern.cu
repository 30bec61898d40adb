// SPDX-License-Identifier: Apache-2.0
// Link-style test input: an instrumented kernel behind a host entry point
// with C linkage, so that C and C++ mains, MPI wrappers, static and shared
// libraries (dlopen) can call it. With -DGM_LINK_RDC the kernel calls
// scale() from rdc_scale.cu (relocatable device code, -dc / -dlink).
// Prints "checksum S" (stdout) and returns 0 when the result is right,
// 1 when it is wrong; without a usable GPU it says so and returns 0.
#include <cstdio>

#ifdef GM_LINK_RDC
extern __device__ float scale(float x);
#else
__device__ float scale(float x) { return 2.0f * x; }
#endif

__global__ void scale_add(float *y, const float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] += scale(x[i]);
}

extern "C" int gm_link_run(int n)
{
    float *hx = new float[n], *hy = new float[n], *x, *y;
    for (int i = 0; i < n; i++)
        hx[i] = (float)(i % 100), hy[i] = 1.0f;
    cudaError_t e = cudaMalloc(&x, n * sizeof *x);
    if (e != cudaSuccess) {
        printf("no usable GPU (%s)\n", cudaGetErrorName(e));
        delete[] hx;
        delete[] hy;
        return 0;
    }
    cudaMalloc(&y, n * sizeof *y);
    cudaMemcpy(x, hx, n * sizeof *x, cudaMemcpyHostToDevice);
    cudaMemcpy(y, hy, n * sizeof *y, cudaMemcpyHostToDevice);
    for (int rep = 0; rep < 2; rep++)
        scale_add<<<(n + 255) / 256, 256>>>(y, x, n);
    e = cudaMemcpy(hy, y, n * sizeof *y, cudaMemcpyDeviceToHost);
    int bad = e != cudaSuccess;
    double sum = 0;
    for (int i = 0; i < n && !bad; i++) {
        bad = hy[i] != 1.0f + 4.0f * (float)(i % 100);
        sum += hy[i];
    }
    printf("checksum %.1f%s\n", sum, bad ? " WRONG" : "");
    cudaFree(x);
    cudaFree(y);
    delete[] hx;
    delete[] hy;
    return bad;
}
