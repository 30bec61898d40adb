; SPDX-License-Identifier: Apache-2.0
; Block accumulators (GM_BLOCK): in a kernel, a site outside loops gets words
; of an internal addrspace(3) array (word 0 counts returned threads, then 5
; words per site of the test handler Inputs/block_handler.cu), zeroed at kernel entry before one block
; barrier; before the ret the returned-thread count is added and the flush
; inlined. A site in a loop (register accumulator) and any site in a
; non-kernel function get no block words. A module with 48 KiB of static
; shared memory, or with dynamic shared memory, gets none at all (the
; handlers update memory directly). No gm_block call or stub survives.
; RUN: %clang -x cuda --cuda-path=%cuda_path -Wno-unknown-cuda-version --cuda-gpu-arch=sm_90 --cuda-device-only -fgpu-rdc -O3 -emit-llvm -c -I%gm_include %S/Inputs/block_handler.cu -o %t.h.bc
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-handlers=%t.h.bc -S %s -o %t.ll
; RUN: FileCheck %s --implicit-check-not=@gm_block < %t.ll
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-handlers=%t.h.bc -S %S/Inputs/block_shared48k.ll -o %t.48k.ll
; RUN: FileCheck %s --check-prefix=NONE --implicit-check-not=@gm_block < %t.48k.ll
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-handlers=%t.h.bc -S %S/Inputs/block_dynshared.ll -o %t.dyn.ll
; RUN: FileCheck %s --check-prefix=NONE --implicit-check-not=@gm_block < %t.dyn.ll
; -gm-diag-no-block (A/B switch): no block words anywhere, as for 48 KiB.
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-diag-no-block -gm-handlers=%t.h.bc -S %s -o %t.nb.ll
; RUN: FileCheck %s --check-prefix=NONE --implicit-check-not=@gm_block < %t.nb.ll
; Budget: 2048 bytes per kernel = word 0 and 102 sites of 5 words; of 110
; branch sites the last 8 update memory directly.
; RUN: %python %S/Inputs/block_many.py 110 > %t.many.in.ll
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-handlers=%t.h.bc -S %t.many.in.ll -o %t.many.ll
; RUN: FileCheck %s --check-prefix=MANY --implicit-check-not=@gm_block < %t.many.ll
; MANY: @__gm_block.blk = internal addrspace(3) global [511 x i32] undef, align 4
; MANY: getelementptr inbounds ([511 x i32], ptr addrspace(3) @__gm_block.blk, i32 0, i32 506)
; MANY-NOT: i32 0, i32 511)
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK: @__gm_block.blk = internal addrspace(3) global [6 x i32] undef, align 4
; CHECK-NOT: @__gm_block.blk{{.+}} = internal
; CHECK-LABEL: define ptx_kernel void @straight(
; CHECK: entry:
; CHECK: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; CHECK: getelementptr inbounds nuw i32, ptr addrspacecast (ptr addrspace(3) getelementptr inbounds ([6 x i32], ptr addrspace(3) @__gm_block.blk, i32 0, i32 1) to ptr)
; CHECK-NEXT: atomicrmw add ptr %{{[0-9]+}}, i32
; CHECK: atomicrmw add ptr addrspacecast (ptr addrspace(3) @__gm_block.blk to ptr), i32
; CHECK: ret void
; NONE-NOT: __gm_block
; NONE-NOT: call void @llvm.nvvm.barrier
define ptx_kernel void @straight(i32 %n) {
entry:
  %c = icmp slt i32 0, %n
  br i1 %c, label %a, label %b
a:
  br label %b
b:
  ret void
}

; CHECK-LABEL: define ptx_kernel void @loop(
; CHECK-NOT: __gm_block
; CHECK-NOT: call void @llvm.nvvm.barrier
; CHECK: ret void
define ptx_kernel void @loop(i32 %n) {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %j, %body ]
  %j = add i32 %i, 1
  %c = icmp slt i32 %j, %n
  br i1 %c, label %body, label %exit
exit:
  ret void
}

; CHECK-LABEL: define void @device_fn(
; CHECK-NOT: __gm_block
; CHECK-NOT: call void @llvm.nvvm.barrier
; CHECK: ret void
define void @device_fn(i32 %n) {
entry:
  %c = icmp slt i32 0, %n
  br i1 %c, label %a, label %b
a:
  br label %b
b:
  ret void
}
