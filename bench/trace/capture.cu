// SPDX-License-Identifier: Apache-2.0
// Trace capture benchmark (bench/trace/run.sh, issue 14 item 1): saxpy
// launches, 3 warp memory instructions per warp (2 loads, 1 store), so a
// launch of T threads makes 3 * T / 32 trace records. Modes:
//   small  2000 launches of 65,536 threads (6,144 records each; 12.3 M)
//   medium 500 launches of 1,048,576 threads (98,304 records each; 49.2 M)
//   large  4 launches of 67,108,864 threads (6.3 M records each; 25.2 M)
// Prints the host time of the launch loop (until cudaDeviceSynchronize
// returns) and the records the trace must hold; the traced process may
// still be draining at that point (run.sh times the whole process).
// Usage: capture small|medium|large. Depends only on CUDA.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "capture: %s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void saxpy(float a, const float *x, float *y)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = a * x[i] + y[i];
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "small";
    size_t threads, launches;
    if (!strcmp(mode, "small")) threads = 1 << 16, launches = 2000;
    else if (!strcmp(mode, "medium")) threads = 1 << 20, launches = 500;
    else if (!strcmp(mode, "large")) threads = (size_t)1 << 26, launches = 4;
    else { fprintf(stderr, "usage: capture small|medium|large\n"); return 2; }
    float *x, *y;
    CK(cudaMalloc(&x, threads * sizeof(float)));
    CK(cudaMalloc(&y, threads * sizeof(float)));
    CK(cudaMemset(x, 0, threads * sizeof(float)));
    CK(cudaMemset(y, 0, threads * sizeof(float)));
    CK(cudaDeviceSynchronize());
    auto t0 = std::chrono::steady_clock::now();
    for (size_t l = 0; l < launches; l++) saxpy<<<threads / 256, 256>>>(1.0f, x, y);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    printf("mode %s launches %zu records %zu loop_s %.6f\n", mode, launches,
           launches * 3 * threads / 32, s);
    CK(cudaFree(x));
    CK(cudaFree(y));
    return 0;
}
