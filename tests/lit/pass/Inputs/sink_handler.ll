; SPDX-License-Identifier: Apache-2.0
; Test handler set "rec": every event calls an external sink with its
; arguments, so the inlined calls show what the pass passed. Also declares
; counters with slots and uses __gm_nsites / __gm_replica_mask.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@gm_counters__rec = addrspace(4) externally_initialized global ptr null, align 8
@gm_nslots__rec = addrspace(1) constant i32 3, align 4
@gm_slotnames__rec = addrspace(1) constant [6 x i8] c"a,b,c\00", align 1
@__gm_nsites = external addrspace(1) constant i32, align 4
@__gm_replica_mask = external addrspace(4) global i32, align 4
@llvm.used = appending global [7 x ptr] [ptr @gm_before_mem__rec, ptr @gm_after_load__rec, ptr @gm_before_branch__rec, ptr @gm_kernel_entry__rec, ptr @gm_kernel_exit__rec, ptr addrspacecast (ptr addrspace(1) @gm_nslots__rec to ptr), ptr addrspacecast (ptr addrspace(1) @gm_slotnames__rec to ptr)], section "llvm.metadata"

declare void @sink_mem(i32, i64, i32, i64)
declare void @sink_after(i32, i64, i32, i64)
declare void @sink_branch(i32, i32, i32)
declare void @sink_entry(i32, i32, i32, ptr)
declare void @sink_exit(i32)

define void @gm_before_mem__rec(i32 %site, i64 %addr, i32 %info, i64 %value) {
  call void @sink_mem(i32 %site, i64 %addr, i32 %info, i64 %value)
  ret void
}

define void @gm_after_load__rec(i32 %site, i64 %addr, i32 %info, i64 %value) {
  %p = inttoptr i64 %addr to ptr
  %x = load i32, ptr %p
  call void @sink_after(i32 %site, i64 %addr, i32 %info, i64 %value)
  ret void
}

define void @gm_before_branch__rec(i32 %site, i32 %info, i32 %dir) {
  call void @sink_branch(i32 %site, i32 %info, i32 %dir)
  ret void
}

define void @gm_kernel_entry__rec(i32 %site) {
  %n = load i32, ptr addrspace(1) @__gm_nsites
  %m = load i32, ptr addrspace(4) @__gm_replica_mask
  %c = load ptr, ptr addrspace(4) @gm_counters__rec
  call void @sink_entry(i32 %site, i32 %n, i32 %m, ptr %c)
  ret void
}

define void @gm_kernel_exit__rec(i32 %site) {
  call void @sink_exit(i32 %site)
  ret void
}
