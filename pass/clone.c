/* SPDX-License-Identifier: Apache-2.0 */
/*
 * -gm-native-copies: before anything else changes the module, copies every
 * kernel that will be instrumented, and the device functions it reaches by
 * direct calls that will be instrumented too, into an uninstrumented twin:
 * kernel K becomes K GM_NATIVE_SUFFIX (a kernel, K's linkage, launchable by
 * name: the runtime launches it for launches it does not measure), helper f
 * an internal f GM_NATIVE_SUFFIX; calls among the copies point at copies.
 * Every copy carries the GM_NATIVE_ATTR attribute, and no later step of the
 * pass touches such functions, so a copy's code is what --gm-off would have
 * given. Depends on LLVM-C and clone_fn.cpp (llvm::CloneFunctionInto).
 */
#include <stdlib.h>
#include <string.h>
#include <llvm-c/Comdat.h>
#include "internal.h"

void gm_clone_functions(LLVMValueRef *fns, size_t n, const char *suffix, LLVMValueRef *out);

int gm_is_native_copy(LLVMValueRef f)
{
    return LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, GM_NATIVE_ATTR,
                                         (unsigned)strlen(GM_NATIVE_ATTR)) != NULL;
}

static size_t index_of(LLVMValueRef *v, size_t n, LLVMValueRef x)
{
    for (size_t i = 0; i < n; i++)
        if (v[i] == x)
            return i;
    return n;
}

/* keep[i] = 1 for the kernels among fns and what they reach by direct calls. */
static void mark(LLVMModuleRef m, LLVMValueRef *fns, size_t n, char *keep)
{
    for (size_t i = 0; i < n; i++)
        keep[i] = (char)gm_is_kernel(m, fns[i]);
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < n; i++) {
            if (!keep[i])
                continue;
            for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fns[i]); b; b = LLVMGetNextBasicBlock(b))
                for (LLVMValueRef in = LLVMGetFirstInstruction(b); in; in = LLVMGetNextInstruction(in)) {
                    if (!LLVMIsACallInst(in) && !LLVMIsAInvokeInst(in))
                        continue;
                    size_t j = index_of(fns, n, LLVMGetCalledValue(in));
                    if (j < n && !keep[j])
                        keep[j] = changed = 1;
                }
        }
    }
}

/* A kernel copy's own comdat (clang puts template instances in one). */
static void finish(LLVMModuleRef m, LLVMValueRef orig, LLVMValueRef copy)
{
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    LLVMAddAttributeAtIndex(copy, LLVMAttributeFunctionIndex,
                            LLVMCreateStringAttribute(ctx, GM_NATIVE_ATTR,
                                                      (unsigned)strlen(GM_NATIVE_ATTR), "", 0));
    if (!gm_is_kernel(m, orig)) {
        LLVMSetLinkage(copy, LLVMInternalLinkage);
        LLVMSetVisibility(copy, LLVMDefaultVisibility);
        LLVMSetComdat(copy, NULL);
        return;
    }
    LLVMComdatRef c = LLVMGetComdat(orig);
    if (c) {
        size_t len = 0;
        LLVMComdatRef own = LLVMGetOrInsertComdat(m, LLVMGetValueName2(copy, &len));
        LLVMSetComdatSelectionKind(own, LLVMGetComdatSelectionKind(c));
        LLVMSetComdat(copy, own);
    }
}

/* A module without a site keeps its kernels as they were: their copies go
 * (copies calling each other in a cycle would stay, unused and internal). */
void gm_drop_native_copies(LLVMModuleRef m)
{
    for (int changed = 1; changed;) {
        changed = 0;
        LLVMValueRef next;
        for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = next) {
            next = LLVMGetNextFunction(f);
            if (gm_is_native_copy(f) && !LLVMGetFirstUse(f)) {
                LLVMDeleteFunction(f);
                changed = 1;
            }
        }
    }
}

int gm_clone_kernels(LLVMModuleRef m, const struct gm_cfg *c)
{
    LLVMValueRef *fns = NULL;
    size_t n = 0, k = 0;
    gm_select_functions(m, c, &fns, &n);
    char *keep = calloc(n + 1, 1);
    if (!keep)
        abort();
    mark(m, fns, n, keep);
    for (size_t i = 0; i < n; i++) {
        size_t len = 0;
        const char *name = LLVMGetValueName2(fns[i], &len);
        char *twin = malloc(len + sizeof GM_NATIVE_SUFFIX);
        if (!twin)
            abort();
        memcpy(twin, name, len);
        memcpy(twin + len, GM_NATIVE_SUFFIX, sizeof GM_NATIVE_SUFFIX);
        /* a name already taken would make the copy's differ */
        if (keep[i] && !LLVMGetNamedFunction(m, twin))
            fns[k++] = fns[i];
        free(twin);
    }
    LLVMValueRef *copies = calloc(k + 1, sizeof *copies);
    if (!copies)
        abort();
    gm_clone_functions(fns, k, GM_NATIVE_SUFFIX, copies);
    for (size_t i = 0; i < k; i++)
        finish(m, fns[i], copies[i]);
    free(copies);
    free(keep);
    free(fns);
    return (int)k;
}
