; SPDX-License-Identifier: Apache-2.0
; -gm-off loads the plugin and does nothing: the output equals opt's output
; without the pass; with -gm-strip-debug it only strips debug info.
; RUN: llvm-as %S/Inputs/sink_handler.ll -o %t.rec.bc
; RUN: %opt -S %s -o %t.plain.ll
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-handlers=%t.rec.bc -gm-off -S %s -o %t.off.ll
; RUN: diff %t.plain.ll %t.off.ll
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-handlers=%t.rec.bc -gm-off -gm-strip-debug -S %s | FileCheck %s --check-prefix=STRIP
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-handlers=%t.rec.bc -S %s | FileCheck %s --check-prefix=ON
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; STRIP-NOT: sink_
; STRIP-NOT: __gm_
; STRIP-NOT: !dbg
; STRIP: load i32
; ON: call void @sink_mem
define ptx_kernel void @k(ptr addrspace(1) %p) !dbg !10 {
  %a = load i32, ptr addrspace(1) %p, !dbg !20
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!5}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "k.cu", directory: "/src")
!3 = !DISubroutineType(types: !4)
!4 = !{}
!5 = !{i32 2, !"Debug Info Version", i32 3}
!10 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 7, type: !3, unit: !0, spFlags: DISPFlagDefinition)
!20 = !DILocation(line: 9, column: 5, scope: !10)
