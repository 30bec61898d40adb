; SPDX-License-Identifier: Apache-2.0
; Sites carry file:line:column from the instruction's !dbg (an inlined
; instruction: the inlined function's file), else the function's
; DISubprogram line. -gm-strip-debug removes the debug info after the
; locations were read, so the table keeps them.
; RUN: llvm-as %S/Inputs/sink_handler.ll -o %t.rec.bc
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-handlers=%t.rec.bc -gm-strip-debug -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: %python %gm_src/tests/tools/sitetab_dump.py %t.ll | FileCheck %s --check-prefix=TAB
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-NOT: !dbg
; CHECK-NOT: DICompileUnit
define ptx_kernel void @k(ptr addrspace(1) %p) !dbg !10 {
  %a = load i32, ptr addrspace(1) %p, !dbg !20
  store i32 %a, ptr addrspace(1) %p, !dbg !21
  ret void
}

; TAB: source={{.*}}locations.ll
; TAB: site 0 entry {{.*}} func=k loc=/src/k.cu:7:0
; TAB: site 1 mem {{.*}} func=k loc=/src/k.cu:9:5
; TAB: site 2 mem {{.*}} func=k loc=/inc/util.h:42:13
; TAB: site 3 exit {{.*}} func=k loc=/src/k.cu:7:0

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!5}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "k.cu", directory: "/src")
!2 = !DIFile(filename: "util.h", directory: "/inc")
!3 = !DISubroutineType(types: !4)
!4 = !{}
!5 = !{i32 2, !"Debug Info Version", i32 3}
!10 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 7, type: !3, unit: !0, spFlags: DISPFlagDefinition)
!11 = distinct !DISubprogram(name: "put", scope: !2, file: !2, line: 40, type: !3, unit: !0, spFlags: DISPFlagDefinition)
!20 = !DILocation(line: 9, column: 5, scope: !10)
!21 = !DILocation(line: 42, column: 13, scope: !11, inlinedAt: !22)
!22 = distinct !DILocation(line: 10, column: 3, scope: !10)
