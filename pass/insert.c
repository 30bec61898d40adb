/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Inserts the handler calls for every selected site: before_mem / after_load
 * around memory operations, before_branch with the direction computed right
 * before the terminator, kernel_entry at the entry block's first instruction,
 * kernel_exit before each ret. Every handler of an event is called, in the
 * order given, each that may branch followed by a warp reconvergence
 * (call_all). Depends on
 * LLVM-C (Core, DebugInfo).
 */
#include <llvm-c/DebugInfo.h>
#include <string.h>
#include "internal.h"

struct gm_ins {
    LLVMModuleRef m;
    LLVMBuilderRef b;
    LLVMContextRef ctx;
    LLVMTargetDataRef td;
    const struct gm_handlers *h;
    int reconverge;         /* -gm-reconverge */
};

/* Declaration of an NVVM intrinsic without overloads, and its type. */
static LLVMValueRef intrinsic(struct gm_ins *x, const char *name, LLVMTypeRef *ty)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    *ty = LLVMIntrinsicGetType(x->ctx, id, NULL, 0);
    return LLVMGetIntrinsicDeclaration(x->m, id, NULL, 0);
}

/*
 * Whether a handler can leave the warp split: it has a branch or calls
 * anything but an intrinsic (the callee may branch). A straight-line
 * handler (the empty one, say) needs no reconvergence and gets none.
 */
static int may_diverge(LLVMValueRef fn)
{
    if (LLVMCountBasicBlocks(fn) != 1) return 1;
    LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn);
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
        if (LLVMGetInstructionOpcode(in) != LLVMCall) continue;
        LLVMValueRef callee = LLVMGetCalledValue(in);
        if (!LLVMIsAFunction(callee) || LLVMGetIntrinsicID(callee) == 0) return 1;
    }
    return 0;
}

/*
 * Calls every handler of the event. The lanes executing together here
 * (activemask) are made to run together again after each handler that may
 * branch (bar.warp.sync): such a handler may otherwise leave the warp split
 * under independent thread scheduling, so the next handler sees part of the
 * warp (one warp execution counted twice, measured on the H100) and the
 * program's own instruction runs less converged than without
 * instrumentation. The mask lives outside the handlers (their register
 * budget is unchanged); every lane of it reaches each sync. Off with
 * -gm-reconverge=false.
 */
static void call_all(struct gm_ins *x, enum gm_ev ev, LLVMValueRef *args, unsigned nargs)
{
    if (x->h->nfn[ev] == 0) return;
    int need = 0;
    for (int i = 0; i < x->h->nfn[ev] && x->reconverge; i++)
        need |= may_diverge(LLVMGetNamedFunction(x->m, x->h->fn[ev][i]));
    LLVMTypeRef mty = NULL, sty = NULL;
    LLVMValueRef ws = NULL, mask = NULL;
    if (need) {
        LLVMValueRef am = intrinsic(x, "llvm.nvvm.activemask", &mty);
        ws = intrinsic(x, "llvm.nvvm.bar.warp.sync", &sty);
        mask = LLVMBuildCall2(x->b, mty, am, NULL, 0, "gm.mask");
    }
    for (int i = 0; i < x->h->nfn[ev]; i++) {
        LLVMValueRef fn = LLVMGetNamedFunction(x->m, x->h->fn[ev][i]);
        LLVMBuildCall2(x->b, LLVMGlobalGetValueType(fn), fn, args, nargs, "");
        if (mask && may_diverge(fn)) LLVMBuildCall2(x->b, sty, ws, &mask, 1, "");
    }
}

/* Calls inlined later need a !dbg in functions that have debug info. */
static void set_loc(struct gm_ins *x, LLVMValueRef in)
{
    LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(in);
    LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(in));
    LLVMMetadataRef sp = LLVMGetSubprogram(fn);
    if (!loc && sp)
        loc = LLVMDIBuilderCreateDebugLocation(x->ctx, LLVMDISubprogramGetLine(sp), 0, sp, NULL);
    LLVMSetCurrentDebugLocation2(x->b, loc);
}

