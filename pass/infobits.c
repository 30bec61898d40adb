/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Which bits of an argument a handler can read (its "demanded" bits), from
 * the handler's IR: the uses of the argument through bitwise operations
 * with constants, constant shifts, truncations and extensions, selects and
 * phis, and calls of other handler code (followed into the callee); any
 * other use reads every bit. Out-of-line copies (outline.c) are made per
 * info word with only these bits kept, so sites whose info words differ in
 * bits no handler reads (a load and a store of the same space and width for
 * the coalescing analysis) share one copy. Depends on LLVM-C (Core) and
 * inline.c (gm_is_handler_code).
 */
#include "internal.h"

/* Work bound: past it every bit counts as read. */
#define GM_DEMAND_STEPS 20000
#define GM_DEMAND_DEPTH 24

struct demand { unsigned steps; };

static uint64_t value_bits(LLVMValueRef v);
static uint64_t demanded(struct demand *d, LLVMValueRef v, int depth);

/* Mask of v's width (64 bits for wider or non-integer values). */
static uint64_t value_bits(LLVMValueRef v)
{
    LLVMTypeRef t = LLVMTypeOf(v);
    if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind)
        return ~0ull;
    unsigned w = LLVMGetIntTypeWidth(t);
    return w >= 64 ? ~0ull : (1ull << w) - 1;
}

/* Constant int operand i of user, or -1 (not a constant that fits). */
static int64_t const_operand(LLVMValueRef user, unsigned i, uint64_t *out)
{
    LLVMValueRef c = LLVMGetOperand(user, i);
    if (!LLVMIsAConstantInt(c) || LLVMGetIntTypeWidth(LLVMTypeOf(c)) > 64)
        return -1;
    *out = LLVMConstIntGetZExtValue(c);
    return 0;
}

/* Bits at or below the highest bit of m (carries of add, sub, mul only
 * move upward). */
static uint64_t upto_msb(uint64_t m)
{
    if (!m)
        return 0;
    int b = 63 - __builtin_clzll(m);
    return b >= 63 ? ~0ull : (2ull << b) - 1;
}

/* Bits of v (operand i of user) that user's result can depend on, given
 * the bits of the result that are read. */
static uint64_t through(struct demand *d, LLVMValueRef user, LLVMValueRef v, unsigned i, int depth)
{
    uint64_t c = 0;
    LLVMOpcode op = LLVMGetInstructionOpcode(user);
    switch (op) {
    case LLVMAnd:
        if (const_operand(user, 1 - i, &c) == 0)
            return c & demanded(d, user, depth + 1);
        return demanded(d, user, depth + 1);
    case LLVMOr:
    case LLVMXor:
    case LLVMFreeze:
        return demanded(d, user, depth + 1);
    case LLVMSelect:
        return i == 0 ? ~0ull : demanded(d, user, depth + 1);
    case LLVMPHI:
        return demanded(d, user, depth + 1);
    case LLVMLShr:
        if (i == 0 && const_operand(user, 1, &c) == 0 && c < 64)
            return demanded(d, user, depth + 1) << c;
        return ~0ull;
    case LLVMShl:
        if (i == 0 && const_operand(user, 1, &c) == 0 && c < 64)
            return demanded(d, user, depth + 1) >> c;
        return ~0ull;
    case LLVMTrunc:
        return demanded(d, user, depth + 1) & value_bits(user);
    case LLVMZExt:
        return demanded(d, user, depth + 1) & value_bits(v);
    case LLVMAdd:
    case LLVMSub:
    case LLVMMul:
        return upto_msb(demanded(d, user, depth + 1));
    case LLVMCall: {
        LLVMValueRef f = LLVMGetCalledValue(user);
        if (!f || !LLVMIsAFunction(f) || !gm_is_handler_code(f) || i >= LLVMCountParams(f))
            return ~0ull;
        return demanded(d, LLVMGetParam(f, i), depth + 1);
    }
    default:
        return ~0ull;
    }
}

/* Bits of v that some use of it reads. */
static uint64_t demanded(struct demand *d, LLVMValueRef v, int depth)
{
    if (depth > GM_DEMAND_DEPTH || ++d->steps > GM_DEMAND_STEPS)
        return ~0ull;
    uint64_t r = 0, all = value_bits(v);
    for (LLVMUseRef u = LLVMGetFirstUse(v); u && (r & all) != all; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!LLVMIsAInstruction(user)) {
            r = ~0ull;
            break;
        }
        int n = LLVMGetNumOperands(user);
        for (int i = 0; i < n; i++)
            if (LLVMGetOperand(user, (unsigned)i) == v)
                r |= through(d, user, v, (unsigned)i, depth);
    }
    return r & all;
}

uint64_t gm_demanded_arg_bits(LLVMValueRef f, unsigned i)
{
    if (!f || LLVMIsDeclaration(f) || i >= LLVMCountParams(f))
        return ~0ull;
    struct demand d = {0};
    return demanded(&d, LLVMGetParam(f, i), 0);
}
