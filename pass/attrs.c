/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Function attributes that instrumentation makes untrue, mended as the
 * pass's last change to the module. clang's optimiser ran before the pass
 * and inferred them from the uninstrumented code: a device function that
 * only reads its arguments is `memory(argmem: read)` and `nosync`, and it
 * lost clang's `convergent` because it held no warp-collective operation.
 * Now it calls handlers that update gpumem's counters with atomics and use
 * the warp's mask (activemask, shuffles, bar.warp.sync). So:
 * - every function that calls a convergent function (transitively) gets
 *   `convergent`, which stops code generation from moving or merging its
 *   calls across control flow (a call that other threads reach elsewhere);
 *   the functions the pass added hold such intrinsics, so they get it too;
 * - every such function, and every call of one, loses `memory(...)` and
 *   `nosync`.
 * Uninstrumented copies (gm-native) stay as they are. Depends on LLVM-C.
 */
#include <string.h>
#include "internal.h"

static int is_convergent(LLVMValueRef f)
{
    return LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, gm_attr_kind("convergent")) != NULL;
}

/* The function a call instruction calls directly, or NULL. */
static LLVMValueRef callee_of(LLVMValueRef inst)
{
    if (!LLVMIsACallInst(inst))
        return NULL;
    LLVMValueRef c = LLVMGetCalledValue(inst);
    return c && LLVMIsAFunction(c) ? c : NULL;
}

static int calls_convergent(LLVMValueRef f)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            LLVMValueRef c = callee_of(i);
            if (c && is_convergent(c))
                return 1;
        }
    return 0;
}

static void drop_fn_attrs(LLVMValueRef f)
{
    LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, gm_attr_kind("memory"));
    LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, gm_attr_kind("nosync"));
}

/* Calls of convergent, non-intrinsic functions lose memory(...)/nosync. */
static void drop_call_attrs(LLVMValueRef f)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            LLVMValueRef c = callee_of(i);
            if (!c || LLVMGetIntrinsicID(c) || !is_convergent(c))
                continue;
            LLVMRemoveCallSiteEnumAttribute(i, LLVMAttributeFunctionIndex, gm_attr_kind("memory"));
            LLVMRemoveCallSiteEnumAttribute(i, LLVMAttributeFunctionIndex, gm_attr_kind("nosync"));
        }
}

void gm_mend_attributes(LLVMModuleRef m)
{
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    for (int changed = 1; changed;) {
        changed = 0;
        for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
            if (LLVMIsDeclaration(f) || gm_is_native_copy(f) || is_convergent(f) || !calls_convergent(f))
                continue;
            LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                                    LLVMCreateEnumAttribute(ctx, gm_attr_kind("convergent"), 0));
            changed = 1;
        }
    }
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f) || gm_is_native_copy(f) || !is_convergent(f))
            continue;
        drop_fn_attrs(f);
        drop_call_attrs(f);
    }
}
