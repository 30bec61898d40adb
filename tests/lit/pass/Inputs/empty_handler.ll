; SPDX-License-Identifier: Apache-2.0
; Test handler set "empty": an empty handler at every event (fidelity tests).
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @gm_before_mem__empty(i32 %site, i64 %addr, i32 %info, i64 %value) {
  ret void
}
define void @gm_after_load__empty(i32 %site, i64 %addr, i32 %info, i64 %value) {
  ret void
}
define void @gm_before_branch__empty(i32 %site, i32 %info, i32 %dir) {
  ret void
}
define void @gm_kernel_entry__empty(i32 %site) {
  ret void
}
define void @gm_kernel_exit__empty(i32 %site) {
  ret void
}
