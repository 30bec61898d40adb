; SPDX-License-Identifier: Apache-2.0
; One translation unit of the -rdc test (rdc.ll).
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare void @shared_dev(ptr addrspace(1))

define ptx_kernel void @kern_a(ptr addrspace(1) %p) {
  %v = load i32, ptr addrspace(1) %p
  store i32 %v, ptr addrspace(1) %p
  call void @shared_dev(ptr addrspace(1) %p)
  ret void
}
