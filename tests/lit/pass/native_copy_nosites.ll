; SPDX-License-Identifier: Apache-2.0
; -gm-native-copies on a module where nothing is instrumented (here: only
; conditional branches asked for, and there are none): the kernels stay
; native, so their copies are dropped again; with a site they stay.
; RUN: llvm-as %S/Inputs/sink_handler.ll -o %t.rec.bc
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-handlers=%t.rec.bc -gm-native-copies -gm-inst-before=cond-branches -gm-inst-after= -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-handlers=%t.rec.bc -gm-native-copies -gm-inst-before=memory -gm-inst-after= -S %s | FileCheck %s --check-prefix=SITES
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-NOT: __gm_native
; CHECK: define ptx_kernel void @k(
; CHECK-NOT: __gm_native
; SITES-DAG: define ptx_kernel void @k__gm_native(
; SITES-DAG: define internal void @h__gm_native(
define ptx_kernel void @k(ptr addrspace(1) %p) {
  call void @h(ptr addrspace(1) %p)
  ret void
}

define void @h(ptr addrspace(1) %p) noinline {
  store i32 1, ptr addrspace(1) %p, align 4
  ret void
}
