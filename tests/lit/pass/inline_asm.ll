; SPDX-License-Identifier: Apache-2.0
; Inline asm with ld./ldu./st./atom./red./cp.async is counted and recorded as an
; asm site (not instrumented); asm without memory instructions is ignored,
; as are names that merely contain "st." (e.g. "test.").
; RUN: llvm-as %S/Inputs/sink_handler.ll -o %t.rec.bc
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-handlers=%t.rec.bc -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: %python %gm_src/tests/tools/sitetab_dump.py %t.ll | FileCheck %s --check-prefix=TAB
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @f(
; CHECK-NOT: call void @sink_mem
; CHECK: call i32 asm sideeffect "ld.global.u32
; CHECK-NOT: call void @sink_mem
; CHECK: ret void
define void @f(ptr %p) {
  %a = call i32 asm sideeffect "ld.global.u32 $0, [$1];", "=r,l"(ptr %p)
  call void asm sideeffect "@%p1 st.shared.u32 [$0], 1;", "l"(ptr %p)
  call void asm sideeffect "red.global.add.u32 [$0], 1;", "l"(ptr %p)
  %u = call i32 asm "ldu.global.u32 $0, [$1];", "=r,l"(ptr %p)
  call void asm sideeffect "cp.async.ca.shared.global [$0], [$0], 4;", "l"(ptr %p)
  %b = call i32 asm "mov.u32 $0, %laneid;", "=r"()
  %c = call i32 asm "test.u32 $0, 1;", "=r"()
  ret void
}

; TAB: nsites=5 nglobals={{[0-9]+}} n_asm_mem=5
; TAB: site 0 asm space=0 when=none info=0x0
; TAB: site 1 asm
; TAB: site 2 asm
; TAB: site 3 asm
; TAB: site 4 asm
