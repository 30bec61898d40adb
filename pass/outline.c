/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Code growth bound: which sites get their handlers inlined and which call
 * a shared out-of-line copy. A site is inlined ("hot") only in a kernel,
 * in a block on a CFG cycle (there the handlers' register accumulators
 * apply and a call would run per iteration), and while the function's
 * growth budget lasts: the instructions of the handlers inlined at all its
 * hot sites at most -gm-inline-growth percent of the function's own
 * instructions, or all its loop sites in a small kernel with at most
 * GM_OOL_MIN_HOT of them (-gm-inline-all: every site inlined), and while
 * its register accumulators last (GM_ACCUM_MAX). The plan is made for all
 * sites before any call is inserted; the budget goes to a kernel's loop
 * sites best ranked first (cmp_cand: deepest loop, loop steps, branches).
 * Tiny handlers (no larger than a call) are inlined everywhere, and handlers with block
 * accumulators (GM_BLOCK, for sites outside loops) are inlined at every
 * site of a kernel. Every other site calls gm_ool__<event>__<n> (one per
 * event and set of constant arguments in the module, internal, noinline;
 * gm_ool__<event>_acc__<n> for loop sites with a loop step that run on
 * every iteration, which pass their accumulators in local memory, at most
 * GM_ACCUM_MEM_MAX a kernel: mem_acc_site),
 * which calls the event's handlers in order, with the same reconvergence
 * as at a site (insert.c) and those arguments (the info word, a load's
 * value 0) as the same constants: the handlers are specialised for them
 * as when inlined, and so are their registers; the site id and run-time
 * values are its parameters. Counts
 * are the same either way: the handlers receive the same arguments.
 * Runs of sites that can share one count (group.c) call one group copy
 * at their first site instead (gm_ool_group_call).
 * Depends on LLVM-C (Core), cycles.cpp (gm_on_cycle), calls.c,
 * group.c, insert.c, loopinv.c (gm_loopinv_has_step), loops.cpp, oolstats.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diag.h"
#include "internal.h"

/* Handlers of at most this many instructions (an empty one, a counter
 * update) cost no more inlined than a call's argument passing: inlined. */
#define GM_OOL_TINY 8

/* However small the kernel, its loop sites are inlined when there are no
 * more than this many (a short loop's body: sgemm's two loads and its
 * branch); more (unrolled loops) would make only some of them cheap. */
#define GM_OOL_MIN_HOT 3

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

/* Whether the handlers define gm_accum_flush__NAME for stub gm_accum__NAME
 * (accum.c makes accumulators only for those). */
static int has_flush(LLVMModuleRef m, LLVMValueRef stub)
{
    size_t n = 0, pl = strlen("gm_accum__");
    const char *name = LLVMGetValueName2(stub, &n);
    char buf[256];
    if (n < pl || n - pl + sizeof "gm_accum_flush__" > sizeof buf)
        return 0;
    snprintf(buf, sizeof buf, "gm_accum_flush__%.*s", (int)(n - pl), name + pl);
    LLVMValueRef f = LLVMGetNamedFunction(m, buf);
    return f && !LLVMIsDeclaration(f);
}

/* Adds the accumulator stubs (gm_accum__NAME) f calls to ev's list, each
 * once: those with a flush function. */
static void note_accum_stubs(struct gm_ool *o, enum gm_ev ev, LLVMValueRef f)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
            LLVMValueRef c = gm_prefixed_callee(in, "gm_accum__");
            if (c && !has_flush(o->m, c))
                continue;
            unsigned k = 0;
            while (c && k < o->accum[ev] && o->accfn[ev][k] != c)
                k++;
            if (c && k == o->accum[ev] && k < GM_OOL_ACCS)
                o->accfn[ev][o->accum[ev]++] = c;
        }
}

/* The events whose calls site r gets, as bits (1 << GM_EV_*). */
static unsigned site_events(const struct gm_site_rec *r)
{
    if (r->kind == GM_SK_MEM)
        return (r->s.when & GM_WHEN_BEFORE ? 1u << GM_EV_BMEM : 0) |
               (r->s.when & GM_WHEN_AFTER ? 1u << GM_EV_ALOAD : 0);
    return r->kind == GM_SK_BRANCH ? 1u << GM_EV_BRANCH : 0;
}

