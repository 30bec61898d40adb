; SPDX-License-Identifier: Apache-2.0
; Register accumulators (GM_ACCUM): in a kernel, a site inside a loop gets a
; private [GM_ACCUM_WORDS x i32] alloca zeroed at entry, and the flush handler is inlined
; before the ret (its counter updates appear there); a site outside any
; loop, and any site in a non-kernel function, gets NULL (direct updates,
; no alloca). No gm_accum call or stub survives.
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-handlers=%handlers/divergence.bc -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-NOT: gm_accum
; CHECK-LABEL: define ptx_kernel void @loop(
; CHECK: entry:
; CHECK-NEXT: %gm.acc = alloca [[ACC:\[[0-9]+ x i32\]]]
; CHECK-NEXT: store [[ACC]] zeroinitializer, ptr %gm.acc
; CHECK-NOT: alloca
; CHECK: exit:
; CHECK: call {{.*}}dv_add{{.*}}, i32 noundef 0, i32 noundef 1)
; CHECK: ret void
define ptx_kernel void @loop(i32 %n) {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %j, %body ]
  %j = add i32 %i, 1
  %c = icmp slt i32 %j, %n
  br i1 %c, label %body, label %exit
exit:
  ret void
}

; CHECK-LABEL: define ptx_kernel void @straight(
; CHECK-NOT: alloca
; CHECK: ret void
define ptx_kernel void @straight(i32 %n) {
entry:
  %c = icmp slt i32 0, %n
  br i1 %c, label %a, label %b
a:
  br label %b
b:
  ret void
}

; CHECK-LABEL: define void @device_fn(
; CHECK-NOT: alloca
; CHECK: ret void
define void @device_fn(i32 %n) {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %j, %body ]
  %j = add i32 %i, 1
  %c = icmp slt i32 %j, %n
  br i1 %c, label %body, label %exit
exit:
  ret void
}
; CHECK-NOT: gm_accum
