/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Last step: the functions the pass added (handler helpers, out-of-line
 * copies, run loops) move in front of the user's code, each after the ones
 * it calls. NVPTX prints a forward declaration for a function called
 * before its definition (4 lines plus one per parameter); defined first,
 * it needs none (atan2-cuda: 18 of 914 embedded PTX lines). Nothing
 * else changes. Depends on LLVM-C (Core), inline.c (gm_is_handler_code)
 * and fn_move.cpp.
 */
#include <stdlib.h>
#include "internal.h"

void gm_move_function_before(LLVMValueRef f, LLVMValueRef before);

static int is_added(LLVMValueRef f)
{
    size_t n = 0;
    return !LLVMIsDeclaration(f) &&
           (gm_is_handler_code(f) || gm_starts_with(LLVMGetValueName2(f, &n), GM_OOL_PREFIX));
}

struct order { LLVMValueRef *done; size_t n, cap; LLVMValueRef at; };

static int seen(const struct order *o, LLVMValueRef f)
{
    for (size_t i = 0; i < o->n; i++)
        if (o->done[i] == f)
            return 1;
    return 0;
}

/* Moves f's added callees, then f, before o->at (post-order). */
static void place(struct order *o, LLVMValueRef f, int depth)
{
    if (o->n == o->cap) {
        o->cap = o->cap ? 2 * o->cap : 16;
        o->done = realloc(o->done, o->cap * sizeof *o->done);
        if (!o->done)
            abort();
    }
    o->done[o->n++] = f;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb && depth < 16; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
            LLVMValueRef c = LLVMIsACallInst(in) ? LLVMGetCalledValue(in) : NULL;
            if (c && LLVMIsAFunction(c) && is_added(c) && !seen(o, c))
                place(o, c, depth + 1);
        }
    gm_move_function_before(f, o->at);
}

void gm_order_functions(LLVMModuleRef m)
{
    struct order o = {NULL, 0, 0, NULL};
    LLVMValueRef f = LLVMGetFirstFunction(m);
    while (f && (LLVMIsDeclaration(f) || is_added(f)))
        f = LLVMGetNextFunction(f);
    o.at = f;   /* the first function of the user's code */
    if (!o.at)
        return;
    LLVMValueRef next;
    for (f = LLVMGetNextFunction(o.at); f; f = next) {
        next = LLVMGetNextFunction(f);
        if (is_added(f) && !seen(&o, f))
            place(&o, f, 0);
    }
    free(o.done);
}