/* Whether ev's handlers are inlined at every site of a kernel, whatever
 * the budget. */
static int always_inline(const struct gm_ool *o, enum gm_ev ev, int kernel)
{
    return o->cost[ev] <= GM_OOL_TINY || (kernel && o->block[ev]);
}

/* A loop site of a kernel: what inlining it costs, and its rank. */
struct cand { size_t site; unsigned cost, acc, depth, class; };

/* Instructions and accumulators that inlining site r's budgeted events takes. */
static struct cand site_cost(const struct gm_ool *o, size_t i)
{
    struct cand c = {.site = i};
    unsigned evs = site_events(&o->sites->v[i]);
    for (int ev = 0; ev < GM_EV_N; ev++)
        if ((evs >> ev & 1) && !always_inline(o, (enum gm_ev)ev, 1))
            c.cost += o->cost[ev], c.acc += o->accum[ev];
    return c;
}

/* Loop depth (o->depth), loop step (GM_OOL_STEP) and whether every
 * iteration runs them (GM_OOL_EVERY) of the loop sites of f among [i0, i1). */
static void traits(struct gm_ool *o, LLVMValueRef f, size_t i0, size_t i1, const struct gm_cycles *g)
{
    struct gm_loops *lp = gm_loops_new(f);
    for (size_t i = i0; i < i1; i++) {
        const struct gm_site_rec *r = &o->sites->v[i];
        if (!(o->plan[i] & GM_OOL_LOOP))
            continue;
        /* a cycle LoopInfo does not call a loop (irreducible) is depth 1 */
        unsigned d = gm_loop_depth(lp, LLVMGetInstructionParent(r->inst));
        o->depth[i] = d ? (d < 255 ? (unsigned char)d : 255) : 1;
        if (r->kind == GM_SK_MEM && gm_loopinv_has_step(r->inst, r->ptr, g, lp))
            o->plan[i] |= GM_OOL_STEP;
        LLVMBasicBlockRef bb = LLVMGetInstructionParent(r->inst);
        const struct gm_loop *l = gm_loop_of(lp, bb);
        if (l && gm_loop_once(lp, l, bb))
            o->plan[i] |= GM_OOL_EVERY;
    }
    gm_loops_free(lp);
}

/* What an inlined site saves per execution, best first: a memory site
 * with a loop step (its handler's fast path: one vote and an increment),
 * a branch (a run of equal executions in registers), other memory sites
 * (the full analysis still runs; only the counter update is saved). */
static unsigned site_class(const struct gm_ool *o, size_t i)
{
    if (o->plan[i] & GM_OOL_STEP)
        return 0;
    return o->sites->v[i].kind == GM_SK_BRANCH ? 1 : 2;
}

/* Whether out-of-line site i gets memory accumulators: a memory site
 * with a loop step (the handler's fast path, one vote and an increment)
 * of a space loop steps serve (abi.h), run on every iteration of its
 * loop (a site under a condition in the loop sees a changing warp mask,
 * and the fast path wants the same mask). Other loop sites run the full
 * analysis anyway and would only trade the counters' atomics for local
 * memory traffic, which costs more where many sites' words outgrow L1
 * (cmembench-cuda's constant loads, H200: 37.6x -> 55.4x of --gm-off when
 * every loop site had them; clock-cuda's reduction under `tid < d`:
 * 24.75x -> 32.58x). */
static int mem_acc_site(const struct gm_ool *o, size_t i)
{
    unsigned want = GM_OOL_STEP | GM_OOL_EVERY, sp = o->sites->v[i].s.space;
    return !gm_diag(GM_DIAG_NO_MACC) && !(o->plan[i] & GM_OOL_HOT) && (o->plan[i] & want) == want &&
           (sp == GM_SPACE_GLOBAL || sp == GM_SPACE_SHARED || sp == GM_SPACE_LOCAL);
}

/* Deeper loops first (they run more often), then by class, then in
 * program order. */
static int cmp_cand(const void *a, const void *b)
{
    const struct cand *x = a, *y = b;
    if (x->depth != y->depth)
        return x->depth > y->depth ? -1 : 1;
    if (x->class != y->class)
        return x->class < y->class ? -1 : 1;
    return (x->site > y->site) - (x->site < y->site);
}

