/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Moves a global variable to another address space (constant -> global for
 * constdata.c): a copy in the new space takes the name, and every use of the
 * old address is rewritten, through constant expressions (address space
 * casts, GEPs, aggregate initializers) and instructions (loads, stores,
 * GEPs, casts). LLVM-C cannot drop dead constant users, so globals are
 * deleted only after replacing all uses (dead ones included) by another
 * constant. Depends on LLVM-C only.
 */
#include <stdlib.h>
#include "constdata.h"

int gm_value_live(LLVMValueRef v)
{
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsAInstruction(user) || LLVMIsAGlobalValue(user))
            return 1;
        if (LLVMIsAConstant(user) && gm_value_live(user))
            return 1;
    }
    return 0;
}

static int is_local(LLVMValueRef g)
{
    LLVMLinkage l = LLVMGetLinkage(g);
    return l == LLVMInternalLinkage || l == LLVMPrivateLinkage;
}

int gm_drop_if_dead(LLVMValueRef g)
{
    if (!is_local(g) || gm_value_live(g))
        return 0;
    LLVMReplaceAllUsesWith(g, LLVMGetPoison(LLVMTypeOf(g)));
    LLVMDeleteGlobal(g);
    return 1;
}

static int is_op(LLVMValueRef c, LLVMOpcode op)
{
    return LLVMIsAConstantExpr(c) && LLVMGetConstOpcode(c) == op;
}

/* v: a pointer into the variable. Its live users must be casts, GEPs on it
 * (recursively), loads and stores to it. */
int gm_asmove_ok(LLVMValueRef v)
{
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef x = LLVMGetUser(u);
        int base = LLVMGetNumOperands(x) > 0 && LLVMGetOperand(x, 0) == v;
        if (LLVMIsAConstant(x) && !gm_value_live(x))
            continue;
        if (is_op(x, LLVMAddrSpaceCast) || LLVMIsAAddrSpaceCastInst(x) || LLVMIsALoadInst(x))
            continue;
        if (LLVMIsAStoreInst(x) && LLVMGetOperand(x, 0) != v)
            continue;
        if (base && (is_op(x, LLVMGetElementPtr) || LLVMIsAGetElementPtrInst(x)) &&
            gm_asmove_ok(x))
            continue;
        return 0;
    }
    return 1;
}

/* The first live user of v, or NULL. */
static LLVMValueRef next_user(LLVMValueRef v)
{
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef x = LLVMGetUser(u);
        if (!LLVMIsAConstant(x) || gm_value_live(x))
            return x;
    }
    return NULL;
}

static unsigned space(LLVMValueRef v)
{
    return LLVMGetPointerAddressSpace(LLVMTypeOf(v));
}

static LLVMValueRef *gep_indices(LLVMValueRef x, unsigned *n)
{
    *n = (unsigned)LLVMGetNumOperands(x) - 1;
    LLVMValueRef *idx = malloc((*n + 1) * sizeof *idx);
    if (!idx)
        abort();
    for (unsigned i = 0; i < *n; i++)
        idx[i] = LLVMGetOperand(x, i + 1);
    return idx;
}

static void retarget(LLVMBuilderRef b, LLVMValueRef old, LLVMValueRef nw);

/* x's name, which x gives up (for the instruction that replaces it). */
static char *take_name(LLVMValueRef x)
{
    size_t n = 0;
    const char *s = LLVMGetValueName2(x, &n);
    char *r = gm_strdup(s, n);
    LLVMSetValueName2(x, "", 0);
    return r;
}

/* x: a GEP on old; the same GEP on nw, and its users retargeted. */
static void move_gep(LLVMBuilderRef b, LLVMValueRef x, LLVMValueRef old, LLVMValueRef nw)
{
    unsigned n;
    LLVMValueRef *idx = gep_indices(x, &n);
    LLVMTypeRef src = LLVMGetGEPSourceElementType(x);
    LLVMGEPNoWrapFlags fl = LLVMGEPGetNoWrapFlags(x);
    if (LLVMIsAConstant(x)) {
        LLVMValueRef g = LLVMConstGEPWithNoWrapFlags(src, nw, idx, n, fl);
        LLVMValueRef p = LLVMConstAddrSpaceCast(g, LLVMTypeOf(x));
        LLVMReplaceAllUsesWith(x, p);
        if (p != old)
            retarget(b, p, g);
    } else {
        char *name = take_name(x);
        LLVMPositionBuilderBefore(b, x);
        LLVMValueRef g = LLVMBuildGEPWithNoWrapFlags(b, src, nw, idx, n, name, fl);
        free(name);
        LLVMValueRef p = LLVMBuildAddrSpaceCast(b, g, LLVMTypeOf(x), "");
        LLVMReplaceAllUsesWith(x, p);
        LLVMInstructionEraseFromParent(x);
        retarget(b, p, g);
        LLVMInstructionEraseFromParent(p);
    }
    free(idx);
}

