; SPDX-License-Identifier: Apache-2.0
; Out-of-line copies inline every GM_SLOW helper they call, cold ones
; included (pass/inline.c): in session 9 cold helpers stayed calls from the
; copies (one body per module, coalescing's co_flush_run), and on the H200
; the warp came back split from such a copy (kat_values counted a warp
; execution twice; examples/spmv hung). The copies hold both helpers' work
; and call neither.
; RUN: llvm-as %S/Inputs/cold_handler.ll -o %t.cold.bc
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-diag-no-merge -gm-handlers=%t.cold.bc -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-NOT: define {{.*}}@helper_
; CHECK: define internal void @gm_ool__before_mem__[[A:[0-9]+]](
; CHECK-NOT: call void @helper_
; CHECK: call void @sink(i32 %0, i32 [[INFO:[0-9]+]])
; CHECK-NOT: call void @helper_
; CHECK: [[S:%[0-9a-z.]+]] = add i32 %0, 1000
; CHECK-NEXT: call void @sink(i32 [[S]], i32 [[INFO]])
; CHECK-NOT: call void @helper_
; CHECK: ret void
; CHECK: define internal void @gm_ool__before_mem__[[B:[0-9]+]](
; CHECK-NOT: call void @helper_
; CHECK: add i32 %0, 1000
; CHECK-NOT: call void @helper_
; CHECK: ret void
; CHECK-NOT: define {{.*}}@helper_
; CHECK-LABEL: define ptx_kernel void @k(
; CHECK-NOT: call void @helper_
define ptx_kernel void @k(ptr addrspace(1) %p, ptr addrspace(3) %q) {
  %a = load float, ptr addrspace(1) %p
  %b = load float, ptr addrspace(3) %q
  %c = fadd float %a, %b
  store float %c, ptr addrspace(1) %p
  ret void
}
