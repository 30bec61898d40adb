; SPDX-License-Identifier: Apache-2.0
; Loop sites inline their handler; its GM_SLOW helper (coalescing's
; co_keyed) is called with the site's info word. pass/slowspec.c gives the
; helper a copy specialised for the info bits it reads when all its calls
; in the module need at most three sets of constants (first run: only
; @one); with two (a 4-byte load in @one, a 1-byte store in @two) each gets
; its copy (-gm-diag-no-merge), and those two differ in constants only, so
; they become one copy taking the constant (oolmerge.c); no shared body is
; left (it was kept for two sets: 2 x 311 PTX lines against its 547, before
; the run flush stayed a call). Added functions come before the kernels
; (fnorder.c).
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-kernels='^one$' -gm-handlers=%handlers/coalescing.bc -S %s -o %t.one.ll
; RUN: FileCheck %s --check-prefix=ONE < %t.one.ll
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-handlers=%handlers/coalescing.bc -S %s -o %t.two.ll
; RUN: FileCheck %s --check-prefix=TWO < %t.two.ll
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-diag-no-merge -gm-handlers=%handlers/coalescing.bc -S %s -o %t.apart.ll
; RUN: FileCheck %s --check-prefix=APART < %t.apart.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; ONE: define internal { i32, i32, i32 } @gm_ool__slow__[[S:[0-9]+]](i32 %0, i64 %1, i32 %2, i32 %3)
; ONE-NOT: call {{.*}}co_keyed
; ONE-LABEL: define ptx_kernel void @one(
; ONE: call { i32, i32, i32 } @gm_ool__slow__[[S]](i32 0, i64 %{{[0-9]+}}, i32 %{{[0-9]+}}, i32 %{{[0-9]+}})
; ONE-NOT: call {{.*}}co_keyed
; TWO-NOT: co_keyed
; TWO: define internal { i32, i32, i32 } @gm_ool__slow__[[S:[0-9]+]](i32 %0, i64 %1, i32 %2, i32 %3, i32 %4)
; TWO-NOT: define internal { i32, i32, i32 } @gm_ool__slow__
; TWO-LABEL: define ptx_kernel void @one(
; TWO: call { i32, i32, i32 } @gm_ool__slow__[[S]](i32 0, i64 %{{[0-9]+}}, i32 %{{[0-9]+}}, i32 %{{[0-9]+}}, i32 [[C1:[0-9]+]])
; TWO-LABEL: define ptx_kernel void @two(
; TWO-NOT: i32 [[C1]])
; TWO: call { i32, i32, i32 } @gm_ool__slow__[[S]](i32 1, i64 %{{[0-9]+}}, i32 %{{[0-9]+}}, i32 %{{[0-9]+}}, i32 {{[0-9]+}})
; TWO-NOT: co_keyed
; APART-NOT: co_keyed
; APART: define internal { i32, i32, i32 } @gm_ool__slow__[[A:[0-9]+]](i32 %0, i64 %1, i32 %2, i32 %3)
; APART: define internal { i32, i32, i32 } @gm_ool__slow__[[B:[0-9]+]](i32 %0, i64 %1, i32 %2, i32 %3)
; APART-LABEL: define ptx_kernel void @one(
; APART: call { i32, i32, i32 } @gm_ool__slow__[[A]](i32 0,
; APART-LABEL: define ptx_kernel void @two(
; APART: call { i32, i32, i32 } @gm_ool__slow__[[B]](i32 1,
; APART-NOT: co_keyed
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
