; SPDX-License-Identifier: Apache-2.0
; -gm-native-copies (gpumemcc --gm-native-copies): every kernel to be
; instrumented keeps an uninstrumented copy K__gm_native, itself a kernel
; with K's attributes (launch bounds), linkage and an own comdat; device
; functions it reaches get internal copies that the kernel copy calls. No
; copy has a site or a handler call, and a copy's PTX is the --gm-off PTX of
; its kernel. Kernels left out by -gm-kernels get no copy; without the
; option there is none.
; RUN: llvm-as %S/Inputs/sink_handler.ll -o %t.rec.bc
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-handlers=%t.rec.bc -gm-native-copies -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: %python %gm_src/tests/tools/sitetab_dump.py %t.ll | FileCheck %s --check-prefix=TAB
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-handlers=%t.rec.bc -gm-native-copies -gm-kernels='^k$' -S %s | FileCheck %s --check-prefix=ONLYK
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-all -gm-handlers=%t.rec.bc -S %s | FileCheck %s --check-prefix=NONE
; the copy's PTX is the uninstrumented kernel's
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-off -S %s -o %t.off.ll
; RUN: llc -mcpu=sm_90 %t.off.ll -o %t.off.ptx
; RUN: llc -mcpu=sm_90 %t.ll -o %t.ptx
; RUN: %ptxas -arch=sm_90 -c %t.ptx -o %t.o
; RUN: %python %S/Inputs/ptx_entry.py %t.off.ptx k > %t.off.k
; RUN: %python %S/Inputs/ptx_entry.py %t.ptx k__gm_native > %t.native.k
; RUN: diff %t.off.k %t.native.k
; RUN: %python %S/Inputs/ptx_entry.py %t.ptx k > %t.inst.k
; RUN: not diff %t.off.k %t.inst.k > /dev/null
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

$t = comdat any

; CHECK: $t__gm_native = comdat any
; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: call void @sink_entry(
; CHECK: call void @sink_mem(
; CHECK: call float @h(
define ptx_kernel void @k(ptr addrspace(1) %p, i32 %n) #0 !dbg !10 {
entry:
  %c = icmp slt i32 %n, 4, !dbg !20
  br i1 %c, label %body, label %done, !dbg !20
body:
  %x = load float, ptr addrspace(1) %p, align 4, !dbg !21
  %y = call float @h(float %x), !dbg !21
  store float %y, ptr addrspace(1) %p, align 4, !dbg !21
  br label %done
done:
  ret void
}

; CHECK-LABEL: define internal float @h(
; CHECK: call void @sink_mem(
define internal float @h(float %x) #1 !dbg !11 {
  %q = alloca float, align 4
  store volatile float %x, ptr %q, align 4, !dbg !22
  %r = load volatile float, ptr %q, align 4, !dbg !22
  %s = fmul float %r, 2.0
  ret float %s
}

; CHECK-LABEL: define ptx_kernel void @t(
; CHECK: call void @sink_mem(
define ptx_kernel void @t(ptr addrspace(1) %p) comdat {
  store i32 1, ptr addrspace(1) %p, align 4
  ret void
}

; not reached from a kernel: no copy
define void @lonely(ptr %p) {
  store i32 2, ptr %p, align 4
  ret void
}

; CHECK: define ptx_kernel void @k__gm_native(ptr addrspace(1) %p, i32 %n) #[[KA:[0-9]+]] !dbg ![[KSP:[0-9]+]]
; CHECK-NOT: sink_
; CHECK-NOT: __gm_
; CHECK: call float @h__gm_native(
; CHECK-NOT: sink_
; CHECK: ret void
; CHECK-LABEL: define internal float @h__gm_native(
; CHECK-NOT: sink_
; CHECK: ret float
; CHECK-LABEL: define ptx_kernel void @t__gm_native(ptr addrspace(1) %p) #{{[0-9]+}} comdat {
; CHECK-NOT: sink_
; CHECK: ret void
; CHECK-NOT: @lonely__gm_native
; CHECK: attributes #[[KA]] = { {{.*}}"gm-native"{{.*}}"nvvm.maxntid"="128"
; the copy has its own DISubprogram
; CHECK: ![[KSP]] = distinct !DISubprogram(name: "k"

; TAB-NOT: func={{.*}}__gm_native
; TAB: func=k
; TAB-NOT: func={{.*}}__gm_native

; ONLYK-DAG: define ptx_kernel void @k__gm_native(
; ONLYK-DAG: define internal float @h__gm_native(
; ONLYK-NOT: @t__gm_native

; NONE-NOT: __gm_native

attributes #0 = { "nvvm.maxntid"="128" }
attributes #1 = { noinline }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!5}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "k.cu", directory: "/src")
!3 = !DISubroutineType(types: !4)
!4 = !{}
!5 = !{i32 2, !"Debug Info Version", i32 3}
!10 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 7, type: !3, unit: !0, spFlags: DISPFlagDefinition)
!11 = distinct !DISubprogram(name: "h", scope: !1, file: !1, line: 2, type: !3, unit: !0, spFlags: DISPFlagDefinition)
!20 = !DILocation(line: 8, column: 5, scope: !10)
!21 = !DILocation(line: 9, column: 5, scope: !10)
!22 = !DILocation(line: 3, column: 5, scope: !11)
