; SPDX-License-Identifier: Apache-2.0
; Handler code is never instrumented (the after-load handler's own load gets
; no site) and is gone after inlining; functions named gm_* / __gm_* in the
; user module are skipped; declarations get nothing.
; RUN: llvm-as %S/Inputs/sink_handler.ll -o %t.rec.bc
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-reconverge=false -gm-handlers=%t.rec.bc -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: %python %gm_src/tests/tools/sitetab_dump.py %t.ll | FileCheck %s --check-prefix=TAB
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @ext(ptr)

; CHECK-LABEL: define void @gm_user_helper(
; CHECK-NEXT: load i32
; CHECK-NEXT: ret void
define void @gm_user_helper(ptr %p) {
  %v = load i32, ptr %p
  ret void
}

; CHECK-LABEL: define void @__gm_private(
; CHECK-NEXT: store i32
; CHECK-NEXT: ret void
define void @__gm_private(ptr %p) {
  store i32 0, ptr %p
  ret void
}

; The handler's inttoptr load appears once per after call, uninstrumented.
; CHECK-LABEL: define void @f(
; CHECK: call void @sink_mem(i32 0,
; CHECK-NEXT: %v = load i32, ptr %p
; CHECK: %x.i = load i32, ptr
; CHECK-NEXT: call void @sink_after(i32 0,
; CHECK-NEXT: ret void
define void @f(ptr %p) {
  %v = load i32, ptr %p
  ret void
}

; CHECK-NOT: define {{.*}}@gm_before_mem__rec
; CHECK-NOT: define {{.*}}@gm_after_load__rec
; CHECK-NOT: define {{.*}}@gm_before_branch__rec
; CHECK-NOT: define {{.*}}@gm_kernel_entry__rec
; CHECK-NOT: define {{.*}}@gm_kernel_exit__rec
; CHECK-NOT: gm-handler

; TAB: nsites=1
; TAB-NEXT: site 0 mem {{.*}} func=f
