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

static int is_handler_code(LLVMValueRef f)
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
            if (is_handler_code(f) && !LLVMGetFirstUse(f)) {
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

/* Marks handler code (late: the accumulator functions) always-inline. */
static void mark_inline(LLVMModuleRef m, int late)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (!is_handler_code(f) || is_late(f) != late)
            continue;
        LLVMSetLinkage(f, LLVMInternalLinkage);
        LLVMSetVisibility(f, LLVMDefaultVisibility);
        set_enum_attr(f, "noinline", 0);
        set_enum_attr(f, "optnone", 0);
        set_enum_attr(f, "alwaysinline", 1);
    }
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
        if (is_handler_code(f) && is_late(f))
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
    delete_dead(m);
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
