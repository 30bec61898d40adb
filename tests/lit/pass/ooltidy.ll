; SPDX-License-Identifier: Apache-2.0
; Out-of-line copies (pass/outline.c, infobits.c, ooltidy.c): a copy is made
; per info word with only the bits the event's handlers read ("bits" reads
; width, space and the memory-intrinsic bit); after inlining, parameters
; the copy no longer reads are dropped (a store's value, read only for
; memory intrinsics) and copies with the same code are merged. So a load, a
; volatile load and a store of 4 global bytes call one copy with (site,
; address); a shared load, an 8-byte load and a memcpy (which keeps its
; length; its source and destination share one) get copies of their own. A handler that reads the whole info
; word ("raw") keeps one copy per info word. (Copies that differ in constants
; only stay apart here: -gm-diag-no-merge; oolmerge.ll.)
; RUN: llvm-as %S/Inputs/bits_handler.ll -o %t.bits.bc
; RUN: llvm-as %S/Inputs/rawinfo_handler.ll -o %t.raw.bc
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-diag-no-merge -gm-handlers=%t.bits.bc -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-diag-no-merge -gm-handlers=%t.raw.bc -S %s -o %t.raw.ll
; RUN: FileCheck %s --check-prefix=RAW < %t.raw.ll
; RUN: grep -o "call void @gm_ool__before_mem__[0-9]*(i32 [012]," %t.raw.ll | sort -u | wc -l | FileCheck %s --check-prefix=RAW3
; RAW3: 3
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare void @llvm.memcpy.p1.p1.i64(ptr addrspace(1), ptr addrspace(1), i64, i1)

; The copies come before the kernel (fnorder.c). The merged copy: specialised for (4 | global << 16) * 3 ^ 7 = 65547, no
; value parameter.
; CHECK: define internal void @gm_ool__before_mem__[[G4:[0-9]+]](i32 %0, i64 %1)
; CHECK-NEXT: entry:
; CHECK-NEXT: %gm.mask = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT: trunc i64 %1 to i32
; CHECK-NEXT: add i32
; CHECK-NEXT: call void @sink_bits(i32 %{{.*}}, i32 65547)
; CHECK-NEXT: call void @llvm.nvvm.bar.warp.sync(i32 %gm.mask)
; CHECK-NEXT: ret void
; CHECK: define internal void @gm_ool__before_mem__[[MI:[0-9]+]](i32 %0, i64 %1, i64 %2)
; CHECK: call void @sink_len(i64 %2)
; CHECK-LABEL: define ptx_kernel void @k(
; The calls go above the loads of their block (hoist.c), not past a store or a call.
; CHECK: call void @gm_ool__before_mem__[[G4]](i32 0, i64 %{{[0-9]+}})
; CHECK: call void @gm_ool__before_mem__[[G4]](i32 1, i64 %{{[0-9]+}})
; CHECK-NEXT: load i32
; CHECK-NEXT: load volatile i32
; CHECK: call void @gm_ool__before_mem__[[G4]](i32 2, i64 %{{[0-9]+}})
; CHECK-NEXT: store i32
; CHECK: call void @gm_ool__before_mem__[[S4:[0-9]+]](i32 3, i64 %{{[0-9]+}})
; CHECK: call void @gm_ool__before_mem__[[G8:[0-9]+]](i32 4, i64 %{{[0-9]+}})
; CHECK: call void @gm_ool__before_mem__[[MI]](i32 5, i64 %{{[0-9]+}}, i64 %n)
; CHECK: call void @gm_ool__before_mem__[[MI]](i32 6, i64 %{{[0-9]+}}, i64 %n)
; CHECK-NEXT: load i32, ptr addrspace(3)
; CHECK-NEXT: load i64
; CHECK-NEXT: call void @llvm.memcpy
; CHECK: ret void
; RAW-LABEL: define ptx_kernel void @k(
; RAW: call void @gm_ool__before_mem__[[L:[0-9]+]](i32 0,
; RAW: call void @gm_ool__before_mem__[[V:[0-9]+]](i32 1,
; RAW: call void @gm_ool__before_mem__[[ST:[0-9]+]](i32 2,
define ptx_kernel void @k(ptr addrspace(1) %p, ptr addrspace(3) %s, ptr addrspace(1) %q, i64 %n) {
  %a = load i32, ptr addrspace(1) %p
  %b = load volatile i32, ptr addrspace(1) %q
  %c = add i32 %a, %b
  store i32 %c, ptr addrspace(1) %p
  %d = load i32, ptr addrspace(3) %s
  %e = load i64, ptr addrspace(1) %q
  call void @llvm.memcpy.p1.p1.i64(ptr addrspace(1) %p, ptr addrspace(1) %q, i64 %n, i1 false)
  %f = trunc i64 %e to i32
  %g = add i32 %d, %f
  store i32 %g, ptr addrspace(1) %q
  ret void
}

