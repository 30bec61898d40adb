; SPDX-License-Identifier: Apache-2.0
; Loads and stores in every address space get a site with the space, width
; and load/store bits of abi.h; volatile is flagged.
; RUN: llvm-as %S/Inputs/sink_handler.ll -o %t.rec.bc
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-reconverge=false -gm-handlers=%t.rec.bc -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: %python %gm_src/tests/tools/sitetab_dump.py %t.ll | FileCheck %s --check-prefix=TAB
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@sh = addrspace(3) global i32 0
@cst = addrspace(4) constant i16 7

; info: 4 | 1<<16 | load = 16842756; generic store 4 | store = 33554436
; CHECK-LABEL: define void @dev(
; CHECK: call void @sink_mem(i32 0, i64 %{{.*}}, i32 16777220, i64 0)
; CHECK-NEXT: %v = load i32, ptr %p
; CHECK: call void @sink_mem(i32 1, i64 %{{.*}}, i32 33554436, i64 %{{.*}})
; CHECK-NEXT: store i32 %v, ptr %p
define void @dev(ptr %p) {
  %v = load i32, ptr %p
  store i32 %v, ptr %p
  ret void
}

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: call void @sink_mem(i32 3, i64 %{{.*}}, i32 16842756, i64 0)
; CHECK-NEXT: %a = load i32, ptr addrspace(1) %g
; CHECK: call void @sink_mem(i32 4, i64 ptrtoint (ptr addrspace(3) @sh to i64), i32 33751044, i64 %{{.*}})
; CHECK-NEXT: store i32 %a, ptr addrspace(3) @sh
; CHECK: call void @sink_mem(i32 5, i64 ptrtoint (ptr addrspace(4) @cst to i64), i32 17039362, i64 0)
; CHECK: call void @sink_mem(i32 6, i64 %{{.*}}, i32 -2113601532, i64 %{{.*}})
; CHECK-NEXT: store volatile i32 %a, ptr addrspace(5) %l
; CHECK: call void @sink_mem(i32 7, i64 %{{.*}}, i32 23396360, i64 0)
; CHECK-NEXT: %d = load double, ptr addrspace(101) %pp
define ptx_kernel void @k(ptr addrspace(1) %g, ptr addrspace(5) %l, ptr addrspace(101) %pp) {
  %a = load i32, ptr addrspace(1) %g
  store i32 %a, ptr addrspace(3) @sh
  %c = load i16, ptr addrspace(4) @cst
  store volatile i32 %a, ptr addrspace(5) %l
  %d = load double, ptr addrspace(101) %pp
  ret void
}

; TAB: nsites=9
; TAB: site 0 mem space=0 when=before,after info=0x1000004 width=4 load func=dev
; TAB: site 1 mem space=0 when=before info=0x2000004 width=4 store func=dev
; TAB: site 2 entry {{.*}} func=k
; TAB: site 3 mem space=1 when=before,after info=0x1010004 width=4 load func=k
; TAB: site 4 mem space=3 when=before info=0x2030004 width=4 store func=k
; TAB: site 5 mem space=4 when=before,after info=0x1040002 width=2 load func=k
; TAB: site 6 mem space=5 when=before info=0x82050004 width=4 store,volatile func=k
; TAB: site 7 mem space=101 when=before,after info=0x1650008 width=8 load func=k
; TAB: site 8 exit
