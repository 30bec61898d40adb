// SPDX-License-Identifier: Apache-2.0
// Reproducible builds: the same file built three times with the default
// analyses gives byte-identical PTX (the counters' declarations and the
// llvm.used lists once came out in an order that changed from run to run:
// the NVPTX printer walks a global's dependencies in a pointer-hashed set).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gpumemcc -O3 -ptx %s -o %t/a.ptx
// RUN: %gpumemcc -O3 -ptx %s -o %t/b.ptx
// RUN: %gpumemcc -O3 -ptx %s -o %t/c.ptx
// RUN: cmp %t/a.ptx %t/b.ptx
// RUN: cmp %t/a.ptx %t/c.ptx
// RUN: FileCheck %s < %t/a.ptx
// CHECK-DAG: gm_counters__coalescing__
// CHECK-DAG: gm_counters__coalescing_matrix__
// CHECK-DAG: gm_counters__divergence__
__global__ void scale(const float *a, float *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        b[i] = a[i] * 2.0f;
}
