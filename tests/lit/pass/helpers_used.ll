; SPDX-License-Identifier: Apache-2.0
; A module keeps only the GM_SLOW helper bodies its sites call (pass/inline.c):
; with every site out of line (no loop), each helper is inlined into the
; copy that calls it and no helper body is emitted; a loop site's branch
; handler and its accumulator's flush at kernel exit share divergence's one
; helper, dv_add (the run flush and the exit flush were two bodies, 89 and
; 77 PTX lines), and the out-of-line branch copy holds its own inlined one.
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-handlers=%handlers/divergence.bc,%handlers/coalescing.bc -S %S/Inputs/helpers_straight.ll -o %t.straight.ll
; RUN: FileCheck %s --check-prefix=STRAIGHT < %t.straight.ll
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-handlers=%handlers/divergence.bc -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; STRAIGHT-NOT: define {{.*}}@_ZL
; STRAIGHT: define internal void @gm_ool__before_
; STRAIGHT-NOT: define {{.*}}@_ZL
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; The added functions come first (fnorder.c), then the kernel.
; CHECK-NOT: define {{.*}}@_ZL
; CHECK: define internal {{.*}}@[[ADD:_ZL6dv_add[a-z]*]](
; CHECK-NOT: define {{.*}}@_ZL
; CHECK: define internal void @gm_ool__before_branch__[[B:[0-9]+]](
; CHECK-NOT: define {{.*}}@_ZL
; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: call void @gm_ool__before_branch__[[B]](i32 0,
; CHECK: body:
; CHECK: call {{.*}}@[[ADD]](i32 noundef 1,
; CHECK: exit:
; CHECK: call {{.*}}@[[ADD]](i32 noundef 1, {{.*}}, i32 noundef 0, i32 noundef 1)
; CHECK: ret void
; CHECK-NOT: define
define ptx_kernel void @k(i32 %n) {
entry:
  %c0 = icmp sgt i32 %n, 0
  br i1 %c0, label %body, label %exit
body:
  %i = phi i32 [ 0, %entry ], [ %j, %body ]
  %j = add i32 %i, 1
  %c = icmp slt i32 %j, %n
  br i1 %c, label %body, label %exit
exit:
  ret void
}
