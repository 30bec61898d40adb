; SPDX-License-Identifier: Apache-2.0
; Test handler set "mergediv" (oolmerge.ll): the access width divides and
; multiplies the address, so copies per width differ in constants only; a
; constant divisor may not become a parameter (a multiply would become a
; division), so they stay apart.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare void @sink(i32, i32)

define void @gm_before_mem__mergediv(i32 %site, i64 %addr, i32 %info, i64 %value) {
  %w = and i32 %info, 65535
  %a = trunc i64 %addr to i32
  %q = udiv i32 %a, %w
  %m = mul i32 %q, %w
  %x = xor i32 %m, %site
  %y = lshr i32 %x, 3
  %z = add i32 %y, %a
  %u = mul i32 %z, 7
  %v = xor i32 %u, %q
  call void @sink(i32 %v, i32 %m)
  ret void
}
