; SPDX-License-Identifier: Apache-2.0
; Counters declared with GM_COUNTERS_SINGLE are flagged single-replica in the
; site table with their slot count; other gm_ data globals of handlers are
; renamed and listed too (no slots); llvm.compiler.used keeps only the
; data globals (handler functions and slot constants leave it) and comes
; after every other global (reproducible PTX, used.c).
; RUN: llvm-as %S/Inputs/single_handler.ll -o %t.z.bc
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-reconverge=false -gm-handlers=%t.z.bc -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: %python %gm_src/tests/tools/sitetab_dump.py %t.ll | FileCheck %s --check-prefix=TAB
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-NOT: gm_nslots__z
; CHECK-NOT: gm_slotnames__z
; CHECK: @gm_trace_buf__{{[0-9a-f]+}} = addrspace(1) global [4 x i64]
; CHECK-NOT: gm_nslots__z
; CHECK-NOT: gm_slotnames__z
; CHECK: @llvm.compiler.used = appending global [1 x ptr] [ptr addrspacecast (ptr addrspace(4) @gm_counters__z__{{[0-9a-f]+}} to ptr)]
; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: store i64 1, ptr
; CHECK-NEXT: store i64 2, ptr addrspace(1) @gm_trace_buf__
; CHECK-NEXT: ret void
define ptx_kernel void @k() {
  ret void
}

; TAB: nsites=1 nglobals=3
; TAB: site 0 exit
; TAB: global gm_counters__z sym=gm_counters__z__{{[0-9a-f]+}} slots=5 size=8 flags=3 slotnames={{$}}
; TAB: global gm_trace_buf sym=gm_trace_buf__{{[0-9a-f]+}} slots=0 size=32 flags=0 slotnames={{$}}
; TAB: global __gm_replica_mask
