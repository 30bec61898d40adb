// SPDX-License-Identifier: Apache-2.0
#include <cstdio>
void scale(float *x, float a, int n);
int host_answer();
int main()
{
    float *x = nullptr;
    if (cudaMalloc(&x, 4 * sizeof *x) != cudaSuccess) {
        printf("no GPU; host says %d\n", host_answer());
        return 0;
    }
    scale(x, 2.0f, 4);
    printf("%s; host says %d\n", cudaGetErrorString(cudaDeviceSynchronize()), host_answer());
    cudaFree(x);
    return 0;
}
