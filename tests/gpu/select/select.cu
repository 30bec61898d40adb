// SPDX-License-Identifier: Apache-2.0
// GPU suite `select` (tests/gpu/select.sh): two kernels, launched LAUNCHES
// times each, whose launches run-time selection measures or not.
//   gather: 8 gathers per thread through a __noinline__ device function
//           (its copy must be copied too), launched with <<<>>>
//   twice<unsigned>: a template kernel (comdat) launched with
//           cudaLaunchKernelEx (the driver's cuLaunchKernelEx)
//   tile:   64 KiB of dynamic shared memory, allowed with
//           cudaFuncSetAttribute (its copy must get the same limit)
// Every launch adds into out[], so the final checksum is the same whichever
// code (instrumented, uninstrumented copy, --gm-off) ran each launch; every
// launch of a kernel accesses the same addresses and takes the same
// branches, so its counts are the same in every launch.
// Prints "select: checksum X launches L". Depends on the CUDA runtime only.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "select: %s: %s\n", #x, cudaGetErrorString(e_)); return 2; } } while (0)

enum { N = 1 << 22, THREADS = 256 };

__device__ __noinline__ unsigned mix(const unsigned *in, unsigned i, unsigned k, unsigned round)
{
    unsigned j = (i * 2654435761u + k * 40503u) & (N - 1);
    return in[j] ^ ((k + round) * 2246822519u);
}

__global__ void gather(const unsigned *in, unsigned *out, int n, int round)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (unsigned)n) return;
    unsigned s = 0;
    for (unsigned k = 0; k < 8; k++)
        s += mix(in, i, k, (unsigned)round);
    out[i] += s;
}

template <typename T>
__global__ void twice(T *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && (i & 32)) out[i] = out[i] * 2u + 1u;
    else if (i < n) out[i] = out[i] + 3u;
}

enum { TILE = 16384 }; // unsigned: 64 KiB

__global__ void tile(const unsigned *in, unsigned *out, int n)
{
    extern __shared__ unsigned t[];
    unsigned base = blockIdx.x * TILE;
    for (unsigned j = threadIdx.x; j < TILE; j += blockDim.x) t[j] = in[(base + j) & (N - 1)];
    __syncthreads();
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < (unsigned)n) out[i] += t[(threadIdx.x * 97u) % TILE] + t[(threadIdx.x * 31u + 7u) % TILE];
}

int main(int argc, char **argv)
{
    int launches = argc > 1 ? atoi(argv[1]) : 40;
    unsigned *in, *out, *h = (unsigned *)malloc(N * sizeof *h);
    for (unsigned i = 0; i < N; i++) h[i] = i * 7919u + 13u;
    CK(cudaMalloc(&in, N * sizeof *in));
    CK(cudaMalloc(&out, N * sizeof *out));
    CK(cudaMemcpy(in, h, N * sizeof *in, cudaMemcpyHostToDevice));
    CK(cudaMemset(out, 0, N * sizeof *out));
    CK(cudaFuncSetAttribute(tile, cudaFuncAttributeMaxDynamicSharedMemorySize, TILE * 4));
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3((N + THREADS - 1) / THREADS);
    cfg.blockDim = dim3(THREADS);
    for (int r = 0; r < launches; r++) {
        gather<<<(N + THREADS - 1) / THREADS, THREADS>>>(in, out, N, r);
        CK(cudaGetLastError());
        CK(cudaLaunchKernelEx(&cfg, twice<unsigned>, out, (int)N));
        tile<<<N / TILE, THREADS, TILE * 4>>>(in, out, N / TILE * THREADS);
        CK(cudaGetLastError());
    }
    CK(cudaMemcpy(h, out, N * sizeof *h, cudaMemcpyDeviceToHost));
    unsigned long long sum = 0;
    for (unsigned i = 0; i < N; i++) sum = sum * 31u + h[i];
    printf("select: checksum %llx launches %d\n", sum, launches);
    free(h);
    return 0;
}
