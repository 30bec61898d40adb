// SPDX-License-Identifier: Apache-2.0
// Known-answer kernels for the trace handler (tests/gpu/trace/run.sh): each
// launch's warp memory instructions, active masks and sectors are known by
// hand. One launch per kernel, in this order:
//   k_stride  512 threads load and store a[t*8] (32 B apart): 16 load and
//             16 store records, 32 sectors each (1024 sectors)
//   k_half    4 warps, lanes 0..15 store a[i] (4 B): 4 records with active
//             0x0000ffff, 2 sectors each (8 sectors)
//   k_wide    1 warp loads big[k] (k < 16) and big[3 GiB + k] (k >= 16):
//             1 record whose deltas need 64 bits (two slots), 2 sectors
//   k_atomic  256 threads atomicAdd one counter: 8 atomic records, 1 sector each
// Usage: known (no arguments). Depends only on CUDA.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "known: %s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void k_stride(float *a)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    a[t * 8] = a[t * 8] + 1.0f;
}

__global__ void k_half(float *a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if ((threadIdx.x & 31) < 16) a[i] = 2.0f;
}

__global__ void k_wide(const unsigned char *big, unsigned *out)
{
    unsigned k = threadIdx.x;
    size_t off = k < 16 ? k : (3ull << 30) + k;
    out[k] = big[off];
}

__global__ void k_atomic(unsigned *c)
{
    atomicAdd(c, 1u);
}

int main()
{
    float *a;
    unsigned char *big;
    unsigned *out, *cnt, host[33];
    CK(cudaMalloc(&a, 512 * 8 * sizeof(float)));
    CK(cudaMemset(a, 0, 512 * 8 * sizeof(float)));
    CK(cudaMalloc(&big, (3ull << 30) + 64));
    CK(cudaMemset(big, 1, 64));
    CK(cudaMemset(big + (3ull << 30), 2, 64));
    CK(cudaMalloc(&out, 32 * sizeof(unsigned)));
    CK(cudaMalloc(&cnt, sizeof(unsigned)));
    CK(cudaMemset(cnt, 0, sizeof(unsigned)));
    k_stride<<<4, 128>>>(a);
    k_half<<<2, 64>>>(a);
    k_wide<<<1, 32>>>(big, out);
    k_atomic<<<2, 128>>>(cnt);
    CK(cudaGetLastError());
    CK(cudaMemcpy(host, out, 32 * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(host + 32, cnt, sizeof(unsigned), cudaMemcpyDeviceToHost));
    unsigned sum = 0;
    for (int i = 0; i < 33; i++) sum = sum * 31 + host[i];
    printf("known checksum: %u (counter %u)\n", sum, host[32]);
    CK(cudaFree(a));
    CK(cudaFree(big));
    CK(cudaFree(out));
    CK(cudaFree(cnt));
    return host[32] == 256 ? 0 : 1;
}
