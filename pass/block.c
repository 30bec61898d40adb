/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Block accumulators (handler.h, GM_BLOCK): once the handlers are inlined,
 * each call gm_block__NAME(site, words) left in a kernel, in a block on no
 * CFG cycle (it runs at most once per thread), becomes a pointer into an
 * internal addrspace(3) array of that kernel and analysis: word 0 counts
 * the threads that returned, then `words` words per site. At kernel entry
 * the pass calls gm_block_init__NAME(base, nwords) (zero, then one block
 * barrier: every thread is there), and before each ret
 * gm_block_last__NAME(base) and, per site, gm_block_flush__NAME(site,
 * words, last). Sites over the budget (GM_BLOCK_BUDGET bytes per kernel,
 * and never past 48 KiB of static shared memory in the module), kernels of
 * modules with dynamic shared memory, loops and non-kernel functions get
 * NULL: the handler updates memory directly. For A/B measurements, the
 * hidden option -gm-diag-no-block turns every call into NULL. Depends on
 * LLVM-C (Core, Target), calls.c, cycles.cpp, diag.h and the handler SDK's names.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <llvm-c/Target.h>
#include "diag.h"
#include "internal.h"

#define GM_BLOCK_FN_PREFIX "gm_block__"
#define GM_BLOCK_INIT_PREFIX "gm_block_init__"
#define GM_BLOCK_LAST_PREFIX "gm_block_last__"
#define GM_BLOCK_FLUSH_PREFIX "gm_block_flush__"
/* Shared bytes per kernel for all analyses' block words. */
#define GM_BLOCK_BUDGET 2048u
/* Static shared memory a block may have without an opt-in. */
#define GM_SHARED_STATIC_MAX (48u * 1024u)
#define GM_BLOCK_AN_MAX 8
#define GM_BLOCK_SITE_MAX 128

struct gm_bsite { unsigned long long site; unsigned off; };
/* One analysis in one kernel: its functions, sites and words. */
struct gm_ban {
    const char *name; size_t nlen;
    LLVMValueRef init, last, flush, g;
    struct gm_bsite v[GM_BLOCK_SITE_MAX]; int n;
    unsigned words;                    /* word 0 included */
};
struct gm_bkern { struct gm_ban a[GM_BLOCK_AN_MAX]; int n; unsigned bytes, avail; };

static LLVMValueRef block_callee(LLVMValueRef in)
{
    return gm_prefixed_callee(in, GM_BLOCK_FN_PREFIX);
}

/* The defined function PREFIX + NAME, or NULL. */
static LLVMValueRef named_fn(LLVMModuleRef m, const char *prefix, const char *name, size_t n)
{
    char buf[256];
    if ((size_t)snprintf(buf, sizeof buf, "%s%.*s", prefix, (int)n, name) >= sizeof buf)
        return NULL;
    LLVMValueRef f = LLVMGetNamedFunction(m, buf);
    return f && !LLVMIsDeclaration(f) ? f : NULL;
}

/* The analysis of a gm_block__NAME callee in k, made on first use; NULL
 * when its init/last/flush functions are missing or k is full. */
static struct gm_ban *analysis_for(struct gm_bkern *k, LLVMModuleRef m, LLVMValueRef callee)
{
    size_t n = 0;
    const char *name = LLVMGetValueName2(callee, &n) + strlen(GM_BLOCK_FN_PREFIX);
    n -= strlen(GM_BLOCK_FN_PREFIX);
    for (int i = 0; i < k->n; i++)
        if (k->a[i].nlen == n && !memcmp(k->a[i].name, name, n))
            return &k->a[i];
    struct gm_ban a = {.name = name, .nlen = n, .words = 1};
    a.init = named_fn(m, GM_BLOCK_INIT_PREFIX, name, n);
    a.last = named_fn(m, GM_BLOCK_LAST_PREFIX, name, n);
    a.flush = named_fn(m, GM_BLOCK_FLUSH_PREFIX, name, n);
    if (!a.init || !a.last || !a.flush || k->n == GM_BLOCK_AN_MAX)
        return NULL;
    k->a[k->n] = a;
    return &k->a[k->n++];
}

/* Word offset of (analysis, site) in k, allocated on first use; 0 when the
 * budget or the tables are full. Word 0 (the returned-thread count) is
 * paid for with an analysis' first site. */
