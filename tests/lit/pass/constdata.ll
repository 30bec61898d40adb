; SPDX-License-Identifier: Apache-2.0
; Constant data placement (pass/constdata.c, asmove.c), under -gm-off too.
; clang gives const namespace-scope variables an implicit __constant__; over
; ptxas's 64 KiB of constant data the pass moves those (not the program's own
; __constant__, marked "gpumem.constant" by gpumemcc's pre-include) to global
; memory, largest first, until the rest fits, rewriting every use.
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-off -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: FileCheck %s --check-prefix=NEG < %t.ll
; Under the limit nothing moves; the marks are removed all the same.
; RUN: sed -e 's/30000 x float/3000 x float/g' %s > %t.small.ll
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-off -S %t.small.ll | FileCheck %s --check-prefix=SMALL
; The program's own __constant__ alone over the limit: moving cannot help,
; nothing moves and ptxas reports it (as for nvcc).
; RUN: sed -e 's/7500 x float/20000 x float/g' %s > %t.over.ll
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-off -S %t.over.ll | FileCheck %s --check-prefix=OVER
; RUN: sed -e 's/^@big = internal/@big =/' %t.over.ll > %t.over-ext.ll
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-off -S %t.over-ext.ll | FileCheck %s --check-prefix=OVER
; An implicit variable it may not move (external: another translation unit
; may refer to it) and still over the limit: one line naming it.
; RUN: sed -e 's/^@big = internal/@big =/' %s > %t.ext.ll
; RUN: not %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-off -S %t.ext.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERR
; The same for a use it cannot rewrite (the address passed to a call).
; RUN: sed -e 's/^; CALL-HERE$/  call void @use(ptr addrspace(4) @big)/' %s > %t.call.ll
; RUN: not %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-off -S %t.call.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERR2
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; the program's own __constant__ (marked), 30000 bytes
@user = addrspace(4) externally_initialized constant [7500 x float] zeroinitializer, align 4
; a marked variable only the annotation kept alive: GlobalDCE's job, done here
@_ZL6unused = internal addrspace(4) constant [4 x i32] zeroinitializer, align 4
; implicit: 120000 bytes, moved first; 40 bytes, small enough to stay
@big = internal unnamed_addr addrspace(4) constant [30000 x float] zeroinitializer, align 4
@small = internal unnamed_addr addrspace(4) constant [10 x float] zeroinitializer, align 4
; a pointer to the table in another global's initialiser
@ptr = addrspace(1) global ptr addrspacecast (ptr addrspace(4) getelementptr (i8, ptr addrspace(4) @big, i64 8) to ptr), align 8
@.mark = private unnamed_addr constant [16 x i8] c"gpumem.constant\00", section "llvm.metadata"
@.other = private unnamed_addr constant [6 x i8] c"other\00", section "llvm.metadata"
@.file = private unnamed_addr constant [5 x i8] c"t.cu\00", section "llvm.metadata"
@llvm.global.annotations = appending global [3 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr addrspacecast (ptr addrspace(4) @user to ptr), ptr @.mark, ptr @.file, i32 1, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr addrspacecast (ptr addrspace(4) @_ZL6unused to ptr), ptr @.mark, ptr @.file, i32 2, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr addrspacecast (ptr addrspace(4) @small to ptr), ptr @.other, ptr @.file, i32 3, ptr null }], section "llvm.metadata"
@llvm.compiler.used = appending global [2 x ptr] [ptr addrspacecast (ptr addrspace(4) @user to ptr), ptr addrspacecast (ptr addrspace(4) @big to ptr)], section "llvm.metadata"

; NEG-NOT: gpumem.constant
; NEG-NOT: @_ZL6unused
; NEG-NOT: addrspace(4) @big
; CHECK-DAG: @user = addrspace(4) externally_initialized constant [7500 x float]
; CHECK-DAG: @small = internal unnamed_addr addrspace(4) constant [10 x float]
; CHECK-DAG: @big = internal unnamed_addr addrspace(1) constant [30000 x float] zeroinitializer, align 4
; CHECK-DAG: @ptr = addrspace(1) global ptr addrspacecast (ptr addrspace(1) getelementptr (i8, ptr addrspace(1) @big, i64 8) to ptr)
; the user's own annotation stays
; CHECK-DAG: @llvm.global.annotations = appending global [1 x {{.*}} @small {{.*}} @.other
; CHECK-DAG: @llvm.compiler.used = {{.*}} ptr addrspacecast (ptr addrspace(1) @big to ptr)

; CHECK-LABEL: define ptx_kernel void @k(
define ptx_kernel void @k(ptr addrspace(1) %o, i64 %i) {
; generic access through a constant cast (clang's form)
; CHECK: getelementptr inbounds float, ptr addrspacecast (ptr addrspace(1) @big to ptr), i64 %i
  %p0 = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(4) @big to ptr), i64 %i
  %a = load float, ptr %p0, align 4
; direct accesses in the constant space (after InferAddressSpaces)
; CHECK: %p1 = getelementptr inbounds float, ptr addrspace(1) @big, i64 %i
; CHECK-NEXT: %b = load float, ptr addrspace(1) %p1
  %p1 = getelementptr inbounds float, ptr addrspace(4) @big, i64 %i
  %b = load float, ptr addrspace(4) %p1, align 4
; CHECK: load float, ptr addrspace(1) getelementptr inbounds nuw (i8, ptr addrspace(1) @big, i64 4)
  %c = load float, ptr addrspace(4) getelementptr inbounds nuw (i8, ptr addrspace(4) @big, i64 4), align 4
; CHECK: addrspacecast ptr addrspace(1) %p2 to ptr
  %p2 = getelementptr inbounds float, ptr addrspace(4) @big, i64 %i
  %g = addrspacecast ptr addrspace(4) %p2 to ptr
  %d = load float, ptr %g, align 4
  %u = load float, ptr addrspace(4) @user, align 4
  %s = load float, ptr addrspace(4) @small, align 4
; CALL-HERE
  %x0 = fadd float %a, %b
  %x1 = fadd float %x0, %c
  %x2 = fadd float %x1, %d
  %x3 = fadd float %x2, %u
  %x4 = fadd float %x3, %s
  %q = getelementptr inbounds float, ptr addrspace(1) %o, i64 %i
  store float %x4, ptr addrspace(1) %q, align 4
  ret void
}

; SMALL-DAG: @big = internal unnamed_addr addrspace(4) constant [3000 x float]
; SMALL-NOT: @_ZL6unused
; SMALL-NOT: gpumem.constant

; OVER: @big = {{(internal )?}}unnamed_addr addrspace(4) constant [30000 x float]

; ERR2: LLVM ERROR: gpumem: {{.*}} the const variable 'big' (120000 bytes) {{.*}} cannot be moved (a use other than loads and address arithmetic); declare it without const
declare void @use(ptr addrspace(4))

; ERR: LLVM ERROR: gpumem: device constant data is {{[0-9]+}} bytes, over ptxas's limit of 65536: clang placed the const variable 'big' (120000 bytes) in __constant__ memory, where nvcc uses global memory, and it cannot be moved (other translation units may refer to it); declare it without const (e.g. '__device__ float' for '__device__ const float')
