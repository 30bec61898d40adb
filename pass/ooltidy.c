/* SPDX-License-Identifier: Apache-2.0 */
/*
 * After the handlers are inlined into the out-of-line copies (outline.c,
 * gm_ool__*): drops the parameters a copy no longer reads (a store's value
 * once the handlers are specialised for a non-intrinsic access: two PTX
 * lines per call), then merges copies whose code came out the same (a
 * load's copy and a store's of the same space and width, once the value is
 * gone). The rewriting of a copy's signature and its calls
 * (gm_ool_move_body, gm_ool_recall) serves oolmerge.c as well. Depends on
 * LLVM-C (Core, DebugInfo).
 */
#include <stdlib.h>
#include <string.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Error.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include "internal.h"

#define GM_OOL_CLEAN "dce"

static int is_copy(LLVMValueRef f)
{
    size_t n = 0;
    return !LLVMIsDeclaration(f) && gm_starts_with(LLVMGetValueName2(f, &n), GM_OOL_PREFIX);
}

void gm_ool_recall(LLVMValueRef old, LLVMValueRef nf, const int *live, LLVMValueRef *extra,
                   unsigned nextra)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(nf)));
    LLVMValueRef *a = malloc((LLVMCountParams(nf) + 1) * sizeof *a);
    LLVMUseRef u;
    if (!a)
        abort();
    while ((u = LLVMGetFirstUse(old))) {
        LLVMValueRef call = LLVMGetUser(u);
        if (!LLVMIsACallInst(call) || LLVMGetCalledValue(call) != old)
            abort(); /* only the pass calls copies, and only directly */
        unsigned n = (unsigned)LLVMGetNumArgOperands(call), k = 0;
        for (unsigned i = 0; i < n; i++)
            if (!live || live[i])
                a[k++] = LLVMGetOperand(call, i);
        for (unsigned i = 0; i < nextra; i++)
            a[k++] = extra[i];
        LLVMPositionBuilderBefore(b, call);
        LLVMValueRef c = LLVMBuildCall2(b, LLVMGlobalGetValueType(nf), nf, a, k, "");
        LLVMInstructionSetDebugLoc(c, LLVMInstructionGetDebugLoc(call));
        if (LLVMGetTypeKind(LLVMTypeOf(call)) != LLVMVoidTypeKind)
            LLVMReplaceAllUsesWith(call, c); /* a slow copy's run */
        LLVMInstructionEraseFromParent(call);
    }
    free(a);
    LLVMDisposeBuilder(b);
}

LLVMValueRef gm_ool_move_body(LLVMModuleRef m, LLVMValueRef f, LLVMTypeRef *t, unsigned n)
{
    LLVMTypeRef ft = LLVMGlobalGetValueType(f);
    LLVMValueRef nf = LLVMAddFunction(m, "", LLVMFunctionType(LLVMGetReturnType(ft), t, n, 0));
    LLVMSetLinkage(nf, LLVMGetLinkage(f));
    unsigned na = LLVMGetAttributeCountAtIndex(f, LLVMAttributeFunctionIndex);
    LLVMAttributeRef *attrs = malloc((na ? na : 1) * sizeof *attrs);
    if (!attrs)
        abort();
    LLVMGetAttributesAtIndex(f, LLVMAttributeFunctionIndex, attrs);
    for (unsigned i = 0; i < na; i++)
        LLVMAddAttributeAtIndex(nf, LLVMAttributeFunctionIndex, attrs[i]);
    free(attrs);
    LLVMMetadataRef sp = LLVMGetSubprogram(f);
    if (sp) {
        LLVMSetSubprogram(f, NULL);
        LLVMSetSubprogram(nf, sp);
    }
    LLVMBasicBlockRef bb;
    while ((bb = LLVMGetFirstBasicBlock(f))) {
        LLVMRemoveBasicBlockFromParent(bb);
        LLVMAppendExistingBasicBlock(nf, bb);
    }
    return nf;
}

