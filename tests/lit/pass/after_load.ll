; SPDX-License-Identifier: Apache-2.0
; After-load calls get the loaded value as i64: integers zero-extended,
; floats and vectors as their bits, pointers as addresses; wider than 64
; bits: the first 8 bytes and GM_INFO_VALUE_TRUNC. Stores get no after call.
; RUN: llvm-as %S/Inputs/sink_handler.ll -o %t.rec.bc
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-reconverge=false -gm-handlers=%t.rec.bc -gm-inst-before= -gm-inst-after=memory -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: %python %gm_src/tests/tools/sitetab_dump.py %t.ll | FileCheck %s --check-prefix=TAB
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @f(
; CHECK-NOT: call void @sink_mem
; CHECK: %a = load i8, ptr addrspace(1) %p
; CHECK: [[A:%.*]] = zext i8 %a to i64
; CHECK: call void @sink_after(i32 0, i64 %{{.*}}, i32 16842753, i64 [[A]])
; CHECK: %b = load float, ptr addrspace(1) %p1
; CHECK: [[B0:%.*]] = bitcast float %b to i32
; CHECK-NEXT: [[B:%.*]] = zext i32 [[B0]] to i64
; CHECK: call void @sink_after(i32 1, i64 %{{.*}}, i32 16842756, i64 [[B]])
; CHECK: %c = load ptr, ptr addrspace(1) %p2
; CHECK: [[C:%.*]] = ptrtoint ptr %c to i64
; CHECK: call void @sink_after(i32 2, i64 %{{.*}}, i32 16842760, i64 [[C]])
; CHECK: %d = load <4 x float>, ptr addrspace(1) %p3
; CHECK: [[D0:%.*]] = bitcast <4 x float> %d to i128
; CHECK-NEXT: [[D:%.*]] = trunc i128 [[D0]] to i64
; CHECK: call void @sink_after(i32 3, i64 %{{.*}}, i32 1359020048, i64 [[D]])
; CHECK: %e = load i128, ptr addrspace(1) %p4
; CHECK: [[E:%.*]] = trunc i128 %e to i64
; CHECK: call void @sink_after(i32 4, i64 %{{.*}}, i32 285278224, i64 [[E]])
; CHECK: %h = load <2 x half>, ptr addrspace(1) %p5
; CHECK: [[H0:%.*]] = bitcast <2 x half> %h to i32
; CHECK-NEXT: [[H:%.*]] = zext i32 [[H0]] to i64
; CHECK: call void @sink_after(i32 5, i64 %{{.*}}, i32 1090584580, i64 [[H]])
; CHECK: %l = load i64, ptr addrspace(1) %p6
; CHECK: call void @sink_after(i32 6, i64 %{{.*}}, i32 16842760, i64 %l)
; CHECK-NEXT: store i64 %l
; CHECK-NEXT: ret void
define void @f(ptr addrspace(1) %p, ptr addrspace(1) %p1, ptr addrspace(1) %p2, ptr addrspace(1) %p3, ptr addrspace(1) %p4, ptr addrspace(1) %p5, ptr addrspace(1) %p6) {
  %a = load i8, ptr addrspace(1) %p
  %b = load float, ptr addrspace(1) %p1
  %c = load ptr, ptr addrspace(1) %p2
  %d = load <4 x float>, ptr addrspace(1) %p3, align 16
  %e = load i128, ptr addrspace(1) %p4, align 16
  %h = load <2 x half>, ptr addrspace(1) %p5
  %l = load i64, ptr addrspace(1) %p6
  store i64 %l, ptr addrspace(1) %p
  ret void
}

; TAB: nsites=7
; TAB: site 0 mem space=1 when=after info=0x1010001 width=1 load
; TAB: site 3 mem space=1 when=after info=0x51010010 width=16 load,trunc,vector
; TAB: site 4 mem space=1 when=after info=0x11010010 width=16 load,trunc
; TAB: site 6 mem space=1 when=after info=0x1010008 width=8 load
