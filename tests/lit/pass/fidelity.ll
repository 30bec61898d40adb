; SPDX-License-Identifier: Apache-2.0
; Memory fidelity: with an empty handler at every event the instrumented
; PTX holds exactly the native ld/st instructions (space, width, vector
; shape), including an explicit v4 load and scalar loads/stores the backend
; vectorises. With calls that stay in the code (call_handler) the vector
; accesses survive because the pass vectorises before inserting calls. The
; comparison tool itself fails on a listing with extra loads.
; RUN: llvm-as %S/Inputs/empty_handler.ll -o %t.empty.bc
; RUN: llvm-as %S/Inputs/call_handler.ll -o %t.call.bc
; RUN: llvm-as %S/Inputs/sink_handler.ll -o %t.rec.bc
; RUN: llc -mcpu=sm_90 %s -o %t.native.ptx
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-handlers=%t.empty.bc %s -o %t.empty.inst.bc
; RUN: llc -mcpu=sm_90 %t.empty.inst.bc -o %t.empty.ptx
; RUN: %python %gm_src/tests/tools/ptx_memops.py %t.native.ptx %t.empty.ptx | FileCheck %s --check-prefix=SAME
; RUN: %python %gm_src/tests/tools/ptx_memops.py --list %t.empty.ptx | FileCheck %s --check-prefix=LIST
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-handlers=%t.call.bc %s -o %t.call.inst.bc
; RUN: llc -mcpu=sm_90 %t.call.inst.bc -o %t.call.ptx
; RUN: FileCheck %s --check-prefix=CALL < %t.call.ptx
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-handlers=%t.rec.bc %s -o %t.rec.inst.bc
; RUN: llc -mcpu=sm_90 %t.rec.inst.bc -o %t.rec.ptx
; RUN: not %python %gm_src/tests/tools/ptx_memops.py %t.native.ptx %t.rec.ptx | FileCheck %s --check-prefix=DIFF
; SAME: ptx_memops: same {{[0-9]+}} memory instructions
; LIST: 2 ld.global.nc.v4.b32
; LIST: 1 st.global.v4.b32
; CALL-COUNT-2: ld.global.nc.v4.b32
; CALL: call.uni{{.*}}sink_mem
; CALL: st.global.v4.b32
; DIFF: ptx_memops: memory instructions differ
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr addrspace(1) noalias readonly align 16 %a, ptr addrspace(1) noalias align 16 %c, i32 %n) {
entry:
  %v = load <4 x float>, ptr addrspace(1) %a, align 16
  %a1 = getelementptr inbounds i8, ptr addrspace(1) %a, i64 16
  %a2 = getelementptr inbounds i8, ptr addrspace(1) %a, i64 20
  %a3 = getelementptr inbounds i8, ptr addrspace(1) %a, i64 24
  %a4 = getelementptr inbounds i8, ptr addrspace(1) %a, i64 28
  %x1 = load float, ptr addrspace(1) %a1, align 16
  %x2 = load float, ptr addrspace(1) %a2, align 4
  %x3 = load float, ptr addrspace(1) %a3, align 8
  %x4 = load float, ptr addrspace(1) %a4, align 4
  %e0 = extractelement <4 x float> %v, i32 0
  %e1 = extractelement <4 x float> %v, i32 1
  %e2 = extractelement <4 x float> %v, i32 2
  %e3 = extractelement <4 x float> %v, i32 3
  %s1 = fadd float %x1, %e0
  %s2 = fadd float %x2, %e1
  %s3 = fadd float %x3, %e2
  %s4 = fadd float %x4, %e3
  %c2 = getelementptr inbounds i8, ptr addrspace(1) %c, i64 4
  %c3 = getelementptr inbounds i8, ptr addrspace(1) %c, i64 8
  %c4 = getelementptr inbounds i8, ptr addrspace(1) %c, i64 12
  %p = icmp sgt i32 %n, 0
  br i1 %p, label %st, label %done
st:
  store float %s1, ptr addrspace(1) %c, align 16
  store float %s2, ptr addrspace(1) %c2, align 4
  store float %s3, ptr addrspace(1) %c3, align 8
  store float %s4, ptr addrspace(1) %c4, align 4
  br label %done
done:
  ret void
}