void gm_ool_take_name(LLVMValueRef nf, LLVMValueRef f)
{
    size_t n = 0;
    const char *old = LLVMGetValueName2(f, &n);
    char *name = gm_strdup(old, n);
    LLVMSetValueName2(f, "", 0);
    LLVMSetValueName2(nf, name, n);
    free(name);
}

/* Dead code the inlining left (e.g. what only a memory intrinsic's
 * length needed): removed, so the parameters it read become unread. */
static void clean(LLVMValueRef f)
{
    LLVMPassBuilderOptionsRef o = LLVMCreatePassBuilderOptions();
    LLVMErrorRef err = LLVMRunPassesOnFunction(f, GM_OOL_CLEAN, NULL, o);
    LLVMDisposePassBuilderOptions(o);
    if (err)
        LLVMConsumeError(err); /* the copy stays as it is: correct, larger */
}

/* Copy f without its unread parameters (f itself when all are read). */
static LLVMValueRef drop_dead_params(LLVMModuleRef m, LLVMValueRef f)
{
    unsigned np = LLVMCountParams(f), k = 0;
    int live[8];
    LLVMTypeRef t[8];
    if (np > 8)
        return f;
    for (unsigned i = 0; i < np; i++) {
        LLVMValueRef p = LLVMGetParam(f, i);
        live[i] = LLVMGetFirstUse(p) != NULL;
        if (live[i])
            t[k++] = LLVMTypeOf(p);
    }
    if (k == np)
        return f;
    LLVMValueRef nf = gm_ool_move_body(m, f, t, k);
    for (unsigned i = 0, j = 0; i < np; i++)
        if (live[i])
            LLVMReplaceAllUsesWith(LLVMGetParam(f, i), LLVMGetParam(nf, j++));
    gm_ool_recall(f, nf, live, NULL, 0);
    gm_ool_take_name(nf, f);
    LLVMDeleteFunction(f);
    return nf;
}

/* The copy's IR text without its name: equal texts, equal code. */
char *gm_ool_body_text(LLVMValueRef f)
{
    char *s = LLVMPrintValueToString(f);
    size_t n = 0;
    const char *name = LLVMGetValueName2(f, &n);
    char *at = strstr(s, name);
    if (at)
        memmove(at, at + n, strlen(at + n) + 1);
    char *r = gm_strdup(s, strlen(s));
    LLVMDisposeMessage(s);
    return r;
}

struct copy { LLVMValueRef f; char *text; size_t order; };

static int by_text(const void *a, const void *b)
{
    const struct copy *x = a, *y = b;
    int c = strcmp(x->text, y->text);
    return c ? c : (x->order > y->order) - (x->order < y->order);
}

/* Out-of-line copies of m in module order. */
static struct copy *list_copies(LLVMModuleRef m, size_t *n)
{
    size_t cap = 0;
    struct copy *c = NULL;
    *n = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (!is_copy(f))
            continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 16;
            c = realloc(c, cap * sizeof *c);
            if (!c)
                abort();
        }
        c[*n].f = f, c[*n].text = NULL, c[*n].order = *n;
        ++*n;
    }
    return c;
}

void gm_ool_tidy(LLVMModuleRef m)
{
    size_t n = 0;
    struct copy *c = list_copies(m, &n);
    for (size_t i = 0; i < n; i++) {
        clean(c[i].f);
        c[i].f = drop_dead_params(m, c[i].f);
        c[i].text = gm_ool_body_text(c[i].f);
    }
    if (n > 1)
        qsort(c, n, sizeof *c, by_text);
    for (size_t i = 1, keep = 0; i < n; i++) {
        if (strcmp(c[i].text, c[keep].text) != 0) {
            keep = i;
            continue;
        }
        LLVMReplaceAllUsesWith(c[i].f, c[keep].f);
        LLVMDeleteFunction(c[i].f);
    }
    for (size_t i = 0; i < n; i++)
        free(c[i].text);
    free(c);
}
