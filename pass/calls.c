/* SPDX-License-Identifier: Apache-2.0 */
/*
 * IR helpers shared by the lowerings that replace SDK calls (accum.c,
 * block.c) and by call insertion (insert.c): calls found by the callee's
 * name prefix, and the debug location given to inserted calls. Depends on
 * LLVM-C (Core, DebugInfo) only.
 */
#include <stdlib.h>
#include <llvm-c/DebugInfo.h>
#include "internal.h"

LLVMValueRef gm_prefixed_callee(LLVMValueRef in, const char *prefix)
{
    if (!LLVMIsACallInst(in))
        return NULL;
    LLVMValueRef c = LLVMGetCalledValue(in);
    size_t n = 0;
    if (!c || !LLVMIsAFunction(c) || !gm_starts_with(LLVMGetValueName2(c, &n), prefix))
        return NULL;
    return c;
}

size_t gm_prefixed_calls(LLVMValueRef f, const char *prefix, LLVMValueRef **out)
{
    size_t n = 0, cap = 0;
    *out = NULL;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
            if (!gm_prefixed_callee(in, prefix))
                continue;
            if (n == cap && !(*out = realloc(*out, (cap = cap ? 2 * cap : 16) * sizeof **out)))
                abort();
            (*out)[n++] = in;
        }
    return n;
}

/* Calls inlined later need a !dbg in functions that have debug info:
 * near's location, else the line of f's subprogram. */
void gm_set_loc(LLVMBuilderRef b, LLVMValueRef f, LLVMValueRef near)
{
    LLVMContextRef ctx = LLVMGetModuleContext(LLVMGetGlobalParent(f));
    LLVMMetadataRef sp = LLVMGetSubprogram(f);
    LLVMMetadataRef loc = near ? LLVMInstructionGetDebugLoc(near) : NULL;
    if (!loc && sp)
        loc = LLVMDIBuilderCreateDebugLocation(ctx, LLVMDISubprogramGetLine(sp), 0, sp, NULL);
    LLVMSetCurrentDebugLocation2(b, loc);
}
