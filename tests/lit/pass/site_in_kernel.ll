; SPDX-License-Identifier: Apache-2.0
; Sites say whether their function is a kernel (GM_SITE_IN_KERNEL, printed
; "in-kernel"): only that kernel's launches run them, which lets the
; runtime keep different kernels' counts apart by site. A device function
; the inliner kept (noinline) may run under any kernel: no flag.
; RUN: llvm-as %S/Inputs/sink_handler.ll -o %t.rec.bc
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-reconverge=false -gm-handlers=%t.rec.bc -gm-inst-after= -S %s -o %t.ll
; RUN: %python %gm_src/tests/tools/sitetab_dump.py %t.ll | FileCheck %s
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK: site 0 mem {{.*}} load func=dev loc={{[^ ]*$}}
; CHECK-NEXT: site 1 mem {{.*}} store func=dev loc={{[^ ]*$}}
; CHECK-NEXT: site 2 entry {{.*}} func=k1 loc={{.*}} in-kernel
; CHECK-NEXT: site 3 mem {{.*}} func=k1 loc={{.*}} in-kernel
; CHECK-NEXT: site 4 exit {{.*}} func=k1 loc={{.*}} in-kernel
; CHECK-NEXT: site 5 entry {{.*}} func=k2 loc={{.*}} in-kernel
; CHECK-NEXT: site 6 mem {{.*}} func=k2 loc={{.*}} in-kernel
; CHECK-NEXT: site 7 exit {{.*}} func=k2 loc={{.*}} in-kernel
define void @dev(ptr %p) noinline {
  %v = load i32, ptr %p
  store i32 %v, ptr %p
  ret void
}

define ptx_kernel void @k1(ptr %p) {
  %v = load i32, ptr %p
  call void @dev(ptr %p)
  ret void
}

define void @k2(ptr addrspace(1) %p) {
  %v = load i32, ptr addrspace(1) %p
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{ptr @k2, !"kernel", i32 1}
