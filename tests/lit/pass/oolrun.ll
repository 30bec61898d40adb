; SPDX-License-Identifier: Apache-2.0
; Runs of out-of-line calls (pass/oolrun.c): at least 4 calls of one copy
; in a basic block, for consecutive sites whose addresses are a constant
; stride apart, with no other call between them, become one call of the
; copy's run function (site, first address, count, stride), which makes
; the same calls in the same order in a loop. Fewer calls, a call between
; them (inline asm could exit the thread), an uneven stride or another
; copy keep their calls.
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-handlers=%handlers/coalescing.bc -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; -gm-diag-no-run (A/B switch): every call stays, no run function.
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-handlers=%handlers/coalescing.bc -gm-diag-no-run -S %s -o %t.norun.ll
; RUN: FileCheck --check-prefix=NORUN %s < %t.norun.ll
; NORUN-NOT: gm_ool__run__
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; A table of 8 words (sites 0-7), whose copy nothing else calls: a run
; (the run function takes the copy's place), then 3 words of 8 bytes
; (8-10): fewer than 4 calls stay.
; The run function (added functions come first, fnorder.c): the copy's
; body in a loop, site + i at address a + i * d, its warp mask taken and
; synced in each iteration. A call of the copy inside the loop (the first
; form) deadlocked black-scholes-cuda on the H100 under a branch's
; reconvergence sync (the kernel never finished; with the body inlined it
; runs in 7.3 s).
; CHECK: define internal void @gm_ool__run__before_mem__[[C4:[0-9]+]](i32 %0, i64 %1, i32 %2, i64 %3)
; CHECK: loop:
; CHECK-NEXT: %i = phi i32 [ 0, %entry ], [ %i.next, %[[EXIT:.*]] ]
; CHECK-NEXT: %a = phi i64 [ %1, %entry ], [ %a.next, %[[EXIT]] ]
; CHECK-NEXT: %site = add i32 %0, %i
; CHECK-NEXT: %gm.mask.i = call i32 @llvm.nvvm.activemask()
; CHECK-NOT: call void @gm_ool__
; CHECK: call void @llvm.nvvm.bar.warp.sync(i32 %gm.mask.i)
; CHECK-NEXT: %i.next = add nuw i32 %i, 1
; CHECK-NEXT: %a.next = add i64 %a, %3
; CHECK-NEXT: [[C:%[0-9]+]] = icmp ult i32 %i.next, %2
; CHECK-NEXT: br i1 [[C]], label %loop, label %done
; CHECK-LABEL: define void @table(
; CHECK-NEXT: [[A:%[0-9]+]] = ptrtoint ptr addrspace(1) %p to i64
; CHECK-NEXT: call void @gm_ool__run__before_mem__[[C4]](i32 0, i64 [[A]], i32 8, i64 4)
; CHECK-NEXT: store i32 0, ptr addrspace(1) %p
; CHECK-NOT: call
; CHECK: store i32 7,
; CHECK-NOT: call
; CHECK: call void @gm_ool__before_mem__[[C8:[0-9]+]](i32 8,
; CHECK-NEXT: store i64 8,
; CHECK: call void @gm_ool__before_mem__[[C8]](i32 9,
; CHECK: call void @gm_ool__before_mem__[[C8]](i32 10,
; CHECK: ret void
define void @table(ptr addrspace(1) %p) {
  store i32 0, ptr addrspace(1) %p
  %a1 = getelementptr inbounds i8, ptr addrspace(1) %p, i64 4
  store i32 1, ptr addrspace(1) %a1
  %a2 = getelementptr inbounds i8, ptr addrspace(1) %p, i64 8
  store i32 2, ptr addrspace(1) %a2
  %a3 = getelementptr inbounds i8, ptr addrspace(1) %p, i64 12
  store i32 3, ptr addrspace(1) %a3
  %a4 = getelementptr inbounds i8, ptr addrspace(1) %p, i64 16
  store i32 4, ptr addrspace(1) %a4
  %a5 = getelementptr inbounds i8, ptr addrspace(1) %p, i64 20
  store i32 5, ptr addrspace(1) %a5
  %a6 = getelementptr inbounds i8, ptr addrspace(1) %p, i64 24
  store i32 6, ptr addrspace(1) %a6
  %a7 = getelementptr inbounds i8, ptr addrspace(1) %p, i64 28
  store i32 7, ptr addrspace(1) %a7
  %b0 = getelementptr inbounds i8, ptr addrspace(1) %p, i64 64
  store i64 8, ptr addrspace(1) %b0
  %b1 = getelementptr inbounds i8, ptr addrspace(1) %p, i64 72
  store i64 9, ptr addrspace(1) %b1
  %b2 = getelementptr inbounds i8, ptr addrspace(1) %p, i64 80
  store i64 10, ptr addrspace(1) %b2
  ret void
}


; 8 words of 8 bytes in a row, but their copy is also called in @table: a
; run function would repeat the copy's body beside it (about 200 lines for
; 8 calls' 56; made before the body counted), so the calls stay.
; CHECK-LABEL: define void @shared(
; CHECK-NOT: gm_ool__run__
; CHECK-COUNT-8: call void @gm_ool__before_mem__[[C8]](
; CHECK-NOT: gm_ool__run__
; CHECK: ret void
define void @shared(ptr addrspace(1) %p) {
  store i64 0, ptr addrspace(1) %p
  %a1 = getelementptr inbounds i8, ptr addrspace(1) %p, i64 8
  store i64 1, ptr addrspace(1) %a1
  %a2 = getelementptr inbounds i8, ptr addrspace(1) %p, i64 16
  store i64 2, ptr addrspace(1) %a2
  %a3 = getelementptr inbounds i8, ptr addrspace(1) %p, i64 24
  store i64 3, ptr addrspace(1) %a3
  %a4 = getelementptr inbounds i8, ptr addrspace(1) %p, i64 32
  store i64 4, ptr addrspace(1) %a4
  %a5 = getelementptr inbounds i8, ptr addrspace(1) %p, i64 40
  store i64 5, ptr addrspace(1) %a5
  %a6 = getelementptr inbounds i8, ptr addrspace(1) %p, i64 48
  store i64 6, ptr addrspace(1) %a6
  %a7 = getelementptr inbounds i8, ptr addrspace(1) %p, i64 56
  store i64 7, ptr addrspace(1) %a7
  ret void
}

; A call between the sites (inline asm; 8 bytes a word apart, whose copy
; nothing else calls: without it a run of 8) and an uneven stride in the
; middle of 8 halfwords (likewise): no run.
; CHECK-LABEL: define void @broken(
; CHECK-NOT: gm_ool__run__
; CHECK-COUNT-16: call void @gm_ool__before_mem__
; CHECK-NOT: gm_ool__run__
; CHECK: ret void
define void @broken(ptr addrspace(1) %p) {
  store i8 0, ptr addrspace(1) %p
  %a1 = getelementptr inbounds i8, ptr addrspace(1) %p, i64 4
  store i8 1, ptr addrspace(1) %a1
  %a2 = getelementptr inbounds i8, ptr addrspace(1) %p, i64 8
  store i8 2, ptr addrspace(1) %a2
  %a3 = getelementptr inbounds i8, ptr addrspace(1) %p, i64 12
  store i8 3, ptr addrspace(1) %a3
  call void asm sideeffect "exit;", ""()
  %a4 = getelementptr inbounds i8, ptr addrspace(1) %p, i64 16
  store i8 4, ptr addrspace(1) %a4
  %a5 = getelementptr inbounds i8, ptr addrspace(1) %p, i64 20
  store i8 5, ptr addrspace(1) %a5
  %a6 = getelementptr inbounds i8, ptr addrspace(1) %p, i64 24
  store i8 6, ptr addrspace(1) %a6
  %a7 = getelementptr inbounds i8, ptr addrspace(1) %p, i64 28
  store i8 7, ptr addrspace(1) %a7
  %b0 = getelementptr inbounds i8, ptr addrspace(1) %p, i64 64
  store i16 0, ptr addrspace(1) %b0
  %b1 = getelementptr inbounds i8, ptr addrspace(1) %p, i64 68
  store i16 1, ptr addrspace(1) %b1
  %b2 = getelementptr inbounds i8, ptr addrspace(1) %p, i64 72
  store i16 2, ptr addrspace(1) %b2
  %b3 = getelementptr inbounds i8, ptr addrspace(1) %p, i64 76
  store i16 3, ptr addrspace(1) %b3
  %b4 = getelementptr inbounds i8, ptr addrspace(1) %p, i64 84
  store i16 4, ptr addrspace(1) %b4
  %b5 = getelementptr inbounds i8, ptr addrspace(1) %p, i64 88
  store i16 5, ptr addrspace(1) %b5
  %b6 = getelementptr inbounds i8, ptr addrspace(1) %p, i64 92
  store i16 6, ptr addrspace(1) %b6
  %b7 = getelementptr inbounds i8, ptr addrspace(1) %p, i64 96
  store i16 7, ptr addrspace(1) %b7
  ret void
}
