/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Out-of-line copies (gm_ool__*) that differ only in a few integer
 * constants become one: the coalescing copies of a 4-byte and an 8-byte
 * global access differ only in values derived from the width. For a copy A
 * and the later copies whose code has A's shape (same opcodes and types,
 * block by block) and differs from it only in constant operands that may
 * be run-time values (operands of arithmetic, compares, casts, selects,
 * phis, stores and calls, never an immarg), those operands (at most
 * GM_MERGE_PARAMS positions) become parameters that every call passes as
 * its copy's constants; copies whose IR text is then A's are merged into
 * A, the others get their constants back. Done only where it saves code:
 * a parameter costs about two PTX lines per call, a copy is about its
 * instruction count. Depends on LLVM-C (Core) and ooltidy.c.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define GM_MERGE_PARAMS 3
#define GM_MERGE_MAX 64   /* copies considered */

struct pos { unsigned bb, in, op; };

static int is_copy(LLVMValueRef f)
{
    size_t n = 0;
    return !LLVMIsDeclaration(f) && gm_starts_with(LLVMGetValueName2(f, &n), GM_OOL_PREFIX);
}

static unsigned count_insts(LLVMValueRef f)
{
    unsigned n = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
            n++;
    return n;
}

static unsigned count_calls(LLVMValueRef f)
{
    unsigned n = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u))
        n++;
    return n;
}

static LLVMValueRef inst_at(LLVMValueRef f, const struct pos *p)
{
    LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f);
    for (unsigned i = 0; bb && i < p->bb; i++)
        bb = LLVMGetNextBasicBlock(bb);
    LLVMValueRef in = bb ? LLVMGetFirstInstruction(bb) : NULL;
    for (unsigned i = 0; in && i < p->in; i++)
        in = LLVMGetNextInstruction(in);
    return in;
}

/* Whether operand op of in may be a run-time value instead of a constant. */
static int parametrisable(LLVMValueRef in, unsigned op)
{
    if (LLVMIsABinaryOperator(in) || LLVMIsAICmpInst(in) || LLVMIsAPHINode(in) ||
        LLVMIsAReturnInst(in))
        return 1;
    if (LLVMIsACastInst(in) || LLVMIsAStoreInst(in))
        return op == 0;
    if (LLVMIsASelectInst(in))
        return op > 0;
    if (!LLVMIsACallInst(in))
        return 0;
    LLVMValueRef fn = LLVMGetCalledValue(in);
    if (!fn || !LLVMIsAFunction(fn) || op >= LLVMCountParams(fn))
        return 0;
    unsigned kind = LLVMGetEnumAttributeKindForName("immarg", 6);
    return !LLVMGetEnumAttributeAtIndex(fn, op + 1, kind) &&
           !LLVMGetCallSiteEnumAttribute(in, op + 1, kind);
}

static int add_pos(struct pos *p, unsigned *np, struct pos q)
{
    for (unsigned i = 0; i < *np; i++)
        if (p[i].bb == q.bb && p[i].in == q.in && p[i].op == q.op)
            return 1;
    if (*np == GM_MERGE_PARAMS)
        return 0;
    p[(*np)++] = q;
    return 1;
}

/* Whether b has a's shape; the positions where their constants differ are
 * added to p (0 when they differ otherwise, or in too many places). Other
 * operand differences are left to the text comparison. */
static int same_shape(LLVMValueRef a, LLVMValueRef b, struct pos *p, unsigned *np)
{
    if (LLVMGlobalGetValueType(a) != LLVMGlobalGetValueType(b))
        return 0;
    LLVMBasicBlockRef ba = LLVMGetFirstBasicBlock(a), bb = LLVMGetFirstBasicBlock(b);
    for (unsigned k = 0; ba && bb; ba = LLVMGetNextBasicBlock(ba), bb = LLVMGetNextBasicBlock(bb), k++) {
        LLVMValueRef x = LLVMGetFirstInstruction(ba), y = LLVMGetFirstInstruction(bb);
        for (unsigned i = 0; x && y; x = LLVMGetNextInstruction(x), y = LLVMGetNextInstruction(y), i++) {
            int n = LLVMGetNumOperands(x);
            if (LLVMGetInstructionOpcode(x) != LLVMGetInstructionOpcode(y) ||
                LLVMTypeOf(x) != LLVMTypeOf(y) || n != LLVMGetNumOperands(y))
                return 0;
            for (int o = 0; o < n; o++) {
                LLVMValueRef u = LLVMGetOperand(x, (unsigned)o), v = LLVMGetOperand(y, (unsigned)o);
                if (u == v)
                    continue;
                if (!LLVMIsAConstantInt(u) && !LLVMIsAConstantInt(v))
                    continue; /* corresponding values: the text comparison tells */
                if (!LLVMIsAConstantInt(u) || !LLVMIsAConstantInt(v))
                    return 0;
                struct pos q = {k, i, (unsigned)o};
                if (LLVMTypeOf(u) != LLVMTypeOf(v) || !parametrisable(x, (unsigned)o) ||
                    !add_pos(p, np, q))
                    return 0;
            }
        }
        if (x || y)
            return 0;
    }
    return !ba && !bb;
}

