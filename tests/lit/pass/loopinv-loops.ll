; SPDX-License-Identifier: Apache-2.0
; Loop steps (pass/loopinv.c) on LLVM's loops (pass/loops.cpp: LoopInfo,
; CycleInfo, DominatorTree), with the built-in coalescing handler.
; @whileform: an inner loop whose header exits (not rotated) inside an
; outer loop, its phi listing the preheader first: the step (4 B) goes into
; the inner preheader. The hand-written recogniser this replaced took the
; preheader for the latch there (it reaches the phi's block around the outer
; loop) and found no step.
; @irreducible: the load's block dominates the latch but lies on an
; irreducible cycle inside the loop (e1 <-> e2, entered at both), which
; LoopInfo does not call a loop: it may run more than once per iteration,
; so no step (CycleInfo sees the cycle).
; @guarded: the loop's one outside predecessor also branches past it (LLVM's
; getLoopPredecessor, not a dedicated preheader): the step is stored there,
; whether or not the loop is entered (D is the same whenever it is stored;
; run mask 0 only starts a new run).
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-handlers=%handlers/coalescing.bc -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @whileform(
; CHECK: ipre:
; CHECK-NOT: {{^[a-z0-9.]+:}}
; CHECK: [[W2:%.*]] = getelementptr inbounds i32, ptr %gm.acc, i32 2
; CHECK-NEXT: store i32 4, ptr [[W2]]
; CHECK: [[W5:%.*]] = getelementptr inbounds i32, ptr %gm.acc, i32 5
; CHECK-NEXT: store i32 1, ptr [[W5]]
; CHECK-NEXT: br label %inner
define ptx_kernel void @whileform(ptr addrspace(1) %a, i32 %n, i32 %m) {
entry:
  br label %outer
outer:
  %o = phi i32 [ 0, %entry ], [ %o1, %olatch ]
  br label %ipre
ipre:
  br label %inner
inner:
  %i = phi i32 [ 0, %ipre ], [ %i1, %ilatch ]
  %s = sext i32 %i to i64
  %q = getelementptr inbounds i32, ptr addrspace(1) %a, i64 %s
  %x = load i32, ptr addrspace(1) %q, align 4
  %c = icmp slt i32 %i, %n
  br i1 %c, label %ilatch, label %olatch
ilatch:
  %i1 = add nsw i32 %i, 1
  br label %inner
olatch:
  %o1 = add nsw i32 %o, 1
  %oc = icmp slt i32 %o1, %m
  br i1 %oc, label %outer, label %exit
exit:
  ret void
}

; CHECK-LABEL: define ptx_kernel void @irreducible(
; CHECK-NOT: i32 5{{$}}
; CHECK: ret void
define ptx_kernel void @irreducible(ptr addrspace(1) %a, i32 %n, i1 %f, i1 %g) {
entry:
  br label %pre
pre:
  br label %loop
loop:
  %i = phi i32 [ 0, %pre ], [ %i1, %latch ]
  %s = sext i32 %i to i64
  br i1 %f, label %e1, label %e2
e1:
  %q = getelementptr inbounds i32, ptr addrspace(1) %a, i64 %s
  %x = load i32, ptr addrspace(1) %q, align 4
  br i1 %g, label %e2, label %latch
e2:
  br label %e1
latch:
  %i1 = add nsw i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; CHECK-LABEL: define ptx_kernel void @guarded(
; CHECK: entry:
; CHECK: store i32 4, ptr
; CHECK: [[G5:%.*]] = getelementptr inbounds i32, ptr %gm.acc, i32 5
; CHECK-NEXT: store i32 1, ptr [[G5]]
; CHECK-NEXT: br i1 %z, label %loop, label %exit
define ptx_kernel void @guarded(ptr addrspace(1) %a, i32 %n) {
entry:
  %z = icmp sgt i32 %n, 0
  br i1 %z, label %loop, label %exit
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %s = sext i32 %i to i64
  %q = getelementptr inbounds i32, ptr addrspace(1) %a, i64 %s
  %x = load i32, ptr addrspace(1) %q, align 4
  %i1 = add nsw i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
