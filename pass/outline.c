/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Code growth bound: which sites get their handlers inlined and which call
 * a shared out-of-line copy. A site is inlined ("hot") only in a kernel,
 * in a block on a CFG cycle (there the handlers' register accumulators
 * apply and a call would run per iteration), and while the function's
 * growth budget lasts: the instructions of the handlers inlined at all its
 * hot sites at most -gm-inline-growth percent of the function's own
 * instructions, or all its loop sites in a small kernel with at most
 * GM_OOL_MIN_HOT of them (-gm-inline-all: every site inlined). Tiny handlers (no
 * larger than a call) are inlined everywhere, and handlers with block
 * accumulators (GM_BLOCK, for sites outside loops) are inlined at every
 * site of a kernel. Every other site calls gm_ool__<event>__<n> (one per
 * event and set of constant arguments in the module, internal, noinline),
 * which calls the event's handlers in order, with the same reconvergence
 * as at a site (insert.c) and those arguments (the info word, a load's
 * value 0) as the same constants: the handlers are specialised for them
 * as when inlined, and so are their registers; the site id and run-time
 * values are its parameters. Counts
 * are the same either way: the handlers receive the same arguments.
 * Depends on LLVM-C (Core), accum.c (gm_cfg_blocks, gm_on_cycle), calls.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* Handlers of at most this many instructions (an empty one, a counter
 * update) cost no more inlined than a call's argument passing: inlined. */
#define GM_OOL_TINY 8

/* However small the kernel, its loop sites are inlined when there are no
 * more than this many (a short loop's body: sgemm's two loads and its
 * branch); more (unrolled loops) would make only some of them cheap. */
#define GM_OOL_MIN_HOT 3

/* Instructions of f (0 for a declaration). */
static unsigned count_insts(LLVMValueRef f)
{
    unsigned n = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
            n++;
    return n;
}

/* Whether f calls a block-accumulator stub (GM_BLOCK). */
static int calls_block_stub(LLVMValueRef f)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
            if (gm_prefixed_callee(in, "gm_block__"))
                return 1;
    return 0;
}

/* Index of ev's info word argument (0: none). */
static unsigned info_index(enum gm_ev ev)
{
    return ev == GM_EV_BRANCH ? 1 : ev == GM_EV_BMEM || ev == GM_EV_ALOAD ? 2 : 0;
}

void gm_ool_init(struct gm_ool *o, LLVMModuleRef m, const struct gm_handlers *h,
                 const struct gm_sites *s, int growth_pct)
{
    memset(o, 0, sizeof *o);
    o->m = m;
    o->sites = s;
    o->h = h;
    o->growth_pct = growth_pct;
    for (int ev = 0; ev < GM_EV_N; ev++)
        for (int i = 0; i < h->nfn[ev]; i++)
        {
            LLVMValueRef f = LLVMGetNamedFunction(m, h->fn[ev][i]);
            o->cost[ev] += count_insts(f);
            o->block[ev] |= calls_block_stub(f);
            o->infomask[ev] |= info_index(ev) ? gm_demanded_arg_bits(f, info_index(ev)) : ~0ull;
        }
    for (int ev = 0; ev < GM_EV_N; ev++)
        if (o->cost[ev] > o->maxcost)
            o->maxcost = o->cost[ev];
}

static void leave_function(struct gm_ool *o)
{
    if (o->fn)
        gm_cfg_blocks_free(&o->blocks);
    o->fn = NULL;
}

void gm_ool_free(struct gm_ool *o)
{
    leave_function(o);
    free(o->wrap);
    o->wrap = NULL;
    o->nwrap = 0;
}

/* Sites of f in blocks on a cycle. */
static size_t loop_sites(struct gm_ool *o, LLVMValueRef f)
{
    size_t n = 0;
    for (size_t i = 0; o->sites && i < o->sites->n; i++) {
        LLVMBasicBlockRef bb = LLVMGetInstructionParent(o->sites->v[i].inst);
        n += LLVMGetBasicBlockParent(bb) == f && gm_on_cycle(&o->blocks, bb);
    }
    return n;
}

/* Switches the per-function state to f (sites come grouped by function). */
static void enter_function(struct gm_ool *o, LLVMValueRef f)
{
    if (o->fn == f)
        return;
    leave_function(o);
    o->fn = f;
    o->kernel = gm_is_kernel(o->m, f);
    o->budget = (unsigned long long)count_insts(f) * (unsigned)o->growth_pct / 100;
    o->spent = 0;
    gm_cfg_blocks_init(&o->blocks, f);
    if (o->growth_pct && o->budget < GM_OOL_MIN_HOT * o->maxcost &&
        loop_sites(o, f) <= GM_OOL_MIN_HOT)
        o->budget = GM_OOL_MIN_HOT * o->maxcost;
}

