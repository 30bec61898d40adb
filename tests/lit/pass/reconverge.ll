; SPDX-License-Identifier: Apache-2.0
; The lanes executing together at a site run together again after each
; handler: the pass reads the active mask before the site's calls and ends
; every call with a warp sync on it (a handler that branches per lane left
; the warp split on the H100, so the next handler counted one warp twice).
; Before-calls and after-load calls each get their own mask. The other
; pass tests run with -gm-reconverge=false to keep their checks on the
; feature they test; OFF shows that switch.
; RUN: llvm-as %S/Inputs/sink_handler.ll -o %t.rec.bc
; RUN: llvm-as %S/Inputs/second_handler.ll -o %t.second.bc
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-handlers=%t.rec.bc,%t.second.bc -gm-inst-after=memory -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-reconverge=false -gm-handlers=%t.rec.bc,%t.second.bc -gm-inst-after=memory -S %s | FileCheck %s --check-prefix=OFF
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @f(
; CHECK: [[M:%gm.mask[0-9]*]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT: call void @sink_mem(i32 0,
; CHECK-NEXT: call void @llvm.nvvm.bar.warp.sync(i32 [[M]])
; CHECK-NEXT: call void @sink_second(i32 0)
; CHECK-NEXT: call void @llvm.nvvm.bar.warp.sync(i32 [[M]])
; CHECK-NEXT: %v = load i32
; CHECK: [[A:%gm.mask[0-9]*]] = call i32 @llvm.nvvm.activemask()
; CHECK: call void @sink_after(i32 0,
; CHECK-NEXT: call void @llvm.nvvm.bar.warp.sync(i32 [[A]])
; CHECK: [[S:%gm.mask[0-9]*]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT: call void @sink_mem(i32 1,
; CHECK-NEXT: call void @llvm.nvvm.bar.warp.sync(i32 [[S]])
; CHECK-NEXT: call void @sink_second(i32 1)
; CHECK-NEXT: call void @llvm.nvvm.bar.warp.sync(i32 [[S]])
; CHECK-NEXT: store i32 %v
; OFF-LABEL: define void @f(
; OFF-NOT: llvm.nvvm.activemask
; OFF-NOT: llvm.nvvm.bar.warp.sync
; OFF: ret void
define void @f(ptr addrspace(1) %p, ptr addrspace(1) %q) {
  %v = load i32, ptr addrspace(1) %p
  store i32 %v, ptr addrspace(1) %q
  ret void
}
