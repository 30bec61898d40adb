; SPDX-License-Identifier: Apache-2.0
; Attributes instrumentation makes untrue (pass/attrs.c): a device function
; clang's optimiser found to only read its argument (memory(argmem: read),
; nosync, no convergent) calls the coalescing copy after instrumentation
; (atomics on the counters, the warp's mask): it becomes convergent and
; loses memory(...) and nosync, as does its call in the kernel; the copy
; the pass added is convergent; a function without sites keeps its
; attributes.
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-handlers=%handlers/coalescing.bc -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK: define internal void @gm_ool__before_mem__{{[0-9]+}}({{.*}}) #[[COPY:[0-9]+]]
; CHECK: define float @get(ptr readonly captures(none) %p, i32 %i) #[[GET:[0-9]+]]
define float @get(ptr readonly captures(none) %p, i32 %i) #0 {
  %a = getelementptr inbounds float, ptr %p, i32 %i
  %v = load float, ptr %a, align 4
  ret float %v
}

; CHECK: define float @pure(float %x) #[[PURE:[0-9]+]]
define float @pure(float %x) #1 {
  %y = fmul float %x, 2.0
  ret float %y
}

; CHECK: define ptx_kernel void @k(
; CHECK: call float @get(ptr %p, i32 %t){{$}}
define ptx_kernel void @k(ptr %p, ptr %q) #2 {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %v = call float @get(ptr %p, i32 %t) #3
  %w = call float @pure(float %v)
  store float %w, ptr %q, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

attributes #0 = { noinline nosync nounwind memory(argmem: read) "target-cpu"="sm_90" }
attributes #1 = { noinline nosync nounwind memory(none) "target-cpu"="sm_90" }
attributes #2 = { nounwind "target-cpu"="sm_90" }
attributes #3 = { nosync memory(argmem: read) }

; CHECK-DAG: attributes #[[COPY]] = { convergent noinline
; CHECK-DAG: attributes #[[GET]] = { convergent noinline nounwind "target-cpu"="sm_90" }
; CHECK-DAG: attributes #[[PURE]] = { noinline nosync nounwind memory(none) "target-cpu"="sm_90" }