int gm_ool_hot(struct gm_ool *o, enum gm_ev ev, LLVMValueRef inst)
{
    if (o->growth_pct < 0)
        return 1;
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(inst);
    enter_function(o, LLVMGetBasicBlockParent(bb));
    if (o->cost[ev] <= GM_OOL_TINY || (o->kernel && o->block[ev]))
        return 1;
    if (!o->kernel || o->spent + o->cost[ev] > o->budget || !gm_on_cycle(&o->blocks, bb))
        return 0;
    o->spent += o->cost[ev];
    return 1;
}

/* A site's argument i is baked into the wrapper when it is the info word
 * (argument 2 of a memory event, 1 of a branch) or the constant 0 (a
 * load's value); the site id (argument 0) and other values stay
 * parameters, constants included: a store of a constant would otherwise
 * get a wrapper of its own (bonds-cuda: 138 wrappers for 1,104 stores of
 * table constants, 32,000 PTX lines, 2 minutes of ptxas). */
static int baked(enum gm_ev ev, LLVMValueRef *args, unsigned i)
{
    if (i == 0 || !LLVMIsAConstantInt(args[i]))
        return 0;
    return i == info_index(ev) || LLVMConstIntGetZExtValue(args[i]) == 0;
}

/* The constant a wrapper passes for baked argument i: the info word keeps
 * only the bits the event's handlers read (infobits.c). */
static LLVMValueRef baked_value(const struct gm_ool *o, enum gm_ev ev, LLVMValueRef *args, unsigned i)
{
    if (i != info_index(ev) || o->infomask[ev] == ~0ull)
        return args[i];
    uint64_t v = LLVMConstIntGetZExtValue(args[i]) & o->infomask[ev];
    return LLVMConstInt(LLVMTypeOf(args[i]), v, 0);
}

static LLVMValueRef find_wrapper(struct gm_ool *o, enum gm_ev ev, LLVMValueRef *args, unsigned n)
{
    for (size_t i = 0; i < o->nwrap; i++) {
        struct gm_ool_wrap *w = &o->wrap[i];
        int same = w->ev == ev;
        for (unsigned k = 1; same && k < n; k++)
            same = w->arg[k] == (baked(ev, args, k) ? baked_value(o, ev, args, k) : NULL);
        if (same)
            return w->fn;
    }
    return NULL;
}

static LLVMValueRef make_wrapper(struct gm_ool *o, enum gm_ev ev, LLVMValueRef *args, unsigned n)
{
    static const char *const names[GM_EV_N] = {"before_mem", "after_load", "before_branch",
                                               "kernel_entry", "kernel_exit"};
    LLVMTypeRef p[4];
    unsigned np = 0;
    for (unsigned i = 0; i < n; i++)
        if (!baked(ev, args, i))
            p[np++] = LLVMTypeOf(args[i]);
    LLVMContextRef ctx = LLVMGetModuleContext(o->m);
    char name[96];
    snprintf(name, sizeof name, GM_OOL_PREFIX "%s__%zu", names[ev], o->nwrap);
    LLVMValueRef w = LLVMAddFunction(o->m, name, LLVMFunctionType(LLVMVoidTypeInContext(ctx), p, np, 0));
    LLVMSetLinkage(w, LLVMInternalLinkage);
    unsigned kind = LLVMGetEnumAttributeKindForName("noinline", 8);
    LLVMAddAttributeAtIndex(w, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ctx, kind, 0));
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, w, "entry"));
    LLVMValueRef a[4];
    for (unsigned i = 0, k = 0; i < n; i++)
        a[i] = baked(ev, args, i) ? baked_value(o, ev, args, i) : LLVMGetParam(w, k++);
    gm_call_handlers(o->ins, b, ev, a, n);
    LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
    o->wrap = realloc(o->wrap, (o->nwrap + 1) * sizeof *o->wrap);
    if (!o->wrap)
        abort();
    struct gm_ool_wrap *r = &o->wrap[o->nwrap++];
    memset(r, 0, sizeof *r);
    r->ev = ev, r->fn = w;
    for (unsigned i = 1; i < n; i++)
        r->arg[i] = baked(ev, args, i) ? baked_value(o, ev, args, i) : NULL;
    return w;
}

LLVMValueRef gm_ool_call(struct gm_ool *o, LLVMBuilderRef b, enum gm_ev ev, LLVMValueRef *args,
                         unsigned nargs)
{
    LLVMValueRef w = find_wrapper(o, ev, args, nargs);
    if (!w)
        w = make_wrapper(o, ev, args, nargs);
    LLVMValueRef a[4];
    unsigned k = 0;
    for (unsigned i = 0; i < nargs; i++)
        if (!baked(ev, args, i))
            a[k++] = args[i];
    return LLVMBuildCall2(b, LLVMGlobalGetValueType(w), w, a, k, "");
}
