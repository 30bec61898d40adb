; SPDX-License-Identifier: Apache-2.0
; Input of helpers_used.ll: a kernel without loops (every site out of line).
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @straight(ptr addrspace(1) %p, i32 %n) {
entry:
  %c = icmp sgt i32 %n, 0
  br i1 %c, label %a, label %b
a:
  %v = load i32, ptr addrspace(1) %p
  store i32 %v, ptr addrspace(1) %p
  br label %b
b:
  ret void
}
