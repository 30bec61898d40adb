/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Loop steps for register accumulators (accum.c): for a memory site in a
 * loop whose address advances by the same loop-invariant number of bytes D
 * at every iteration, and that executes exactly once per iteration, stores
 * into the site's accumulator before the terminator of the loop's one
 * predecessor outside it ("preheader" below; it may also branch past the
 * loop): words 2,3 = D (low, high), word 4 = 0 (run mask: each loop entry
 * starts a new run), word 5 = 1 (step known). Recognised addresses:
 * pointer header phis stepped by a GEP with invariant indices, and GEPs
 * whose indices are affine in integer header phis (add/sub/mul by an
 * invariant/shl by a constant/or disjoint, through sext, zext nneg (nsw
 * chains) or zext (nuw chains)), see docs/pass.md. Every invariant in D
 * must be uniform (constants, kernel arguments, blockDim, gridDim and
 * arithmetic of them), so D is the same for every lane.
 * A site whose address is computed at most once per thread (a constant,
 * global or argument, or an instruction in a block on no CFG cycle) has
 * D = 0 for the whole kernel: word 5 = 1 right after the accumulator's
 * zeroing at kernel entry (words 2..4 stay 0).
 * The loops are LLVM's (loops.cpp: LoopInfo, CycleInfo, DominatorTree).
 * -gm-diag-no-loopinv turns it off (A/B measurements). Depends on LLVM-C
 * (Core, Target), diag.h, internal.h, calls.c (gm_prefixed_callee),
 * cycles.cpp (gm_on_cycle) and loops.cpp only.
 */
#include "diag.h"
#include "internal.h"

struct li {
    const struct gm_loops *lp;
    const struct gm_loop *l;
    LLVMBasicBlockRef h, latch, pre;
    LLVMBuilderRef b;
    LLVMTargetDataRef td;
    LLVMTypeRef i64;
    int depth;
    int dry;           /* only whether there is a step: nothing built */
};

static int invariant(const struct li *L, LLVMValueRef v)
{
    return !LLVMIsAInstruction(v) || !gm_loop_contains(L->l, LLVMGetInstructionParent(v));
}

static LLVMValueRef c64(struct li *L, long long v)
{
    return LLVMConstInt(L->i64, (unsigned long long)v, 1);
}

/* A read of blockDim or gridDim (the same in every thread of a launch). */
static int launch_dim(LLVMValueRef v)
{
    return gm_prefixed_callee(v, "llvm.nvvm.read.ptx.sreg.ntid.") ||
           gm_prefixed_callee(v, "llvm.nvvm.read.ptx.sreg.nctaid.");
}

/* v is the same for every thread of the kernel: a constant, an argument,
 * blockDim, gridDim, or casts and arithmetic of those (so D needs no test
 * across lanes). */
static int uniform(LLVMValueRef v, int depth)
{
    if (LLVMIsAConstantInt(v) || LLVMIsAArgument(v) || launch_dim(v))
        return 1;
    if (!LLVMIsAInstruction(v) || depth > 8 || !(LLVMIsABinaryOperator(v) || LLVMIsACastInst(v)))
        return 0;
    for (int i = 0, n = LLVMGetNumOperands(v); i < n; i++)
        if (!uniform(LLVMGetOperand(v, i), depth + 1))
            return 0;
    return 1;
}

/* Uniform v as i64 (sext if `need` asks for signed no-wrap, else zext). */
static LLVMValueRef to64(struct li *L, LLVMValueRef v, int need)
{
    LLVMTypeRef t = LLVMTypeOf(v);
    if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(t) > 64 || !uniform(v, 0))
        return NULL;
    if (LLVMGetIntTypeWidth(t) == 64 || L->dry)
        return v;
    return need == 2 ? LLVMBuildZExt(L->b, v, L->i64, "") : LLVMBuildSExt(L->b, v, L->i64, "");
}

/* need: 0 wraps modulo 2^64 (i64 values), 1 every step nsw, 2 every step nuw. */
static int flags_ok(LLVMValueRef in, int need)
{
    return need == 0 || (need == 1 && LLVMGetNSW(in)) || (need == 2 && LLVMGetNUW(in));
}

