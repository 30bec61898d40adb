// SPDX-License-Identifier: Apache-2.0
// Driver test input: a kernel and a host wrapper built into a shared library.
__global__ void fill(int *p, int v) { p[threadIdx.x] = v; }
extern "C" int gm_test_fill(int *p, int v)
{
    fill<<<1, 32>>>(p, v);
    return (int)cudaDeviceSynchronize();
}
