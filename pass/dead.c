/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Dead handler calls: once the accumulator calls are lowered (accum.c,
 * block.c), their null tests are constants, and the inlined handler code
 * that tested them has branches nothing can take. No optimisation runs
 * after the pass, so calls in such blocks to out-of-line handler helpers
 * (GM_SLOW) would keep those helpers' bodies in the module. This erases
 * the calls to handler code in blocks unreachable from the entry when
 * branches on conditions that fold to a constant (and, or, xor, not of
 * constants) take their one live edge. The blocks themselves stay (code
 * generation drops them); nothing of the user's code changes.
 * Depends on LLVM-C (Core).
 */
#include <stdlib.h>
#include "internal.h"

/* 1 or 0 when the i1 value v folds to a constant, -1 otherwise. */
static int fold_i1(LLVMValueRef v, int depth)
{
    if (LLVMIsAConstantInt(v))
        return (int)(LLVMConstIntGetZExtValue(v) & 1);
    if (depth > 8 || !LLVMIsAInstruction(v))
        return -1;
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    if (op != LLVMAnd && op != LLVMOr && op != LLVMXor)
        return -1;
    int a = fold_i1(LLVMGetOperand(v, 0), depth + 1), b = fold_i1(LLVMGetOperand(v, 1), depth + 1);
    if (op == LLVMAnd)
        return a == 0 || b == 0 ? 0 : a == 1 && b == 1 ? 1 : -1;
    if (op == LLVMOr)
        return a == 1 || b == 1 ? 1 : a == 0 && b == 0 ? 0 : -1;
    return a < 0 || b < 0 ? -1 : a ^ b;
}

static int cmp_bb(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)*(void *const *)a, y = (uintptr_t)*(void *const *)b;
    return (x > y) - (x < y);
}

/* Marks (live[i]) the blocks of sorted bbs reachable from the entry. */
static void mark_live(LLVMValueRef f, LLVMBasicBlockRef *bbs, unsigned n, char *live)
{
    LLVMBasicBlockRef *stack = calloc(n + 1, sizeof *stack);
    if (!stack)
        abort();
    unsigned sp = 0;
    stack[sp++] = LLVMGetEntryBasicBlock(f);
    while (sp) {
        LLVMBasicBlockRef b = stack[--sp];
        LLVMBasicBlockRef *p = bsearch(&b, bbs, n, sizeof *bbs, cmp_bb);
        if (!p || live[p - bbs])
            continue;
        live[p - bbs] = 1;
        LLVMValueRef t = LLVMGetBasicBlockTerminator(b);
        unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
        int c = ns == 2 && LLVMGetInstructionOpcode(t) == LLVMBr && LLVMIsConditional(t)
                    ? fold_i1(LLVMGetCondition(t), 0) : -1;
        for (unsigned i = 0; i < ns; i++)
            if (c < 0 || (unsigned)c == 1 - i)   /* successor 0 is the true edge */
                stack[sp++] = LLVMGetSuccessor(t, i);
    }
    free(stack);
}

static void erase_calls(LLVMBasicBlockRef b)
{
    LLVMValueRef next;
    for (LLVMValueRef in = LLVMGetFirstInstruction(b); in; in = next) {
        next = LLVMGetNextInstruction(in);
        LLVMValueRef callee = LLVMIsACallInst(in) ? LLVMGetCalledValue(in) : NULL;
        if (!callee || !LLVMIsAFunction(callee) || !gm_is_handler_code(callee))
            continue;
        if (LLVMGetTypeKind(LLVMTypeOf(in)) != LLVMVoidTypeKind)
            LLVMReplaceAllUsesWith(in, LLVMGetPoison(LLVMTypeOf(in)));
        LLVMInstructionEraseFromParent(in);
    }
}

void gm_drop_dead_handler_calls(LLVMModuleRef m)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        unsigned n = LLVMIsDeclaration(f) ? 0 : LLVMCountBasicBlocks(f);
        if (n < 2)
            continue;
        LLVMBasicBlockRef *bbs = calloc(n, sizeof *bbs);
        char *live = calloc(n, 1);
        if (!bbs || !live)
            abort();
        LLVMGetBasicBlocks(f, bbs);
        qsort(bbs, n, sizeof *bbs, cmp_bb);
        mark_live(f, bbs, n, live);
        for (unsigned i = 0; i < n; i++)
            if (!live[i])
                erase_calls(bbs[i]);
        free(live);
        free(bbs);
    }
}
