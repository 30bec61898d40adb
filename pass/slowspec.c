/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Specialised copies of GM_SLOW helpers for the sites that inline their
 * handler (loop sites): such a site calls the helper with its info word as
 * a constant, but one shared helper body had to serve every info word (the
 * coalescing helper co_keyed: 547 PTX lines with its shared-memory, local
 * and memory-intrinsic paths, in every module with a loop site). Each call
 * from instrumented code whose constant arguments the helper reads only in
 * part (infobits.c) goes to gm_ool__slow__<n> instead: a copy that calls the
 * helper with those bits as constants, the helper inlined into it later
 * (inline.c), one per helper and set of constants when a helper's calls
 * need at most GM_SPEC_MAX sets (else they keep the shared body).
 * Depends on LLVM-C (Core), infobits.c, inline.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <llvm-c/DebugInfo.h>
#include "internal.h"

#define GM_SPEC_MAX 3
#define GM_SPEC_ARGS 8

struct spec { LLVMValueRef helper, fn, arg[GM_SPEC_ARGS]; };
struct specs { struct spec *v; size_t n; unsigned next; };

/* The constant passed for argument i of call c to helper h, or NULL when it
 * stays a parameter (not a constant, or every bit of it is read). */
static LLVMValueRef baked(LLVMValueRef h, LLVMValueRef c, unsigned i)
{
    LLVMValueRef a = LLVMGetOperand(c, i);
    if (!LLVMIsAConstantInt(a) || LLVMGetIntTypeWidth(LLVMTypeOf(a)) > 64)
        return NULL;
    uint64_t all = LLVMGetIntTypeWidth(LLVMTypeOf(a)) == 64
                       ? ~0ull : (1ull << LLVMGetIntTypeWidth(LLVMTypeOf(a))) - 1;
    uint64_t d = gm_demanded_arg_bits(h, i) & all;
    if (d == all)
        return NULL;
    return LLVMConstInt(LLVMTypeOf(a), LLVMConstIntGetZExtValue(a) & d, 0);
}

static LLVMValueRef make_spec(LLVMModuleRef m, struct specs *s, LLVMValueRef h,
                              LLVMValueRef *k, unsigned n)
{
    LLVMTypeRef ht = LLVMGlobalGetValueType(h), p[GM_SPEC_ARGS];
    unsigned np = 0;
    for (unsigned i = 0; i < n; i++)
        if (!k[i])
            p[np++] = LLVMTypeOf(LLVMGetParam(h, i));
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    char name[64];
    snprintf(name, sizeof name, GM_OOL_PREFIX "slow__%u", s->next++);
    LLVMValueRef f = LLVMAddFunction(m, name, LLVMFunctionType(LLVMGetReturnType(ht), p, np, 0));
    LLVMSetLinkage(f, LLVMInternalLinkage);
    unsigned kind = LLVMGetEnumAttributeKindForName("noinline", 8);
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ctx, kind, 0));
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, f, "entry"));
    LLVMValueRef a[GM_SPEC_ARGS];
    for (unsigned i = 0, j = 0; i < n; i++)
        a[i] = k[i] ? k[i] : LLVMGetParam(f, j++);
    LLVMValueRef r = LLVMBuildCall2(b, ht, h, a, n, "");
    if (LLVMGetTypeKind(LLVMGetReturnType(ht)) == LLVMVoidTypeKind)
        LLVMBuildRetVoid(b);
    else
        LLVMBuildRet(b, r);
    LLVMDisposeBuilder(b);
    return f;
}

/* The entry of h for constants k (added when absent). */
static struct spec *entry(struct specs *s, LLVMValueRef h, LLVMValueRef *k, unsigned n)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i].helper == h && !memcmp(s->v[i].arg, k, n * sizeof *k))
            return &s->v[i];
    s->v = realloc(s->v, (s->n + 1) * sizeof *s->v);
    if (!s->v)
        abort();
    struct spec *r = &s->v[s->n++];
    memset(r, 0, sizeof *r);
    r->helper = h;
    memcpy(r->arg, k, n * sizeof *k);
    return r;
}

