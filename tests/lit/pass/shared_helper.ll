; SPDX-License-Identifier: Apache-2.0
; GM_SHARED helpers (handler.h: cold GM_SLOW) stay one body per module
; (pass/inline.c): out-of-line copies, which inline the GM_SLOW helpers they
; call, call a cold one instead, and no copy of it is specialised for an
; inlined site's constants (slowspec.c). coalescing's co_flush_run (adding a
; run that ended) is one: co_keyed's copies (gm_ool__slow__N) held it inlined,
; 90 of their 306 PTX lines, beside the kernel-exit flush's own body.
; (The two copies differ in the info word alone: -gm-diag-no-merge keeps them
; apart, oolmerge.ll.)
; RUN: llvm-as %S/Inputs/shared_handler.ll -o %t.shared.bc
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-diag-no-merge -gm-handlers=%t.shared.bc -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; The cold helper's one body, then the copies of the two loads' info words:
; each inlines the GM_SLOW helper and calls the cold one.
; CHECK-NOT: define {{.*}}@helper_slow
; CHECK: define internal void @helper_shared(
; CHECK-NOT: define {{.*}}@helper_slow
; CHECK: define internal void @gm_ool__before_mem__[[A:[0-9]+]](
; CHECK: call void @sink(i32 %{{[0-9a-z.]+}}, i32 0)
; CHECK-NEXT: call void @sink(i32 %0, i32 [[INFO:[0-9]+]])
; CHECK-NEXT: call void @helper_shared(i32 %0, i32 [[INFO]])
; CHECK-NEXT: call void @llvm.nvvm.bar.warp.sync(
; CHECK-NEXT: ret void
; CHECK: define internal void @gm_ool__before_mem__[[B:[0-9]+]](
; CHECK: call void @sink(i32 %{{[0-9a-z.]+}}, i32 0)
; CHECK-NEXT: call void @sink(i32 %0, i32 [[INFO2:[0-9]+]])
; CHECK-NEXT: call void @helper_shared(i32 %0, i32 [[INFO2]])
; CHECK-NEXT: call void @llvm.nvvm.bar.warp.sync(
; CHECK-NEXT: ret void
; CHECK-NOT: define {{.*}}@helper_slow
; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: call void @gm_ool__before_mem__{{[0-9]+}}(i32 0,
; CHECK: call void @gm_ool__before_mem__{{[0-9]+}}(i32 1,
; CHECK-NOT: define {{.*}}@helper_slow
define ptx_kernel void @k(ptr addrspace(1) %p, ptr addrspace(3) %q) {
  %a = load float, ptr addrspace(1) %p
  %b = load float, ptr addrspace(3) %q
  %c = fadd float %a, %b
  store float %c, ptr addrspace(1) %p
  ret void
}
