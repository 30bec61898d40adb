; SPDX-License-Identifier: Apache-2.0
; Site groups (pass/group.c, handler.h GM_BEFORE_MEM_GROUP): consecutive
; out-of-line memory sites of one block with one info word, no call between
; them but intrinsics without memory effects, and addresses that
; ScalarEvolution proves to be the first site's plus a constant (a multiple
; of 4 B for shared and local, 128 B for global) make one call of the
; group copy gm_ool__before_mem_group__N(first site, first address, sites)
; at the first site and none at the others; their info words need agree
; only in the bits the handlers read. Anything else keeps its own call: an
; offset that is not a constant, a barrier between, a global offset
; that is not a multiple of 128 B, another base, another block, handlers
; without a group handler.
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-handlers=%handlers/coalescing.bc -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-handlers=%handlers/coalescing.bc,%handlers/allocations.bc -S %s -o %t.alloc.ll
; RUN: FileCheck %s --check-prefix=NOGROUP < %t.alloc.ll
; NOGROUP-NOT: gm_ool__before_mem_group__
; NOGROUP-NOT: gm_before_mem_group__
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [16 x [16 x [16 x float]]] undef, align 4

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)

; The group copy (added functions come first): site, address, count; the
; coalescing group handler inlined in it.
; CHECK: define internal void @gm_ool__before_mem_group__[[G:[0-9]+]](i32 %0, i64 %1, i32 %2) #[[ATTR:[0-9]+]]
; CHECK-NOT: call {{.*}}@gm_before_mem_group__coalescing
; CHECK: ret void

; A stencil's shared loads (minimod-cuda): s[4][y+4][x+4], s[4][y+4][x+5]
; (+4 B), s[5][y+5][x+4] (+1088 B), with a %tid read between: one group of
; 3; the store after them (at an offset that depends on y) and the load
; after the barrier keep their calls.
; CHECK-LABEL: define ptx_kernel void @stencil(
; CHECK: call void @gm_ool__before_mem_group__[[G]](i32 0, i64 %{{[0-9]+}}, i32 3)
; CHECK-NEXT: %v0 = load float
; CHECK-NOT: call void @gm_ool__
; CHECK: %v2 = load float
; CHECK: call void @gm_ool__before_mem__{{[0-9]+}}(i32 3, i64 %{{[0-9]+}})
; CHECK-NEXT: store float
; CHECK: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; CHECK: call void @gm_ool__before_mem__{{[0-9]+}}(i32 4, i64 %{{[0-9]+}})
; CHECK-NEXT: %v3 = load float
; CHECK: ret void
define ptx_kernel void @stencil(ptr addrspace(1) %out) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %x = zext i32 %tx to i64
  %x4 = add nuw nsw i64 %x, 4
  %p0 = getelementptr inbounds [16 x [16 x [16 x float]]], ptr addrspace(3) @s, i64 0, i64 4, i64 4, i64 %x4
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %y = zext i32 %ty to i64
  %y4 = add nuw nsw i64 %y, 4
  %p0y = getelementptr inbounds [16 x [16 x [16 x float]]], ptr addrspace(3) @s, i64 0, i64 4, i64 %y4, i64 %x4
  %v0 = load float, ptr addrspace(3) %p0y, align 4
  %x5 = add nuw nsw i64 %x, 5
  %p1 = getelementptr inbounds [16 x [16 x [16 x float]]], ptr addrspace(3) @s, i64 0, i64 4, i64 %y4, i64 %x5
  %v1 = load float, ptr addrspace(3) %p1, align 4
  %y5 = add nuw nsw i64 %y, 5
  %p2 = getelementptr inbounds [16 x [16 x [16 x float]]], ptr addrspace(3) @s, i64 0, i64 5, i64 %y5, i64 %x4
  %v2 = load float, ptr addrspace(3) %p2, align 4
  %a = fadd float %v0, %v1
  %b = fadd float %a, %v2
  store float %b, ptr addrspace(3) %p0, align 4
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %v3 = load float, ptr addrspace(3) %p1, align 4
  %c = fadd float %b, %v3
  store float %c, ptr addrspace(1) %out, align 4
  ret void
}

