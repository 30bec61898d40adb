/* SPDX-License-Identifier: Apache-2.0 */
/*
 * After the calls are in: makes every function that came from handler
 * bitcode internal and alwaysinline, inlines them ("always-inline") and
 * deletes the bodies nothing calls any more, so -rdc links see no handler
 * symbols. Depends on LLVM-C (Core, Transforms/PassBuilder).
 */
#include <string.h>
#include <llvm-c/Error.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include "internal.h"

int gm_is_handler_code(LLVMValueRef f)
{
    return !LLVMIsDeclaration(f) &&
           LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, GM_HANDLER_ATTR,
                                         (unsigned)strlen(GM_HANDLER_ATTR));
}

static void set_enum_attr(LLVMValueRef f, const char *name, int on)
{
    unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
    LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, kind);
    if (on)
        LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                                LLVMCreateEnumAttribute(LLVMGetTypeContext(LLVMTypeOf(f)), kind, 0));
}

static void delete_dead(LLVMModuleRef m)
{
    for (int changed = 1; changed;) {
        changed = 0;
        LLVMValueRef next;
        for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = next) {
            next = LLVMGetNextFunction(f);
            if (gm_is_handler_code(f) && !LLVMGetFirstUse(f)) {
                LLVMDeleteFunction(f);
                changed = 1;
            }
        }
    }
}

/* Functions the accumulator lowerings (accum.c, block.c) call or replace. */
static int is_late(LLVMValueRef f)
{
    return gm_accum_is_late(f) || gm_block_is_late(f);
}

static int has_enum_attr(LLVMValueRef f, const char *name)
{
    unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
    return LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, kind) != NULL;
}

/* Marks handler code (late: the accumulator functions) always-inline,
 * except the helpers a handler keeps out of line (GM_SLOW: noinline). */
static void mark_inline(LLVMModuleRef m, int late)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (!gm_is_handler_code(f) || is_late(f) != late)
            continue;
        LLVMSetLinkage(f, LLVMInternalLinkage);
        LLVMSetVisibility(f, LLVMDefaultVisibility);
        if (!late && has_enum_attr(f, "noinline"))
            continue;
        set_enum_attr(f, "noinline", 0);
        set_enum_attr(f, "optnone", 0);
        set_enum_attr(f, "alwaysinline", 1);
    }
}

int gm_is_slow_helper(LLVMValueRef f)
{
    return f && LLVMIsAFunction(f) && gm_is_handler_code(f) && !is_late(f) &&
           has_enum_attr(f, "noinline");
}

static int is_wrapper(LLVMValueRef f)
{
    size_t n = 0;
    return gm_starts_with(LLVMGetValueName2(f, &n), GM_OOL_PREFIX);
}

/* Out-of-line code (the wrappers of outline.c, GM_SLOW helpers) inlines
 * the GM_SLOW helpers it calls: one frame per call from a site, so the
 * kernel's registers grow by one callee's, not by a chain of them. (Left
 * as calls, cold helpers left warps split after the copy returned: one
 * warp execution counted twice, a program hung; H200, session 10.)
 * Returns 1 if any call was marked. */
static int mark_slow_calls(LLVMModuleRef m)
{
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    unsigned kind = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
    int any = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f) || !(is_wrapper(f) || gm_is_slow_helper(f)))
            continue;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
                LLVMValueRef c = LLVMIsACallInst(in) ? LLVMGetCalledValue(in) : NULL;
                if (!c || !gm_is_slow_helper(c))
                    continue;
                LLVMAddCallSiteAttribute(in, LLVMAttributeFunctionIndex,
                                         LLVMCreateEnumAttribute(ctx, kind, 0));
                any = 1;
            }
    }
    return any;
}

static int run_inliner(LLVMModuleRef m, struct gm_err *e)
{
    LLVMPassBuilderOptionsRef o = LLVMCreatePassBuilderOptions();
    LLVMErrorRef err = LLVMRunPasses(m, "always-inline", NULL, o);
    LLVMDisposePassBuilderOptions(o);
    if (!err)
        return 0;
    char *msg = LLVMGetErrorMessage(err);
    gm_fail(e, "inlining handlers failed: %s", msg);
    LLVMDisposeErrorMessage(msg);
    return -1;
}

/* Handlers first; then the accumulators they asked for (accum.c: registers,
 * block.c: shared memory) and the calls those lowerings added. */
int gm_handlers_inline(LLVMModuleRef m, const struct gm_sites *s, struct gm_err *e)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (gm_is_handler_code(f) && is_late(f))
            LLVMSetLinkage(f, LLVMInternalLinkage);
    mark_inline(m, 0);
    if (run_inliner(m, e) < 0)
        return -1;
    int acc = gm_accum_lower(m, s);
    if (gm_block_lower(m) | acc) {
        mark_inline(m, 1);
        if (run_inliner(m, e) < 0)
            return -1;
    }
    gm_drop_dead_handler_calls(m);
    gm_specialise_slow_calls(m);
    for (int round = 0; round < 4 && mark_slow_calls(m); round++)
        if (run_inliner(m, e) < 0)
            return -1;
    delete_dead(m);
    gm_ool_tidy(m);
    gm_ool_runs(m);
    gm_ool_merge(m);
    return 0;
}

/* Loads of __gm_nsites become the constant itself, so handler arithmetic
 * folds even though no optimisation runs after this pass. */
void gm_fold_nsites(LLVMModuleRef m)
{
    LLVMValueRef g = LLVMGetNamedGlobal(m, GM_NSITES_SYM);
    if (!g || LLVMIsDeclaration(g) || !LLVMIsGlobalConstant(g))
        return;
    LLVMValueRef init = LLVMGetInitializer(g);
    LLVMUseRef u = LLVMGetFirstUse(g), next;
    for (; u; u = next) {
        next = LLVMGetNextUse(u);
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsALoadInst(user) && LLVMTypeOf(user) == LLVMTypeOf(init)) {
            LLVMReplaceAllUsesWith(user, init);
            LLVMInstructionEraseFromParent(user);
        }
    }
}
