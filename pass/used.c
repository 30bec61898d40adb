/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Edits llvm.used / llvm.compiler.used (LLVM-C has no API for them): drop
 * entries (handler functions and slot globals must be deletable), append
 * one (the site table must survive), and move both lists after every other
 * global (reproducible output: the NVPTX printer emits a global's
 * dependencies first, walking them in a pointer-hashed set, so a list
 * placed before the globals it names printed their declarations in an
 * order that changed from run to run). Depends on LLVM-C.
 */
#include <stdlib.h>
#include "internal.h"

static LLVMValueRef strip_casts(LLVMValueRef v)
{
    while (LLVMIsAConstantExpr(v) &&
           (LLVMGetConstOpcode(v) == LLVMAddrSpaceCast || LLVMGetConstOpcode(v) == LLVMBitCast))
        v = LLVMGetOperand(v, 0);
    return v;
}

static void rebuild(LLVMModuleRef m, const char *name, LLVMValueRef *elems, unsigned n)
{
    LLVMValueRef old = LLVMGetNamedGlobal(m, name);
    if (old)
        LLVMDeleteGlobal(old);
    if (!n)
        return;
    LLVMTypeRef ptr = LLVMPointerTypeInContext(LLVMGetModuleContext(m), 0);
    LLVMValueRef g = LLVMAddGlobal(m, LLVMArrayType2(ptr, n), name);
    LLVMSetInitializer(g, LLVMConstArray2(ptr, elems, n));
    LLVMSetLinkage(g, LLVMAppendingLinkage);
    LLVMSetSection(g, "llvm.metadata");
}

/* The entries of name, plus room for one more; *n receives the count. */
static LLVMValueRef *entries(LLVMModuleRef m, const char *name, unsigned *n)
{
    LLVMValueRef g = LLVMGetNamedGlobal(m, name);
    LLVMValueRef init = g && !LLVMIsDeclaration(g) ? LLVMGetInitializer(g) : NULL;
    *n = init && !LLVMIsNull(init) ? (unsigned)LLVMGetNumOperands(init) : 0;
    LLVMValueRef *v = calloc(*n + 1, sizeof *v);
    if (!v)
        abort();
    for (unsigned i = 0; i < *n; i++)
        v[i] = LLVMGetOperand(init, i);
    return v;
}

static void filter(LLVMModuleRef m, const char *name, int (*drop)(LLVMValueRef, void *), void *arg)
{
    if (!LLVMGetNamedGlobal(m, name))
        return;
    unsigned n = 0, k = 0;
    LLVMValueRef *v = entries(m, name, &n);
    for (unsigned i = 0; i < n; i++)
        if (!drop(strip_casts(v[i]), arg))
            v[k++] = v[i];
    if (k != n)
        rebuild(m, name, v, k);
    free(v);
}

void gm_used_remove(LLVMModuleRef m, int (*drop)(LLVMValueRef gv, void *arg), void *arg)
{
    filter(m, "llvm.used", drop, arg);
    filter(m, "llvm.compiler.used", drop, arg);
}

void gm_used_append(LLVMModuleRef m, LLVMValueRef gv)
{
    unsigned n = 0;
    LLVMValueRef *v = entries(m, "llvm.used", &n);
    LLVMTypeRef ptr = LLVMPointerTypeInContext(LLVMGetModuleContext(m), 0);
    v[n++] = LLVMGetPointerAddressSpace(LLVMTypeOf(gv)) ? LLVMConstAddrSpaceCast(gv, ptr) : gv;
    rebuild(m, "llvm.used", v, n);
    free(v);
}

void gm_used_move_last(LLVMModuleRef m)
{
    static const char *const names[] = {"llvm.used", "llvm.compiler.used"};
    for (int i = 0; i < 2; i++) {
        if (!LLVMGetNamedGlobal(m, names[i]))
            continue;
        unsigned n = 0;
        LLVMValueRef *v = entries(m, names[i], &n);
        rebuild(m, names[i], v, n);
        free(v);
    }
}
