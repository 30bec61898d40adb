/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Register accumulators (handler.h, GM_ACCUM): once the handlers are
 * inlined, each call gm_accum__NAME(site) left in a kernel, in a block on a
 * CFG cycle (inside a loop), becomes a private [GM_ACCUM_WORDS x i32]
 * alloca zeroed at kernel entry, one per NAME and site (the NVPTX
 * backend's SROA keeps it in registers), and gm_accum_flush__NAME(site,
 * acc) is called before every ret of the kernel (at most GM_ACCUM_MAX a
 * kernel). A call whose result is passed to an out-of-line copy (a loop
 * site over the inlining budget, outline.c) gets such an alloca as well,
 * which stays in local memory (outline.c's plan asks for at most
 * GM_ACCUM_MEM_MAX a kernel, and gets every one: the copy assumes it); in
 * the copy, the handlers' calls become the copy's parameters for them
 * (GM_ACC_PARAMS_ATTR), never NULL. Every other call becomes NULL, and the handler
 * updates memory directly. Depends on LLVM-C (Core), calls.c, loopinv.c,
 * cycles.cpp, loops.cpp and the handler SDK's names.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define GM_ACCUM_FN_PREFIX "gm_accum__"
#define GM_ACCUM_FLUSH_PREFIX "gm_accum_flush__"
#define GM_ACCUM_WORDS 6   /* handler.h */

struct gm_acc { LLVMValueRef flush, slot; unsigned long long site; };
struct gm_kacc { struct gm_acc v[GM_ACCUM_MAX + GM_ACCUM_MEM_MAX]; int n, nreg, nmem; };

/* PREFIX + NAME for a call to gm_accum__NAME, if defined. */
static LLVMValueRef named_fn(LLVMModuleRef m, LLVMValueRef callee, const char *prefix)
{
    size_t n = 0, ql = strlen(prefix);
    const char *name = LLVMGetValueName2(callee, &n);
    char buf[256];
    size_t pl = strlen(GM_ACCUM_FN_PREFIX);
    if (n - pl + ql + 1 > sizeof buf)
        return NULL;
    memcpy(buf, prefix, ql);
    memcpy(buf + ql, name + pl, n - pl);
    buf[ql + n - pl] = 0;
    LLVMValueRef f = LLVMGetNamedFunction(m, buf);
    return f && !LLVMIsDeclaration(f) ? f : NULL;
}

static LLVMValueRef flush_fn(LLVMModuleRef m, LLVMValueRef callee)
{
    return named_fn(m, callee, GM_ACCUM_FLUSH_PREFIX);
}

static LLVMValueRef accum_callee(LLVMValueRef in)
{
    return gm_prefixed_callee(in, GM_ACCUM_FN_PREFIX);
}

/* Positions b after the allocas of the entry block. */
static void after_allocas(LLVMBuilderRef b, LLVMBasicBlockRef entry)
{
    LLVMValueRef at = LLVMGetFirstInstruction(entry);
    while (at && LLVMIsAAllocaInst(at))
        at = LLVMGetNextInstruction(at);
    if (at) LLVMPositionBuilderBefore(b, at);
    else LLVMPositionBuilderAtEnd(b, entry);
}

/* The accumulator of (flush, site) in kernel k, made on first use: in
 * registers, or (mem) in memory. */