static unsigned offset_for(struct gm_bkern *k, struct gm_ban *a, unsigned long long site, unsigned words)
{
    for (int i = 0; i < a->n; i++)
        if (a->v[i].site == site)
            return a->v[i].off;
    unsigned cost = 4u * (words + (a->n == 0));
    if (a->n == GM_BLOCK_SITE_MAX || words == 0 || words > 64 || k->bytes + cost > k->avail)
        return 0;
    k->bytes += cost;
    a->v[a->n++] = (struct gm_bsite){site, a->words};
    a->words += words;
    return a->v[a->n - 1].off;
}

/* Static shared bytes of the module, or ~0u if it has dynamic shared
 * memory (an external or zero-sized addrspace(3) array). */
static unsigned shared_in_use(LLVMModuleRef m)
{
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
    unsigned long long sum = 0;
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g)) {
        if (LLVMGetPointerAddressSpace(LLVMTypeOf(g)) != GM_SPACE_SHARED)
            continue;
        unsigned long long sz = LLVMABISizeOfType(td, LLVMGlobalGetValueType(g));
        if (LLVMIsDeclaration(g) || sz == 0)
            return ~0u;
        sum += sz;
    }
    return sum > GM_SHARED_STATIC_MAX ? GM_SHARED_STATIC_MAX : (unsigned)sum;
}

/* A debug location for calls the pass adds to f (inlined calls need one). */
static LLVMValueRef i32c(LLVMModuleRef m, unsigned long long v)
{
    return LLVMConstInt(LLVMInt32TypeInContext(LLVMGetModuleContext(m)), v, 0);
}

/* Generic pointer to word `off` of a's array. */
static LLVMValueRef word_ptr(LLVMModuleRef m, const struct gm_ban *a, unsigned off)
{
    LLVMValueRef idx[2] = {i32c(m, 0), i32c(m, off)};
    LLVMValueRef p = LLVMConstInBoundsGEP2(LLVMGlobalGetValueType(a->g), a->g, idx, 2);
    return LLVMConstAddrSpaceCast(p, LLVMPointerTypeInContext(LLVMGetModuleContext(m), 0));
}

static void make_array(LLVMModuleRef m, struct gm_ban *a)
{
    LLVMTypeRef ty = LLVMArrayType2(LLVMInt32TypeInContext(LLVMGetModuleContext(m)), a->words);
    char name[160];
    snprintf(name, sizeof name, "__gm_block.%.*s", (int)(a->nlen < 100 ? a->nlen : 100), a->name);
    a->g = LLVMAddGlobalInAddressSpace(m, ty, name, GM_SPACE_SHARED);
    LLVMSetLinkage(a->g, LLVMInternalLinkage);
    LLVMSetInitializer(a->g, LLVMGetUndef(ty));
    LLVMSetAlignment(a->g, 4);
}

static LLVMValueRef call(LLVMBuilderRef b, LLVMValueRef fn, LLVMValueRef *args, unsigned n)
{
    return LLVMBuildCall2(b, LLVMGlobalGetValueType(fn), fn, args, n, "");
}

/* Init at entry; last + flushes before every ret. */
static void add_calls(const struct gm_bkern *k, LLVMBuilderRef b, LLVMValueRef f)
{
    LLVMModuleRef m = LLVMGetGlobalParent(f);
    LLVMValueRef first = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(f));
    while (first && LLVMIsAAllocaInst(first))
        first = LLVMGetNextInstruction(first);
    LLVMPositionBuilderBefore(b, first);
    gm_set_loc(b, f, NULL);
    for (int i = 0; i < k->n; i++) {
        LLVMValueRef args[2] = {word_ptr(m, &k->a[i], 0), i32c(m, k->a[i].words)};
        call(b, k->a[i].init, args, 2);
    }
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
        if (!t || LLVMGetInstructionOpcode(t) != LLVMRet)
            continue;
        LLVMPositionBuilderBefore(b, t);
        gm_set_loc(b, f, t);
        for (int i = 0; i < k->n; i++) {
            const struct gm_ban *a = &k->a[i];
            LLVMValueRef base = word_ptr(m, a, 0);
            LLVMValueRef last = call(b, a->last, &base, 1);
            for (int j = 0; j < a->n; j++) {
                LLVMValueRef args[3] = {i32c(m, a->v[j].site), word_ptr(m, a, a->v[j].off), last};
                call(b, a->flush, args, 3);
            }
        }
    }
}

