; SPDX-License-Identifier: Apache-2.0
; Test handler set "z": single-replica counters (GM_COUNTERS_SINGLE) with
; 5 slots and no slot names (an empty string is a zeroinitializer).
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@gm_counters__z = addrspace(4) externally_initialized global ptr null, align 8
@gm_nslots__z = addrspace(4) externally_initialized constant i32 -2147483643, align 4
@gm_slotnames__z = addrspace(4) externally_initialized constant [1 x i8] zeroinitializer, align 1
@gm_trace_buf = addrspace(1) global [4 x i64] zeroinitializer, align 8
@llvm.compiler.used = appending global [4 x ptr] [ptr @gm_kernel_exit__z, ptr addrspacecast (ptr addrspace(4) @gm_counters__z to ptr), ptr addrspacecast (ptr addrspace(4) @gm_nslots__z to ptr), ptr addrspacecast (ptr addrspace(4) @gm_slotnames__z to ptr)], section "llvm.metadata"

define void @gm_kernel_exit__z(i32 %site) {
  %c = load ptr, ptr addrspace(4) @gm_counters__z
  store i64 1, ptr %c
  store i64 2, ptr addrspace(1) @gm_trace_buf
  ret void
}
