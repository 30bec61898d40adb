/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Accumulators in local memory (accum.c, for out-of-line copies,
 * outline.c): a kernel's loop site that calls its copy passes, per
 * accumulator stub of its handlers, one [lcap x [GM_ACCUM_WORDS x i32]]
 * array (gm.lacc) and the site's element index, a constant; the copy's
 * stub calls become that element. Elements of one flush function are
 * contiguous, flushed by one loop at each return (gm.lflush, their sites
 * from the constant table gm.lacc.sites). Depends on LLVM-C (Core),
 * accum.h (the state only) and calls.c.
 */
#include <stdlib.h>
#include <string.h>
#include "accum.h"

/* Positions b after the allocas of the entry block. */
void gm_after_allocas(LLVMBuilderRef b, LLVMBasicBlockRef entry)
{
    LLVMValueRef at = LLVMGetFirstInstruction(entry);
    while (at && LLVMIsAAllocaInst(at))
        at = LLVMGetNextInstruction(at);
    if (at) LLVMPositionBuilderBefore(b, at);
    else LLVMPositionBuilderAtEnd(b, entry);
}

/* Element i of the kernel's array of accumulators in local memory (made
 * on first use, k->lcap elements). */
LLVMValueRef gm_lacc_slot(struct gm_kacc *k, LLVMBuilderRef b, LLVMValueRef f, LLVMTypeRef ty,
                               int i)
{
    LLVMContextRef ctx = LLVMGetModuleContext(LLVMGetGlobalParent(f));
    LLVMTypeRef aty = LLVMArrayType2(ty, (uint64_t)k->lcap);
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(f);
    if (!k->lbase) {
        LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(entry));
        LLVMSetCurrentDebugLocation2(b, NULL);
        k->lbase = LLVMBuildAlloca(b, aty, "gm.lacc");
        LLVMSetAlignment(k->lbase, 8);
    }
    gm_after_allocas(b, entry);
    LLVMSetCurrentDebugLocation2(b, NULL);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
    LLVMValueRef idx[2] = {LLVMConstInt(i32, 0, 0), LLVMConstInt(i32, (unsigned)i, 0)};
    return LLVMBuildInBoundsGEP2(b, aty, k->lbase, idx, 2, "gm.lacc.slot");
}

/* Whether every use of call is an argument of an out-of-line copy. */
int gm_lacc_passed(LLVMValueRef call)
{
    LLVMUseRef u = LLVMGetFirstUse(call);
    for (; u; u = LLVMGetNextUse(u)) {
        LLVMValueRef x = LLVMGetUser(u);
        if (!gm_prefixed_callee(x, GM_OOL_PREFIX) || LLVMGetCalledValue(x) == call)
            return 0;
    }
    return LLVMGetFirstUse(call) != NULL;
}

/* The parameter of an out-of-line copy f that carries the accumulators of
 * stub callee (its GM_ACC_PARAM_ATTR names the stub, outline.c; the
 * element's index is the next parameter), or -1. */
int gm_lacc_param(LLVMValueRef f, LLVMValueRef callee)
{
    size_t n = 0, fn = 0;
    const char *name = LLVMGetValueName2(callee, &n);
    if (!gm_starts_with(LLVMGetValueName2(f, &fn), GM_OOL_PREFIX))
        return -1;
    unsigned np = LLVMCountParams(f);
    for (unsigned i = 0; i + 1 < np; i++) {
        LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(f, i + 1, GM_ACC_PARAM_ATTR,
                                                           (unsigned)strlen(GM_ACC_PARAM_ATTR));
        unsigned len = 0;
        const char *v = a ? LLVMGetStringAttributeValue(a, &len) : NULL;
        if (v && len == n && !memcmp(v, name, n))
            return (int)i;
    }
    return -1;
}

/* In an out-of-line copy: the stub's call becomes element (index
 * parameter) of the array (pointer parameter) the kernel passed. */
void gm_lacc_lower_in_copy(LLVMBuilderRef b, LLVMValueRef f, LLVMValueRef call, int p)
{
    LLVMContextRef ctx = LLVMGetModuleContext(LLVMGetGlobalParent(f));
    LLVMTypeRef ty = LLVMArrayType2(LLVMInt32TypeInContext(ctx), GM_ACCUM_WORDS);
    LLVMValueRef idx = LLVMGetParam(f, (unsigned)p + 1);
    LLVMPositionBuilderBefore(b, call);
    LLVMValueRef a = LLVMBuildGEP2(b, ty, LLVMGetParam(f, (unsigned)p), &idx, 1, "gm.acc");
    /* every call passes an element (pass_local): the handlers' direct
     * path for a missing accumulator is dead here */
    gm_fold_null_tests(call, 1);
    LLVMReplaceAllUsesWith(call, a);
    LLVMInstructionEraseFromParent(call);
}

/* In a kernel: the stub's call passed to out-of-line copies becomes the
 * array of local accumulators and the slot's index there (pointer and
 * index arguments). There is always a slot: outline.c passes stubs with a
 * flush function only, at loop sites of kernels, at most
 * GM_ACCUM_LOCAL_MAX a kernel, and k->lcap counts them all. */
