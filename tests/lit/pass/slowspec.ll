; SPDX-License-Identifier: Apache-2.0
; Loop sites inline their handler; its GM_SLOW helper (coalescing's
; co_keyed) is called with the site's info word. pass/slowspec.c gives the
; helper a copy specialised for the info bits it reads when all its calls
; in the module need one set of constants (first run: only @one);
; with two (a 4-byte load in @one, a 1-byte store in @two) both keep the
; shared body (two specialised copies were larger than it). Added
; functions come before the kernels (fnorder.c).
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-kernels='^one$' -gm-handlers=%handlers/coalescing.bc -S %s -o %t.one.ll
; RUN: FileCheck %s --check-prefix=ONE < %t.one.ll
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-handlers=%handlers/coalescing.bc -S %s -o %t.two.ll
; RUN: FileCheck %s --check-prefix=TWO < %t.two.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; ONE: define internal { i32, i32, i32 } @gm_ool__slow__[[S:[0-9]+]](i32 %0, i64 %1, i32 %2, i32 %3)
; ONE-NOT: call {{.*}}co_keyed
; ONE-LABEL: define ptx_kernel void @one(
; ONE: call { i32, i32, i32 } @gm_ool__slow__[[S]](i32 0, i64 %{{[0-9]+}}, i32 %{{[0-9]+}}, i32 %{{[0-9]+}})
; ONE-NOT: call {{.*}}co_keyed
; TWO-LABEL: define ptx_kernel void @one(
; TWO: call {{.*}} @_ZL8co_keyedjmjjj(i32 {{.*}}0, i64 {{.*}}, i32 {{.*}}16842756,
; TWO-LABEL: define ptx_kernel void @two(
; TWO: call {{.*}} @_ZL8co_keyedjmjjj(i32 {{.*}}1, i64 {{.*}}, i32 {{.*}}33619969,
; TWO-NOT: gm_ool__slow__
define ptx_kernel void @one(ptr addrspace(1) %p, i32 %n) {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %j, %body ]
  %s = phi i32 [ 0, %entry ], [ %t, %body ]
  %a = getelementptr i32, ptr addrspace(1) %p, i32 %i
  %v = load i32, ptr addrspace(1) %a
  %t = add i32 %s, %v
  %j = add i32 %i, 1
  %c = icmp slt i32 %j, %n
  br i1 %c, label %body, label %exit
exit:
  ret void
}

define ptx_kernel void @two(ptr addrspace(1) %p, i32 %n) {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %j, %body ]
  %a = getelementptr i8, ptr addrspace(1) %p, i32 %i
  store i8 1, ptr addrspace(1) %a
  %j = add i32 %i, 1
  %c = icmp slt i32 %j, %n
  br i1 %c, label %body, label %exit
exit:
  ret void
}
