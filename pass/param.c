/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kernel parameter reads (mem.c): a load from a kernel's `byval` argument
 * (a struct passed by value, such as addBiasQKV-cuda's parameter block) is
 * a read of the kernel's parameter space: `ld.param` in PTX, a constant-bank
 * operand in SASS, no global or local memory traffic (Nsight Compute counts
 * none). It is not a memory site: its call cost a handler call per field
 * read and made the backend materialise the parameter's generic address
 * (`cvta.param`) to pass it, for counts of no memory traffic. Only
 * arguments that are read and nothing else qualify: a kernel that writes
 * its argument, passes its address on or copies it as a whole gets a local
 * copy from the backend, whose accesses stay sites.
 * Depends on LLVM-C (Core).
 */
#include "internal.h"

static int is_addr_op(LLVMValueRef v)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    return op == LLVMGetElementPtr || op == LLVMBitCast || op == LLVMAddrSpaceCast;
}

/* 1 if every use of v, through address arithmetic, is a load from it. */
static int only_loaded(LLVMValueRef v, int depth)
{
    if (depth > 16) return 0;
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!LLVMIsAInstruction(user)) return 0;
        if (LLVMGetInstructionOpcode(user) == LLVMLoad) {
            if (LLVMGetVolatile(user)) return 0;
            continue;   /* a load's only operand is its address */
        }
        if (!is_addr_op(user) || LLVMGetOperand(user, 0) != v || !only_loaded(user, depth + 1)) return 0;
    }
    return 1;
}

int gm_kernel_param_read(LLVMValueRef ptr)
{
    while (LLVMIsAInstruction(ptr) && is_addr_op(ptr)) ptr = LLVMGetOperand(ptr, 0);
    if (!LLVMIsAArgument(ptr)) return 0;
    LLVMValueRef f = LLVMGetParamParent(ptr);
    unsigned i = 0, n = LLVMCountParams(f);
    while (i < n && LLVMGetParam(f, i) != ptr) i++;
    if (i == n || !gm_is_kernel(LLVMGetGlobalParent(f), f)) return 0;
    if (!LLVMGetEnumAttributeAtIndex(f, i + 1, gm_attr_kind("byval"))) return 0;
    return only_loaded(ptr, 0);
}