static LLVMValueRef delta(struct li *L, LLVMValueRef v, int need);

static LLVMValueRef bin(struct li *L, LLVMOpcode op, LLVMValueRef a, LLVMValueRef b)
{
    if (!a || !b)
        return NULL;
    if (L->dry)
        return a;
    return op == LLVMAdd ? LLVMBuildAdd(L->b, a, b, "") : op == LLVMSub ? LLVMBuildSub(L->b, a, b, "")
         : op == LLVMMul ? LLVMBuildMul(L->b, a, b, "") : LLVMBuildShl(L->b, a, b, "");
}

/* Bytes a GEP's indices add per iteration (base excluded); with step set,
 * the bytes its (invariant) indices add to the base, sign-extended. */
static LLVMValueRef gep_bytes(struct li *L, LLVMValueRef g, int step)
{
    LLVMTypeRef t = LLVMGetGEPSourceElementType(g);
    LLVMValueRef d = c64(L, 0);
    unsigned n = LLVMGetNumIndices(g);
    for (unsigned i = 0; i < n && d; i++) {
        LLVMValueRef ix = LLVMGetOperand(g, i + 1);
        if (i > 0) {
            LLVMTypeKind k = LLVMGetTypeKind(t);
            if (k == LLVMStructTypeKind) {
                if (!invariant(L, ix))
                    return NULL;
                t = LLVMStructGetTypeAtIndex(t, (unsigned)LLVMConstIntGetZExtValue(ix));
                continue;
            }
            if (k != LLVMArrayTypeKind)
                return NULL;
            t = LLVMGetElementType(t);
        }
        unsigned w = LLVMGetTypeKind(LLVMTypeOf(ix)) == LLVMIntegerTypeKind ? LLVMGetIntTypeWidth(LLVMTypeOf(ix)) : 0;
        if (!w)
            return NULL;   /* vector indices */
        LLVMValueRef di = step ? to64(L, ix, 1) : delta(L, ix, w == 64 ? 0 : 1);
        d = di ? bin(L, LLVMAdd, d, bin(L, LLVMMul, di, c64(L, (long long)LLVMABISizeOfType(L->td, t)))) : NULL;
    }
    return d;
}

/* A header phi: [init, outside], [next, latch] with next = v + s or
 * gep(v, invariant indices). */
static LLVMValueRef phi_delta(struct li *L, LLVMValueRef v, int need)
{
    if (LLVMGetInstructionParent(v) != L->h || LLVMCountIncoming(v) != 2)
        return NULL;
    unsigned k = LLVMGetIncomingBlock(v, 0) == L->latch ? 0 : 1;
    if (LLVMGetIncomingBlock(v, k) != L->latch || LLVMGetIncomingBlock(v, 1 - k) != L->pre)
        return NULL;
    LLVMValueRef nx = LLVMGetIncomingValue(v, k);
    if (LLVMIsAGetElementPtrInst(nx) && LLVMGetOperand(nx, 0) == v) {
        for (unsigned i = 1; i <= LLVMGetNumIndices(nx); i++)
            if (!invariant(L, LLVMGetOperand(nx, i)))
                return NULL;
        return gep_bytes(L, nx, 1);
    }
    if (!LLVMIsABinaryOperator(nx) || LLVMGetInstructionOpcode(nx) != LLVMAdd || !flags_ok(nx, need))
        return NULL;
    LLVMValueRef a = LLVMGetOperand(nx, 0), s = LLVMGetOperand(nx, 1);
    if (a != v)
        s = a, a = LLVMGetOperand(nx, 1);
    return a == v && invariant(L, s) ? to64(L, s, need) : NULL;
}

