; SPDX-License-Identifier: Apache-2.0
; Test handler set "cold": before_mem calls two out-of-line helpers (GM_SLOW:
; noinline), one of them cold, each of which calls an external
; function so that its work stays in the code (cold_helper.ll).
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare void @sink(i32, i32)

define internal void @helper_slow(i32 %site, i32 %info) noinline {
  call void @sink(i32 %site, i32 %info)
  ret void
}

define internal void @helper_cold(i32 %site, i32 %info) noinline cold {
  %s = add i32 %site, 1000
  call void @sink(i32 %s, i32 %info)
  ret void
}

define void @gm_before_mem__cold(i32 %site, i64 %addr, i32 %info, i64 %value) {
  ; more instructions than a call costs (outline.c, GM_OOL_TINY): out of line
  %a0 = trunc i64 %addr to i32
  %a1 = mul i32 %a0, 3
  %a2 = xor i32 %a1, %site
  %a3 = lshr i32 %a2, 5
  %a4 = add i32 %a3, %info
  %a5 = mul i32 %a4, 7
  %a6 = xor i32 %a5, %a0
  %a7 = and i32 %a6, 1023
  call void @sink(i32 %a7, i32 0)
  call void @helper_slow(i32 %site, i32 %info)
  call void @helper_cold(i32 %site, i32 %info)
  ret void
}
