; SPDX-License-Identifier: Apache-2.0
; Bad options and bad handler files stop with one clear line and a non-zero
; exit, never a crash.
; RUN: not %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-handlers=/nonexistent.bc -disable-output %s 2>&1 | FileCheck %s --check-prefix=NOFILE
; RUN: not %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-handlers=%s -disable-output %s 2>&1 | FileCheck %s --check-prefix=NOTBC
; RUN: not %opt -load-pass-plugin=%pass_plugin -passes=gpumem '-gm-kernels=(' -disable-output %s 2>&1 | FileCheck %s --check-prefix=REGEX
; RUN: not %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inst-before=memory,loads -disable-output %s 2>&1 | FileCheck %s --check-prefix=EVENT
; RUN: not %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inst-after=cond-branches -disable-output %s 2>&1 | FileCheck %s --check-prefix=AFTER
; RUN: llvm-as %S/Inputs/bad_sig_handler.ll -o %t.bad.bc
; RUN: not %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-handlers=%t.bad.bc -disable-output %s 2>&1 | FileCheck %s --check-prefix=SIG
; NOFILE: LLVM ERROR: gpumem: cannot read handler bitcode /nonexistent.bc: {{.+}}
; NOTBC: LLVM ERROR: gpumem: {{.*}}errors.ll is not an LLVM bitcode file
; REGEX: LLVM ERROR: gpumem: -gm-kernels: bad regular expression '(': {{.+}}
; EVENT: LLVM ERROR: gpumem: -gm-inst-before: unknown event 'loads'
; AFTER: LLVM ERROR: gpumem: -gm-inst-after: unknown event 'cond-branches'
; SIG: LLVM ERROR: gpumem: handler gm_before_mem__bad does not have the signature of abi.h
; CHECK-NOT: Stack dump
target triple = "nvptx64-nvidia-cuda"
define void @f() {
  ret void
}