static LLVMValueRef slot_for(struct gm_kacc *k, LLVMBuilderRef b, LLVMValueRef f,
                             LLVMValueRef flush, unsigned long long site, int mem)
{
    for (int i = 0; i < k->n; i++)
        if (k->v[i].flush == flush && k->v[i].site == site)
            return k->v[i].slot;
    if (!mem && k->nreg == GM_ACCUM_MAX)
        return NULL; /* memory ones: as many as outline.c's plan asked for */
    if (mem && k->nmem == GM_ACCUM_MEM_MAX) { /* the plan keeps to it */
        fprintf(stderr, "gpumem: internal error in function '%s': more memory accumulators than planned\n",
                gm_pass_where());
        exit(70);
    }
    *(mem ? &k->nmem : &k->nreg) += 1;
    LLVMContextRef ctx = LLVMGetModuleContext(LLVMGetGlobalParent(f));
    LLVMTypeRef ty = LLVMArrayType2(LLVMInt32TypeInContext(ctx), GM_ACCUM_WORDS);
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(f);
    LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(entry));
    LLVMSetCurrentDebugLocation2(b, NULL);
    LLVMValueRef a = LLVMBuildAlloca(b, ty, "gm.acc");
    /* the zeroing store goes after every alloca of the entry block, so
     * code later inserted at the entry (block init) keeps all
     * accumulators' allocas together there, where SROA promotes them */
    after_allocas(b, entry);
    LLVMBuildStore(b, LLVMConstNull(ty), a);
    k->v[k->n++] = (struct gm_acc){flush, a, site};
    return a;
}

/* Null tests of the call's result become constants: SROA does not
 * promote an alloca whose address is compared. */
void gm_fold_null_tests(LLVMValueRef call, int nonnull)
{
    LLVMUseRef u = LLVMGetFirstUse(call), next;
    for (; u; u = next) {
        next = LLVMGetNextUse(u);
        LLVMValueRef x = LLVMGetUser(u);
        if (!LLVMIsAICmpInst(x))
            continue;
        LLVMValueRef other = LLVMGetOperand(x, LLVMGetOperand(x, 0) == call ? 1 : 0);
        LLVMIntPredicate p = LLVMGetICmpPredicate(x);
        if (!LLVMIsNull(other) || (p != LLVMIntEQ && p != LLVMIntNE))
            continue;
        int r = (p == LLVMIntNE) == nonnull;
        LLVMReplaceAllUsesWith(x, LLVMConstInt(LLVMInt1TypeInContext(LLVMGetTypeContext(LLVMTypeOf(x))), r, 0));
        LLVMInstructionEraseFromParent(x);
    }
}

/* Loop steps (loopinv.c) into a new accumulator of a memory site, if its
 * handler defines GM_ACCUM_STEP. */
static void step_for(LLVMBuilderRef b, LLVMValueRef callee, LLVMValueRef slot,
                     const struct gm_sites *s, unsigned long long site, const struct gm_cycles *g,
                     const struct gm_loops *lp)
{
    if (!s || site >= s->n || s->v[site].kind != GM_SK_MEM ||
        !named_fn(LLVMGetGlobalParent(callee), callee, GM_ACCUM_STEP_PREFIX))
        return;
    gm_loopinv_store(b, slot, s->v[site].inst, s->v[site].ptr, g, lp);
}

/* Whether call's result is passed to an out-of-line copy (outline.c). */
static int passed_on(LLVMValueRef call)
{
    for (LLVMUseRef u = LLVMGetFirstUse(call); u; u = LLVMGetNextUse(u))
        if (gm_prefixed_callee(LLVMGetUser(u), GM_OOL_PREFIX))
            return 1;
    return 0;
}

/* In a copy taking memory accumulators (GM_ACC_PARAMS_ATTR), the
 * parameter that stands for stub's accumulator; else NULL. */
static LLVMValueRef acc_param(LLVMValueRef f, LLVMValueRef stub)
{
    LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, GM_ACC_PARAMS_ATTR,
                                                       sizeof GM_ACC_PARAMS_ATTR - 1);
    if (!a)
        return NULL;
    unsigned len = 0, ntok = 0, idx = ~0u;
    const char *v = LLVMGetStringAttributeValue(a, &len);
    size_t sn = 0;
    const char *sname = LLVMGetValueName2(stub, &sn);
    for (unsigned i = 0; i < len; ntok++) {
        unsigned j = i;
        while (j < len && v[j] != ' ')
            j++;
        if (j - i == sn && !memcmp(v + i, sname, sn))
            idx = ntok;
        i = j + 1;
    }
    return idx < ntok ? LLVMGetParam(f, LLVMCountParams(f) - ntok + idx) : NULL;
}

