; SPDX-License-Identifier: Apache-2.0
; Conditional br: dir = condition (1 = first successor); switch: dir = k for
; the k-th case, 0 for the default, computed right before the terminator.
; Unconditional branches get no site.
; RUN: llvm-as %S/Inputs/sink_handler.ll -o %t.rec.bc
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-reconverge=false -gm-handlers=%t.rec.bc -gm-inst-before=cond-branches -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: %python %gm_src/tests/tools/sitetab_dump.py %t.ll | FileCheck %s --check-prefix=TAB
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @f(
; CHECK: %gm.dir = zext i1 %c to i32
; CHECK-NEXT: call void @sink_branch(i32 0, i32 2, i32 %gm.dir)
; CHECK-NEXT: br i1 %c, label %sw, label %out
; CHECK: sw:
; CHECK-NEXT: [[E1:%.*]] = icmp eq i32 %x, 10
; CHECK-NEXT: [[D1:%.*]] = select i1 [[E1]], i32 1, i32 0
; CHECK-NEXT: [[E2:%.*]] = icmp eq i32 %x, 20
; CHECK-NEXT: [[D2:%.*]] = select i1 [[E2]], i32 2, i32 [[D1]]
; CHECK-NEXT: [[E3:%.*]] = icmp eq i32 %x, 30
; CHECK-NEXT: [[D3:%.*]] = select i1 [[E3]], i32 3, i32 [[D2]]
; CHECK-NEXT: call void @sink_branch(i32 1, i32 65540, i32 [[D3]])
; CHECK-NEXT: switch i32 %x
; CHECK: a:
; CHECK-NOT: sink_branch
; CHECK: ret void
define void @f(i1 %c, i32 %x) {
entry:
  br i1 %c, label %sw, label %out
sw:
  switch i32 %x, label %out [ i32 10, label %a
                              i32 20, label %a
                              i32 30, label %out ]
a:
  br label %out
out:
  ret void
}

; TAB: nsites=2
; TAB: site 0 branch space=0 when=before info=0x2 nsucc=2 func=f
; TAB: site 1 branch space=0 when=before info=0x10004 nsucc=4 switch func=f
