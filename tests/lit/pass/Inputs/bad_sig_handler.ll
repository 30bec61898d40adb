; SPDX-License-Identifier: Apache-2.0
; A before_mem handler with the wrong signature (errors.ll).
target triple = "nvptx64-nvidia-cuda"
define void @gm_before_mem__bad(i32 %site, i32 %addr) {
  ret void
}
