; SPDX-License-Identifier: Apache-2.0
; A host module (the plugin is also loaded into the host cc1) is untouched,
; even with -gm-strip-debug and bad handler paths.
; RUN: %opt -S %s -o %t.plain.ll
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-handlers=/nonexistent.bc -gm-strip-debug -S %s -o %t.out.ll
; RUN: diff %t.plain.ll %t.out.ll
target triple = "x86_64-unknown-linux-gnu"

define i32 @f(ptr %p) !dbg !10 {
  %a = load i32, ptr %p, !dbg !20
  ret i32 %a
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!5}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "h.cpp", directory: "/src")
!3 = !DISubroutineType(types: !4)
!4 = !{}
!5 = !{i32 2, !"Debug Info Version", i32 3}
!10 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 7, type: !3, unit: !0, spFlags: DISPFlagDefinition)
!20 = !DILocation(line: 9, column: 5, scope: !10)
