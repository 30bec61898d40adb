; SPDX-License-Identifier: Apache-2.0
; Region reconvergence (pass/insert.c, pass/domtree.cpp) where dominance
; decides. @shared: the inner branch %d's lanes meet at %join, but %join is
; also entered from %a, which %d does not dominate: a sync there on %d's
; mask would count %a's lanes in no mask, so %join gets none and only the
; outer branch syncs, at %out. @endless: one side of the branch enters a
; loop that never reaches a return; its lanes never come to %then, so no
; sync goes there (LLVM's post-dominator tree ends the loop at the virtual
; exit: %entry has no post-dominator but that exit). Nor does the if %c1
; inside that loop get one at %j: a block that reaches no exit has no
; post-dominator (LLVM's tree gives %c1 one, %j, below the root it picks).
; RUN: llvm-as %S/Inputs/sink_handler.ll -o %t.rec.bc
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-handlers=%t.rec.bc -gm-inst-after= -gm-inst-before=memory -S %s | FileCheck %s
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @shared(
; CHECK: entry:
; CHECK: [[E:%gm.rmask[0-9]*]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT: br i1 %t, label %a, label %d
; CHECK: join:
; CHECK-NOT: bar.warp.sync
; CHECK: out:
; CHECK-NEXT: call void @llvm.nvvm.bar.warp.sync(i32 [[E]])
; CHECK-NEXT: ret void
define void @shared(ptr addrspace(1) %p, i32 %c, i32 %w, i32 %u) {
entry:
  %t = icmp sgt i32 %c, 0
  br i1 %t, label %a, label %d
a:
  %wa = icmp sgt i32 %w, 0
  br i1 %wa, label %join, label %x
d:
  %ud = icmp sgt i32 %u, 0
  br i1 %ud, label %then, label %join
then:
  %v = load i32, ptr addrspace(1) %p
  br label %join
join:
  br label %out
x:
  br label %out
out:
  ret void
}

; CHECK-LABEL: define void @endless(
; CHECK-NOT: gm.rmask
; CHECK-NOT: bar.warp.sync(i32 %gm.rmask
; CHECK: ret void
define void @endless(ptr addrspace(1) %p, i32 %c) {
entry:
  %t = icmp sgt i32 %c, 0
  br i1 %t, label %spin, label %then
spin:
  %s = load volatile i32, ptr addrspace(1) %p
  %z = icmp eq i32 %s, 0
  br i1 %z, label %a0, label %b0
a0:
  br label %c1
b0:
  br label %c1
c1:
  %y = icmp eq i32 %s, 1
  br i1 %y, label %a, label %b
a:
  store volatile i32 1, ptr addrspace(1) %p
  br label %j
b:
  br label %j
j:
  br label %spin
then:
  %v = load i32, ptr addrspace(1) %p
  br label %join
join:
  ret void
}
