/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Inserts the handler calls for every selected site: before_mem / after_load
 * around memory operations, before_branch with the direction computed right
 * before the terminator, kernel_entry at the entry block's first instruction,
 * kernel_exit before each ret. Every handler of an event is called, in the
 * order given, each that may branch followed by a warp reconvergence
 * (call_all); lanes that split at a branch around such calls meet again
 * where the branch's sides join (region reconvergence, reconverge_regions).
 * Depends on LLVM-C (Core), calls.c, diag.c and domtree.cpp.
 */
#include <stdlib.h>
#include <string.h>
#include "diag.h"
#include "internal.h"

struct gm_ins {
    LLVMModuleRef m;
    LLVMBuilderRef b;
    LLVMContextRef ctx;
    LLVMTargetDataRef td;
    const struct gm_handlers *h;
    int reconverge;         /* -gm-reconverge */
    LLVMBasicBlockRef *div; /* blocks holding a call that may branch */
    size_t ndiv, capdiv;
    struct gm_ool ool;      /* inlined or out-of-line (outline.c) */
};

/* Declaration of an NVVM intrinsic without overloads, and its type. */
static LLVMValueRef intrinsic(struct gm_ins *x, const char *name, LLVMTypeRef *ty)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    *ty = LLVMIntrinsicGetType(x->ctx, id, NULL, 0);
    return LLVMGetIntrinsicDeclaration(x->m, id, NULL, 0);
}

/*
 * Whether a handler can leave the warp split: it has a branch or calls
 * anything but an intrinsic (the callee may branch). A straight-line
 * handler (the empty one, say) needs no reconvergence and gets none.
 */
static int may_diverge(LLVMValueRef fn)
{
    if (LLVMCountBasicBlocks(fn) != 1) return 1;
    LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn);
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
        if (LLVMGetInstructionOpcode(in) != LLVMCall) continue;
        LLVMValueRef callee = LLVMGetCalledValue(in);
        if (!LLVMIsAFunction(callee) || LLVMGetIntrinsicID(callee) == 0) return 1;
    }
    return 0;
}

/* Whether any handler of ev may branch (and reconvergence is on). */
static int any_may_diverge(struct gm_ins *x, enum gm_ev ev)
{
    int need = 0;
    for (int i = 0; i < x->h->nfn[ev] && x->reconverge; i++)
        need |= may_diverge(LLVMGetNamedFunction(x->m, x->h->fn[ev][i]));
    return need;
}

static void note_div(struct gm_ins *x, LLVMBasicBlockRef bb)
{
    if (x->ndiv && x->div[x->ndiv - 1] == bb) return;
    if (x->ndiv == x->capdiv) {
        x->capdiv = x->capdiv ? 2 * x->capdiv : 64;
        x->div = realloc(x->div, x->capdiv * sizeof *x->div);
        if (!x->div) abort();
    }
    x->div[x->ndiv++] = bb;
}

/*
 * Calls every handler of the event. The lanes executing together here
 * (activemask) are made to run together again after each handler that may
 * branch (bar.warp.sync): such a handler may otherwise leave the warp split
 * under independent thread scheduling, so the next handler sees part of the
 * warp (one warp execution counted twice, measured on the H100) and the
 * program's own instruction runs less converged than without
 * instrumentation. The mask lives outside the handlers (their register
 * budget is unchanged); every lane of it reaches each sync. Off with
 * -gm-reconverge=false.
 */
/* ev's handlers (group: their group handlers, group.c) called with args,
 * each followed by the reconvergence sync where it may diverge. */
