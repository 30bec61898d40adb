/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Runs "function(infer-address-spaces,load-store-vectorizer)" on the device
 * module before any call is inserted, with an NVPTX target machine for the
 * module's CPU, so vector loads stay vector and provably global generic
 * pointers become global: the backend could no longer do either across the
 * inserted calls. Uninstrumented copies (clone.c) are left as they are.
 * Depends on LLVM-C (TargetMachine, Transforms/PassBuilder).
 */
#include <stdlib.h>
#include <string.h>
#include <llvm-c/Error.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include "internal.h"

static char *fn_attr(LLVMModuleRef m, const char *key)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f))
            continue;
        LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, key,
                                                           (unsigned)strlen(key));
        unsigned n = 0;
        const char *v = a ? LLVMGetStringAttributeValue(a, &n) : NULL;
        if (v)
            return gm_strdup(v, n);
    }
    return gm_strdup("", 0);
}

/* NULL when the host process has no NVPTX target registered. */
static LLVMTargetMachineRef make_tm(LLVMModuleRef m)
{
    LLVMTargetRef t = NULL;
    char *msg = NULL;
    const char *triple = LLVMGetTarget(m);
    if (LLVMGetTargetFromTriple(triple, &t, &msg)) {
        LLVMDisposeMessage(msg);
        return NULL;
    }
    char *cpu = fn_attr(m, "target-cpu"), *feat = fn_attr(m, "target-features");
    LLVMTargetMachineRef tm = LLVMCreateTargetMachine(t, triple, cpu, feat, LLVMCodeGenLevelDefault,
                                                      LLVMRelocDefault, LLVMCodeModelDefault);
    free(cpu);
    free(feat);
    return tm;
}

int gm_prepare(LLVMModuleRef m, struct gm_err *e)
{
    LLVMTargetMachineRef tm = make_tm(m);
    LLVMPassBuilderOptionsRef o = LLVMCreatePassBuilderOptions();
    LLVMErrorRef err = NULL;
    LLVMValueRef f = LLVMGetFirstFunction(m);
    while (f && !gm_is_native_copy(f))
        f = LLVMGetNextFunction(f);
    if (!f) /* no copies: the whole module at once */
        err = LLVMRunPasses(m, "function(infer-address-spaces,load-store-vectorizer)", tm, o);
    for (f = f ? LLVMGetFirstFunction(m) : NULL; f && !err; f = LLVMGetNextFunction(f))
        if (!LLVMIsDeclaration(f) && !gm_is_native_copy(f))
            err = LLVMRunPassesOnFunction(f, "infer-address-spaces,load-store-vectorizer", tm, o);
    LLVMDisposePassBuilderOptions(o);
    if (tm)
        LLVMDisposeTargetMachine(tm);
    if (err) {
        char *msg = LLVMGetErrorMessage(err);
        gm_fail(e, "preparing the module failed: %s", msg);
        LLVMDisposeErrorMessage(msg);
        return -1;
    }
    return 0;
}
