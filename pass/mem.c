/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Memory sites: classifies one instruction (load, store, atomicrmw, cmpxchg,
 * masked load / store, NVVM atomic / ldg / ldu intrinsics, memcpy / memmove /
 * memset) and records its site(s) with the info word of abi.h; reads of a
 * kernel's by-value parameter are none (param.c). Depends on LLVM-C.
 */
#include <string.h>
#include "internal.h"

struct gm_access {
    LLVMValueRef ptr, val;     /* address; value for before_mem or NULL */
    LLVMTypeRef ty;            /* accessed type (NULL for memory intrinsics) */
    uint32_t flags;            /* GM_INFO_LOAD/STORE/ATOMIC/MEMINTR/NC/VOLATILE */
    int after_ok;              /* a load whose value an after_load call can see */
};

static uint32_t access_info(const struct gm_access *x, LLVMTargetDataRef td)
{
    uint32_t as = LLVMGetPointerAddressSpace(LLVMTypeOf(x->ptr));
    uint32_t info = x->flags | ((as & 0xffu) << GM_INFO_SPACE_SHIFT);
    if (x->ty) {
        unsigned long long w = LLVMStoreSizeOfType(td, x->ty);
        info |= (uint32_t)(w & GM_INFO_WIDTH_MASK);
        if (w > 8)
            info |= GM_INFO_VALUE_TRUNC;
        LLVMTypeKind k = LLVMGetTypeKind(x->ty);
        if (k == LLVMVectorTypeKind || k == LLVMScalableVectorTypeKind)
            info |= GM_INFO_VECTOR;
    } else if (LLVMIsAConstantInt(x->val) && LLVMConstIntGetZExtValue(x->val) <= GM_INFO_WIDTH_MASK) {
        info |= (uint32_t)LLVMConstIntGetZExtValue(x->val);
    }
    return info;
}

static void record(struct gm_sites *s, struct gm_site_rec *r, const struct gm_access *x,
                   LLVMTargetDataRef td, const struct gm_active *a)
{
    uint8_t when = 0;
    if (a->ev[GM_EV_BMEM])
        when |= GM_WHEN_BEFORE;
    if (a->ev[GM_EV_ALOAD] && x->after_ok)
        when |= GM_WHEN_AFTER;
    if (!when)
        return;
    r->kind = GM_SK_MEM;
    r->ptr = x->ptr;
    r->val = x->val;
    r->s.event = GM_EVENT_MEM;
    r->s.info = access_info(x, td);
    r->s.space = (uint8_t)GM_INFO_SPACE(r->s.info);
    r->s.when = when;
    gm_site_push(s, r);
}

static int is_volatile_flag(LLVMValueRef v)
{
    return LLVMIsAConstantInt(v) && LLVMGetIntTypeWidth(LLVMTypeOf(v)) == 1 &&
           LLVMConstIntGetZExtValue(v);
}

/* memcpy/memmove: a load site (source) then a store site (destination). */
static void memintr_sites(struct gm_sites *s, struct gm_site_rec *r, LLVMValueRef in,
                          int is_set, LLVMTargetDataRef td, const struct gm_active *a)
{
    uint32_t vol = is_volatile_flag(LLVMGetOperand(in, 3)) ? GM_INFO_VOLATILE : 0;
    LLVMValueRef len = LLVMGetOperand(in, 2);
    if (!is_set) {
        struct gm_access src = {LLVMGetOperand(in, 1), len, NULL, GM_INFO_LOAD | GM_INFO_MEMINTR | vol, 0};
        record(s, r, &src, td, a);
    }
    struct gm_access dst = {LLVMGetOperand(in, 0), len, NULL, GM_INFO_STORE | GM_INFO_MEMINTR | vol, 0};
    record(s, r, &dst, td, a);
}