static void call_each(struct gm_ins *x, LLVMBuilderRef b, enum gm_ev ev, LLVMValueRef *args,
                      unsigned nargs, int group)
{
    LLVMTypeRef mty = NULL, sty = NULL;
    LLVMValueRef ws = NULL, mask = NULL;
    if (any_may_diverge(x, ev)) {
        LLVMValueRef am = intrinsic(x, "llvm.nvvm.activemask", &mty);
        ws = intrinsic(x, "llvm.nvvm.bar.warp.sync", &sty);
        mask = LLVMBuildCall2(b, mty, am, NULL, 0, "gm.mask");
    }
    for (int i = 0; i < x->h->nfn[ev]; i++) {
        LLVMValueRef fn = group ? gm_group_fn(x->m, x->h->fn[ev][i]) : LLVMGetNamedFunction(x->m, x->h->fn[ev][i]);
        LLVMBuildCall2(b, LLVMGlobalGetValueType(fn), fn, args, nargs, "");
        if (mask && may_diverge(fn)) LLVMBuildCall2(b, sty, ws, &mask, 1, "");
    }
}

void gm_call_handlers(struct gm_ins *x, LLVMBuilderRef b, enum gm_ev ev, LLVMValueRef *args,
                      unsigned nargs)
{
    call_each(x, b, ev, args, nargs, 0);
}

/* The group handlers' calls (group.c) in a group's copy, with the same
 * reconvergence; args: site, n, address, info. */
void gm_call_group_handlers(struct gm_ins *x, LLVMBuilderRef b, LLVMValueRef *args)
{
    call_each(x, b, GM_EV_BMEM, args, 4, 1);
}

/* The calls of a site: the handlers inlined later (a hot site, outline.c)
 * or one call of the event's out-of-line wrapper, which reconverges the
 * same way inside. */
static void call_all(struct gm_ins *x, enum gm_ev ev, uint32_t site, LLVMValueRef *args,
                     unsigned nargs)
{
    if (x->h->nfn[ev] == 0) return;
    if (any_may_diverge(x, ev)) note_div(x, LLVMGetInsertBlock(x->b));
    if (gm_ool_hot(&x->ool, ev, site)) {
        gm_call_handlers(x, x->b, ev, args, nargs);
        return;
    }
    gm_ool_call(&x->ool, x->b, ev, site, args, nargs);
}

static void set_loc(struct gm_ins *x, LLVMValueRef in)
{
    gm_set_loc(x->b, LLVMGetBasicBlockParent(LLVMGetInstructionParent(in)), in);
}

static LLVMValueRef i32c(struct gm_ins *x, uint32_t v)
{
    return LLVMConstInt(LLVMInt32TypeInContext(x->ctx), v, 0);
}

static void mem_calls(struct gm_ins *x, const struct gm_site_rec *r, uint32_t id)
{
    LLVMValueRef in = r->inst;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(x->ctx);
    unsigned g = x->ool.group[id];   /* 0: a group's later site, no call */
    if ((r->s.when & GM_WHEN_BEFORE) && g && x->h->nfn[GM_EV_BMEM]) {
        LLVMValueRef ops[2] = {r->ptr, r->val};
        LLVMPositionBuilderBefore(x->b, gm_hoist_point(in, ops, r->val ? 2 : 1));
        set_loc(x, in);
        if (g >= 2) {
            /* a group's first site: one call for its g sites (group.c) */
            LLVMValueRef args[3] = {i32c(x, id), LLVMBuildPtrToInt(x->b, r->ptr, i64, ""),
                                    i32c(x, r->s.info)};
            if (any_may_diverge(x, GM_EV_BMEM)) note_div(x, LLVMGetInsertBlock(x->b));
            gm_ool_group_call(&x->ool, x->b, args, g);
        } else {
            LLVMValueRef args[4] = {i32c(x, id), LLVMBuildPtrToInt(x->b, r->ptr, i64, ""),
                                    i32c(x, r->s.info),
                                    r->val ? gm_to_i64(x->b, r->val, x->td) : LLVMConstInt(i64, 0, 0)};
            call_all(x, GM_EV_BMEM, id, args, 4);
        }
    }
    if (r->s.when & GM_WHEN_AFTER) {
        LLVMPositionBuilderBefore(x->b, LLVMGetNextInstruction(in));
        set_loc(x, in);
        LLVMValueRef args[4] = {i32c(x, id), LLVMBuildPtrToInt(x->b, r->ptr, i64, ""),
                                i32c(x, r->s.info), gm_to_i64(x->b, in, x->td)};
        call_all(x, GM_EV_ALOAD, id, args, 4);
    }
}