void gm_lacc_pass(const struct gm_kacc *k, LLVMValueRef call, LLVMValueRef slot)
{
    if (!slot)
        abort();   /* broken invariant (above): the copy assumes an element */
    LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetTypeContext(LLVMTypeOf(call)));
    int index = 0;
    for (int i = 0; i < k->n; i++)
        if (k->v[i].slot == slot)
            index = k->v[i].index;
    LLVMUseRef u;
    while ((u = LLVMGetFirstUse(call))) {
        LLVMValueRef x = LLVMGetUser(u);
        unsigned j = 0;
        while (LLVMGetOperand(x, j) != call)
            j++;
        LLVMSetOperand(x, j, k->lbase);
        LLVMSetOperand(x, j + 1, LLVMConstInt(i32, (unsigned)index, 0));
    }
    LLVMInstructionEraseFromParent(call);
}

/* Counts call (a gm_accum__ call with flush function flush, or NULL) among
 * the local accumulators kernel k can need: those passed to copies, at
 * most GM_ACCUM_LOCAL_MAX, grouped by flush function. */
void gm_lacc_count(struct gm_kacc *k, LLVMValueRef call, LLVMValueRef flush)
{
    if (k->lcap == GM_ACCUM_LOCAL_MAX || !flush || !gm_lacc_passed(call))
        return;
    int j = 0;
    while (j < k->nlf && k->lf[j] != flush)
        j++;
    if (j == GM_OOL_ACCS)
        return;
    if (j == k->nlf)
        k->lf[k->nlf++] = flush;
    k->lfcap[j]++;
    k->lcap++;
}

/* Where each flush function's elements start, once every call is counted. */
void gm_lacc_bases(struct gm_kacc *k)
{
    for (int j = 1; j < k->nlf; j++)
        k->lfbase[j] = k->lfbase[j - 1] + k->lfcap[j - 1];
}

/* Site of each element of k's local array, as a constant table. */
LLVMValueRef gm_lacc_sites(const struct gm_kacc *k, LLVMModuleRef m)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetModuleContext(m));
    LLVMValueRef *v = calloc((size_t)k->lcap + 1, sizeof *v);
    if (!v)
        abort();
    for (int i = 0; i < k->lcap; i++)
        v[i] = LLVMConstInt(i32, 0, 0);
    for (int i = 0; i < k->n; i++)
        if (k->v[i].local)
            v[k->v[i].index] = LLVMConstInt(i32, k->v[i].site, 0);
    LLVMValueRef init = LLVMConstArray2(i32, v, (uint64_t)k->lcap);
    free(v);
    LLVMValueRef g = LLVMAddGlobalInAddressSpace(m, LLVMTypeOf(init), "gm.lacc.sites", 4);
    LLVMSetInitializer(g, init);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    return g;
}

/* Before ret (b is there): for i in [base, base + n): flush(sites[i],
 * &lbase[i]); ret moves to a new block after the loop. */
void gm_lacc_flush_loop(const struct gm_kacc *k, LLVMBuilderRef b, LLVMValueRef f, LLVMValueRef ret,
                       LLVMValueRef sites, LLVMValueRef flush, int base, int n)
{
    LLVMContextRef ctx = LLVMGetModuleContext(LLVMGetGlobalParent(f));
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
    LLVMTypeRef aty = LLVMArrayType2(LLVMArrayType2(i32, GM_ACCUM_WORDS), (uint64_t)k->lcap);
    LLVMBasicBlockRef from = LLVMGetInstructionParent(ret);
    LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(ctx, f, "gm.lflush");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(ctx, f, "gm.lflush.done");
    LLVMBuildBr(b, loop);
    LLVMPositionBuilderAtEnd(b, loop);
    LLVMValueRef i = LLVMBuildPhi(b, i32, "gm.lflush.i");
    LLVMValueRef ix[2] = {LLVMConstInt(i32, 0, 0), i};
    LLVMValueRef sp = LLVMBuildInBoundsGEP2(b, LLVMGlobalGetValueType(sites), sites, ix, 2, "");
    LLVMValueRef args[2] = {LLVMBuildLoad2(b, i32, sp, ""),
                            LLVMBuildInBoundsGEP2(b, aty, k->lbase, ix, 2, "")};
    LLVMBuildCall2(b, LLVMGlobalGetValueType(flush), flush, args, 2, "");
    LLVMValueRef next = LLVMBuildAdd(b, i, LLVMConstInt(i32, 1, 0), "");
    LLVMValueRef more = LLVMBuildICmp(b, LLVMIntULT, next, LLVMConstInt(i32, (unsigned)(base + n), 0), "");
    LLVMBuildCondBr(b, more, loop, done);
    LLVMValueRef inv[2] = {LLVMConstInt(i32, (unsigned)base, 0), next};
    LLVMBasicBlockRef inb[2] = {from, loop};
    LLVMAddIncoming(i, inv, inb, 2);
    LLVMInstructionRemoveFromParent(ret);
    LLVMPositionBuilderAtEnd(b, done);
    LLVMInsertIntoBuilder(b, ret);
    LLVMPositionBuilderBefore(b, ret);
}