/* The loop sites of kernel f, [i0, i1), whose handlers are inlined: best
 * ranked first (cmp_cand) while the budget and the kernel's accumulators
 * (GM_ACCUM_MAX, accum.c) last; a site that does not fit is skipped and
 * a later, smaller one may still fit. */
static void plan_kernel(struct gm_ool *o, LLVMValueRef f, size_t i0, size_t i1)
{
    struct gm_cycles *g = gm_cycles_new(f);
    unsigned long long budget = (unsigned long long)gm_count_insts(f) * (unsigned)o->growth_pct / 100;
    struct cand *c = calloc(i1 - i0 + 1, sizeof *c);
    if (!c)
        abort();
    size_t nc = 0, nloop = 0;
    for (size_t i = i0; i < i1; i++) {
        o->plan[i] |= GM_OOL_KERNEL;
        if (!gm_on_cycle(g, LLVMGetInstructionParent(o->sites->v[i].inst)))
            continue;
        nloop++;
        o->plan[i] |= GM_OOL_LOOP;
    }
    traits(o, f, i0, i1, g);
    for (size_t i = i0; i < i1; i++) {
        struct cand x = site_cost(o, i);
        x.depth = o->depth[i], x.class = site_class(o, i);
        if ((o->plan[i] & GM_OOL_LOOP) && x.cost)
            c[nc++] = x;
    }
    qsort(c, nc, sizeof *c, cmp_cand);
    if (o->growth_pct && budget < GM_OOL_MIN_HOT * o->maxcost && nloop <= GM_OOL_MIN_HOT)
        budget = GM_OOL_MIN_HOT * o->maxcost;
    unsigned long long spent = 0;
    unsigned acc = 0, macc = 0;
    for (size_t k = 0; k < nc; k++) {
        if (spent + c[k].cost > budget || acc + c[k].acc > GM_ACCUM_MAX)
            continue;
        spent += c[k].cost;
        acc += c[k].acc;
        o->plan[c[k].site] |= GM_OOL_HOT;
    }
    for (size_t k = 0; k < nc; k++)
        if (mem_acc_site(o, c[k].site) && macc + c[k].acc <= GM_ACCUM_MEM_MAX) {
            macc += c[k].acc;
            o->plan[c[k].site] |= GM_OOL_MACC;
        }
    if (gm_diag(GM_DIAG_SITES))
        gm_ool_print_plan(o, f, i0, i1, spent, budget, acc, macc);
    free(c);
    gm_cycles_free(g);
}

/* Decides for every site, before any call is inserted, whether its
 * handlers are inlined (sites come grouped by function). */
static void plan(struct gm_ool *o)
{
    size_t n = o->sites ? o->sites->n : 0;
    o->plan = calloc(n + 1, 1);
    o->depth = calloc(n + 1, 1);
    if (!o->plan || !o->depth)
        abort();
    for (size_t i0 = 0, i1; i0 < n; i0 = i1) {
        LLVMValueRef f = LLVMGetBasicBlockParent(LLVMGetInstructionParent(o->sites->v[i0].inst));
        for (i1 = i0 + 1; i1 < n; i1++)
            if (LLVMGetBasicBlockParent(LLVMGetInstructionParent(o->sites->v[i1].inst)) != f)
                break;
        if (gm_is_kernel(o->m, f) && o->growth_pct >= 0) {
            gm_note_function(f);
            plan_kernel(o, f, i0, i1);
        }
    }
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
            o->cost[ev] += gm_count_insts(f);
            o->block[ev] |= calls_block_stub(f);
            note_accum_stubs(o, (enum gm_ev)ev, f);
            o->infomask[ev] |= info_index(ev) ? gm_demanded_arg_bits(f, info_index(ev)) : ~0ull;
        }
    for (int ev = 0; ev < GM_EV_N; ev++)
        if (o->cost[ev] > o->maxcost)
            o->maxcost = o->cost[ev];
    plan(o);
    gm_group_plan(o);
}

void gm_ool_free(struct gm_ool *o)
{
    free(o->plan);
    free(o->depth);
    free(o->wrap);
    free(o->group);
    o->group = NULL;
    o->plan = o->depth = NULL;
    o->wrap = NULL;
    o->nwrap = 0;
}

