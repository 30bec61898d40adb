/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A kernel's accumulators while accum.c lowers its gm_accum__ calls, and
 * lacc.c's functions (accumulators in local memory) that accum.c calls.
 * Depends on LLVM-C (Core) and internal.h only.
 */
#ifndef GM_PASS_ACCUM_H
#define GM_PASS_ACCUM_H

#include "internal.h"

#define GM_ACCUM_WORDS 6   /* handler.h */

struct gm_acc { LLVMValueRef flush, slot; unsigned long long site; int index, local; };
/* A kernel's accumulators: in registers (nreg), and in local memory:
 * elements of one array lbase of lcap, for out-of-line copies, those of
 * flush function lf[j] contiguous from lfbase[j] (lfcap[j] of them,
 * lfused[j] made), so one loop per flush function flushes them. */
struct gm_kacc {
    struct gm_acc v[GM_ACCUM_MAX + GM_ACCUM_LOCAL_MAX];
    int n, nreg, lcap, nlf;
    LLVMValueRef lbase, lf[GM_OOL_ACCS];
    int lfbase[GM_OOL_ACCS], lfcap[GM_OOL_ACCS], lfused[GM_OOL_ACCS];
};

/* lacc.c: accumulators in local memory for out-of-line copies */
void gm_after_allocas(LLVMBuilderRef b, LLVMBasicBlockRef entry);
LLVMValueRef gm_lacc_slot(struct gm_kacc *k, LLVMBuilderRef b, LLVMValueRef f, LLVMTypeRef ty,
                          int i);
int gm_lacc_passed(LLVMValueRef call);
int gm_lacc_param(LLVMValueRef f, LLVMValueRef callee);
void gm_lacc_lower_in_copy(LLVMBuilderRef b, LLVMValueRef f, LLVMValueRef call, int p);
void gm_lacc_pass(const struct gm_kacc *k, LLVMValueRef call, LLVMValueRef slot);
void gm_lacc_count(struct gm_kacc *k, LLVMValueRef call, LLVMValueRef flush);
void gm_lacc_bases(struct gm_kacc *k);
LLVMValueRef gm_lacc_sites(const struct gm_kacc *k, LLVMModuleRef m);
void gm_lacc_flush_loop(const struct gm_kacc *k, LLVMBuilderRef b, LLVMValueRef f, LLVMValueRef ret,
                        LLVMValueRef sites, LLVMValueRef flush, int base, int n);

#endif /* GM_PASS_ACCUM_H */
