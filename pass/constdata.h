/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Constant data placement (constdata.c, asmove.c): clang gives namespace-
 * scope const variables an implicit __constant__ (SemaCUDA's
 * MaybeAddConstantAttr), nvcc keeps __device__ const in global memory; over
 * ptxas's 64 KiB of constant data the pass moves implicit ones to global
 * memory. Depends on LLVM-C and internal.h.
 */
#ifndef GM_PASS_CONSTDATA_H
#define GM_PASS_CONSTDATA_H

#include "internal.h"

/* ptxas: "File uses too much global constant data (0x... bytes, 0x10000 max)". */
#define GM_CONST_LIMIT 65536u
/* The annotation gpumem_nvcc_compat.h puts on the program's own __constant__. */
#define GM_CONST_MARK "gpumem.constant"

/* Bytes of constant data (address space 4) the module defines, laid out in
 * module order with each variable's alignment. */
uint64_t gm_constdata_bytes(LLVMModuleRef m);
/* Upper bound of the constant data the handlers h (NULL: none) add. */
uint64_t gm_constdata_reserve(const struct gm_handlers *h);
/* Reads and removes the marks, then, if the module's constant data plus
 * reserve exceeds GM_CONST_LIMIT, moves unmarked internal constant
 * variables, largest first, to global memory until it fits. Returns 1 if m
 * changed, 0 if not, -1 with a one-line message when it cannot fit because
 * of an implicit variable it may not move. */
int gm_constdata_fit(LLVMModuleRef m, uint64_t reserve, struct gm_err *e);

/* asmove.c: 1 if every use of constant variable g can be rewritten for
 * another address space (loads, stores to it, address arithmetic, address
 * space casts, through constants and instructions). */
int gm_asmove_ok(LLVMValueRef g);
/* Replaces g by a copy in address space as (same name, initializer,
 * linkage, alignment, metadata), rewriting every use; g is deleted. */
LLVMValueRef gm_asmove(LLVMModuleRef m, LLVMValueRef g, unsigned as);
/* 1 if some instruction or global initializer uses v (through constants). */
int gm_value_live(LLVMValueRef v);
/* Deletes global g if it has local linkage and nothing live uses it. */
int gm_drop_if_dead(LLVMValueRef g);

#endif
