; SPDX-License-Identifier: Apache-2.0
; Events without a handler are not instrumented and get no site; with no
; handler files at all the module is unchanged.
; RUN: llvm-as %S/Inputs/branch_only_handler.ll -o %t.br.bc
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-reconverge=false -gm-handlers=%t.br.bc -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: %python %gm_src/tests/tools/sitetab_dump.py %t.ll | FileCheck %s --check-prefix=TAB
; RUN: %opt -S %s -o %t.plain.ll
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-reconverge=false -S %s -o %t.none.ll
; RUN: diff %t.plain.ll %t.none.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK-NEXT: entry:
; CHECK-NEXT: %v = load i32
; CHECK: call void @sink_branch(i32 0, i32 2,
; CHECK-NEXT: br i1
define ptx_kernel void @k(ptr addrspace(1) %p) {
entry:
  %v = load i32, ptr addrspace(1) %p
  %c = icmp eq i32 %v, 0
  br i1 %c, label %a, label %b
a:
  store i32 1, ptr addrspace(1) %p
  ret void
b:
  ret void
}

; TAB: nsites=1 nglobals=1 n_asm_mem=0
; TAB-NEXT: site 0 branch
