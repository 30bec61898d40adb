; SPDX-License-Identifier: Apache-2.0
; Masked vector loads and stores (what LLVM's load-store vectorizer makes of
; a float4 of which three fields are used: one ld.global.v4 in PTX) are
; memory sites of the whole vector's width; they were not instrumented at
; all (histogram-cuda's float4 kernels: no load in the trace).
; RUN: llvm-as %S/Inputs/sink_handler.ll -o %t.rec.bc
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-reconverge=false -gm-handlers=%t.rec.bc -gm-inst-before=memory -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: %python %gm_src/tests/tools/sitetab_dump.py %t.ll | FileCheck %s --check-prefix=TAB
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare <4 x float> @llvm.masked.load.v4f32.p1(ptr addrspace(1), <4 x i1>, <4 x float>)
declare void @llvm.masked.store.v4f32.p1(<4 x float>, ptr addrspace(1), <4 x i1>)

; CHECK-LABEL: define void @f(
; CHECK: call void @sink_mem(i32 0, i64 %{{.*}}, i32 {{.*}}, i64
; CHECK-NEXT: call <4 x float> @llvm.masked.load.v4f32.p1(
; CHECK: call void @sink_mem(i32 1, i64 %{{.*}}, i32 {{.*}}, i64
; CHECK-NEXT: call void @llvm.masked.store.v4f32.p1(
; CHECK: ret void
define void @f(ptr addrspace(1) %s, ptr addrspace(1) %d) {
  %v = call <4 x float> @llvm.masked.load.v4f32.p1(ptr addrspace(1) align 16 %s, <4 x i1> <i1 true, i1 true, i1 true, i1 false>, <4 x float> poison)
  call void @llvm.masked.store.v4f32.p1(<4 x float> %v, ptr addrspace(1) align 16 %d, <4 x i1> <i1 true, i1 true, i1 true, i1 false>)
  ret void
}

; TAB: site 0 mem space=1 when=before,after info={{.*}} width=16 load,trunc,vector
; TAB: site 1 mem space=1 when=before info={{.*}} width=16 store,trunc,vector
