// SPDX-License-Identifier: Apache-2.0
// Driver test input: an 80 KB __device__ const table (clang's implicit
// __constant__ would exceed ptxas's 64 KB; the pass moves it to global
// memory, pass/constdata.c) next to the program's own __constant__, read by
// a kernel; the host checks the sum and prints a checksum.
#include <cstdio>
#define X4(n) n, n + 1, n + 2, n + 3
#define X16(n) X4(n), X4(n + 4), X4(n + 8), X4(n + 12)
#define X64(n) X16(n), X16(n + 16), X16(n + 32), X16(n + 48)
#define X256(n) X64(n), X64(n + 64), X64(n + 128), X64(n + 192)
#define X1024(n) X256(n), X256(n + 256), X256(n + 512), X256(n + 768)
#define X4096(n) X1024(n), X1024(n + 1024), X1024(n + 2048), X1024(n + 3072)
#define N 20480
__device__ const float table[N] = {X4096(0), X4096(4096), X4096(8192), X4096(12288),
                                   X4096(16384)};
__constant__ float scale[2] = {1.0f, 2.0f};

__global__ void gather(double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = table[i] * scale[i & 1] + table[(i * 7) % n];
}

int main()
{
    double *out;
    if (cudaMallocManaged(&out, N * sizeof *out)) {
        fprintf(stderr, "cudaMallocManaged failed\n");
        return 1;
    }
    gather<<<(N + 255) / 256, 256>>>(out, N);
    if (cudaDeviceSynchronize() != cudaSuccess)
        return 1;
    double sum = 0, want = 0;
    for (int i = 0; i < N; i++) {
        sum += out[i];
        want += (double)i * (1 + (i & 1)) + (double)((i * 7) % N);
    }
    printf("checksum %.1f\n", sum);
    return sum == want ? 0 : 1;
}