/* br: 1 if the condition is true; switch: k for the k-th case, 0 default. */
static LLVMValueRef branch_dir(struct gm_ins *x, LLVMValueRef term)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(x->ctx);
    if (LLVMGetInstructionOpcode(term) == LLVMBr)
        return LLVMBuildZExt(x->b, LLVMGetCondition(term), i32, "gm.dir");
    LLVMValueRef cond = LLVMGetOperand(term, 0);   /* LLVMGetCondition is for br only */
    LLVMValueRef dir = LLVMConstInt(i32, 0, 0);
    unsigned nsucc = LLVMGetNumSuccessors(term);
    for (unsigned k = 1; k < nsucc; k++) {
        LLVMValueRef eq = LLVMBuildICmp(x->b, LLVMIntEQ, cond, LLVMGetSwitchCaseValue(term, k), "");
        dir = LLVMBuildSelect(x->b, eq, i32c(x, k), dir, "gm.dir");
    }
    return dir;
}

static void site_calls(struct gm_ins *x, const struct gm_site_rec *r, uint32_t id)
{
    if (r->kind == GM_SK_MEM) {
        mem_calls(x, r, id);
        return;
    }
    if (r->kind == GM_SK_ASM)
        return;
    LLVMValueRef cond = r->kind == GM_SK_BRANCH && x->h->nfn[GM_EV_BRANCH] ? LLVMGetOperand(r->inst, 0) : NULL;
    LLVMPositionBuilderBefore(x->b, cond ? gm_hoist_point(r->inst, &cond, 1) : r->inst);
    set_loc(x, r->inst);
    if (r->kind == GM_SK_BRANCH) {
        LLVMValueRef args[3] = {i32c(x, id), i32c(x, r->s.info), branch_dir(x, r->inst)};
        call_all(x, GM_EV_BRANCH, id, args, 3);
    } else {
        LLVMValueRef args[1] = {i32c(x, id)};
        call_all(x, r->kind == GM_SK_ENTRY ? GM_EV_ENTRY : GM_EV_EXIT, id, args, 1);
    }
}

/*
 * Region reconvergence. Natively ptxas reconverges a warp where the two
 * sides of a branch meet again; around the inlined trace handler (its ring
 * reservation loop) it did not (measured on the H100: spmv_ell's trace had
 * 104,080 records of a load that the native kernel issues 8,192 times, the
 * lanes that skipped an `if` ran ahead to the next load; docs/trace.md). So
 * the pass makes the reconvergence explicit: for a block D that branches, it
 * takes the first post-dominator P that lies on no cycle avoiding D (an if's
 * join, a loop's exit); if D dominates P, D lies on no cycle avoiding P and
 * a handler call that may branch lies between them, the lanes active at the
 * end of D (activemask) meet again at the start of P (bar.warp.sync). Each
 * of them reaches P exactly once before D runs again, so the sync cannot
 * wait for a lane that never comes. Dominators and post-dominators come
 * from LLVM's trees (domtree.cpp).
 */
static void *gm_calloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz);
    if (!p) abort();
    return p;
}

/*
 * Where the lanes of D meet again: the first post-dominator P of D (walking
 * up from the immediate one) that does not lie on a cycle avoiding D (a loop
 * entered after D is left first). -1 when D lies on a cycle avoiding P (D is
 * in a loop that P is outside), when D does not dominate P, when D cannot
 * diverge before P (one successor, which is P), or when no call that may
 * branch (div) lies between them. mark: room for a flag per block.
 */
