; SPDX-License-Identifier: Apache-2.0
; Loop steps (pass/loopinv.c) with the built-in coalescing handler (it
; defines GM_ACCUM_STEP): a global load in a loop whose address advances by
; a loop-invariant D bytes per iteration, running once per iteration, gets
; D (words 2, 3), run mask 0 (word 4) and 1 (word 5) stored into its
; accumulator in the loop's preheader. Forms: sgemm's integer ivs
; (a[row*n + k] with zext nneg, b[k*n + col] with sext), a pointer phi
; stepped by a GEP, 2 * 4-byte steps through shl. Not recognised: a load on
; one branch inside the loop, an index that is not affine (k*k), an index
; through an i32 add without nsw under sext, a step that depends on the
; thread (D must be the same for every lane: blockDim and gridDim are, as in
; a grid-stride loop); nothing with -gm-diag-no-loopinv.
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-handlers=%handlers/coalescing.bc -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-diag-no-loopinv -gm-handlers=%handlers/coalescing.bc -S %s -o %t.off.ll
; RUN: FileCheck %s --check-prefix=OFF < %t.off.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; OFF-NOT: i32 5{{$}}

; CHECK-LABEL: define ptx_kernel void @sgemm(
; CHECK: pre:
; CHECK: [[W2:%.*]] = getelementptr inbounds i32, ptr %gm.acc[[A:[0-9]*]], i32 2
; CHECK-NEXT: store i32 4, ptr [[W2]]
; CHECK-NEXT: [[W3:%.*]] = getelementptr inbounds i32, ptr %gm.acc[[A]], i32 3
; CHECK-NEXT: store i32 0, ptr [[W3]]
; CHECK-NEXT: [[W4:%.*]] = getelementptr inbounds i32, ptr %gm.acc[[A]], i32 4
; CHECK-NEXT: store i32 0, ptr [[W4]]
; CHECK-NEXT: [[W5:%.*]] = getelementptr inbounds i32, ptr %gm.acc[[A]], i32 5
; CHECK-NEXT: store i32 1, ptr [[W5]]
; CHECK-NEXT: [[N:%.*]] = sext i32 %n to i64
; CHECK-NEXT: [[K:%.*]] = mul i64 1, [[N]]
; CHECK: [[D:%.*]] = mul i64 {{%.*}}, 4
; CHECK: [[LO:%.*]] = trunc i64 [[D2:%.*]] to i32
; CHECK-NEXT: [[V2:%.*]] = getelementptr inbounds i32, ptr %gm.acc[[B:[0-9]*]], i32 2
; CHECK-NEXT: store i32 [[LO]], ptr [[V2]]
; CHECK-NEXT: [[HI:%.*]] = lshr i64 [[D2]], 32
; CHECK: getelementptr inbounds i32, ptr %gm.acc[[B]], i32 5
; CHECK-NEXT: store i32 1
; CHECK-NEXT: br label %loop
define ptx_kernel void @sgemm(ptr addrspace(1) %a, ptr addrspace(1) %b, i32 %n, i32 %row, i32 %col) {
entry:
  %rn = mul nsw i32 %row, %n
  br label %pre
pre:
  br label %loop
loop:
  %k = phi i32 [ 0, %pre ], [ %k1, %loop ]
  %ia = add nuw nsw i32 %k, %rn
  %za = zext nneg i32 %ia to i64
  %pa = getelementptr inbounds float, ptr addrspace(1) %a, i64 %za
  %x = load float, ptr addrspace(1) %pa, align 4
  %kn = mul nuw nsw i32 %k, %n
  %ib = add nsw i32 %kn, %col
  %sb = sext i32 %ib to i64
  %pb = getelementptr inbounds float, ptr addrspace(1) %b, i64 %sb
  %y = load float, ptr addrspace(1) %pb, align 4
  %k1 = add nuw nsw i32 %k, 1
  %c = icmp slt i32 %k1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; CHECK-LABEL: define ptx_kernel void @ptrphi(
; CHECK: pre:
; CHECK: store i32 8, ptr
; CHECK: store i32 1, ptr
; CHECK-NEXT: br label %loop
define ptx_kernel void @ptrphi(ptr addrspace(1) %a, i32 %n) {
entry:
  br label %pre
pre:
  br label %loop
loop:
  %p = phi ptr addrspace(1) [ %a, %pre ], [ %p1, %loop ]
  %i = phi i32 [ 0, %pre ], [ %i1, %loop ]
  %q = getelementptr inbounds i8, ptr addrspace(1) %p, i64 4
  %x = load i32, ptr addrspace(1) %q, align 4
  %p1 = getelementptr inbounds i32, ptr addrspace(1) %p, i64 2
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; shl by 1 of an nsw chain under sext: 2 elements of 4 bytes per iteration
; CHECK-LABEL: define ptx_kernel void @shl(
; CHECK: pre:
; CHECK: store i32 8, ptr
; CHECK: store i32 1, ptr
; CHECK-NEXT: br label %loop
define ptx_kernel void @shl(ptr addrspace(1) %a, i32 %n) {
entry:
  br label %pre
pre:
  br label %loop
loop:
  %i = phi i32 [ 0, %pre ], [ %i1, %loop ]
  %t = shl nsw i32 %i, 1
  %s = sext i32 %t to i64
  %q = getelementptr inbounds i32, ptr addrspace(1) %a, i64 %s
  %x = load i32, ptr addrspace(1) %q, align 4
  %i1 = add nsw i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; A grid-stride loop: i += blockDim.x * gridDim.x, the same in every
; thread (llvm.nvvm.read.ptx.sreg.ntid/nctaid): D = 4 * ntid * nctaid.
; CHECK-LABEL: define ptx_kernel void @gridstride(
; CHECK: pre:
; CHECK: [[S:%.*]] = sext i32 %st to i64
; CHECK: mul i64 [[S]], 4
; CHECK: store i32 1, ptr
; CHECK-NEXT: br label %loop
define ptx_kernel void @gridstride(ptr addrspace(1) %a, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nt = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %nc = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %bt = mul nsw i32 %b, %nt
  %i0 = add nsw i32 %bt, %t
  %st = mul nsw i32 %nt, %nc
  br label %pre
pre:
  br label %loop
loop:
  %i = phi i32 [ %i0, %pre ], [ %i1, %loop ]
  %s = sext i32 %i to i64
  %q = getelementptr inbounds i32, ptr addrspace(1) %a, i64 %s
  %x = load i32, ptr addrspace(1) %q, align 4
  %i1 = add nsw i32 %i, %st
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()

; CHECK-LABEL: define ptx_kernel void @rejected(
; CHECK-NOT: i32 5{{$}}
; CHECK: ret void
define ptx_kernel void @rejected(ptr addrspace(1) %a, i32 %n, i1 %f) {
entry:
  br label %pre
pre:
  br label %loop
loop:
  %i = phi i32 [ 0, %pre ], [ %i1, %latch ]
  %s = sext i32 %i to i64
  br i1 %f, label %cond, label %latch
cond:                                   ; not every iteration
  %q = getelementptr inbounds i32, ptr addrspace(1) %a, i64 %s
  %x = load i32, ptr addrspace(1) %q, align 4
  br label %latch
latch:
  %sq = mul nsw i32 %i, %i                ; not affine
  %s2 = sext i32 %sq to i64
  %q2 = getelementptr inbounds i32, ptr addrspace(1) %a, i64 %s2
  %y = load i32, ptr addrspace(1) %q2, align 4
  %w = add i32 %i, %n                     ; may wrap under sext
  %s3 = sext i32 %w to i64
  %q3 = getelementptr inbounds i32, ptr addrspace(1) %a, i64 %s3
  %z = load i32, ptr addrspace(1) %q3, align 4
  %i1 = add nsw i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; CHECK-LABEL: define ptx_kernel void @perthread(
; CHECK-NOT: i32 5{{$}}
; CHECK: ret void
define ptx_kernel void @perthread(ptr addrspace(1) %a, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %pre
pre:
  br label %loop
loop:
  %i = phi i32 [ 0, %pre ], [ %i1, %loop ]
  %s = sext i32 %i to i64
  %q = getelementptr inbounds i32, ptr addrspace(1) %a, i64 %s
  %x = load i32, ptr addrspace(1) %q, align 4
  %i1 = add nsw i32 %i, %t
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; Fixed addresses (computed at most once per thread: in a block on no
; cycle, or a kernel argument): D = 0 for the whole kernel, word 5 = 1
; right after the accumulator's zeroing at kernel entry, nothing in the
; preheader; global and shared alike (%pa, %ps, %a, %pp). An address
; loaded inside the loop (%q) is not fixed (on a cycle): nothing for it
; (its accumulator, the first zeroed, has no word 5 store).
; CHECK-LABEL: define ptx_kernel void @fixed(
; CHECK-NEXT: entry:
; CHECK-COUNT-5: alloca [6 x i32]
; CHECK-NEXT: store [6 x i32] zeroinitializer
; CHECK-NEXT: store [6 x i32] zeroinitializer
; CHECK-NEXT: [[F1:%.*]] = getelementptr inbounds i32, ptr %gm.acc{{[0-9]*}}, i32 5
; CHECK-NEXT: store i32 1, ptr [[F1]]
; CHECK-NEXT: store [6 x i32] zeroinitializer
; CHECK-NEXT: [[F2:%.*]] = getelementptr inbounds i32, ptr %gm.acc{{[0-9]*}}, i32 5
; CHECK-NEXT: store i32 1, ptr [[F2]]
; CHECK-NEXT: store [6 x i32] zeroinitializer
; CHECK-NEXT: [[F3:%.*]] = getelementptr inbounds i32, ptr %gm.acc{{[0-9]*}}, i32 5
; CHECK-NEXT: store i32 1, ptr [[F3]]
; CHECK-NEXT: store [6 x i32] zeroinitializer
; CHECK-NEXT: [[F4:%.*]] = getelementptr inbounds i32, ptr %gm.acc{{[0-9]*}}, i32 5
; CHECK-NEXT: store i32 1, ptr [[F4]]
; CHECK-NEXT: %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK-NOT: i32 5{{$}}
; CHECK: ret void
@tile = internal addrspace(3) global [256 x float] undef, align 4
define ptx_kernel void @fixed(ptr addrspace(1) %a, ptr addrspace(1) %pp, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %zt = zext i32 %t to i64
  %pa = getelementptr inbounds float, ptr addrspace(1) %a, i64 %zt
  %ps = getelementptr inbounds [256 x float], ptr addrspace(3) @tile, i64 0, i64 %zt
  br label %pre
pre:
  br label %loop
loop:
  %i = phi i32 [ 0, %pre ], [ %i1, %loop ]
  %x = load float, ptr addrspace(1) %pa, align 4
  %y = load float, ptr addrspace(3) %ps, align 4
  %z = load float, ptr addrspace(1) %a, align 4
  %q = load ptr addrspace(1), ptr addrspace(1) %pp, align 8
  %w = load float, ptr addrspace(1) %q, align 4
  %i1 = add nsw i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
