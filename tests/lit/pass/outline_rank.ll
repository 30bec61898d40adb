; SPDX-License-Identifier: Apache-2.0
; Which loop sites the code growth budget inlines (pass/outline.c): the
; deepest loop first, then memory sites with a loop step (fixed or affine
; address), then branches, then other memory sites, then program order;
; never more sites with register accumulators than accum.c has
; (GM_ACCUM_MAX = 16: a 17th inlined site would get none and pay the
; direct path inlined). Each kernel here has 4 or more loop sites and a
; budget (-gm-inline-growth) for one site of the coalescing handler; a site
; that is not inlined calls gm_ool__before_mem__N, or, with a loop step,
; gm_ool__before_mem_acc__N with its accumulator in local memory.
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-macc -gm-inline-growth=500 -gm-diag-sites -gm-handlers=%handlers/coalescing.bc -S %s -o %t.ll 2>%t.err
; RUN: FileCheck %s < %t.ll
; RUN: FileCheck %s --check-prefix=DIAG < %t.err
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-macc -gm-inline-growth=100000 -gm-diag-sites -gm-handlers=%handlers/coalescing.bc,%handlers/divergence.bc -S %s -o %t.br.ll 2>%t.br.err
; RUN: FileCheck %s --check-prefix=CAP < %t.br.ll
; RUN: FileCheck %s --check-prefix=CAPDIAG < %t.br.err
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; The step site (p[i]) comes last in program order and is the one inlined;
; the three data-dependent loads before it stay out of line.
; CHECK-LABEL: define ptx_kernel void @step_first(
; CHECK: loop:
; CHECK: call void @gm_ool__before_mem__{{[0-9]+}}(i32 0, i64 %{{[0-9]+}})
; CHECK: call void @gm_ool__before_mem__{{[0-9]+}}(i32 1, i64 %{{[0-9]+}})
; CHECK: call void @gm_ool__before_mem__{{[0-9]+}}(i32 2, i64 %{{[0-9]+}})
; CHECK-NOT: gm_ool__before_mem__
; CHECK: call { i32, i32, i32 } @gm_ool__slow__{{[0-9]+}}(i32 3,
; CHECK: exit:
; DIAG: gpumem: inline step_first: budget 94/{{[0-9]+}} insts, 1 accumulators, 0 in memory; loop sites 1/4 (steps 1/1); depth 1: 1/4 (steps 1/1)
define ptx_kernel void @step_first(ptr addrspace(1) %p, ptr addrspace(1) %q, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %s = phi i32 [ 0, %entry ], [ %s3, %loop ]
  %ii = mul i32 %i, %i
  %qa = getelementptr i32, ptr addrspace(1) %q, i32 %ii
  %a = load i32, ptr addrspace(1) %qa
  %qb = getelementptr i32, ptr addrspace(1) %q, i32 %a
  %b = load i32, ptr addrspace(1) %qb
  %qc = getelementptr i32, ptr addrspace(1) %q, i32 %b
  %c = load i32, ptr addrspace(1) %qc
  %pa = getelementptr i32, ptr addrspace(1) %p, i32 %i
  %d = load i32, ptr addrspace(1) %pa
  %s1 = add i32 %s, %c
  %s3 = add i32 %s1, %d
  %i1 = add nsw i32 %i, 1
  %cc = icmp slt i32 %i1, %n
  br i1 %cc, label %loop, label %exit
exit:
  store i32 %s3, ptr addrspace(1) %p
  ret void
}

; The inner loop's site is inlined, the outer loop's three (steps
; included, first in program order) are not (sites 5 and 6, 4096 B apart,
; share one group call: group.c).
; CHECK-LABEL: define ptx_kernel void @deepest_first(
; CHECK: outer:
; CHECK: call void @gm_ool__before_mem_group__{{[0-9]+}}(i32 5, i64 %{{[0-9]+}}, i32 2)
; CHECK: call void @gm_ool__before_mem__{{[0-9]+}}(i32 7, i64 %{{[0-9]+}})
; CHECK: inner:
; CHECK-NOT: gm_ool__before_mem__
; CHECK: call { i32, i32, i32 } @gm_ool__slow__{{[0-9]+}}(i32 8,
; CHECK: latch:
; DIAG: gpumem: inline deepest_first: budget 94/{{[0-9]+}} insts, 1 accumulators, 2 in memory; loop sites 1/4 (steps 0/2); depth 2: 1/1 (steps 0/0); depth 1: 0/3 (steps 0/2)
define ptx_kernel void @deepest_first(ptr addrspace(1) %p, ptr addrspace(1) %q, i32 %n) {
entry:
  br label %outer
outer:
  %i = phi i32 [ 0, %entry ], [ %i1, %latch ]
  %s = phi i32 [ 0, %entry ], [ %s2, %latch ]
  %pa = getelementptr i32, ptr addrspace(1) %p, i32 %i
  %a = load i32, ptr addrspace(1) %pa
  %pb = getelementptr i32, ptr addrspace(1) %pa, i32 1024
  %b = load i32, ptr addrspace(1) %pb
  %qc = getelementptr i32, ptr addrspace(1) %q, i32 %b
  %c = load i32, ptr addrspace(1) %qc
  br label %inner
inner:
  %j = phi i32 [ 0, %outer ], [ %j1, %inner ]
  %t = phi i32 [ %a, %outer ], [ %t1, %inner ]
  %jj = mul i32 %j, %c
  %qd = getelementptr i32, ptr addrspace(1) %q, i32 %jj
  %d = load i32, ptr addrspace(1) %qd
  %t1 = add i32 %t, %d
  %j1 = add nsw i32 %j, 1
  %cj = icmp slt i32 %j1, %n
  br i1 %cj, label %inner, label %latch
latch:
  %s2 = add i32 %s, %t1
  %i1 = add nsw i32 %i, 1
  %ci = icmp slt i32 %i1, %n
  br i1 %ci, label %outer, label %exit
exit:
  store i32 %s2, ptr addrspace(1) %p
  ret void
}

; With coalescing and divergence and a budget for all: 17 loads with a
; step and the loop's branch, 18 accumulators asked for, 16 in registers.
; The step sites come first: the first 16 loads are inlined, the 17th load
; calls its copy with an accumulator in local memory (it has a loop step),
; the branch its plain copy; all of it before the loads (hoist.c).
; CAP-LABEL: define ptx_kernel void @cap(
; CAP: loop:
; CAP-COUNT-16: call { i32, i32, i32 } @gm_ool__slow__{{[0-9]+}}(
; CAP-NOT: call { i32, i32, i32 } @gm_ool__slow__
; CAP: call void @gm_ool__before_mem_acc__{{[0-9]+}}(i32 {{[0-9]+}}, i64 %{{[0-9]+}}, ptr %gm.acc{{[0-9]*}})
; CAP: call void @gm_ool__before_branch__{{[0-9]+}}(i32 {{[0-9]+}}, i32 %gm.dir)
; CAP-NEXT: load i32, ptr addrspace(1) %a0
; CAP: load i32, ptr addrspace(1) %a16
; CAP: exit:
; CAPDIAG: gpumem: inline cap: budget {{[0-9]+}}/{{[0-9]+}} insts, 16 accumulators, 1 in memory; loop sites 16/18 (steps 16/17)
define ptx_kernel void @cap(ptr addrspace(1) %p, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %a0 = getelementptr i32, ptr addrspace(1) %p, i32 %i
  %v0 = load i32, ptr addrspace(1) %a0
  %a1 = getelementptr i32, ptr addrspace(1) %a0, i32 1024
  %v1 = load i32, ptr addrspace(1) %a1
  %a2 = getelementptr i32, ptr addrspace(1) %a0, i32 2048
  %v2 = load i32, ptr addrspace(1) %a2
  %a3 = getelementptr i32, ptr addrspace(1) %a0, i32 3072
  %v3 = load i32, ptr addrspace(1) %a3
  %a4 = getelementptr i32, ptr addrspace(1) %a0, i32 4096
  %v4 = load i32, ptr addrspace(1) %a4
  %a5 = getelementptr i32, ptr addrspace(1) %a0, i32 5120
  %v5 = load i32, ptr addrspace(1) %a5
  %a6 = getelementptr i32, ptr addrspace(1) %a0, i32 6144
  %v6 = load i32, ptr addrspace(1) %a6
  %a7 = getelementptr i32, ptr addrspace(1) %a0, i32 7168
  %v7 = load i32, ptr addrspace(1) %a7
  %a8 = getelementptr i32, ptr addrspace(1) %a0, i32 8192
  %v8 = load i32, ptr addrspace(1) %a8
  %a9 = getelementptr i32, ptr addrspace(1) %a0, i32 9216
  %v9 = load i32, ptr addrspace(1) %a9
  %a10 = getelementptr i32, ptr addrspace(1) %a0, i32 10240
  %v10 = load i32, ptr addrspace(1) %a10
  %a11 = getelementptr i32, ptr addrspace(1) %a0, i32 11264
  %v11 = load i32, ptr addrspace(1) %a11
  %a12 = getelementptr i32, ptr addrspace(1) %a0, i32 12288
  %v12 = load i32, ptr addrspace(1) %a12
  %a13 = getelementptr i32, ptr addrspace(1) %a0, i32 13312
  %v13 = load i32, ptr addrspace(1) %a13
  %a14 = getelementptr i32, ptr addrspace(1) %a0, i32 14336
  %v14 = load i32, ptr addrspace(1) %a14
  %a15 = getelementptr i32, ptr addrspace(1) %a0, i32 15360
  %v15 = load i32, ptr addrspace(1) %a15
  %a16 = getelementptr i32, ptr addrspace(1) %a0, i32 16384
  %v16 = load i32, ptr addrspace(1) %a16
  %i1 = add nsw i32 %i, 1
  %cc = icmp slt i32 %i1, %n
  br i1 %cc, label %loop, label %exit
exit:
  ret void
}
