// SPDX-License-Identifier: Apache-2.0
// Fast math (-use_fast_math: clang sets the module flag nvvm-reflect-ftz=1
// and fast-math function attributes): the instrumented build links (the
// handler bitcode's nvvm-reflect-ftz=0 once conflicted: "IDs have
// conflicting override values") and the user's float code keeps its
// semantics (every f32 operation flushes denormals, as in the --gm-off
// build). The handlers use no floating point, so no flag changes their
// results: checked on their bitcode.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gpumemcc -use_fast_math -O3 -ptx %s -o %t/off.ptx --gm-off
// RUN: %gpumemcc -use_fast_math -O3 -ptx %s -o %t/inst.ptx
// RUN: FileCheck %s --check-prefix=FTZ < %t/off.ptx
// RUN: FileCheck %s --check-prefix=FTZ < %t/inst.ptx
// RUN: FileCheck %s --check-prefix=SITES < %t/inst.ptx
// RUN: %llvm-dis %handlers/coalescing.bc -o - | FileCheck %s --check-prefix=NOFP
// RUN: %llvm-dis %handlers/divergence.bc -o - | FileCheck %s --check-prefix=NOFP
// FTZ: sqrt.approx.ftz.f32
// FTZ-NOT: {{(add|sub|mul|fma.rn|sqrt.approx|rcp.approx|div.[a-z]+)\.f32}}
// SITES: __gm_sitetab__
// NOFP-NOT: {{ (fadd|fsub|fmul|fdiv|frem|fptosi|fptoui|sitofp|uitofp) }}
// NOFP-NOT: @llvm.nvvm.reflect
__global__ void k(const float *a, float *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0;
    for (int j = 0; j < n; j++)
        s += sqrtf(a[i + j * 256]) / (a[i] + 1.0f);
    b[i] = s * 0.5f;
}
