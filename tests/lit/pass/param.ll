; SPDX-License-Identifier: Apache-2.0
; Reads of a kernel's by-value parameter (pass/param.c) are not memory
; sites: ld.param in PTX, no memory traffic. A kernel that also writes its
; by-value parameter or passes its address on (the backend copies it to local
; memory), a plain pointer argument and a device function's byval argument
; keep their sites. A read of a by-value parameter moves up with the call
; that reads its value (hoist.c), so the call still goes above the loads.
; RUN: llvm-as %S/Inputs/sink_handler.ll -o %t.bc
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-handlers=%t.bc -gm-inline-all -gm-reconverge=false -gm-inst-before=memory -gm-inst-after= -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.P = type { ptr, ptr, i32 }

declare void @use(ptr)

; CHECK-LABEL: define ptx_kernel void @reads(
; CHECK-NOT: call void @sink_mem
; CHECK: %src = load ptr
; CHECK: call void @sink_mem(i32 0,
; CHECK-NEXT: %dstf = getelementptr
; CHECK-NEXT: %dst = load ptr
; CHECK-NEXT: ptrtoint
; CHECK-NEXT: call void @sink_mem(i32 1,
; CHECK-NEXT: %v = load float
; CHECK-NEXT: %w = load float
; CHECK: call void @sink_mem(i32 2,
; CHECK-NEXT: store float
; CHECK-NOT: call void @sink_mem
; CHECK: ret void
define ptx_kernel void @reads(ptr byval(%struct.P) align 8 %p) {
  %src = load ptr, ptr %p, align 8
  %v = load float, ptr %src, align 4
  %dstf = getelementptr inbounds %struct.P, ptr %p, i64 0, i32 1
  %dst = load ptr, ptr %dstf, align 8
  %w = load float, ptr %dst, align 4
  %s = fadd float %v, %w
  store float %s, ptr %src, align 4
  ret void
}

; CHECK-LABEL: define ptx_kernel void @writes(
; CHECK: call void @sink_mem(i32 3,
; CHECK-NEXT: %n = load i32
; CHECK: call void @sink_mem(i32 4,
; CHECK-NEXT: store i32
define ptx_kernel void @writes(ptr byval(%struct.P) align 8 %p) {
  %nf = getelementptr inbounds %struct.P, ptr %p, i64 0, i32 2
  %n = load i32, ptr %nf, align 4
  %m = add i32 %n, 1
  store i32 %m, ptr %nf, align 4
  ret void
}

; CHECK-LABEL: define ptx_kernel void @escapes(
; CHECK: call void @sink_mem(i32 5,
; CHECK-NEXT: %n = load i32
define ptx_kernel void @escapes(ptr byval(%struct.P) align 8 %p) {
  %nf = getelementptr inbounds %struct.P, ptr %p, i64 0, i32 2
  %n = load i32, ptr %nf, align 4
  call void @use(ptr %p)
  ret void
}

; CHECK-LABEL: define ptx_kernel void @pointer(
; CHECK: call void @sink_mem(i32 6,
; CHECK-NEXT: %n = load i32
define ptx_kernel void @pointer(ptr %p) {
  %n = load i32, ptr %p, align 4
  ret void
}

; CHECK-LABEL: define void @device(
; CHECK: call void @sink_mem(i32 7,
; CHECK-NEXT: %n = load i32
define void @device(ptr byval(%struct.P) align 8 %p) {
  %n = load i32, ptr %p, align 4
  ret void
}