static LLVMValueRef inst_delta(struct li *L, LLVMValueRef v, int need)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    LLVMValueRef a = LLVMGetNumOperands(v) > 0 ? LLVMGetOperand(v, 0) : NULL;
    LLVMValueRef c = LLVMGetNumOperands(v) > 1 ? LLVMGetOperand(v, 1) : NULL;
    switch (op) {
    case LLVMPHI: return phi_delta(L, v, need);
    case LLVMGetElementPtr: return bin(L, LLVMAdd, delta(L, a, 0), gep_bytes(L, v, 0));
    case LLVMAddrSpaceCast: case LLVMBitCast: return delta(L, a, need);
    case LLVMSExt: return delta(L, a, 1);
    case LLVMZExt: return delta(L, a, LLVMGetNNeg(v) ? 1 : 2);
    case LLVMOr:
        return LLVMGetIsDisjoint(v) ? bin(L, LLVMAdd, delta(L, a, need), delta(L, c, need)) : NULL;
    case LLVMAdd: case LLVMSub:
        return flags_ok(v, need) ? bin(L, op, delta(L, a, need), delta(L, c, need)) : NULL;
    case LLVMMul:
        if (!flags_ok(v, need))
            return NULL;
        if (invariant(L, a))
            a = c, c = LLVMGetOperand(v, 0);
        return invariant(L, c) ? bin(L, LLVMMul, delta(L, a, need), to64(L, c, need)) : NULL;
    case LLVMShl:
        if (!flags_ok(v, need) || !LLVMIsAConstantInt(c))
            return NULL;
        return bin(L, LLVMShl, delta(L, a, need), c64(L, (long long)LLVMConstIntGetZExtValue(c)));
    default: return NULL;
    }
}

/* Bytes (or units) v advances per iteration, built in the preheader; NULL
 * if v is not affine in the loop's header phis. */
static LLVMValueRef delta(struct li *L, LLVMValueRef v, int need)
{
    if (!v || invariant(L, v))
        return v ? c64(L, 0) : NULL;
    if (L->depth > 32)
        return NULL;
    L->depth++;
    LLVMValueRef d = inst_delta(L, v, need);
    L->depth--;
    return d;
}

#define GM_LI_PHIS 8
/* Phis in v's operand tree (depth-limited, at most GM_LI_PHIS). */
static void find_phis(LLVMValueRef v, int depth, LLVMValueRef *out, int *n)
{
    if (!v || !LLVMIsAInstruction(v) || depth > 16 || *n == GM_LI_PHIS)
        return;
    if (LLVMIsAPHINode(v)) {
        for (int i = 0; i < *n; i++)
            if (out[i] == v)
                return;
        out[(*n)++] = v;
        return;
    }
    for (int i = 0, k = LLVMGetNumOperands(v); i < k; i++)
        find_phis(LLVMGetOperand(v, i), depth + 1, out, n);
}

/* Fills l, h, latch, pre from the loop a phi's block heads (LoopInfo),
 * if it has a unique latch and a unique predecessor outside it. */
static int loop_of(struct li *L, LLVMValueRef phi)
{
    L->h = LLVMGetInstructionParent(phi);
    L->l = gm_loop_headed(L->lp, L->h);
    if (!L->l)
        return 0;
    L->latch = gm_loop_latch(L->l);
    L->pre = gm_loop_entry(L->l);
    return L->latch && L->pre;
}

static void store_word(LLVMBuilderRef b, LLVMValueRef slot, unsigned i, LLVMValueRef v)
{
    LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(v));
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
    LLVMValueRef idx = LLVMConstInt(i32, i, 0);
    LLVMBuildStore(b, v, LLVMBuildInBoundsGEP2(b, i32, slot, &idx, 1, ""));
}

/* ptr has the same value at every execution of a site it addresses: it
 * is not an instruction, or its block runs at most once per thread. */
static int fixed_address(const struct gm_cycles *g, LLVMValueRef ptr)
{
    return !LLVMIsAInstruction(ptr) || !gm_on_cycle(g, LLVMGetInstructionParent(ptr));
}

