/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Runs of out-of-line calls (after ooltidy.c, step 11): unrolled or
 * table-initialising code calls one copy (gm_ool__*) many times in a row,
 * `copy(s, a)`, `copy(s + 1, a + d)`, `copy(s + 2, a + 2d)` ... with the
 * addresses a constant stride apart (a local table's initial values:
 * bonds-cuda's 149-entry tables), about 7 PTX lines each. At least
 * GM_RUN_MIN such calls in one basic block, with nothing between them but
 * instructions that are not calls, become one call
 * `gm_ool__run__<copy>(s, a, n, d)` at the first one's place, a loop that
 * makes the same calls in the same order. The handlers see the same
 * arguments under the same warp mask (a block runs as a whole, and no call
 * between could exit a thread or split the warp), only before the memory
 * operations between the sites rather than interleaved with them; a copy
 * takes no loaded or stored value (those copies keep a third parameter and
 * are left alone), so no count changes.
 * Depends on LLVM-C (Core).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <llvm-c/DebugInfo.h>
#include "internal.h"

/* Fewer calls than this stay as they are (a run's call passes 4
 * arguments, and its loop function is about 30 PTX lines per copy). */
#define GM_RUN_MIN 4

#define GM_RUN_PREFIX GM_OOL_PREFIX "run__"

/* A call copy(i32 site, i64 address): its parts, address = base + off. */
struct run_call {
    LLVMValueRef call, callee, base;
    long long site, off;
};

static int is_copy(LLVMValueRef f)
{
    size_t n = 0;
    const char *name = LLVMGetValueName2(f, &n);
    return f && LLVMIsAFunction(f) && !LLVMIsDeclaration(f) && gm_starts_with(name, GM_OOL_PREFIX) &&
           !gm_starts_with(name, GM_OOL_PREFIX "slow__") && !gm_starts_with(name, GM_RUN_PREFIX);
}

/* i64 address v as base + constant offset: ptrtoint of a pointer or of an
 * i8 GEP with one constant index (LLVM's canonical constant offset). */
static void split_address(LLVMValueRef v, LLVMValueRef *base, long long *off)
{
    *base = v, *off = 0;
    if (!LLVMIsAPtrToIntInst(v))
        return;
    LLVMValueRef p = LLVMGetOperand(v, 0);
    *base = p;
    if (!LLVMIsAGetElementPtrInst(p) || LLVMGetNumOperands(p) != 2)
        return;
    LLVMTypeRef st = LLVMGetGEPSourceElementType(p);
    LLVMValueRef idx = LLVMGetOperand(p, 1);
    if (LLVMGetTypeKind(st) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(st) != 8 ||
        !LLVMIsAConstantInt(idx) || LLVMGetIntTypeWidth(LLVMTypeOf(idx)) > 64)
        return;
    *base = LLVMGetOperand(p, 0);
    *off = LLVMConstIntGetSExtValue(idx);
}

/* Whether in is a call of a copy with (constant i32 site, i64 address). */
static int as_run_call(LLVMValueRef in, struct run_call *c)
{
    if (!LLVMIsACallInst(in) || LLVMGetNumArgOperands(in) != 2)
        return 0;
    LLVMValueRef f = LLVMGetCalledValue(in), s = LLVMGetOperand(in, 0), a = LLVMGetOperand(in, 1);
    if (!is_copy(f) || !LLVMIsAConstantInt(s) || LLVMGetIntTypeWidth(LLVMTypeOf(s)) != 32 ||
        LLVMGetTypeKind(LLVMTypeOf(a)) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(LLVMTypeOf(a)) != 64)
        return 0;
    c->call = in, c->callee = f;
    c->site = (long long)LLVMConstIntGetZExtValue(s);
    split_address(a, &c->base, &c->off);
    return 1;
}

/* Whether in may stand between two calls of a run: no call but the
 * lifetime markers (a call could exit the thread or split the warp). */
static int may_stand_between(LLVMValueRef in)
{
    if (!LLVMIsACallInst(in) && !LLVMIsAInvokeInst(in) && !LLVMIsACallBrInst(in))
        return 1;
    LLVMValueRef f = LLVMGetCalledValue(in);
    size_t n = 0;
    return f && LLVMIsAFunction(f) && gm_starts_with(LLVMGetValueName2(f, &n), "llvm.lifetime.");
}

/* Whether c extends the run r[0..n-1] (n >= 1). */
static int extends(const struct run_call *r, size_t n, const struct run_call *c)
{
    if (c->callee != r[0].callee || c->base != r[0].base || c->site != r[0].site + (long long)n)
        return 0;
    long long d = n == 1 ? c->off - r[0].off : r[1].off - r[0].off;
    return c->off == r[n - 1].off + d;
}

/* gm_ool__run__<copy>: for i < n, copy(site + i, addr + i * d). */
static LLVMValueRef run_function(LLVMModuleRef m, LLVMValueRef copy)
{
    size_t len = 0;
    const char *cname = LLVMGetValueName2(copy, &len);
    char name[256];
    snprintf(name, sizeof name, "%s%s", GM_RUN_PREFIX, cname + strlen(GM_OOL_PREFIX));
    LLVMValueRef f = LLVMGetNamedFunction(m, name);
    if (f)
        return f;
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx), i64 = LLVMInt64TypeInContext(ctx);
    LLVMTypeRef pt[4] = {i32, i64, i32, i64};
    f = LLVMAddFunction(m, name, LLVMFunctionType(LLVMVoidTypeInContext(ctx), pt, 4, 0));
    LLVMSetLinkage(f, LLVMInternalLinkage);
    unsigned na = LLVMGetAttributeCountAtIndex(copy, LLVMAttributeFunctionIndex);
    LLVMAttributeRef *at = calloc(na ? na : 1, sizeof *at);
    LLVMGetAttributesAtIndex(copy, LLVMAttributeFunctionIndex, at);
    for (unsigned i = 0; i < na; i++)
        LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, at[i]);
    free(at);
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(ctx, f, "entry");
    LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(ctx, f, "loop");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(ctx, f, "done");
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMPositionBuilderAtEnd(b, entry);
    LLVMBuildBr(b, loop);
    LLVMPositionBuilderAtEnd(b, loop);
    LLVMValueRef i = LLVMBuildPhi(b, i32, "i"), a = LLVMBuildPhi(b, i64, "a");
    LLVMValueRef args[2] = {LLVMBuildAdd(b, LLVMGetParam(f, 0), i, "site"), a};
    LLVMBuildCall2(b, LLVMGlobalGetValueType(copy), copy, args, 2, "");
    LLVMValueRef in = LLVMBuildNUWAdd(b, i, LLVMConstInt(i32, 1, 0), "i.next");
    LLVMValueRef an = LLVMBuildAdd(b, a, LLVMGetParam(f, 3), "a.next");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, in, LLVMGetParam(f, 2), ""), loop, done);
    LLVMValueRef iv[2] = {LLVMConstInt(i32, 0, 0), in}, av[2] = {LLVMGetParam(f, 1), an};
    LLVMBasicBlockRef from[2] = {entry, loop};
    LLVMAddIncoming(i, iv, from, 2);
    LLVMAddIncoming(a, av, from, 2);
    LLVMPositionBuilderAtEnd(b, done);
    LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
    return f;
}