/* Every live use of old (space A) now uses nw (the same address in space B). */
static void retarget(LLVMBuilderRef b, LLVMValueRef old, LLVMValueRef nw)
{
    LLVMValueRef x;
    while ((x = next_user(old))) {
        if (LLVMIsALoadInst(x)) {
            LLVMSetOperand(x, 0, nw);
        } else if (LLVMIsAStoreInst(x)) {
            LLVMSetOperand(x, 1, nw);
        } else if (is_op(x, LLVMAddrSpaceCast)) {
            LLVMTypeRef t = LLVMTypeOf(x);
            LLVMReplaceAllUsesWith(x, space(x) == space(nw) ? nw : LLVMConstAddrSpaceCast(nw, t));
        } else if (LLVMIsAAddrSpaceCastInst(x)) {
            LLVMValueRef r = nw;
            if (space(x) != space(nw)) {
                char *name = take_name(x);
                LLVMPositionBuilderBefore(b, x);
                r = LLVMBuildAddrSpaceCast(b, nw, LLVMTypeOf(x), name);
                free(name);
            }
            LLVMReplaceAllUsesWith(x, r);
            LLVMInstructionEraseFromParent(x);
        } else if (LLVMIsAGetElementPtrInst(x) || is_op(x, LLVMGetElementPtr)) {
            move_gep(b, x, old, nw);
        } else {
            break; /* not reached: gm_asmove_ok accepted every use */
        }
    }
}

static void copy_metadata(LLVMValueRef from, LLVMValueRef to)
{
    size_t n = 0;
    LLVMValueMetadataEntry *md = LLVMGlobalCopyAllMetadata(from, &n);
    for (size_t i = 0; i < n; i++)
        LLVMGlobalSetMetadata(to, LLVMValueMetadataEntriesGetKind(md, (unsigned)i),
                              LLVMValueMetadataEntriesGetMetadata(md, (unsigned)i));
    if (md)
        LLVMDisposeValueMetadataEntries(md);
}

static LLVMValueRef copy_global(LLVMModuleRef m, LLVMValueRef g, unsigned as)
{
    size_t n = 0;
    const char *old = LLVMGetValueName2(g, &n);
    char *name = gm_strdup(old, n);
    LLVMSetValueName2(g, "", 0);
    LLVMValueRef c = LLVMAddGlobalInAddressSpace(m, LLVMGlobalGetValueType(g), name, as);
    free(name);
    LLVMSetInitializer(c, LLVMGetInitializer(g));
    LLVMSetGlobalConstant(c, LLVMIsGlobalConstant(g));
    LLVMSetLinkage(c, LLVMGetLinkage(g));
    LLVMSetVisibility(c, LLVMGetVisibility(g));
    LLVMSetUnnamedAddress(c, LLVMGetUnnamedAddress(g));
    LLVMSetExternallyInitialized(c, LLVMIsExternallyInitialized(g));
    LLVMSetAlignment(c, LLVMGetAlignment(g));
    if (LLVMGetSection(g))
        LLVMSetSection(c, LLVMGetSection(g));
    copy_metadata(g, c);
    return c;
}

LLVMValueRef gm_asmove(LLVMModuleRef m, LLVMValueRef g, unsigned as)
{
    LLVMValueRef c = copy_global(m, g, as);
    /* g's uses move to a placeholder (c cast to g's space), then each live
     * user of the placeholder is rewritten to use c itself. */
    LLVMValueRef p = LLVMConstAddrSpaceCast(c, LLVMTypeOf(g));
    LLVMReplaceAllUsesWith(g, p);
    LLVMDeleteGlobal(g);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    retarget(b, p, c);
    LLVMDisposeBuilder(b);
    return c;
}
