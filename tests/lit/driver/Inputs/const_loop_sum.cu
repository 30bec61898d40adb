// SPDX-License-Identifier: Apache-2.0
// Constant loads in an unrolled loop (cmembench-cuda's int kernel): the
// coalescing helper co_keyed gets specialised copies returning the run,
// and ooltidy.c drops a parameter they do not read.
__constant__ int cdata[1024];
__global__ void k(int *out, int repeat)
{
    int sum = 0;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 1024; j += 4)
            sum += cdata[j + i];
    if (threadIdx.x == 0 && blockIdx.x == 0) *out = sum;
}
