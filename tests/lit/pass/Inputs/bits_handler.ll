; SPDX-License-Identifier: Apache-2.0
; Test handler "bits" (ooltidy.ll): reads only the width, space and
; memory-intrinsic bits of the info word, and the value only for memory
; intrinsics; more instructions than a call costs (never inlined as tiny).
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@llvm.used = appending global [1 x ptr] [ptr @gm_before_mem__bits], section "llvm.metadata"

declare void @sink_bits(i32, i32)
declare void @sink_len(i64)

define void @gm_before_mem__bits(i32 %site, i64 %addr, i32 %info, i64 %value) {
entry:
  %sp = and i32 %info, 16711680
  %w = and i32 %info, 65535
  %t = lshr i32 %info, 27
  %mi = and i32 %t, 1
  %x = mul i32 %w, 3
  %y = add i32 %x, %sp
  %z = xor i32 %y, 7
  %a = trunc i64 %addr to i32
  %as = add i32 %a, %site
  call void @sink_bits(i32 %as, i32 %z)
  %c = icmp ne i32 %mi, 0
  br i1 %c, label %intr, label %done
intr:
  call void @sink_len(i64 %value)
  br label %done
done:
  ret void
}