static LLVMValueRef i32c(struct gm_ins *x, uint32_t v)
{
    return LLVMConstInt(LLVMInt32TypeInContext(x->ctx), v, 0);
}

static void mem_calls(struct gm_ins *x, const struct gm_site_rec *r, uint32_t id)
{
    LLVMValueRef in = r->inst;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(x->ctx);
    if (r->s.when & GM_WHEN_BEFORE) {
        LLVMPositionBuilderBefore(x->b, in);
        set_loc(x, in);
        LLVMValueRef args[4] = {i32c(x, id), LLVMBuildPtrToInt(x->b, r->ptr, i64, ""),
                                i32c(x, r->s.info),
                                r->val ? gm_to_i64(x->b, r->val, x->td) : LLVMConstInt(i64, 0, 0)};
        call_all(x, GM_EV_BMEM, args, 4);
    }
    if (r->s.when & GM_WHEN_AFTER) {
        LLVMPositionBuilderBefore(x->b, LLVMGetNextInstruction(in));
        set_loc(x, in);
        LLVMValueRef args[4] = {i32c(x, id), LLVMBuildPtrToInt(x->b, r->ptr, i64, ""),
                                i32c(x, r->s.info), gm_to_i64(x->b, in, x->td)};
        call_all(x, GM_EV_ALOAD, args, 4);
    }
}

/* br: 1 if the condition is true; switch: k for the k-th case, 0 default. */
static LLVMValueRef branch_dir(struct gm_ins *x, LLVMValueRef term)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(x->ctx);
    if (LLVMGetInstructionOpcode(term) == LLVMBr)
        return LLVMBuildZExt(x->b, LLVMGetCondition(term), i32, "gm.dir");
    LLVMValueRef cond = LLVMGetOperand(term, 0);   /* LLVMGetCondition is for br only */
    LLVMValueRef dir = LLVMConstInt(i32, 0, 0);
    unsigned nsucc = LLVMGetNumSuccessors(term);
    for (unsigned k = 1; k < nsucc; k++) {
        LLVMValueRef eq = LLVMBuildICmp(x->b, LLVMIntEQ, cond, LLVMGetSwitchCaseValue(term, k), "");
        dir = LLVMBuildSelect(x->b, eq, i32c(x, k), dir, "gm.dir");
    }
    return dir;
}

static void site_calls(struct gm_ins *x, const struct gm_site_rec *r, uint32_t id)
{
    if (r->kind == GM_SK_MEM) {
        mem_calls(x, r, id);
        return;
    }
    if (r->kind == GM_SK_ASM)
        return;
    LLVMPositionBuilderBefore(x->b, r->inst);
    set_loc(x, r->inst);
    if (r->kind == GM_SK_BRANCH) {
        LLVMValueRef args[3] = {i32c(x, id), i32c(x, r->s.info), branch_dir(x, r->inst)};
        call_all(x, GM_EV_BRANCH, args, 3);
    } else {
        LLVMValueRef args[1] = {i32c(x, id)};
        call_all(x, r->kind == GM_SK_ENTRY ? GM_EV_ENTRY : GM_EV_EXIT, args, 1);
    }
}

int gm_insert_calls(LLVMModuleRef m, const struct gm_sites *s, const struct gm_handlers *h,
                    const struct gm_active *a, int reconverge, struct gm_err *e)
{
    (void)a;
    (void)e;
    struct gm_ins x = {m, NULL, LLVMGetModuleContext(m), LLVMGetModuleDataLayout(m), h,
                       reconverge};
    x.b = LLVMCreateBuilderInContext(x.ctx);
    for (size_t i = 0; i < s->n; i++)
        site_calls(&x, &s->v[i], (uint32_t)i);
    LLVMDisposeBuilder(x.b);
    return 0;
}
