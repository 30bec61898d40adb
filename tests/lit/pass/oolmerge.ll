; SPDX-License-Identifier: Apache-2.0
; Out-of-line copies that differ only in integer constants become one that
; takes them as parameters (pass/oolmerge.c); each call passes its copy's
; constants. Coalescing's copies for a 4-byte and an 8-byte global load
; differ in the width alone (threads x width bytes): one copy, the width an
; argument (1-byte loads too); the shared load's copy differs in more and
; stays. A handler that adds and multiplies by the width: one copy for three
; widths, the width one parameter for both uses (the 1-byte copy's multiply
; folded away: a copy of its own). A handler that divides by
; it: a constant divisor stays a constant (four copies). -gm-diag-no-merge:
; four copies.
; RUN: llvm-as %S/Inputs/mergemul_handler.ll -o %t.mul.bc
; RUN: llvm-as %S/Inputs/mergediv_handler.ll -o %t.div.bc
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-handlers=%handlers/coalescing.bc -S %s -o %t.co.ll
; RUN: FileCheck %s --check-prefix=CO < %t.co.ll
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-handlers=%t.mul.bc -S %s -o %t.mul.ll
; RUN: FileCheck %s --check-prefix=MUL < %t.mul.ll
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-handlers=%t.div.bc -S %s -o %t.div.ll
; RUN: FileCheck %s --check-prefix=DIV < %t.div.ll
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-diag-no-merge -gm-handlers=%t.mul.bc -S %s -o %t.nomerge.ll
; RUN: FileCheck %s --check-prefix=DIV < %t.nomerge.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CO: define internal void @gm_ool__before_mem__[[SH:[0-9]+]](i32 %0, i64 %1) #
; CO: define internal void @gm_ool__before_mem__[[G:[0-9]+]](i32 %0, i64 %1, i32 %2) #
; CO: call noundef i32 @llvm.nvvm.redux.sync.add(i32 %2,
; CO-NOT: define internal void @gm_ool__
; CO-LABEL: define ptx_kernel void @k(
; CO: call void @gm_ool__before_mem__[[G]](i32 0, i64 %{{[0-9]+}}, i32 4)
; CO: call void @gm_ool__before_mem__[[G]](i32 1, i64 %{{[0-9]+}}, i32 8)
; CO: call void @gm_ool__before_mem__[[G]](i32 2, i64 %{{[0-9]+}}, i32 2)
; CO: call void @gm_ool__before_mem__[[G]](i32 3, i64 %{{[0-9]+}}, i32 1)
; CO: call void @gm_ool__before_mem__[[SH]](i32 4, i64 %{{[0-9]+}})
; CO: call void @gm_ool__before_mem__[[G]](i32 5, i64 %{{[0-9]+}}, i32 4)

; MUL-DAG: define internal void @gm_ool__before_mem__[[M1:[0-9]+]](i32 %0, i64 %1) #
; MUL-DAG: define internal void @gm_ool__before_mem__[[M:[0-9]+]](i32 %0, i64 %1, i32 %2) #
; MUL-DAG: mul i32 %{{.*}}, %2
; MUL-NOT: define internal void @gm_ool__
; MUL-LABEL: define ptx_kernel void @k(
; MUL: call void @gm_ool__before_mem__[[M]](i32 0, i64 %{{[0-9]+}}, i32 4)
; MUL: call void @gm_ool__before_mem__[[M]](i32 1, i64 %{{[0-9]+}}, i32 8)
; MUL: call void @gm_ool__before_mem__[[M]](i32 2, i64 %{{[0-9]+}}, i32 2)
; MUL: call void @gm_ool__before_mem__[[M1]](i32 3, i64 %{{[0-9]+}})
; MUL: call void @gm_ool__before_mem__[[M]](i32 4, i64 %{{[0-9]+}}, i32 4)
; MUL: call void @gm_ool__before_mem__[[M]](i32 5, i64 %{{[0-9]+}}, i32 4)

; DIV-COUNT-4: define internal void @gm_ool__before_mem__{{[0-9]+}}(i32 %0, i64 %1) #
; DIV-NOT: define internal void @gm_ool__
; DIV-LABEL: define ptx_kernel void @k(
; DIV: call void @gm_ool__before_mem__[[A:[0-9]+]](i32 0, i64 %{{[0-9]+}})
; DIV: call void @gm_ool__before_mem__{{[0-9]+}}(i32 1, i64 %{{[0-9]+}})
; DIV: call void @gm_ool__before_mem__{{[0-9]+}}(i32 2, i64 %{{[0-9]+}})
; DIV: call void @gm_ool__before_mem__{{[0-9]+}}(i32 3, i64 %{{[0-9]+}})
; DIV: call void @gm_ool__before_mem__{{[0-9]+}}(i32 4, i64 %{{[0-9]+}})
; DIV: call void @gm_ool__before_mem__[[A]](i32 5, i64 %{{[0-9]+}})
define ptx_kernel void @k(ptr addrspace(1) %p, ptr addrspace(1) %q, ptr addrspace(1) %r, ptr addrspace(3) %s) {
  %a = load i32, ptr addrspace(1) %p
  %b = load i64, ptr addrspace(1) %q
  %h = load i16, ptr addrspace(1) %r
  %y = load i8, ptr addrspace(1) %r
  %d = load i32, ptr addrspace(3) %s
  %t = trunc i64 %b to i32
  %hz = zext i16 %h to i32
  %c = add i32 %a, %t
  %e = add i32 %c, %d
  %f0 = add i32 %e, %hz
  %yz = zext i8 %y to i32
  %f = add i32 %f0, %yz
  store i32 %f, ptr addrspace(1) %p
  ret void
}
