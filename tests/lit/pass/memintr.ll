; SPDX-License-Identifier: Apache-2.0
; memcpy/memmove: a load site for the source, then a store site for the
; destination; memset: a store site. value = length; width = constant length
; below 65536, else 0. Volatile intrinsics are flagged.
; RUN: llvm-as %S/Inputs/sink_handler.ll -o %t.rec.bc
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-reconverge=false -gm-handlers=%t.rec.bc -gm-inst-before=memory -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: %python %gm_src/tests/tools/sitetab_dump.py %t.ll | FileCheck %s --check-prefix=TAB
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare void @llvm.memcpy.p3.p1.i64(ptr addrspace(3), ptr addrspace(1), i64, i1)
declare void @llvm.memset.p1.i64(ptr addrspace(1), i8, i64, i1)
declare void @llvm.memmove.p1.p0.i64(ptr addrspace(1), ptr, i64, i1)

; CHECK-LABEL: define void @f(
; CHECK: call void @sink_mem(i32 0, i64 %{{.*}}, i32 151060544, i64 64)
; CHECK: call void @sink_mem(i32 1, i64 %{{.*}}, i32 167968832, i64 64)
; CHECK-NEXT: call void @llvm.memcpy.p3.p1.i64(
; CHECK: call void @sink_mem(i32 2, i64 %{{.*}}, i32 167837696, i64 %n)
; CHECK-NEXT: call void @llvm.memset.p1.i64(
; CHECK: call void @sink_mem(i32 3, i64 %{{.*}}, i32 -1996488696, i64 8)
; CHECK: call void @sink_mem(i32 4, i64 %{{.*}}, i32 -1979645944, i64 8)
; CHECK-NEXT: call void @llvm.memmove.p1.p0.i64(
; CHECK-NOT: call void @sink_after
; CHECK: ret void
define void @f(ptr addrspace(3) %d, ptr addrspace(1) %s, ptr %p, i64 %n) {
  call void @llvm.memcpy.p3.p1.i64(ptr addrspace(3) %d, ptr addrspace(1) %s, i64 64, i1 false)
  call void @llvm.memset.p1.i64(ptr addrspace(1) %s, i8 0, i64 %n, i1 false)
  call void @llvm.memmove.p1.p0.i64(ptr addrspace(1) %s, ptr %p, i64 8, i1 true)
  ret void
}

; TAB: site 0 mem space=1 when=before info=0x9010040 width=64 load,memintr
; TAB: site 1 mem space=3 when=before info=0xa030040 width=64 store,memintr
; TAB: site 2 mem space=1 when=before info=0xa010000 width=0 store,memintr
; TAB: site 3 mem space=0 when=before info=0x89000008 width=8 load,memintr,volatile
; TAB: site 4 mem space=1 when=before info=0x8a010008 width=8 store,memintr,volatile