int gm_ool_hot(struct gm_ool *o, enum gm_ev ev, uint32_t site)
{
    if (o->growth_pct < 0 || always_inline(o, ev, o->plan[site] & GM_OOL_KERNEL))
        return 1;
    return (o->plan[site] & GM_OOL_HOT) != 0;
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

/* A zeroed entry at the end of o's wrapper list. */
static struct gm_ool_wrap *new_wrap(struct gm_ool *o)
{
    o->wrap = realloc(o->wrap, (o->nwrap + 1) * sizeof *o->wrap);
    if (!o->wrap)
        abort();
    struct gm_ool_wrap *r = &o->wrap[o->nwrap++];
    memset(r, 0, sizeof *r);
    return r;
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

static LLVMValueRef find_wrapper(struct gm_ool *o, enum gm_ev ev, LLVMValueRef *args, unsigned n, int acc)
{
    for (size_t i = 0; i < o->nwrap; i++) {
        struct gm_ool_wrap *w = &o->wrap[i];
        int same = w->ev == ev && !w->group && w->acc == acc;
        for (unsigned k = 1; same && k < n; k++)
            same = w->arg[k] == (baked(ev, args, k) ? baked_value(o, ev, args, k) : NULL);
        if (same)
            return w->fn;
    }
    return NULL;
}

/* Whether site's out-of-line call passes memory accumulators (the plan
 * chose it, mem_acc_site). */
static int takes_acc(const struct gm_ool *o, enum gm_ev ev, uint32_t site)
{
    return o->accum[ev] && o->sites && site < o->sites->n && (o->plan[site] & GM_OOL_MACC);
}

/* The type of accumulator stub k of ev (a pointer to its words). */
static LLVMTypeRef acc_type(const struct gm_ool *o, enum gm_ev ev, unsigned k)
{
    return LLVMGetReturnType(LLVMGlobalGetValueType(o->accfn[ev][k]));
}

/* Marks copy w as taking ev's accumulators as its last parameters
 * (GM_ACC_PARAMS_ATTR: their stubs' names, which accum.c maps back). */
static void note_acc_params(const struct gm_ool *o, enum gm_ev ev, LLVMValueRef w)
{
    char names[512];
    size_t len = 0;
    for (unsigned k = 0; k < o->accum[ev]; k++) {
        size_t n = 0;
        const char *s = LLVMGetValueName2(o->accfn[ev][k], &n);
        if (len + n + 2 > sizeof names)
            abort(); /* stub names are short: gm_accum__ + a handler name */
        len += (size_t)snprintf(names + len, sizeof names - len, "%s%.*s", len ? " " : "", (int)n, s);
    }
    LLVMContextRef ctx = LLVMGetModuleContext(o->m);
    LLVMAddAttributeAtIndex(w, LLVMAttributeFunctionIndex,
                            LLVMCreateStringAttribute(ctx, GM_ACC_PARAMS_ATTR, sizeof GM_ACC_PARAMS_ATTR - 1,
                                                      names, (unsigned)len));
}

static LLVMValueRef make_wrapper(struct gm_ool *o, enum gm_ev ev, LLVMValueRef *args, unsigned n, int acc)
{
    static const char *const names[GM_EV_N] = {"before_mem", "after_load", "before_branch",
                                               "kernel_entry", "kernel_exit"};
    LLVMContextRef ctx = LLVMGetModuleContext(o->m);
    LLVMTypeRef p[4 + GM_OOL_ACCS];
    unsigned np = 0;
    for (unsigned i = 0; i < n; i++)
        if (!baked(ev, args, i))
            p[np++] = LLVMTypeOf(args[i]);
    for (unsigned k = 0; acc && k < o->accum[ev]; k++)
        p[np++] = acc_type(o, ev, k);
    char name[96];
    snprintf(name, sizeof name, GM_OOL_PREFIX "%s%s__%zu", names[ev], acc ? "_acc" : "", o->nwrap);
    LLVMValueRef w = LLVMAddFunction(o->m, name, LLVMFunctionType(LLVMVoidTypeInContext(ctx), p, np, 0));
    LLVMSetLinkage(w, LLVMInternalLinkage);
    unsigned kind = LLVMGetEnumAttributeKindForName("noinline", 8);
    LLVMAddAttributeAtIndex(w, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ctx, kind, 0));
    if (acc)
        note_acc_params(o, ev, w);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, w, "entry"));
    LLVMValueRef a[4];
    for (unsigned i = 0, k = 0; i < n; i++)
        a[i] = baked(ev, args, i) ? baked_value(o, ev, args, i) : LLVMGetParam(w, k++);
    gm_call_handlers(o->ins, b, ev, a, n);
    LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
    struct gm_ool_wrap *r = new_wrap(o);
    r->ev = ev, r->fn = w, r->acc = acc;
    for (unsigned i = 1; i < n; i++)
        r->arg[i] = baked(ev, args, i) ? baked_value(o, ev, args, i) : NULL;
    return w;
}

