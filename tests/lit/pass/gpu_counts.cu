// SPDX-License-Identifier: Apache-2.0
// End to end on the GPU, without the runtime: a vector add of n = 2^20
// floats built with clang -fpass-plugin and a handler that counts per site.
// Expected: every site (entry, branch, two loads, one store; no exit
// handler, so no exit site) runs n/32 =
// 32768 warp executions with n active threads, and the sums are right.
// Built on every machine; run only where lit has the `gpu` feature (or run
// the built binary Output/gpu_counts.cu.tmp.app on a GPU by hand).
// RUN: %clang -x cuda --cuda-path=%cuda_path -Wno-unknown-cuda-version --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -emit-llvm -c -I%gm_include %S/Inputs/gpu_count_handler.cu -o %t.tc.bc
// RUN: %clang -x cuda --cuda-path=%cuda_path -Wno-unknown-cuda-version --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S %s -fpass-plugin=%pass_plugin -mllvm -gm-handlers=%t.tc.bc -gline-tables-only -mllvm -gm-strip-debug -o %t.ptx
// RUN: %python %gm_src/tests/tools/sitetab_dump.py %t.ptx | FileCheck %s --check-prefix=TAB
// RUN: %clang -x cuda --cuda-path=%cuda_path -Wno-unknown-cuda-version --cuda-gpu-arch=sm_90 -O2 %s -fpass-plugin=%pass_plugin -mllvm -gm-handlers=%t.tc.bc -gline-tables-only -mllvm -gm-strip-debug -L%cuda_path/lib64 -lcudart -Wl,-rpath,%cuda_path/lib64 -o %t.app
// RUN: %if gpu %{ %t.app | FileCheck %s %}
// TAB: nsites=5
// TAB: site 0 entry
// TAB: site 1 branch
// TAB: site 2 mem space=1 when=before {{.*}} load
// TAB: site 3 mem space=1 when=before {{.*}} load
// TAB: site 4 mem space=1 when=before {{.*}} store
// CHECK: site 0 warps 32768 threads 1048576
// CHECK: site 1 warps 32768 threads 1048576
// CHECK: site 2 warps 32768 threads 1048576
// CHECK: site 3 warps 32768 threads 1048576
// CHECK: site 4 warps 32768 threads 1048576
// CHECK: result ok
#include <cstdio>
#include <cuda_runtime.h>

extern "C" __device__ unsigned long long test_counts[128];
__device__ unsigned long long test_counts[128];

__global__ void vadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

int main()
{
    const int n = 1 << 20;
    float *a, *b, *c;
    if (cudaMallocManaged(&a, n * sizeof(float)) || cudaMallocManaged(&b, n * sizeof(float)) ||
        cudaMallocManaged(&c, n * sizeof(float))) {
        printf("cuda: no device\n");
        return 1;
    }
    for (int i = 0; i < n; i++) {
        a[i] = (float)i;
        b[i] = 2.0f * i;
    }
    vadd<<<n / 256, 256>>>(a, b, c, n);
    unsigned long long h[128];
    if (cudaDeviceSynchronize() || cudaMemcpyFromSymbol(h, test_counts, sizeof h)) {
        printf("cuda: launch failed\n");
        return 1;
    }
    for (int s = 0; s < 5; s++)
        printf("site %d warps %llu threads %llu\n", s, h[s], h[64 + s]);
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += c[i] != 3.0f * i;
    printf(bad ? "result wrong (%d)\n" : "result ok\n", bad);
    return bad != 0;
}
