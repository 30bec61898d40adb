// SPDX-License-Identifier: Apache-2.0
// Block accumulators and the shared-memory budget, end to end: with the
// test handler Inputs/block_handler.cu (GM_BLOCK), a kernel with 48 KiB of
// static shared memory (the most without an opt-in) gets no block words
// (its sites update memory directly) and still compiles through ptxas,
// while the same kernel with 1 KiB gets them; built with the default
// analyses and with the test handler it runs with correct results on a
// GPU. Built on every machine; run only where lit has the `gpu` feature.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gpumemcc -O3 --gm-analyses=none --gm-handler=%S/Inputs/block_handler.cu -ptx %s -o %t/big.ptx
// RUN: FileCheck %s --check-prefix=BIG --implicit-check-not=__gm_block < %t/big.ptx
// RUN: %gpumemcc -O3 --gm-analyses=none --gm-handler=%S/Inputs/block_handler.cu -DSMALL -ptx %s -o %t/small.ptx
// RUN: FileCheck %s --check-prefix=SMALL < %t/small.ptx
// RUN: %gpumemcc -O3 %s -o %t/big
// RUN: %gpumemcc -O3 --gm-analyses=none --gm-handler=%S/Inputs/block_handler.cu -DSMALL %s -o %t/small
// RUN: %if gpu %{ env GPUMEM_OUT=%t/rep %t/big | FileCheck %s %}
// RUN: %if gpu %{ env GPUMEM_OUT=%t/rep2 %t/small | FileCheck %s %}
// BIG: .shared .align 4 .b8 {{.*}}tile[49152]
// SMALL: .shared .align 4 .b8 __gm_block
// SMALL: bar.sync 0;
// CHECK: result ok
#include <cstdio>
#include <cuda_runtime.h>

#ifdef SMALL
#define WORDS 256
#else
#define WORDS 12288
#endif

__global__ void big(const float *in, float *out)
{
    __shared__ float tile[WORDS];
    int t = threadIdx.x;
    for (int i = t; i < WORDS; i += blockDim.x)
        tile[i] = in[blockIdx.x * WORDS + i];
    __syncthreads();
    for (int i = t; i < WORDS; i += blockDim.x)
        out[blockIdx.x * WORDS + i] = tile[WORDS - 1 - i] * 2.0f;
}

int main()
{
    const int blocks = 64, n = blocks * WORDS;
    float *in, *out;
    if (cudaMallocManaged(&in, n * sizeof(float)) || cudaMallocManaged(&out, n * sizeof(float))) {
        printf("cuda: no device\n");
        return 1;
    }
    for (int i = 0; i < n; i++) in[i] = (float)(i % 1000);
    big<<<blocks, 256>>>(in, out);
    if (cudaDeviceSynchronize()) {
        printf("cuda: launch failed\n");
        return 1;
    }
    int bad = 0;
    for (int b = 0; b < blocks; b++)
        for (int i = 0; i < WORDS; i++)
            bad += out[b * WORDS + i] != 2.0f * (float)((b * WORDS + WORDS - 1 - i) % 1000);
    printf(bad ? "result wrong: %d\n" : "result ok\n", bad);
    return bad != 0;
}