/* Replaces one gm_accum__ call: an accumulator, a copy's parameter or NULL. */
static void lower_call(struct gm_kacc *k, const struct gm_cycles *g, const struct gm_loops *lp,
                       LLVMBuilderRef b, LLVMValueRef f, LLVMValueRef call, int kernel,
                       const struct gm_sites *s)
{
    LLVMModuleRef m = LLVMGetGlobalParent(f);
    LLVMValueRef flush = flush_fn(m, accum_callee(call)), site = LLVMGetOperand(call, 0);
    LLVMValueRef slot = acc_param(f, accum_callee(call));
    if (slot) { /* every call of the copy passes one (lower_call, below) */
        gm_fold_null_tests(call, 1);
        LLVMReplaceAllUsesWith(call, slot);
        LLVMInstructionEraseFromParent(call);
        return;
    }
    int mem = passed_on(call); /* for a copy: always, in or out of a cycle */
    if (kernel && flush && LLVMIsAConstantInt(site) &&
        (mem || gm_on_cycle(g, LLVMGetInstructionParent(call)))) {
        int n0 = k->n;
        slot = slot_for(k, b, f, flush, LLVMConstIntGetZExtValue(site), mem);
        if (slot && k->n > n0)
            step_for(b, accum_callee(call), slot, s, LLVMConstIntGetZExtValue(site), g, lp);
    }
    gm_fold_null_tests(call, slot != NULL);
    LLVMReplaceAllUsesWith(call, slot ? slot : LLVMConstPointerNull(LLVMTypeOf(call)));
    LLVMInstructionEraseFromParent(call);
}

/* Before each ret of f: flush every accumulator. */
static void add_flushes(const struct gm_kacc *k, LLVMBuilderRef b, LLVMValueRef f)
{
    LLVMContextRef ctx = LLVMGetModuleContext(LLVMGetGlobalParent(f));
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
        if (!t || LLVMGetInstructionOpcode(t) != LLVMRet)
            continue;
        LLVMPositionBuilderBefore(b, t);
        gm_set_loc(b, f, t);
        for (int i = 0; i < k->n; i++) {
            LLVMValueRef args[2] = {
                LLVMConstInt(LLVMInt32TypeInContext(ctx), k->v[i].site, 0), k->v[i].slot};
            LLVMBuildCall2(b, LLVMGlobalGetValueType(k->v[i].flush), k->v[i].flush, args, 2, "");
        }
    }
}

int gm_accum_lower(LLVMModuleRef m, const struct gm_sites *s)
{
    int any = 0;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        LLVMValueRef *calls;
        size_t n = LLVMIsDeclaration(f) ? 0 : gm_prefixed_calls(f, GM_ACCUM_FN_PREFIX, &calls);
        if (!n)
            continue;
        gm_note_function(f);
        struct gm_kacc k = {.n = 0};
        struct gm_cycles *g = gm_cycles_new(f);
        struct gm_loops *lp = gm_loops_new(f);   /* lowering adds no blocks */
        int kernel = gm_is_kernel(m, f);
        for (size_t i = 0; i < n; i++)
            lower_call(&k, g, lp, b, f, calls[i], kernel, s);
        add_flushes(&k, b, f);
        any |= k.n > 0;
        gm_loops_free(lp);
        gm_cycles_free(g);
        free(calls);
    }
    LLVMDisposeBuilder(b);
    return any;
}

/* gm_accum__ stubs stay out of line until lowered; flush functions are
 * inlined only once the lowering has called them. */
int gm_accum_is_late(LLVMValueRef f)
{
    size_t n = 0;
    const char *name = LLVMGetValueName2(f, &n);
    return gm_starts_with(name, GM_ACCUM_FN_PREFIX) || gm_starts_with(name, GM_ACCUM_FLUSH_PREFIX) ||
           gm_starts_with(name, GM_ACCUM_STEP_PREFIX);
}
