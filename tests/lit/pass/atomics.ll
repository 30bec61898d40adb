; SPDX-License-Identifier: Apache-2.0
; atomicrmw, cmpxchg and NVVM atomic intrinsics are load|store|atomic sites
; whose value is the operand (cmpxchg: the new value); ldu and invariant
; global loads (what ldg became) are loads on the non-coherent path.
; RUN: llvm-as %S/Inputs/sink_handler.ll -o %t.rec.bc
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-reconverge=false -gm-handlers=%t.rec.bc -gm-inst-before=memory -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: %python %gm_src/tests/tools/sitetab_dump.py %t.ll | FileCheck %s --check-prefix=TAB
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.atomic.add.gen.i.cta.i32.p0(ptr, i32)
declare i32 @llvm.nvvm.ldu.global.i.i32.p1(ptr addrspace(1), i32)

; CHECK-LABEL: define void @f(
; CHECK: call void @sink_mem(i32 0, i64 %{{.*}}, i32 117506052, i64 5)
; CHECK-NEXT: atomicrmw add ptr addrspace(1) %g, i32 5
; CHECK: call void @sink_mem(i32 1, i64 %{{.*}}, i32 117637128, i64 9)
; CHECK-NEXT: cmpxchg ptr addrspace(3) %s, i64 1, i64 9
; CHECK: call void @sink_mem(i32 2, i64 %{{.*}}, i32 117440516, i64 3)
; CHECK-NEXT: call i32 @llvm.nvvm.atomic.add.gen.i.cta.i32.p0(ptr %p, i32 3)
; CHECK: call void @sink_mem(i32 3, i64 %{{.*}}, i32 553713668, i64 0)
; CHECK-NEXT: %u = call i32 @llvm.nvvm.ldu.global.i.i32.p1(
; CHECK: call void @sink_after(i32 3, i64 %{{.*}}, i32 553713668, i64 %{{.*}})
; CHECK: call void @sink_mem(i32 4, i64 %{{.*}}, i32 1895890960, i64 0)
; CHECK-NEXT: %v = load <4 x i32>, ptr addrspace(1) %g, align 16, !invariant.load
define void @f(ptr addrspace(1) %g, ptr addrspace(3) %s, ptr %p) {
  %r = atomicrmw add ptr addrspace(1) %g, i32 5 monotonic
  %x = cmpxchg ptr addrspace(3) %s, i64 1, i64 9 monotonic monotonic
  %n = call i32 @llvm.nvvm.atomic.add.gen.i.cta.i32.p0(ptr %p, i32 3)
  %u = call i32 @llvm.nvvm.ldu.global.i.i32.p1(ptr addrspace(1) %g, i32 4)
  %v = load <4 x i32>, ptr addrspace(1) %g, align 16, !invariant.load !0
  ret void
}
!0 = !{}

; TAB: site 0 mem space=1 when=before info=0x7010004 width=4 load,store,atomic func=f
; TAB: site 1 mem space=3 when=before info=0x7030008 width=8 load,store,atomic func=f
; TAB: site 2 mem space=0 when=before info=0x7000004 width=4 load,store,atomic func=f
; TAB: site 3 mem space=1 when=before,after info=0x21010004 width=4 load,nc func=f
; TAB: site 4 mem space=1 when=before,after info=0x71010010 width=16 load,trunc,nc,vector func=f