/* Assigns each call of a kernel its (analysis, offset), or none (off 0). */
static void assign(struct gm_bkern *k, struct gm_cycles *g, LLVMModuleRef m, LLVMValueRef *calls,
                   size_t n, unsigned *off, struct gm_ban **an)
{
    for (size_t i = 0; i < n; i++) {
        LLVMValueRef site = LLVMGetOperand(calls[i], 0), words = LLVMGetOperand(calls[i], 1);
        off[i] = 0;
        an[i] = NULL;
        if (!LLVMIsAConstantInt(site) || !LLVMIsAConstantInt(words) ||
            gm_on_cycle(g, LLVMGetInstructionParent(calls[i])))
            continue;
        an[i] = analysis_for(k, m, block_callee(calls[i]));
        if (an[i])
            off[i] = offset_for(k, an[i], LLVMConstIntGetZExtValue(site),
                                (unsigned)LLVMConstIntGetZExtValue(words));
    }
}

/* Replaces the calls of one function; returns 1 if it got block words. */
static int lower_function(LLVMModuleRef m, LLVMValueRef f, LLVMBuilderRef b, unsigned avail)
{
    LLVMValueRef *calls;
    size_t n = gm_prefixed_calls(f, GM_BLOCK_FN_PREFIX, &calls);
    if (!n)
        return 0;
    struct gm_bkern *k = calloc(1, sizeof *k);
    unsigned *off = calloc(n, sizeof *off);
    struct gm_ban **an = calloc(n, sizeof *an);
    if (!k || !off || !an)
        abort();
    k->avail = gm_is_kernel(m, f) ? avail : 0;
    struct gm_cycles *g = gm_cycles_new(f);
    if (k->avail)
        assign(k, g, m, calls, n, off, an);
    gm_cycles_free(g);
    for (int i = 0; i < k->n; i++)
        if (k->a[i].n)
            make_array(m, &k->a[i]);
    for (size_t i = 0; i < n; i++) {
        LLVMValueRef r = off[i] ? word_ptr(m, an[i], off[i]) : LLVMConstPointerNull(LLVMTypeOf(calls[i]));
        gm_fold_null_tests(calls[i], off[i] != 0);
        LLVMReplaceAllUsesWith(calls[i], r);
        LLVMInstructionEraseFromParent(calls[i]);
    }
    int any = 0;
    for (int i = 0; i < k->n; i++)
        any |= k->a[i].n > 0;
    if (any)
        add_calls(k, b, f);
    free(k);
    free(off);
    free(an);
    free(calls);
    return any;
}

/* Every call NULL (-gm-diag-no-block). */
static int gm_block_nullify(LLVMModuleRef m)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        LLVMValueRef *calls;
        size_t n = LLVMIsDeclaration(f) ? 0 : gm_prefixed_calls(f, GM_BLOCK_FN_PREFIX, &calls);
        for (size_t i = 0; i < n; i++) {
            gm_fold_null_tests(calls[i], 0);
            LLVMReplaceAllUsesWith(calls[i], LLVMConstPointerNull(LLVMTypeOf(calls[i])));
            LLVMInstructionEraseFromParent(calls[i]);
        }
        if (n) free(calls);
    }
    return 0;
}

int gm_block_lower(LLVMModuleRef m)
{
    if (gm_diag(GM_DIAG_NO_BLOCK))
        return gm_block_nullify(m);
    unsigned used = shared_in_use(m);
    unsigned avail = used == ~0u || used + GM_BLOCK_BUDGET > GM_SHARED_STATIC_MAX ? 0 : GM_BLOCK_BUDGET;
    int any = 0;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (!LLVMIsDeclaration(f))
            any |= lower_function(m, f, b, avail);
    LLVMDisposeBuilder(b);
    return any;
}

/* The stubs stay out of line until lowered; init, last and flush are
 * inlined only once the lowering has called them. */
int gm_block_is_late(LLVMValueRef f)
{
    size_t n = 0;
    const char *name = LLVMGetValueName2(f, &n);
    return gm_starts_with(name, GM_BLOCK_FN_PREFIX) || gm_starts_with(name, GM_BLOCK_INIT_PREFIX) ||
           gm_starts_with(name, GM_BLOCK_LAST_PREFIX) || gm_starts_with(name, GM_BLOCK_FLUSH_PREFIX);
}
