// SPDX-License-Identifier: Apache-2.0
// Driver test input: a vector add with a host main that prints a checksum.
#include <cstdio>
__global__ void vadd(float *c, const float *a, const float *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}
int main()
{
    const int n = 1 << 10;
    float *a, *b, *c;
    if (cudaMallocManaged(&a, n * sizeof *a) || cudaMallocManaged(&b, n * sizeof *b) ||
        cudaMallocManaged(&c, n * sizeof *c)) {
        fprintf(stderr, "cudaMallocManaged failed\n");
        return 1;
    }
    for (int i = 0; i < n; i++)
        a[i] = (float)i, b[i] = 2.0f * i;
    vadd<<<(n + 255) / 256, 256>>>(c, a, b, n);
    if (cudaDeviceSynchronize() != cudaSuccess)
        return 1;
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += c[i];
    printf("checksum %.1f\n", sum);
    return sum == 3.0 * n * (n - 1) / 2 ? 0 : 1;
}