/* f with its constants at p[0..np) as new trailing parameters. */
static LLVMValueRef parametrise(LLVMModuleRef m, LLVMValueRef f, const struct pos *p, unsigned np)
{
    int live[GM_OOL_MAXP];
    LLVMValueRef x[GM_MERGE_PARAMS], in[GM_MERGE_PARAMS];
    unsigned n = LLVMCountParams(f);
    for (unsigned i = 0; i < n; i++)
        live[i] = 1;
    for (unsigned k = 0; k < np; k++) {
        in[k] = inst_at(f, &p[k]);
        x[k] = LLVMGetOperand(in[k], p[k].op);
    }
    f = gm_ool_rebuild(m, f, live, x, np);
    for (unsigned k = 0; k < np; k++)
        LLVMSetOperand(in[k], p[k].op, LLVMGetParam(f, n + k));
    return f;
}

/* Undoes parametrise: the parameters become their constants again. */
static LLVMValueRef restore(LLVMModuleRef m, LLVMValueRef f, unsigned np)
{
    LLVMUseRef u = LLVMGetFirstUse(f);
    LLVMValueRef call = u ? LLVMGetUser(u) : NULL;
    unsigned n = LLVMCountParams(f);
    for (unsigned k = 0; call && k < np; k++)
        LLVMReplaceAllUsesWith(LLVMGetParam(f, n - np + k), LLVMGetOperand(call, n - np + k));
    return gm_ool_drop_dead_params(m, f);
}

/* Copies g[1..n) into g[0] where they differ only at p's constants. */
static void merge_group(LLVMModuleRef m, LLVMValueRef *g, unsigned n, const struct pos *p,
                        unsigned np)
{
    for (unsigned i = 0; i < n; i++)
        g[i] = parametrise(m, g[i], p, np);
    char *t0 = gm_ool_body_text(g[0]);
    for (unsigned i = 1; i < n; i++) {
        char *t = gm_ool_body_text(g[i]);
        if (!strcmp(t, t0)) {
            LLVMReplaceAllUsesWith(g[i], g[0]);
            LLVMDeleteFunction(g[i]);
            g[i] = NULL;
        } else {
            g[i] = restore(m, g[i], np);
        }
        free(t);
    }
    free(t0);
}

void gm_ool_merge_constants(LLVMModuleRef m)
{
    LLVMValueRef c[GM_MERGE_MAX];
    unsigned n = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f && n < GM_MERGE_MAX; f = LLVMGetNextFunction(f))
        if (is_copy(f) && LLVMCountParams(f) + GM_MERGE_PARAMS <= GM_OOL_MAXP)
            c[n++] = f;
    for (unsigned a = 0; a < n; a++) {
        if (!c[a])
            continue;
        LLVMValueRef g[GM_MERGE_MAX];
        unsigned ng = 0, np = 0, idx[GM_MERGE_MAX];
        struct pos p[GM_MERGE_PARAMS];
        unsigned long calls = count_calls(c[a]), saved = 0;
        g[ng] = c[a], idx[ng++] = a;
        for (unsigned b = a + 1; b < n; b++) {
            struct pos q[GM_MERGE_PARAMS];
            unsigned nq = np;
            memcpy(q, p, sizeof p);
            if (!c[b] || !same_shape(c[a], c[b], q, &nq))
                continue;
            memcpy(p, q, sizeof p), np = nq;
            calls += count_calls(c[b]);
            saved += count_insts(c[b]);
            g[ng] = c[b], idx[ng++] = b;
        }
        if (ng < 2 || !np || 2ul * np * calls >= saved)
            continue;
        merge_group(m, g, ng, p, np);
        for (unsigned i = 0; i < ng; i++)
            c[idx[i]] = i ? NULL : g[0];
    }
}
