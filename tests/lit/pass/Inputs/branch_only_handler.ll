; SPDX-License-Identifier: Apache-2.0
; Test handler set "br": only a branch handler (other events: no sites).
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare void @sink_branch(i32, i32, i32)
define void @gm_before_branch__br(i32 %site, i32 %info, i32 %dir) {
  call void @sink_branch(i32 %site, i32 %info, i32 %dir)
  ret void
}