/* NVVM intrinsics and memory intrinsics, by name. Returns 1 if handled. */
static int call_sites(struct gm_sites *s, struct gm_site_rec *r, LLVMValueRef in,
                      LLVMTargetDataRef td, const struct gm_active *a)
{
    LLVMValueRef callee = LLVMGetCalledValue(in);
    if (!LLVMIsAFunction(callee))
        return 0;
    size_t n = 0;
    const char *name = LLVMGetValueName2(callee, &n);
    if (gm_starts_with(name, "llvm.memcpy.") || gm_starts_with(name, "llvm.memmove.") ||
        gm_starts_with(name, "llvm.memset.")) {
        memintr_sites(s, r, in, gm_starts_with(name, "llvm.memset."), td, a);
        return 1;
    }
    struct gm_access x = {LLVMGetOperand(in, 0), NULL, LLVMTypeOf(in), 0, 0};
    if (gm_starts_with(name, "llvm.masked.load.")) {
        /* (ptr, mask, passthru): the load-store vectorizer's load with a gap,
         * one vector load in PTX (ld.global.v4 of all its bytes) */
        x.flags = GM_INFO_LOAD;
        x.after_ok = 1;
    } else if (gm_starts_with(name, "llvm.masked.store.")) {
        /* (value, ptr, mask) */
        LLVMValueRef v = LLVMGetOperand(in, 0);
        x = (struct gm_access){LLVMGetOperand(in, 1), v, LLVMTypeOf(v), GM_INFO_STORE, 0};
    } else if (gm_starts_with(name, "llvm.nvvm.atomic.")) {
        x.val = LLVMGetOperand(in, strstr(name, ".cas.") ? 2 : 1);
        x.flags = GM_INFO_LOAD | GM_INFO_STORE | GM_INFO_ATOMIC;
    } else if (gm_starts_with(name, "llvm.nvvm.ldu.global.") ||
               gm_starts_with(name, "llvm.nvvm.ldg.global.")) {
        x.flags = GM_INFO_LOAD | GM_INFO_NC;
        x.after_ok = 1;
    } else {
        return 0;
    }
    record(s, r, &x, td, a);
    return 1;
}

static uint32_t load_flags(LLVMValueRef in)
{
    uint32_t f = GM_INFO_LOAD | (LLVMGetVolatile(in) ? GM_INFO_VOLATILE : 0);
    unsigned inv = LLVMGetMDKindIDInContext(LLVMGetTypeContext(LLVMTypeOf(in)), "invariant.load", 14);
    if (LLVMGetMetadata(in, inv) && LLVMGetPointerAddressSpace(LLVMTypeOf(LLVMGetOperand(in, 0))) == 1)
        f |= GM_INFO_NC;   /* what ldg became: a global load marked invariant */
    return f;
}

int gm_mem_site(LLVMValueRef in, LLVMTargetDataRef td, const struct gm_active *a,
                struct gm_sites *s, struct gm_site_rec *r)
{
    struct gm_access x = {0};
    switch (LLVMGetInstructionOpcode(in)) {
    case LLVMLoad:
        if (gm_kernel_param_read(LLVMGetOperand(in, 0))) return 0;   /* param.c */
        x = (struct gm_access){LLVMGetOperand(in, 0), NULL, LLVMTypeOf(in), load_flags(in), 1};
        break;
    case LLVMStore:
        x = (struct gm_access){LLVMGetOperand(in, 1), LLVMGetOperand(in, 0),
                               LLVMTypeOf(LLVMGetOperand(in, 0)),
                               GM_INFO_STORE | (LLVMGetVolatile(in) ? GM_INFO_VOLATILE : 0), 0};
        break;
    case LLVMAtomicRMW:
    case LLVMAtomicCmpXchg: {
        int rmw = LLVMGetInstructionOpcode(in) == LLVMAtomicRMW;
        LLVMValueRef v = LLVMGetOperand(in, rmw ? 1 : 2);
        x = (struct gm_access){LLVMGetOperand(in, 0), v, LLVMTypeOf(v),
                               GM_INFO_LOAD | GM_INFO_STORE | GM_INFO_ATOMIC |
                                   (LLVMGetVolatile(in) ? GM_INFO_VOLATILE : 0), 0};
        break;
    }
    case LLVMCall:
        return call_sites(s, r, in, td, a);
    default:
        return 0;
    }
    record(s, r, &x, td, a);
    return 1;
}
