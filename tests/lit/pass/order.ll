; SPDX-License-Identifier: Apache-2.0
; Several handler sets for one event are all called at each site, in the
; order the bitcode files were given.
; RUN: llvm-as %S/Inputs/sink_handler.ll -o %t.rec.bc
; RUN: llvm-as %S/Inputs/second_handler.ll -o %t.second.bc
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-reconverge=false -gm-handlers=%t.rec.bc,%t.second.bc -gm-inst-after= -S %s | FileCheck %s --check-prefix=AB
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-reconverge=false -gm-handlers=%t.second.bc,%t.rec.bc -gm-inst-after= -S %s | FileCheck %s --check-prefix=BA
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; AB-LABEL: define void @f(
; AB: call void @sink_mem(i32 0,
; AB-NEXT: call void @sink_second(i32 0)
; AB-NEXT: store i32 1
; BA-LABEL: define void @f(
; BA: call void @sink_second(i32 0)
; BA-NEXT: call void @sink_mem(i32 0,
; BA-NEXT: store i32 1
define void @f(ptr addrspace(1) %p) {
  store i32 1, ptr addrspace(1) %p
  ret void
}
