; SPDX-License-Identifier: Apache-2.0
; Test handler set "second": before_mem calls @sink_second (order.ll).
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare void @sink_second(i32)
define void @gm_before_mem__second(i32 %site, i64 %addr, i32 %info, i64 %value) {
  call void @sink_second(i32 %site)
  ret void
}