/* Word 5 = 1 right after the entry block's zeroing store of slot. */
static int store_known_at_entry(LLVMBuilderRef b, LLVMValueRef slot)
{
    LLVMBasicBlockRef entry = LLVMGetInstructionParent(slot);
    for (LLVMValueRef in = LLVMGetFirstInstruction(entry); in; in = LLVMGetNextInstruction(in)) {
        if (!LLVMIsAStoreInst(in) || LLVMGetOperand(in, 1) != slot)
            continue;
        LLVMValueRef next = LLVMGetNextInstruction(in);
        if (next) LLVMPositionBuilderBefore(b, next);
        else LLVMPositionBuilderAtEnd(b, entry);
        LLVMSetCurrentDebugLocation2(b, NULL);
        store_word(b, slot, GM_ACCUM_STEP_KNOWN, LLVMConstInt(LLVMInt32TypeInContext(LLVMGetTypeContext(LLVMTypeOf(slot))), 1, 0));
        return 1;
    }
    return 0;
}

/* D of the site (memory instruction inst, address ptr) for the first loop
 * of a phi in its address where it is affine, built before that loop's
 * preheader terminator (nothing built if L->dry); NULL if none. */
static LLVMValueRef site_delta(struct li *L, LLVMValueRef inst, LLVMValueRef ptr)
{
    LLVMValueRef phis[GM_LI_PHIS];
    int nphi = 0;
    find_phis(ptr, 0, phis, &nphi);
    LLVMValueRef d = NULL;
    for (int i = 0; i < nphi && !d; i++) {
        if (!loop_of(L, phis[i]) || !gm_loop_once(L->lp, L->l, LLVMGetInstructionParent(inst)))
            continue;
        if (!L->dry) {
            LLVMPositionBuilderBefore(L->b, LLVMGetBasicBlockTerminator(L->pre));
            LLVMSetCurrentDebugLocation2(L->b, NULL);
        }
        d = delta(L, ptr, 0);
    }
    return d;
}

static int eligible(LLVMValueRef inst, LLVMValueRef ptr)
{
    return !gm_diag(GM_DIAG_NO_LOOPINV) && inst && ptr &&
           LLVMGetTypeKind(LLVMTypeOf(ptr)) == LLVMPointerTypeKind;
}

static struct li li_for(LLVMBuilderRef b, LLVMValueRef inst, const struct gm_loops *lp, int dry)
{
    LLVMModuleRef m = LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInstructionParent(inst)));
    return (struct li){.lp = lp, .b = b, .td = LLVMGetModuleDataLayout(m),
                       .i64 = LLVMInt64TypeInContext(LLVMGetModuleContext(m)), .dry = dry};
}

/* 1 if gm_loopinv_store would store a step for the site: its address is
 * fixed or steps by an invariant D per iteration (builds nothing). */
int gm_loopinv_has_step(LLVMValueRef inst, LLVMValueRef ptr, const struct gm_cycles *g,
                        const struct gm_loops *lp)
{
    if (!eligible(inst, ptr))
        return 0;
    if (fixed_address(g, ptr))
        return 1;
    struct li L = li_for(NULL, inst, lp, 1);
    return site_delta(&L, inst, ptr) != NULL;
}

/* 1 and the preheader stores if the site (memory instruction inst, address
 * ptr) steps by an invariant D per iteration, or 1 and the entry store if
 * its address is fixed; 0 otherwise (nothing built). */
int gm_loopinv_store(LLVMBuilderRef b, LLVMValueRef slot, LLVMValueRef inst, LLVMValueRef ptr,
                     const struct gm_cycles *g, const struct gm_loops *lp)
{
    if (!eligible(inst, ptr))
        return 0;
    if (fixed_address(g, ptr))
        return store_known_at_entry(b, slot);
    struct li L = li_for(b, inst, lp, 0);
    LLVMValueRef d = site_delta(&L, inst, ptr);
    if (d) {
        LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetTypeContext(LLVMTypeOf(slot)));
        store_word(b, slot, GM_ACCUM_STEP_D, LLVMBuildTrunc(b, d, i32, ""));
        store_word(b, slot, GM_ACCUM_STEP_D + 1, LLVMBuildTrunc(b, LLVMBuildLShr(b, d, c64(&L, 32), ""), i32, ""));
        store_word(b, slot, GM_ACCUM_STEP_RUN, LLVMConstInt(i32, 0, 0));
        store_word(b, slot, GM_ACCUM_STEP_KNOWN, LLVMConstInt(i32, 1, 0));
    }
    return d != NULL;
}
