; SPDX-License-Identifier: Apache-2.0
; -rdc: two instrumented translation units link (llvm-link) without
; duplicate symbols; each keeps its own site table, counters and replica
; mask under its own module id, and no handler function survives.
; RUN: llvm-as %S/Inputs/sink_handler.ll -o %t.rec.bc
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-handlers=%t.rec.bc %S/Inputs/rdc_a.ll -o %t.a.bc
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-handlers=%t.rec.bc %S/Inputs/rdc_b.ll -o %t.b.bc
; RUN: llvm-link %t.a.bc %t.b.bc -S -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: %python %gm_src/tests/tools/sitetab_dump.py %t.ll | FileCheck %s --check-prefix=TAB
; RUN: llc -mcpu=sm_90 %t.ll -o %t.ptx
; RUN: %ptxas -arch=sm_90 -c %t.ptx -o %t.o
; CHECK-DAG: @gm_counters__rec__[[A:[0-9a-f]{16}]] = addrspace(4)
; CHECK-DAG: @gm_counters__rec__[[B:[0-9a-f]{16}]] = addrspace(4)
; CHECK-DAG: @__gm_sitetab__[[A]] =
; CHECK-DAG: @__gm_sitetab__[[B]] =
; CHECK-DAG: @__gm_replica_mask__[[A]] =
; CHECK-DAG: @__gm_replica_mask__[[B]] =
; CHECK-NOT: define {{.*}}@gm_
; TAB: sitetab __gm_sitetab__{{[0-9a-f]+}} {{.*}} source={{.*}}rdc_a.ll
; TAB: func=kern_a
; TAB: sitetab __gm_sitetab__{{[0-9a-f]+}} {{.*}} source={{.*}}rdc_b.ll
; TAB: func=shared_dev
; TAB: func=kern_b
