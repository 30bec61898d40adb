; SPDX-License-Identifier: Apache-2.0
; Handler data globals named gm_* become <name>__<modid> (external, listed in
; the site table with slots, flags and slot names); gm_nslots__/
; gm_slotnames__ are gone; __gm_nsites is an internal constant whose loads
; folded; __gm_replica_mask__<modid> is an externally initialised
; addrspace(4) i32 = 0; the site table is in llvm.used.
; RUN: llvm-as %S/Inputs/sink_handler.ll -o %t.rec.bc
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-reconverge=false -gm-handlers=%t.rec.bc -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: %python %gm_src/tests/tools/sitetab_dump.py %t.ll | FileCheck %s --check-prefix=TAB
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-NOT: @gm_nslots__rec
; CHECK-NOT: @gm_slotnames__rec
; CHECK-DAG: @gm_counters__rec__[[ID:[0-9a-f]{16}]] = addrspace(4) externally_initialized global ptr null
; CHECK-DAG: @__gm_nsites = internal addrspace(1) constant i32 2
; CHECK-DAG: @__gm_replica_mask__[[ID]] = addrspace(4) externally_initialized global i32 0, align 4
; CHECK-DAG: @__gm_sitetab__[[ID]] = addrspace(1) constant [{{[0-9]+}} x i8] c"GMSITES\00
; CHECK-DAG: @llvm.used = appending global [1 x ptr] [ptr addrspacecast (ptr addrspace(1) @__gm_sitetab__[[ID]] to ptr)], section "llvm.metadata"
; CHECK-NOT: @__gm_replica_mask =
; CHECK-LABEL: define ptx_kernel void @k(
; CHECK-NEXT: load i32, ptr addrspace(4) @__gm_replica_mask__[[ID]]
; CHECK-NEXT: load ptr, ptr addrspace(4) @gm_counters__rec__[[ID]]
; CHECK-NEXT: call void @sink_entry(i32 0, i32 2, i32
define ptx_kernel void @k() {
  ret void
}

; TAB: sitetab __gm_sitetab__[[ID:[0-9a-f]{16}]] version=1 nsites=2 nglobals=2 n_asm_mem=0 abi=1
; TAB: global gm_counters__rec sym=gm_counters__rec__[[ID]] slots=3 size=8 flags=1 slotnames=a,b,c
; TAB: global __gm_replica_mask sym=__gm_replica_mask__[[ID]] slots=0 size=4 flags=4 slotnames=
