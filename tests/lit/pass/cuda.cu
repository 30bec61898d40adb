// SPDX-License-Identifier: Apache-2.0
// A real .cu through clang -fpass-plugin with -mllvm options to PTX for
// sm_90: handlers written in CUDA C (bitcode), -gline-tables-only plus
// -gm-strip-debug gives source locations without .loc lines; the PTX has
// the site table, counters and replica mask under one module id; ptxas
// accepts it; with the empty handler the memory instructions equal the
// -gm-off build's (float4 loads stay v4), at -O0 and -O3.
// RUN: %clang -x cuda --cuda-path=%cuda_path -Wno-unknown-cuda-version --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -emit-llvm -c -I%gm_include %S/Inputs/empty_handler.cu -o %t.empty.bc
// RUN: %clang -x cuda --cuda-path=%cuda_path -Wno-unknown-cuda-version --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -emit-llvm -c -I%gm_include %S/Inputs/count_handler.cu -o %t.cnt.bc
// RUN: %clang -x cuda --cuda-path=%cuda_path -Wno-unknown-cuda-version --cuda-gpu-arch=sm_90 --cuda-device-only -O3 -S %s -fpass-plugin=%pass_plugin -mllvm -gm-off -o %t.off.ptx
// RUN: %clang -x cuda --cuda-path=%cuda_path -Wno-unknown-cuda-version --cuda-gpu-arch=sm_90 --cuda-device-only -O3 -S %s -fpass-plugin=%pass_plugin -mllvm -gm-handlers=%t.empty.bc -gline-tables-only -mllvm -gm-strip-debug -o %t.empty.ptx
// RUN: %python %gm_src/tests/tools/ptx_memops.py %t.off.ptx %t.empty.ptx | FileCheck %s --check-prefix=SAME
// RUN: %python %gm_src/tests/tools/ptx_memops.py --list %t.empty.ptx | FileCheck %s --check-prefix=V4
// RUN: %clang -x cuda --cuda-path=%cuda_path -Wno-unknown-cuda-version --cuda-gpu-arch=sm_90 --cuda-device-only -O0 -S %s -fpass-plugin=%pass_plugin -mllvm -gm-off -o %t.off0.ptx
// RUN: %clang -x cuda --cuda-path=%cuda_path -Wno-unknown-cuda-version --cuda-gpu-arch=sm_90 --cuda-device-only -O0 -S %s -fpass-plugin=%pass_plugin -mllvm -gm-handlers=%t.empty.bc -o %t.empty0.ptx
// RUN: %python %gm_src/tests/tools/ptx_memops.py %t.off0.ptx %t.empty0.ptx | FileCheck %s --check-prefix=SAME
// RUN: %clang -x cuda --cuda-path=%cuda_path -Wno-unknown-cuda-version --cuda-gpu-arch=sm_90 --cuda-device-only -O3 -S %s -fpass-plugin=%pass_plugin -mllvm -gm-handlers=%t.cnt.bc,%t.empty.bc -mllvm -gm-inst-after= -gline-tables-only -mllvm -gm-strip-debug -o %t.cnt.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.cnt.ptx
// RUN: %ptxas -arch=sm_90 %t.cnt.ptx -o %t.cnt.cubin
// RUN: %python %gm_src/tests/tools/sitetab_dump.py %t.cnt.ptx | FileCheck %s --check-prefix=TAB
// SAME: ptx_memops: same {{[0-9]+}} memory instructions
// V4: 2 ld.global.v4.b32
// V4: st.global.v4.b32
// PTX-NOT: .loc
// PTX-DAG: .visible .const .align 8 .u64 gm_counters__cnt__[[ID:[0-9a-f]{16}]];
// PTX-DAG: .visible .const .align 4 .u32 __gm_replica_mask__[[ID]];
// PTX-DAG: .visible .global .align 8 .b8 __gm_sitetab__[[ID]][{{[0-9]+}}] = {71, 77, 83, 73, 84, 69, 83, 0,
// PTX-DAG: ld.global.v4.b32
// PTX-DAG: atom.add.u64
// PTX-NOT: gm_before_mem__
// TAB: n_asm_mem=0 abi=1 source={{.*}}cuda.cu
// TAB: site 0 entry {{.*}} func=_Z4vaddPK6float4S1_PS_i loc={{.*}}cuda.cu:[[#@LINE+7]]:0
// TAB: site 1 branch {{.*}} loc={{.*}}cuda.cu:[[#@LINE+9]]:
// TAB: site 2 mem space=1 when=before info=0x51010010 width=16 load,trunc,vector {{.*}} loc={{.*}}cuda.cu:[[#@LINE+9]]:
// TAB: site 3 mem space=1 when=before info=0x51010010 width=16 load,trunc,vector {{.*}} loc={{.*}}cuda.cu:[[#@LINE+9]]:
// TAB: site 4 mem space=1 when=before info=0x52010010 width=16 store,trunc,vector {{.*}} loc={{.*}}cuda.cu:[[#@LINE+9]]:
// TAB: global gm_counters__cnt sym=gm_counters__cnt__{{[0-9a-f]+}} slots=2 size=8 flags=1 slotnames=execs,threads
// TAB: global __gm_replica_mask
__global__ void vadd(const float4 *a, const float4 *b, float4 *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 x = a[i];
        float4 y = b[i];
        c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
}
