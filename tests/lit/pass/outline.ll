; SPDX-License-Identifier: Apache-2.0
; Code growth bound (pass/outline.c): a site outside loops, or in a
; function that is not a kernel, calls one out-of-line copy of the event's
; handlers per info word (the bits of it the handlers read) and a load's
; value 0; a store's value is a parameter, dropped once the specialised
; handlers do not read it, and copies that came out the same are merged (a
; store shares the loads' copy, whatever constant it stores); a site
; in a kernel's loop gets the handler inlined with its register
; accumulator while the growth budget lasts (-gm-inline-growth=0: none; a
; small kernel inlines all its loop sites if they are at most 3, else none;
; one left out of line with a loop step passes its accumulator in local memory);
; the out-of-line copy holds the handler specialised for its info word and
; its GM_SLOW helpers inlined; helpers only dead code called are deleted; a
; loop site calls a copy of its GM_SLOW helper specialised for its info word.
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-macc -gm-handlers=%handlers/coalescing.bc -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-macc -gm-inline-growth=0 -gm-handlers=%handlers/coalescing.bc -S %s -o %t.none.ll
; RUN: FileCheck %s --check-prefix=NONE < %t.none.ll
; Memory accumulators are off unless -gm-macc (plugin.cpp: with them
; examples/spmv built with -rdc=true hung on the H200, session 10): the
; loop's load then calls the plain copy, with no accumulator.
; RUN: %opt -load-pass-plugin=%pass_plugin -passes=gpumem -gm-inline-growth=0 -gm-handlers=%handlers/coalescing.bc -S %s -o %t.nomacc.ll
; RUN: FileCheck %s --check-prefix=NOMACC < %t.nomacc.ll
; NOMACC-NOT: _acc__
; NOMACC-NOT: gm.acc
; NOMACC-LABEL: define ptx_kernel void @loop(
; NOMACC: body:
; NOMACC: call void @gm_ool__before_mem__{{[0-9]+}}(i32 3, i64 %{{[0-9]+}})
; NOMACC-NOT: _acc__
; NOMACC-NOT: gm.acc
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; The added functions come first (fnorder.c). One copy per set of constants, the handler and its helpers inlined in it.
; CHECK: define internal void @gm_ool__before_mem__[[LD:[0-9]+]](i32 %0, i64 %1) #[[ATTR:[0-9]+]]
; CHECK-NOT: call {{.*}}co_
; CHECK: ret void
; CHECK-NOT: define internal void @gm_ool__before_mem__[[LD]](
; The loop site's GM_SLOW helper co_keyed, specialised for the site's info
; word (slowspec.c), its own helpers inlined (cold_helper.ll); no generic
; co_keyed left.
; CHECK: define internal { i32, i32, i32 } @gm_ool__slow__[[SLOW:[0-9]+]](i32 %0, i64 %1, i32 %2, i32 %3) #[[ATTR]]
; CHECK-NOT: call {{.*}}co_
; CHECK: ret { i32, i32, i32 }
; CHECK-LABEL: define ptx_kernel void @straight(
; CHECK-NOT: alloca
; CHECK: call void @gm_ool__before_mem__[[LD]](i32 0, i64 %{{[0-9]+}})
; CHECK: call void @gm_ool__before_mem__[[LD]](i32 1, i64 %{{[0-9]+}})
; CHECK-NEXT: load float
; CHECK-NEXT: load float
; CHECK: call void @gm_ool__before_mem__[[LD]](i32 2, i64 %{{[0-9]+}})
; CHECK-NEXT: store float
; CHECK: ret void
define ptx_kernel void @straight(ptr addrspace(1) %p, ptr addrspace(1) %q) {
  %a = load float, ptr addrspace(1) %p
  %b = load float, ptr addrspace(1) %q
  %c = fadd float %a, %b
  store float %c, ptr addrspace(1) %p
  ret void
}

; CHECK-LABEL: define ptx_kernel void @loop(
; CHECK: %gm.acc = alloca
; CHECK: body:
; CHECK-NOT: gm_ool__
; CHECK: call { i32, i32, i32 } @gm_ool__slow__[[SLOW]](i32 3, i64 %{{[0-9]+}}, i32 %{{[0-9]+}}, i32 %{{[0-9]+}})
; CHECK: load i32
; CHECK: exit:
; CHECK: call fastcc void @_ZL12co_flush_run{{[a-z]+}}(i32 noundef 3, {{.*}}, i32 noundef 0, i32 noundef 1)
; Without a budget the loop's load (a loop step of 4 B) calls the copy that
; takes its accumulator, in local memory: zeroed at entry, the step stored
; there, flushed at the exit; the copy never tests it for NULL.
; NONE: define internal void @gm_ool__before_mem_acc__[[NACC:[0-9]+]](i32 %0, i64 %1, ptr %2)
; NONE-NOT: ptr %2, null
; NONE: ret void
; NONE-LABEL: define ptx_kernel void @loop(
; NONE: %gm.acc = alloca [6 x i32]
; NONE-NEXT: store [6 x i32] zeroinitializer, ptr %gm.acc
; NONE: store i32 4, ptr
; NONE: body:
; NONE: call void @gm_ool__before_mem_acc__[[NACC]](i32 3, i64 %{{[0-9]+}}, ptr %gm.acc)
; NONE-NEXT: load i32
; NONE: exit:
; NONE: call fastcc void @{{.*}}co_flush_run{{.*}}(i32 noundef 3,
; NONE: ret void
define ptx_kernel void @loop(ptr addrspace(1) %p, i32 %n) {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %j, %body ]
  %s = phi i32 [ 0, %entry ], [ %t, %body ]
  %a = getelementptr i32, ptr addrspace(1) %p, i32 %i
  %v = load i32, ptr addrspace(1) %a
  %t = add i32 %s, %v
  %j = add nsw i32 %i, 1
  %c = icmp slt i32 %j, %n
  br i1 %c, label %body, label %exit
exit:
  store i32 %t, ptr addrspace(1) %p
  ret void
}

; A small kernel whose loop has more sites than the floor (an unrolled
; loop): all out of line, none half-inlined, no accumulator; the four
; loads (4096 B apart) share one group call (group.c, tests/lit/pass/group.ll).
; CHECK-LABEL: define ptx_kernel void @loop4(
; CHECK-NOT: alloca
; CHECK-NOT: co_keyed
; CHECK: call void @gm_ool__before_mem_group__{{[0-9]+}}(i32 5, i64 %{{[0-9]+}}, i32 4)
; CHECK-NOT: call void @gm_ool__before_mem
; CHECK-NOT: co_flush
; CHECK: ret void
define ptx_kernel void @loop4(ptr addrspace(1) %p, i32 %n) {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %j, %body ]
  %a = getelementptr i32, ptr addrspace(1) %p, i32 %i
  %v0 = load volatile i32, ptr addrspace(1) %a
  %a1 = getelementptr i32, ptr addrspace(1) %a, i32 1024
  %v1 = load volatile i32, ptr addrspace(1) %a1
  %a2 = getelementptr i32, ptr addrspace(1) %a, i32 2048
  %v2 = load volatile i32, ptr addrspace(1) %a2
  %a3 = getelementptr i32, ptr addrspace(1) %a, i32 3072
  %v3 = load volatile i32, ptr addrspace(1) %a3
  %j = add nsw i32 %i, 1
  %c = icmp slt i32 %j, %n
  br i1 %c, label %body, label %exit
exit:
  ret void
}

; CHECK-LABEL: define void @device_loop(
; CHECK-NOT: alloca
; CHECK: call void @gm_ool__before_mem__
; CHECK-NEXT: load volatile i32
define void @device_loop(ptr addrspace(1) %p, i32 %n) {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %j, %body ]
  %a = getelementptr i32, ptr addrspace(1) %p, i32 %i
  %v = load volatile i32, ptr addrspace(1) %a
  %j = add i32 %i, 1
  %c = icmp slt i32 %j, %n
  br i1 %c, label %body, label %exit
exit:
  ret void
}

; A stored constant is never baked into a copy: stores of different
; constants share the copy of @straight (one copy per stored constant made
; 138 copies in bonds-cuda); coalescing does not read the value.
; CHECK-LABEL: define ptx_kernel void @consts(
; CHECK: call void @gm_ool__before_mem__[[LD]](i32 {{[0-9]+}}, i64 %{{[0-9]+}})
; CHECK-NEXT: store float 1.0
; CHECK: call void @gm_ool__before_mem__[[LD]](i32 {{[0-9]+}}, i64 %{{[0-9]+}})
; CHECK-NEXT: store float 2.0
define ptx_kernel void @consts(ptr addrspace(1) %p, ptr addrspace(1) %q) {
  store float 1.0, ptr addrspace(1) %p
  store float 2.0, ptr addrspace(1) %q
  ret void
}

; CHECK: attributes #[[ATTR]] = { convergent noinline }
; NONE-NOT: call {{.*}}@_ZL8co_keyed
; NONE-NOT: gm.acc

; A loop-step load under a condition in the loop (not run on every
; iteration: the warp's mask may change from one to the next, and the
; step's fast path wants the same one) keeps the plain copy, no accumulator.
; NONE-LABEL: define ptx_kernel void @loop_cond(
; NONE-NOT: alloca
; NONE: then:
; NONE: call void @gm_ool__before_mem__{{[0-9]+}}(i32 {{[0-9]+}}, i64 %{{[0-9]+}})
; NONE-NEXT: load i32
define ptx_kernel void @loop_cond(ptr addrspace(1) %p, i32 %n, i32 %k) {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %j, %latch ]
  %c0 = icmp slt i32 %i, %k
  br i1 %c0, label %then, label %latch
then:
  %a = getelementptr i32, ptr addrspace(1) %p, i32 %i
  %v = load i32, ptr addrspace(1) %a
  store i32 %v, ptr addrspace(1) %p
  br label %latch
latch:
  %j = add nsw i32 %i, 1
  %c = icmp slt i32 %j, %n
  br i1 %c, label %body, label %exit
exit:
  ret void
}
