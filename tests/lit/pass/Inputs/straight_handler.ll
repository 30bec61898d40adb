; SPDX-License-Identifier: Apache-2.0
; A straight-line before_mem handler: one block, only intrinsic calls.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@llvm.used = appending global [1 x ptr] [ptr @gm_before_mem__straight], section "llvm.metadata"

declare i32 @llvm.nvvm.activemask()

define void @gm_before_mem__straight(i32 %site, i64 %addr, i32 %info, i64 %value) {
  %m = call i32 @llvm.nvvm.activemask()
  ret void
}