/* Replaces the n calls of r by one call of the copy's run function. */
static void replace_run(LLVMModuleRef m, const struct run_call *r, size_t n)
{
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx), i64 = LLVMInt64TypeInContext(ctx);
    LLVMValueRef f = run_function(m, r[0].callee);
    LLVMValueRef args[4] = {LLVMGetOperand(r[0].call, 0), LLVMGetOperand(r[0].call, 1),
                            LLVMConstInt(i32, n, 0),
                            LLVMConstInt(i64, (unsigned long long)(r[1].off - r[0].off), 1)};
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMPositionBuilderBefore(b, r[0].call);
    LLVMValueRef c = LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, args, 4, "");
    LLVMInstructionSetDebugLoc(c, LLVMInstructionGetDebugLoc(r[0].call));
    LLVMDisposeBuilder(b);
    for (size_t k = 0; k < n; k++) {
        LLVMValueRef a = LLVMGetOperand(r[k].call, 1);
        LLVMInstructionEraseFromParent(r[k].call);
        if (k && LLVMIsAInstruction(a) && !LLVMGetFirstUse(a))
            LLVMInstructionEraseFromParent(a);
    }
}

static void push(struct run_call **buf, size_t *cap, size_t n, const struct run_call *c)
{
    if (n == *cap) {
        *cap = *cap ? 2 * *cap : 16;
        *buf = realloc(*buf, *cap * sizeof **buf);
        if (!*buf)
            abort();
    }
    (*buf)[n] = *c;
}

/* Finds the runs of bb; returns how many were replaced. */
static unsigned block_runs(LLVMModuleRef m, LLVMBasicBlockRef bb, struct run_call **buf, size_t *cap)
{
    unsigned done = 0;
    size_t n = 0;
    struct run_call c;
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb), next; in; in = next) {
        next = LLVMGetNextInstruction(in);
        int is_call = as_run_call(in, &c);
        if (is_call && n && extends(*buf, n, &c)) {
            push(buf, cap, n++, &c);
            continue;
        }
        if (!is_call && may_stand_between(in) && next)
            continue;
        if (n >= GM_RUN_MIN)
            replace_run(m, *buf, n), done++;
        n = 0;
        if (is_call)
            push(buf, cap, n++, &c);
    }
    return done;
}

unsigned gm_ool_runs(LLVMModuleRef m)
{
    struct run_call *buf = NULL;
    size_t cap = 0;
    unsigned done = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        size_t n = 0;
        if (LLVMIsDeclaration(f) || gm_is_handler_code(f) || gm_starts_with(LLVMGetValueName2(f, &n), "gm_"))
            continue;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            done += block_runs(m, bb, &buf, &cap);
    }
    free(buf);
    return done;
}
