; SPDX-License-Identifier: Apache-2.0
; -gm-kernels matches a kernel's mangled or demangled name; device functions
; are instrumented only when a selected kernel reaches them by direct calls.
; -gm-files matches the source file (path or base name) of each function.
; RUN: llvm-as %S/Inputs/sink_handler.ll -o %t.rec.bc
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-handlers=%t.rec.bc -gm-inst-before=memory -gm-inst-after= '-gm-kernels=^keep\(' -S %s | FileCheck %s --check-prefix=DEM
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-handlers=%t.rec.bc -gm-inst-before=memory -gm-inst-after= -gm-kernels=_Z4dropv -S %s | FileCheck %s --check-prefix=MANGLED
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-handlers=%t.rec.bc -gm-inst-before=memory -gm-inst-after= '-gm-files=^a\.cu$' -S %s | FileCheck %s --check-prefix=FILES
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-handlers=%t.rec.bc -gm-inst-before=memory -gm-inst-after= -gm-files=/src/b -S %s | FileCheck %s --check-prefix=PATH
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @helper_kept(ptr addrspace(1) %p) !dbg !10 {
  store i32 1, ptr addrspace(1) %p
  ret void
}
define void @helper_dropped(ptr addrspace(1) %p) !dbg !11 {
  store i32 2, ptr addrspace(1) %p
  ret void
}
define ptx_kernel void @_Z4keepv(ptr addrspace(1) %p) !dbg !12 {
  store i32 3, ptr addrspace(1) %p
  call void @helper_kept(ptr addrspace(1) %p), !dbg !20
  ret void
}
define ptx_kernel void @_Z4dropv(ptr addrspace(1) %p) !dbg !13 {
  store i32 4, ptr addrspace(1) %p
  call void @helper_dropped(ptr addrspace(1) %p), !dbg !21
  ret void
}

; DEM-LABEL: define void @helper_kept(
; DEM: call void @sink_mem
; DEM-LABEL: define void @helper_dropped(
; DEM-NOT: call void @sink_mem
; DEM-LABEL: define ptx_kernel void @_Z4keepv(
; DEM: call void @sink_mem
; DEM-LABEL: define ptx_kernel void @_Z4dropv(
; DEM-NOT: call void @sink_mem
; DEM: ret void

; MANGLED-LABEL: define void @helper_kept(
; MANGLED-NOT: call void @sink_mem
; MANGLED-LABEL: define void @helper_dropped(
; MANGLED: call void @sink_mem
; MANGLED-LABEL: define ptx_kernel void @_Z4keepv(
; MANGLED-NOT: call void @sink_mem
; MANGLED-LABEL: define ptx_kernel void @_Z4dropv(
; MANGLED: call void @sink_mem

; a.cu holds helper_kept and _Z4keepv; /src/b.cu the other two.
; FILES-LABEL: define void @helper_kept(
; FILES: call void @sink_mem
; FILES-LABEL: define void @helper_dropped(
; FILES-NOT: call void @sink_mem
; FILES-LABEL: define ptx_kernel void @_Z4keepv(
; FILES: call void @sink_mem
; FILES-LABEL: define ptx_kernel void @_Z4dropv(
; FILES-NOT: call void @sink_mem
; FILES: ret void

; PATH-LABEL: define void @helper_kept(
; PATH-NOT: call void @sink_mem
; PATH-LABEL: define void @helper_dropped(
; PATH: call void @sink_mem
; PATH-LABEL: define ptx_kernel void @_Z4keepv(
; PATH-NOT: call void @sink_mem
; PATH-LABEL: define ptx_kernel void @_Z4dropv(
; PATH: call void @sink_mem

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!5}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "a.cu", directory: "/src")
!2 = !DIFile(filename: "/src/b.cu", directory: "/elsewhere")
!3 = !DISubroutineType(types: !4)
!4 = !{}
!5 = !{i32 2, !"Debug Info Version", i32 3}
!10 = distinct !DISubprogram(name: "helper_kept", scope: !1, file: !1, line: 1, type: !3, unit: !0, spFlags: DISPFlagDefinition)
!11 = distinct !DISubprogram(name: "helper_dropped", scope: !2, file: !2, line: 2, type: !3, unit: !0, spFlags: DISPFlagDefinition)
!12 = distinct !DISubprogram(name: "keep", scope: !1, file: !1, line: 3, type: !3, unit: !0, spFlags: DISPFlagDefinition)
!13 = distinct !DISubprogram(name: "drop", scope: !2, file: !2, line: 4, type: !3, unit: !0, spFlags: DISPFlagDefinition)
!20 = !DILocation(line: 3, scope: !12)
!21 = !DILocation(line: 4, scope: !13)
