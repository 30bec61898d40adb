; SPDX-License-Identifier: Apache-2.0
; Input of block.ll: 48 KiB of static shared memory, no room for block words.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [12288 x i32] undef, align 4

define ptx_kernel void @straight(i32 %n) {
entry:
  store i32 %n, ptr addrspace(3) @tile, align 4
  %c = icmp slt i32 0, %n
  br i1 %c, label %a, label %b
a:
  br label %b
b:
  ret void
}
