// SPDX-License-Identifier: Apache-2.0
// Driver test input: kernel calling a __device__ function from another TU (rdc_lib.cu).
#include <cstdio>
extern __device__ int scale(int x);
__global__ void apply(int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = scale(v[i]);
}
int main()
{
    const int n = 256;
    int *v;
    if (cudaMallocManaged(&v, n * sizeof *v)) {
        fprintf(stderr, "cudaMallocManaged failed\n");
        return 1;
    }
    for (int i = 0; i < n; i++)
        v[i] = i;
    apply<<<1, n>>>(v, n);
    if (cudaDeviceSynchronize() != cudaSuccess)
        return 1;
    long sum = 0;
    for (int i = 0; i < n; i++)
        sum += v[i];
    printf("checksum %ld\n", sum);
    return sum == 3L * n * (n - 1) / 2 ? 0 : 1;
}
