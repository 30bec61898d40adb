// SPDX-License-Identifier: Apache-2.0
__global__ void scale_kernel(float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= a;
}

void scale(float *x, float a, int n) { scale_kernel<<<(n + 255) / 256, 256>>>(x, a, n); }