static int meet_point(const struct gm_dom *g, const char *div, char *mark, int d)
{
    int n = gm_dom_count(g), p = gm_dom_ipdom(g, d), any = 0;
    for (;;) {
        if (p < 0) return -1;
        gm_dom_reach(g, d, p, mark);
        if (mark[d]) return -1;
        for (int v = 0; v < n && !any; v++) any = mark[v] && div[v];
        gm_dom_reach(g, p, d, mark);
        if (!mark[p]) break;
        p = gm_dom_ipdom(g, p);
    }
    LLVMValueRef t = LLVMGetBasicBlockTerminator(gm_dom_block(g, d));
    int one = LLVMGetNumSuccessors(t) == 1 && LLVMGetSuccessor(t, 0) == gm_dom_block(g, p);
    return !any || one || !gm_dom_dominates(g, d, p) ? -1 : p;
}

static LLVMValueRef first_non_phi(LLVMBasicBlockRef bb)
{
    LLVMValueRef in = LLVMGetFirstInstruction(bb);
    while (in && LLVMIsAPHINode(in)) in = LLVMGetNextInstruction(in);
    return in;
}

/* The region syncs of one function (comment above gm_calloc). */
static void reconverge_regions(struct gm_ins *x, LLVMValueRef fn)
{
    struct gm_dom *g = gm_dom_new(fn);
    int n = gm_dom_count(g);
    char *div = gm_calloc((size_t)n, 1), *mark = gm_calloc((size_t)n, 1);
    char *synced = gm_calloc((size_t)n, 1);
    for (size_t i = 0; i < x->ndiv; i++) {
        int v = gm_dom_index(g, x->div[i]);
        if (v >= 0) div[v] = 1;
    }
    LLVMTypeRef mty, sty;
    LLVMValueRef am = intrinsic(x, "llvm.nvvm.activemask", &mty);
    LLVMValueRef ws = intrinsic(x, "llvm.nvvm.bar.warp.sync", &sty);
    for (int d = 0; d < n; d++) {
        int p = meet_point(g, div, mark, d);
        if (p < 0 || synced[p]) continue;
        synced[p] = 1;
        LLVMValueRef t = LLVMGetBasicBlockTerminator(gm_dom_block(g, d));
        LLVMValueRef at = first_non_phi(gm_dom_block(g, p));
        LLVMPositionBuilderBefore(x->b, t);
        set_loc(x, t);
        LLVMValueRef mask = LLVMBuildCall2(x->b, mty, am, NULL, 0, "gm.rmask");
        LLVMPositionBuilderBefore(x->b, at);
        set_loc(x, at);
        LLVMBuildCall2(x->b, sty, ws, &mask, 1, "");
    }
    free(synced);
    free(mark);
    free(div);
    gm_dom_free(g);
}

int gm_insert_calls(LLVMModuleRef m, const struct gm_sites *s, const struct gm_handlers *h,
                    const struct gm_active *a, const struct gm_cfg *c, struct gm_err *e)
{
    (void)a;
    (void)e;
    struct gm_ins x = {m, NULL, LLVMGetModuleContext(m), LLVMGetModuleDataLayout(m), h,
                       c->reconverge, NULL, 0, 0, {0}};
    x.b = LLVMCreateBuilderInContext(x.ctx);
    gm_ool_init(&x.ool, m, h, s, c->growth_pct);
    x.ool.ins = &x;
    for (size_t i = 0; i < s->n; i++) {
        gm_note_function(LLVMGetBasicBlockParent(LLVMGetInstructionParent(s->v[i].inst)));
        site_calls(&x, &s->v[i], (uint32_t)i);
    }
    LLVMValueRef *done = gm_calloc(x.ndiv, sizeof *done);
    size_t ndone = 0;
    for (size_t i = 0; i < x.ndiv && !gm_diag(GM_DIAG_NO_REGION_SYNC); i++) {
        LLVMValueRef fn = LLVMGetBasicBlockParent(x.div[i]);
        size_t j = 0;
        while (j < ndone && done[j] != fn) j++;
        if (j < ndone) continue;
        done[ndone++] = fn;
        gm_note_function(fn);
        reconverge_regions(&x, fn);
    }
    free(done);
    free(x.div);
    gm_ool_free(&x.ool);
    LLVMDisposeBuilder(x.b);
    return 0;
}
