; SPDX-License-Identifier: Apache-2.0
; Kernel entry at the entry block's first instruction, kernel exit before
; every ret of a kernel. Kernels: ptx_kernel calling convention or the
; nvvm.annotations "kernel" entry; device functions get neither.
; RUN: llvm-as %S/Inputs/sink_handler.ll -o %t.rec.bc
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-reconverge=false -gm-handlers=%t.rec.bc -gm-inst-before=kernel-entry,kernel-exit -gm-inst-after= -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: %python %gm_src/tests/tools/sitetab_dump.py %t.ll | FileCheck %s --check-prefix=TAB
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @k1(
; CHECK-NEXT: entry:
; CHECK-NEXT: load i32, ptr addrspace(4) @__gm_replica_mask__
; CHECK-NEXT: load ptr, ptr addrspace(4) @gm_counters__rec__
; CHECK-NEXT: call void @sink_entry(i32 0, i32 5, i32 %{{.*}}, ptr %{{.*}})
; CHECK-NEXT: %x = alloca i32
; CHECK: t:
; CHECK-NEXT: call void @sink_exit(i32 1)
; CHECK-NEXT: ret void
; CHECK: f:
; CHECK-NEXT: call void @sink_exit(i32 2)
; CHECK-NEXT: ret void
define ptx_kernel void @k1(i1 %c) {
entry:
  %x = alloca i32
  br i1 %c, label %t, label %f
t:
  ret void
f:
  ret void
}

; CHECK-LABEL: define void @dev(
; CHECK-NOT: call void @sink_
; CHECK: ret void
define void @dev() {
  ret void
}

; The bitcode reader upgrades the annotation to the ptx_kernel convention.
; CHECK-LABEL: define ptx_kernel void @k2(
; CHECK: call void @sink_entry(i32 3,
; CHECK: call void @sink_exit(i32 4)
; CHECK-NEXT: ret void
define void @k2() {
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{ptr @k2, !"kernel", i32 1}

; TAB: nsites=5
; TAB: site 0 entry space=0 when=before {{.*}} func=k1
; TAB: site 1 exit space=0 when=before {{.*}} func=k1
; TAB: site 2 exit space=0 when=before {{.*}} func=k1
; TAB: site 3 entry space=0 when=before {{.*}} func=k2
; TAB: site 4 exit space=0 when=before {{.*}} func=k2
