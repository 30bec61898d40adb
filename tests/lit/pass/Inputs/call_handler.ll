; SPDX-License-Identifier: Apache-2.0
; Test handler set "call": before_mem calls an external function, so the
; calls stay in the PTX (fidelity.ll: vectorisation must survive them).
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare void @sink_mem(i32, i64, i32, i64)
define void @gm_before_mem__call(i32 %site, i64 %addr, i32 %info, i64 %value) {
  call void @sink_mem(i32 %site, i64 %addr, i32 %info, i64 %value)
  ret void
}