/* Constants of call c of helper h to bake (k), and whether there are any. */
static int constants(LLVMValueRef c, LLVMValueRef h, LLVMValueRef *k, unsigned *n)
{
    unsigned any = 0;
    *n = (unsigned)LLVMGetNumArgOperands(c);
    if (*n > GM_SPEC_ARGS || *n != LLVMCountParams(h) ||
        LLVMIsFunctionVarArg(LLVMGlobalGetValueType(h)))
        return 0;
    memset(k, 0, GM_SPEC_ARGS * sizeof *k);
    for (unsigned i = 0; i < *n; i++)
        any |= (k[i] = baked(h, c, i)) != NULL;
    return any != 0;
}

/* Call c of helper h: to its copy for c's constants, if it has one. */
static void respecialise(LLVMModuleRef m, struct specs *s, LLVMValueRef c, LLVMValueRef h)
{
    LLVMValueRef k[GM_SPEC_ARGS], a[GM_SPEC_ARGS];
    unsigned n, na = 0;
    if (!constants(c, h, k, &n))
        return;
    LLVMValueRef f = entry(s, h, k, n)->fn;
    if (!f)
        return;
    for (unsigned i = 0; i < n; i++)
        if (!k[i])
            a[na++] = LLVMGetOperand(c, i);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    LLVMPositionBuilderBefore(b, c);
    LLVMValueRef r = LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, a, na, "");
    LLVMInstructionSetDebugLoc(r, LLVMInstructionGetDebugLoc(c));
    LLVMDisposeBuilder(b);
    if (LLVMGetTypeKind(LLVMTypeOf(c)) != LLVMVoidTypeKind)
        LLVMReplaceAllUsesWith(c, r);
    LLVMInstructionEraseFromParent(c);
}

static int is_copy(LLVMValueRef f)
{
    size_t n = 0;
    return gm_starts_with(LLVMGetValueName2(f, &n), GM_OOL_PREFIX);
}

/* Every call of a GM_SLOW helper from instrumented code: counted (pass 0)
 * or redirected to its copy (pass 1). */
static void walk(LLVMModuleRef m, struct specs *s, int pass)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f) || gm_is_handler_code(f) || is_copy(f))
            continue;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
            LLVMValueRef next;
            for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = next) {
                next = LLVMGetNextInstruction(in);
                LLVMValueRef h = LLVMIsACallInst(in) ? LLVMGetCalledValue(in) : NULL;
                LLVMValueRef k[GM_SPEC_ARGS];
                unsigned n;
                if (!h || !gm_is_slow_helper(h))
                    continue;
                if (pass)
                    respecialise(m, s, in, h);
                else if (constants(in, h, k, &n))
                    entry(s, h, k, n);
            }
        }
    }
}

/* Copies for the helpers whose calls need at most GM_SPEC_MAX sets of
 * constants; the others keep their shared body. Two specialised
 * coalescing helpers, 2 x 311 PTX lines, were more than the shared one,
 * 547 (blockAccess-cuda, GM_SPEC_MAX 1); with copies that differ in
 * constants only made one (oolmerge.c), 3 is smaller: 9 corpus programs
 * 5.32x -> 5.16x of --gm-off PTX lines (blockAccess-cuda 1,810 -> 1,470;
 * bench/results/gpu-suites-2026-11-28-s10.md). */
static void make_copies(LLVMModuleRef m, struct specs *s)
{
    for (size_t i = 0; i < s->n; i++) {
        unsigned sets = 0;
        for (size_t j = 0; j < s->n; j++)
            sets += s->v[j].helper == s->v[i].helper;
        if (sets <= GM_SPEC_MAX)
            s->v[i].fn = make_spec(m, s, s->v[i].helper, s->v[i].arg,
                                   LLVMCountParams(s->v[i].helper));
    }
}

void gm_specialise_slow_calls(LLVMModuleRef m)
{
    struct specs s = {0};
    walk(m, &s, 0);
    make_copies(m, &s);
    walk(m, &s, 1);
    free(s.v);
}
