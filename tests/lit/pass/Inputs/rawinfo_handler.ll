; SPDX-License-Identifier: Apache-2.0
; Test handler "raw" (ooltidy.ll): hands the whole info word to a sink,
; so every bit of it is read; more instructions than a call costs.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@llvm.used = appending global [1 x ptr] [ptr @gm_before_mem__raw], section "llvm.metadata"

declare void @sink_raw(i32, i32)

define void @gm_before_mem__raw(i32 %site, i64 %addr, i32 %info, i64 %value) {
  %a = trunc i64 %addr to i32
  %b = mul i32 %a, 3
  %c = add i32 %b, %site
  %d = xor i32 %c, 7
  %e = shl i32 %d, 2
  %f = or i32 %e, 1
  %g = sub i32 %f, %site
  call void @sink_raw(i32 %g, i32 %info)
  ret void
}
