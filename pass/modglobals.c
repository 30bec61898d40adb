/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Defines the module globals of abi.h that handlers may declare:
 * __gm_nsites (internal constant, folds after inlining) and
 * __gm_replica_mask__<modid> (__constant__ i32 = 0, written by the runtime),
 * to which the handlers' __gm_replica_mask declaration is redirected.
 * Depends on LLVM-C.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static void define_nsites(LLVMModuleRef m, uint32_t nsites)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetModuleContext(m));
    LLVMValueRef g = LLVMGetNamedGlobal(m, GM_NSITES_SYM);
    if (!g)
        g = LLVMAddGlobalInAddressSpace(m, i32, GM_NSITES_SYM, GM_SPACE_GLOBAL);
    if (LLVMGlobalGetValueType(g) != i32)
        return;
    LLVMSetInitializer(g, LLVMConstInt(i32, nsites, 0));
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMInternalLinkage);
}

static void record_module_global(struct gm_handlers *h, const char *name, const char *sym)
{
    struct gm_hglobal r = {gm_strdup(name, strlen(name)), gm_strdup(sym, strlen(sym)), 4, 0,
                           GM_GLOBAL_MODULE, NULL};
    h->globals = realloc(h->globals, (size_t)(h->nglobals + 1) * sizeof *h->globals);
    if (!h->globals)
        abort();
    h->globals[h->nglobals++] = r;
}

static void define_replica_mask(LLVMModuleRef m, uint64_t modid, struct gm_handlers *h)
{
    char sym[128];
    snprintf(sym, sizeof sym, "%s__%016llx", GM_REPLICA_MASK_SYM, (unsigned long long)modid);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetModuleContext(m));
    LLVMValueRef g = LLVMAddGlobalInAddressSpace(m, i32, sym, GM_SPACE_CONST);
    LLVMSetInitializer(g, LLVMConstInt(i32, 0, 0));
    LLVMSetExternallyInitialized(g, 1);
    LLVMSetAlignment(g, 4);
    LLVMValueRef decl = LLVMGetNamedGlobal(m, GM_REPLICA_MASK_SYM);
    if (decl && LLVMIsDeclaration(decl)) {
        LLVMTypeRef t = LLVMTypeOf(decl);
        LLVMReplaceAllUsesWith(decl, t == LLVMTypeOf(g) ? g : LLVMConstAddrSpaceCast(g, t));
        LLVMDeleteGlobal(decl);
    }
    record_module_global(h, GM_REPLICA_MASK_SYM, sym);
}

int gm_define_module_globals(LLVMModuleRef m, uint64_t modid, uint32_t nsites,
                             struct gm_handlers *h)
{
    define_nsites(m, nsites);
    define_replica_mask(m, modid, h);
    return 0;
}
