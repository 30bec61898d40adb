; SPDX-License-Identifier: Apache-2.0
; A straight-line handler (no branch, no call but to intrinsics) cannot split
; the warp, so its calls get no activemask / bar.warp.sync: the empty
; analysis costs no warp sync. A branching handler still gets them (BR).
; RUN: llvm-as %S/Inputs/straight_handler.ll -o %t.straight.bc
; RUN: llvm-as %S/Inputs/sink_handler.ll -o %t.rec.bc
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-handlers=%t.straight.bc -gm-inst-after= -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-handlers=%t.straight.bc,%t.rec.bc -gm-inst-after= -S %s | FileCheck %s --check-prefix=MIXED
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @f(
; CHECK-NOT: %gm.mask
; CHECK-NOT: llvm.nvvm.bar.warp.sync
; CHECK: ret void
; MIXED-LABEL: define void @f(
; MIXED: [[M:%gm.mask[0-9]*]] = call i32 @llvm.nvvm.activemask()
; MIXED-NOT: bar.warp.sync
; MIXED: call void @sink_mem(i32 0,
; MIXED-NEXT: call void @llvm.nvvm.bar.warp.sync(i32 [[M]])
; MIXED-NEXT: %v = load i32
define void @f(ptr addrspace(1) %p) {
  %v = load i32, ptr addrspace(1) %p
  ret void
}