/* The call of site's copy; a site the plan chose (GM_OOL_MACC) also
 * passes its memory accumulators, as calls of the stubs at the site that
 * accum.c lowers to accumulators of the kernel, never NULL. */
LLVMValueRef gm_ool_call(struct gm_ool *o, LLVMBuilderRef b, enum gm_ev ev, uint32_t site,
                         LLVMValueRef *args, unsigned nargs)
{
    int acc = takes_acc(o, ev, site);
    LLVMValueRef w = find_wrapper(o, ev, args, nargs, acc);
    if (!w)
        w = make_wrapper(o, ev, args, nargs, acc);
    LLVMValueRef a[4 + GM_OOL_ACCS];
    unsigned k = 0;
    for (unsigned i = 0; i < nargs; i++)
        if (!baked(ev, args, i))
            a[k++] = args[i];
    for (unsigned j = 0; acc && j < o->accum[ev]; j++) {
        LLVMValueRef stub = o->accfn[ev][j];
        a[k++] = LLVMBuildCall2(b, LLVMGlobalGetValueType(stub), stub, &args[0], 1, "");
    }
    return LLVMBuildCall2(b, LLVMGlobalGetValueType(w), w, a, k, "");
}

/* The copy for a group's first site (group.c): gm_ool__before_mem_group__<n>
 * (site, address, sites), one per info word (the whole word: loads and
 * stores whose specialised handlers come out the same are merged later,
 * ooltidy.c), which calls every before_mem handler's group handler. */
static LLVMValueRef group_wrapper(struct gm_ool *o, LLVMValueRef info)
{
    for (size_t i = 0; i < o->nwrap; i++)
        if (o->wrap[i].group && o->wrap[i].arg[2] == info)
            return o->wrap[i].fn;
    LLVMContextRef ctx = LLVMGetModuleContext(o->m);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx), i64 = LLVMInt64TypeInContext(ctx);
    LLVMTypeRef p[3] = {i32, i64, i32};
    char name[96];
    snprintf(name, sizeof name, GM_OOL_PREFIX "before_mem_group__%zu", o->nwrap);
    LLVMValueRef w = LLVMAddFunction(o->m, name, LLVMFunctionType(LLVMVoidTypeInContext(ctx), p, 3, 0));
    LLVMSetLinkage(w, LLVMInternalLinkage);
    unsigned kind = LLVMGetEnumAttributeKindForName("noinline", 8);
    LLVMAddAttributeAtIndex(w, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ctx, kind, 0));
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, w, "entry"));
    LLVMValueRef a[4] = {LLVMGetParam(w, 0), LLVMGetParam(w, 2), LLVMGetParam(w, 1), info};
    gm_call_group_handlers(o->ins, b, a);
    LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
    struct gm_ool_wrap *r = new_wrap(o);
    r->ev = GM_EV_BMEM, r->fn = w, r->group = 1, r->arg[2] = info;
    return w;
}

LLVMValueRef gm_ool_group_call(struct gm_ool *o, LLVMBuilderRef b, LLVMValueRef *args, unsigned n)
{
    LLVMValueRef w = group_wrapper(o, args[2]);
    LLVMValueRef a[3] = {args[0], args[1],
                         LLVMConstInt(LLVMInt32TypeInContext(LLVMGetModuleContext(o->m)), n, 0)};
    return LLVMBuildCall2(b, LLVMGlobalGetValueType(w), w, a, 3, "");
}
