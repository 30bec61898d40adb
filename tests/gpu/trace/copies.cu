// SPDX-License-Identifier: Apache-2.0
// Copies and memsets between traced launches (tests/gpu/trace/run.sh,
// issue 14 item 6). In program order:
//   cudaMemcpy host-to-device of a (1 MiB)
//   k_scale   b[i] = a[i] + 1 over 2^18 floats: 8192 load and 8192 store
//             records; reads the 32768 sectors the copy just wrote
//   cudaMemset of b (1 MiB), cudaMemcpy2D host-to-device into a (4 rows of
//             256 bytes, 1024 apart)
//   k_scale   c[i] = b[i] + 1: reads the 32768 sectors the memset wrote
//   cudaMemcpyAsync device-to-host of c, then a stream synchronise
// With a warm L2 (the simulator's default) both launches hit on every
// sector they read; with a cold one (ncu's default) on none.
// Usage: copies (no arguments). Depends only on CUDA.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "copies: %s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

enum { N = 1 << 18 };

__global__ void k_scale(const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] + 1.0f;
}

int main()
{
    float *a, *b, *c;
    static float h[N];
    for (int i = 0; i < N; i++) h[i] = (float)i;
    CK(cudaMalloc(&a, N * sizeof(float)));
    CK(cudaMalloc(&b, N * sizeof(float)));
    CK(cudaMalloc(&c, N * sizeof(float)));
    CK(cudaMemcpy(a, h, N * sizeof(float), cudaMemcpyHostToDevice));
    k_scale<<<N / 256, 256>>>(a, b);
    CK(cudaGetLastError());
    CK(cudaMemset(b, 0, N * sizeof(float)));
    CK(cudaMemcpy2D(a, 1024, h, 256, 256, 4, cudaMemcpyHostToDevice));
    k_scale<<<N / 256, 256>>>(b, c);
    CK(cudaGetLastError());
    CK(cudaMemcpyAsync(h, c, N * sizeof(float), cudaMemcpyDeviceToHost, 0));
    CK(cudaStreamSynchronize(0));
    double sum = 0;
    for (int i = 0; i < N; i++) sum += h[i];
    printf("checksum %.1f (expected %.1f)\n", sum, (double)N);   /* c = memset b + 1 */
    return sum == (double)N ? 0 : 1;
}
