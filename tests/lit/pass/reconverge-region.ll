; SPDX-License-Identifier: Apache-2.0
; Region reconvergence (pass/insert.c): lanes that split at a branch whose
; code between it and its meeting point holds a handler call are made to
; meet again there, as native code does (ptxas did not reconverge around the
; inlined trace handler on the H100: the lanes that skipped an `if` ran ahead
; to the next load). The mask is read at the end of the branching block and
; synced on at the first post-dominator outside any cycle that avoids the
; branch: the join of an if, the exit of a loop entered from a preheader; a
; loop's own exit branch gets none (its lanes meet at the loop exit through
; the preheader's mask). With -gm-reconverge=false there are none; with
; -gm-diag-no-region-sync only these are gone.
; RUN: llvm-as %S/Inputs/sink_handler.ll -o %t.rec.bc
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-handlers=%t.rec.bc -gm-inst-after= -gm-inst-before=memory -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-reconverge=false -gm-handlers=%t.rec.bc -gm-inst-after= -gm-inst-before=memory -S %s | FileCheck %s --check-prefix=OFF
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-diag-no-region-sync -gm-handlers=%t.rec.bc -gm-inst-after= -gm-inst-before=memory -S %s | FileCheck %s --check-prefix=NOREG
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @f(
; CHECK: entry:
; CHECK: [[E:%gm.rmask[0-9]*]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT: br i1 %t, label %then, label %join
; CHECK: join:
; CHECK-NEXT: call void @llvm.nvvm.bar.warp.sync(i32 [[E]])
; CHECK: [[J:%gm.rmask[0-9]*]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT: br i1 %g, label %ph, label %out
; CHECK: ph:
; CHECK-NEXT: [[P:%gm.rmask[0-9]*]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT: br label %loop
; CHECK: loop:
; CHECK: [[L:%gm.rmask[0-9]*]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT: br i1 %neg, label %latch, label %body
; CHECK: latch:
; CHECK-NEXT: call void @llvm.nvvm.bar.warp.sync(i32 [[L]])
; CHECK-NOT: activemask
; CHECK: br i1 %more, label %loop, label %exit
; CHECK: exit:
; CHECK-NEXT: call void @llvm.nvvm.bar.warp.sync(i32 [[P]])
; CHECK-NEXT: br label %out
; CHECK: out:
; CHECK-NEXT: call void @llvm.nvvm.bar.warp.sync(i32 [[J]])
; CHECK-NEXT: ret void
; A branch with no handler call before its meeting point gets nothing.
; CHECK-LABEL: define void @g(
; CHECK-NOT: llvm.nvvm.bar.warp.sync(i32 %gm.rmask
; CHECK: ret void
; NOREG-LABEL: define void @f(
; NOREG-NOT: gm.rmask
; NOREG: ret void
; OFF-LABEL: define void @f(
; OFF-NOT: llvm.nvvm.activemask
; OFF-NOT: llvm.nvvm.bar.warp.sync
; OFF: ret void
define void @f(ptr addrspace(1) %p, i32 %n, i32 %c) {
entry:
  %t = icmp sgt i32 %c, 0
  br i1 %t, label %then, label %join
then:
  %v = load i32, ptr addrspace(1) %p
  br label %join
join:
  %g = icmp sgt i32 %n, 0
  br i1 %g, label %ph, label %out
ph:
  br label %loop
loop:
  %i = phi i32 [0, %ph], [%i1, %latch]
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %i
  %x = load i32, ptr addrspace(1) %q
  %neg = icmp slt i32 %x, 0
  br i1 %neg, label %latch, label %body
body:
  store i32 1, ptr addrspace(1) %q
  br label %latch
latch:
  %i1 = add i32 %i, 1
  %more = icmp slt i32 %i1, %x
  br i1 %more, label %loop, label %exit
exit:
  br label %out
out:
  ret void
}

define void @g(ptr addrspace(1) %p, i32 %c) {
entry:
  %v = load i32, ptr addrspace(1) %p
  %t = icmp sgt i32 %c, %v
  br i1 %t, label %then, label %join
then:
  %w = add i32 %v, 1
  br label %join
join:
  %r = phi i32 [ %v, %entry ], [ %w, %then ]
  ret void
}
