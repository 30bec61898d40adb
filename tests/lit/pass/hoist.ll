; SPDX-License-Identifier: Apache-2.0
; Site calls above their block's loads (pass/hoist.c): a "before" call moves
; up past plain loads (so the loads issue together after the calls), and
; past the arithmetic between them, but not past a definition of its own
; address or value, a store, a volatile load, a call with memory effects or
; a phi, and not at all when it would pass no load. Sites keep their order.
; A branch's call moves up past the loads its condition does not read; inline
; asm marked memory(none) is passed, asm with side effects is not.
; -gm-diag-no-hoist leaves every call at its site.
; RUN: llvm-as %S/Inputs/sink_handler.ll -o %t.bc
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-handlers=%t.bc -gm-inline-all -gm-reconverge=false -gm-inst-before=memory,cond-branches -gm-inst-after= -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-handlers=%t.bc -gm-inline-all -gm-reconverge=false -gm-inst-before=memory,cond-branches -gm-inst-after= -gm-diag-no-hoist -S %s -o %t.off.ll
; RUN: FileCheck %s --check-prefix=OFF < %t.off.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare void @ext()

; CHECK-LABEL: define ptx_kernel void @loads(
; CHECK: call void @sink_mem(i32 0,
; CHECK-NEXT: ptrtoint
; CHECK-NEXT: call void @sink_mem(i32 1,
; CHECK-NEXT: %pc = getelementptr
; CHECK-NEXT: ptrtoint ptr addrspace(1) %pc
; CHECK-NEXT: call void @sink_mem(i32 2,
; CHECK-NEXT: %a = load float
; CHECK-NEXT: %b = load float
; CHECK-NEXT: %c = load float
; The store's value is the loads' sum: its call stays at the store.
; CHECK: call void @sink_mem(i32 3,
; CHECK-NEXT: store float
; OFF-LABEL: define ptx_kernel void @loads(
; OFF: call void @sink_mem(i32 0,
; OFF-NEXT: %a = load float
; OFF: call void @sink_mem(i32 1,
; OFF-NEXT: %b = load float
define ptx_kernel void @loads(ptr addrspace(1) %p, ptr addrspace(1) %q, i64 %i) {
  %a = load float, ptr addrspace(1) %p
  %b = load float, ptr addrspace(1) %q
  %pc = getelementptr float, ptr addrspace(1) %p, i64 %i
  %c = load float, ptr addrspace(1) %pc
  %s = fadd float %a, %b
  %t = fadd float %s, %c
  store float %t, ptr addrspace(1) %q
  ret void
}

; A loaded pointer: the second site's call stays below the load that defines
; its address. A store, a volatile load and a call stop the move.
; CHECK-LABEL: define ptx_kernel void @stops(
; CHECK: call void @sink_mem(i32 4,
; CHECK-NEXT: %r = load ptr addrspace(1)
; CHECK-NEXT: ptrtoint ptr addrspace(1) %r
; CHECK-NEXT: call void @sink_mem(i32 5,
; CHECK-NEXT: %v = load i32, ptr addrspace(1) %r
; CHECK-NEXT: ptrtoint
; CHECK-NEXT: zext
; CHECK-NEXT: call void @sink_mem(i32 6,
; CHECK-NEXT: store i32 %v
; CHECK-NEXT: ptrtoint
; CHECK-NEXT: call void @sink_mem(i32 7,
; CHECK-NEXT: %w = load volatile i32
; CHECK-NEXT: ptrtoint
; CHECK-NEXT: call void @sink_mem(i32 8,
; CHECK-NEXT: %x = load i32
; CHECK-NEXT: call void @ext()
; CHECK-NEXT: ptrtoint
; CHECK-NEXT: call void @sink_mem(i32 9,
; CHECK-NEXT: %y = load i32
define ptx_kernel void @stops(ptr addrspace(1) %pp, ptr addrspace(1) %q) {
  %r = load ptr addrspace(1), ptr addrspace(1) %pp
  %v = load i32, ptr addrspace(1) %r
  store i32 %v, ptr addrspace(1) %q
  %w = load volatile i32, ptr addrspace(1) %q
  %x = load i32, ptr addrspace(1) %q
  call void @ext()
  %y = load i32, ptr addrspace(1) %pp
  ret void
}

; The branch's condition reads no load of its block: its call goes above
; them, after the memory sites' calls.
; CHECK-LABEL: define ptx_kernel void @branch(
; CHECK: call void @sink_mem(i32 10,
; CHECK: call void @sink_branch(i32 11,
; CHECK: %a = load i32
; CHECK: br i1 %c
define ptx_kernel void @branch(ptr addrspace(1) %p, i32 %n) {
entry:
  %c = icmp sgt i32 %n, 0
  %a = load i32, ptr addrspace(1) %p
  br i1 %c, label %t, label %e
t:
  store i32 %a, ptr addrspace(1) %p
  br label %e
e:
  ret void
}

; Inline asm marked memory(none) (a conversion, cuda_fp8.hpp) is passed;
; asm with side effects is not.
; CHECK-LABEL: define ptx_kernel void @asm(
; CHECK: call void @sink_mem(i32 13,
; CHECK-NEXT: ptrtoint
; CHECK-NEXT: call void @sink_mem(i32 14,
; CHECK-NEXT: %a = load i32
; CHECK-NEXT: %c = call i32 asm "cvt
; CHECK-NEXT: %b = load i32
; CHECK-NEXT: call void asm sideeffect
; CHECK-NEXT: ptrtoint
; CHECK-NEXT: call void @sink_mem(i32 15,
; CHECK-NEXT: %d = load i32
define ptx_kernel void @asm(ptr addrspace(1) %p, ptr addrspace(1) %q) {
  %a = load i32, ptr addrspace(1) %p
  %c = call i32 asm "cvt.u32.u32 $0, $1;", "=r,r"(i32 %a) #0
  %b = load i32, ptr addrspace(1) %q
  call void asm sideeffect "membar.gl;", ""()
  %d = load i32, ptr addrspace(1) %p
  ret void
}
attributes #0 = { convergent nounwind memory(none) }