; Global loads 4 B apart keep their calls (the grain is 128 B there);
; the next two, 128 B and 512 B after the second, make a group of 3 with it.
; CHECK-LABEL: define ptx_kernel void @global(
; All calls go above the loads (hoist.c).
; CHECK: call void @gm_ool__before_mem__{{[0-9]+}}(i32 6, i64 %{{[0-9]+}})
; CHECK: call void @gm_ool__before_mem_group__{{[0-9]+}}(i32 7, i64 %{{[0-9]+}}, i32 3)
; CHECK: call void @gm_ool__before_mem__{{[0-9]+}}(i32 10, i64 %{{[0-9]+}})
; CHECK-NEXT: %v0 = load i32
; CHECK-NEXT: %v1 = load i32
; CHECK-NOT: call void @gm_ool__
; CHECK: %v4 = load i32
define ptx_kernel void @global(ptr addrspace(1) %p, ptr addrspace(1) %q) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %tx to i64
  %a0 = getelementptr inbounds i32, ptr addrspace(1) %p, i64 %i
  %v0 = load i32, ptr addrspace(1) %a0, align 4
  %a1 = getelementptr inbounds i8, ptr addrspace(1) %a0, i64 4
  %v1 = load i32, ptr addrspace(1) %a1, align 4
  %a2 = getelementptr inbounds i8, ptr addrspace(1) %a0, i64 132
  %v2 = load i32, ptr addrspace(1) %a2, align 4
  %a3 = getelementptr inbounds i8, ptr addrspace(1) %a0, i64 516
  %v3 = load i32, ptr addrspace(1) %a3, align 4
  ; another base: its own call
  %b0 = getelementptr inbounds i32, ptr addrspace(1) %q, i64 %i
  %v4 = load i32, ptr addrspace(1) %b0, align 4
  %s1 = add i32 %v0, %v1
  %s2 = add i32 %s1, %v2
  %s3 = add i32 %s2, %v3
  %s4 = add i32 %s3, %v4
  store i32 %s4, ptr addrspace(1) %q, align 4
  ret void
}

; The same addresses in two blocks: one call in each.
; CHECK-LABEL: define ptx_kernel void @blocks(
; CHECK: call void @gm_ool__before_mem__{{[0-9]+}}(i32 12,
; CHECK: next:
; CHECK: call void @gm_ool__before_mem__{{[0-9]+}}(i32 13,
define ptx_kernel void @blocks(ptr addrspace(1) %p) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %tx to i64
  %a0 = getelementptr inbounds i32, ptr addrspace(1) %p, i64 %i
  %v0 = load i32, ptr addrspace(1) %a0, align 4
  br label %next
next:
  %a1 = getelementptr inbounds i8, ptr addrspace(1) %a0, i64 128
  %v1 = load i32, ptr addrspace(1) %a1, align 4
  %s = add i32 %v0, %v1
  store i32 %s, ptr addrspace(1) %p, align 4
  ret void
}

; A load and a store of one address: info words that differ only in bits
; coalescing does not read (load, store) make one group too.
; CHECK-LABEL: define ptx_kernel void @rmw(
; CHECK: call void @gm_ool__before_mem_group__{{[0-9]+}}(i32 15, i64 %{{[0-9]+}}, i32 2)
; CHECK-NEXT: %v = load i32
; CHECK-NOT: call void @gm_ool__
; CHECK: store i32 %w
define ptx_kernel void @rmw(ptr addrspace(1) %p) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %tx to i64
  %a = getelementptr inbounds i32, ptr addrspace(1) %p, i64 %i
  %v = load i32, ptr addrspace(1) %a, align 4
  %w = add i32 %v, 1
  store i32 %w, ptr addrspace(1) %a, align 4
  ret void
}

; CHECK: attributes #[[ATTR]] = { convergent noinline }
