/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Where a site's "before" calls go (insert.c, step 8): above the loads of
 * its basic block that precede the site, when nothing else stands between.
 * A call keeps a load in flight from overlapping anything: the loaded
 * register must hold its value at the call (ptxas waits for it), so
 * `ld a; call(b); ld b; call(c); ld c` issues one load at a time, where the
 * program issued three together (addBiasQKV-cuda's four loads, see
 * bench/results/handler-attribution-2026-11-28.md). Moved up, the calls
 * come first and the loads after them issue together again.
 * A call is moved up past instructions that neither write memory nor call
 * (plain loads, arithmetic, address computation, intrinsics without memory
 * effects), never past a store, an atomic, a fence, a volatile load, a
 * call, a phi or a definition of what it reads that is not pure arithmetic
 * or a read of a by-value kernel parameter (param.c) (a pointer loaded from
 * memory), and only as far as the first load it passes: with no load to
 * pass it stays where it is. The arithmetic that computes its address (a
 * GEP between the loads) moves up with it, in its order. The calls
 * of earlier sites are calls, so sites keep their order. The handlers see
 * the same arguments under the same mask (one basic block, nothing between
 * that could exit a thread or split the warp); only user loads, which write
 * nothing a handler reads, now follow them.
 * -gm-diag-no-hoist keeps every call at its site. Depends on LLVM-C (Core).
 */
#include "internal.h"
#include "diag.h"

#include <stdio.h>
#include <string.h>

/* 1 if call i has no memory effects: an intrinsic such as
 * llvm.nvvm.read.ptx.sreg.* or arithmetic, or inline asm marked
 * memory(none) (clang marks asm without `volatile` or a memory clobber so:
 * cuda_fp8.hpp's conversions). */
static int pure_call(LLVMValueRef i)
{
    LLVMValueRef f = LLVMGetCalledValue(i);
    if (f && LLVMIsAInlineAsm(f))
        return gm_memory_none(LLVMGetCallSiteEnumAttribute(i, LLVMAttributeFunctionIndex, gm_attr_kind("memory")));
    return gm_intrinsic_pure(f);
}

/* 1 if a call may move up past instruction i (i does not write memory,
 * call anything with effects, order memory or start the block). */
static int passable(LLVMValueRef i)
{
    switch (LLVMGetInstructionOpcode(i)) {
    case LLVMLoad:
        return !LLVMGetVolatile(i) && LLVMGetOrdering(i) == LLVMAtomicOrderingNotAtomic;
    case LLVMCall:
        return pure_call(i);
    case LLVMStore: case LLVMAtomicRMW: case LLVMAtomicCmpXchg: case LLVMFence: case LLVMPHI:
    case LLVMInvoke: case LLVMLandingPad: case LLVMVAArg: case LLVMCallBr:
        return 0;
    default:
        return 1;
    }
}

/* 1 if i only computes a value from its operands (an address, an index)
 * or reads a kernel's by-value parameter (param.c: constant for the
 * kernel): it may move up with a call that reads it. */
static int pure(LLVMValueRef i)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(i);
    if (op == LLVMLoad) return gm_kernel_param_read(LLVMGetOperand(i, 0));
    return op == LLVMGetElementPtr || (op >= LLVMTrunc && op <= LLVMAddrSpaceCast) ||
           (op >= LLVMAdd && op <= LLVMXor) || op == LLVMICmp || op == LLVMFCmp || op == LLVMSelect ||
           op == LLVMFreeze || op == LLVMExtractValue || op == LLVMExtractElement;
}

enum { GM_HOIST_MAX = 32 };

struct hoist {
    LLVMValueRef ops[GM_HOIST_MAX];     /* values the calls read */
    int nops;
    LLVMValueRef carry[GM_HOIST_MAX];   /* their pure definitions passed, bottom up */
    int ncarry;
};

static int defines(const struct hoist *h, LLVMValueRef i)
{
    for (int k = 0; k < h->nops; k++)
        if (h->ops[k] == i) return 1;
    return 0;
}

/* Carries definition i along; 0 if it cannot move (not pure, too many). */
static int carry(struct hoist *h, LLVMValueRef i)
{
    int n = LLVMGetNumOperands(i);
    if (!pure(i) || h->ncarry == GM_HOIST_MAX || h->nops + n > GM_HOIST_MAX) return 0;
    h->carry[h->ncarry++] = i;
    for (int k = 0; k < n; k++) h->ops[h->nops++] = LLVMGetOperand(i, k);
    return 1;
}

LLVMValueRef gm_hoist_point(LLVMValueRef site, LLVMValueRef *ops, int nops)
{
    if (gm_diag(GM_DIAG_NO_HOIST) || nops > GM_HOIST_MAX) return site;
    struct hoist h = {.nops = nops};
    memcpy(h.ops, ops, (size_t)nops * sizeof *ops);
    LLVMValueRef at = site;
    int moved = 0;   /* carried definitions below at */
    for (LLVMValueRef p = LLVMGetPreviousInstruction(site); p; p = LLVMGetPreviousInstruction(p)) {
        if (defines(&h, p)) {
            if (!carry(&h, p)) break;
            continue;
        }
        if (!passable(p)) break;
        if (LLVMGetInstructionOpcode(p) == LLVMLoad) at = p, moved = h.ncarry;
    }
    if (at == site) return site;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(site)));
    LLVMPositionBuilderBefore(b, at);
    for (int k = moved - 1; k >= 0; k--) {   /* in their order */
        size_t n = 0;
        const char *nm = LLVMGetValueName2(h.carry[k], &n);
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)n, nm);
        LLVMInstructionRemoveFromParent(h.carry[k]);
        LLVMInsertIntoBuilderWithName(b, h.carry[k], name);   /* a fresh builder adds no !dbg */
    }
    LLVMDisposeBuilder(b);
    return at;
}
