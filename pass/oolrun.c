/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Runs of out-of-line calls (after ooltidy.c, step 11): unrolled or
 * table-initialising code calls one copy (gm_ool__*) many times in a row,
 * `copy(s, a)`, `copy(s + 1, a + d)`, `copy(s + 2, a + 2d)` ... with the
 * addresses a constant stride apart (a local table's initial values:
 * bonds-cuda's 149-entry tables), about 7 PTX lines each. At least
 * GM_RUN_MIN such calls in one basic block, with nothing between them but
 * instructions that are not calls, become one call
 * `gm_ool__run__<copy>(s, a, n, d)` at the first one's place, a loop that
 * makes the same calls in the same order. The handlers see the same
 * arguments under the same warp mask (a block runs as a whole, and no call
 * between could exit a thread or split the warp), only before the memory
 * operations between the sites rather than interleaved with them; a copy
 * takes no loaded or stored value (those copies keep a third parameter and
 * are left alone), so no count changes.
 * The run function holds the copy's body in its loop (call_inline.cpp): a
 * call of the copy there deadlocked black-scholes-cuda on the H100.
 * -gm-diag-no-run keeps the calls. Depends on LLVM-C (Core), call_inline.cpp.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <llvm-c/DebugInfo.h>
#include "internal.h"
#include "diag.h"

/* Fewer calls than this stay as they are. */
#define GM_RUN_MIN 4

/* PTX lines of a copy's call, of a run's call (4 arguments) and of a run
 * function's loop (measured with the loop around a call of the copy): a
 * copy's runs are made only where they save lines (car-cuda: one run of 6
 * calls would add 2 lines). Since the run function holds the copy's body,
 * the body counts as well while the copy stays for calls outside runs
 * (winograd-cuda: a run function of 214 lines beside its 200-line copy,
 * 1,137 lines against 1,030 without the run). */
#define GM_RUN_CALL_LINES 7
#define GM_RUN_RUN_LINES 11
#define GM_RUN_FN_LINES 36

#define GM_RUN_PREFIX GM_OOL_PREFIX "run__"

int gm_inline_call(LLVMValueRef call);   /* call_inline.cpp */

/* A call copy(i32 site, i64 address): its parts, address = base + off. */
struct run_call {
    LLVMValueRef call, callee, base;
    long long site, off;
};

static int is_copy(LLVMValueRef f)
{
    size_t n = 0;
    const char *name = LLVMGetValueName2(f, &n);
    return f && LLVMIsAFunction(f) && !LLVMIsDeclaration(f) && gm_starts_with(name, GM_OOL_PREFIX) &&
           !gm_starts_with(name, GM_OOL_PREFIX "slow__") && !gm_starts_with(name, GM_RUN_PREFIX);
}

/* i64 address v as base + constant offset: ptrtoint of a pointer or of an
 * i8 GEP with one constant index (LLVM's canonical constant offset). */
static void split_address(LLVMValueRef v, LLVMValueRef *base, long long *off)
{
    *base = v, *off = 0;
    if (!LLVMIsAPtrToIntInst(v))
        return;
    LLVMValueRef p = LLVMGetOperand(v, 0);
    *base = p;
    if (!LLVMIsAGetElementPtrInst(p) || LLVMGetNumOperands(p) != 2)
        return;
    LLVMTypeRef st = LLVMGetGEPSourceElementType(p);
    LLVMValueRef idx = LLVMGetOperand(p, 1);
    if (LLVMGetTypeKind(st) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(st) != 8 ||
        !LLVMIsAConstantInt(idx) || LLVMGetIntTypeWidth(LLVMTypeOf(idx)) > 64)
        return;
    *base = LLVMGetOperand(p, 0);
    *off = LLVMConstIntGetSExtValue(idx);
}

/* Whether in is a call of a copy with (constant i32 site, i64 address). */
static int as_run_call(LLVMValueRef in, struct run_call *c)
{
    if (!LLVMIsACallInst(in) || LLVMGetNumArgOperands(in) != 2)
        return 0;
    LLVMValueRef f = LLVMGetCalledValue(in), s = LLVMGetOperand(in, 0), a = LLVMGetOperand(in, 1);
    if (!is_copy(f) || !LLVMIsAConstantInt(s) || LLVMGetIntTypeWidth(LLVMTypeOf(s)) != 32 ||
        LLVMGetTypeKind(LLVMTypeOf(a)) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(LLVMTypeOf(a)) != 64)
        return 0;
    c->call = in, c->callee = f;
    c->site = (long long)LLVMConstIntGetZExtValue(s);
    split_address(a, &c->base, &c->off);
    return 1;
}

/* Whether in may stand between two calls of a run: no call but the
 * lifetime markers (a call could exit the thread or split the warp). */
static int may_stand_between(LLVMValueRef in)
{
    if (!LLVMIsACallInst(in) && !LLVMIsAInvokeInst(in) && !LLVMIsACallBrInst(in))
        return 1;
    LLVMValueRef f = LLVMGetCalledValue(in);
    size_t n = 0;
    return f && LLVMIsAFunction(f) && gm_starts_with(LLVMGetValueName2(f, &n), "llvm.lifetime.");
}

/* Whether c extends the run r[0..n-1] (n >= 1). */
static int extends(const struct run_call *r, size_t n, const struct run_call *c)
{
    if (c->callee != r[0].callee || c->base != r[0].base || c->site != r[0].site + (long long)n)
        return 0;
    long long d = n == 1 ? c->off - r[0].off : r[1].off - r[0].off;
    return c->off == r[n - 1].off + d;
}

/* gm_ool__run__<copy>: for i < n, copy(site + i, addr + i * d). */
static LLVMValueRef run_function(LLVMModuleRef m, LLVMValueRef copy)
{
    size_t len = 0;
    const char *cname = LLVMGetValueName2(copy, &len);
    char name[256];
    snprintf(name, sizeof name, "%s%s", GM_RUN_PREFIX, cname + strlen(GM_OOL_PREFIX));
    LLVMValueRef f = LLVMGetNamedFunction(m, name);
    if (f)
        return f;
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx), i64 = LLVMInt64TypeInContext(ctx);
    LLVMTypeRef pt[4] = {i32, i64, i32, i64};
    f = LLVMAddFunction(m, name, LLVMFunctionType(LLVMVoidTypeInContext(ctx), pt, 4, 0));
    LLVMSetLinkage(f, LLVMInternalLinkage);
    unsigned na = LLVMGetAttributeCountAtIndex(copy, LLVMAttributeFunctionIndex);
    LLVMAttributeRef *at = calloc(na ? na : 1, sizeof *at);
    LLVMGetAttributesAtIndex(copy, LLVMAttributeFunctionIndex, at);
    for (unsigned i = 0; i < na; i++)
        LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, at[i]);
    free(at);
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(ctx, f, "entry");
    LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(ctx, f, "loop");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(ctx, f, "done");
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMPositionBuilderAtEnd(b, entry);
    LLVMBuildBr(b, loop);
    LLVMPositionBuilderAtEnd(b, loop);
    LLVMValueRef i = LLVMBuildPhi(b, i32, "i"), a = LLVMBuildPhi(b, i64, "a");
    LLVMValueRef args[2] = {LLVMBuildAdd(b, LLVMGetParam(f, 0), i, "site"), a};
    LLVMValueRef call = LLVMBuildCall2(b, LLVMGlobalGetValueType(copy), copy, args, 2, "");
    LLVMValueRef in = LLVMBuildNUWAdd(b, i, LLVMConstInt(i32, 1, 0), "i.next");
    LLVMValueRef an = LLVMBuildAdd(b, a, LLVMGetParam(f, 3), "a.next");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, in, LLVMGetParam(f, 2), ""), loop, done);
    LLVMValueRef iv[2] = {LLVMConstInt(i32, 0, 0), in}, av[2] = {LLVMGetParam(f, 1), an};
    LLVMBasicBlockRef from[2] = {entry, loop};
    LLVMAddIncoming(i, iv, from, 2);
    LLVMAddIncoming(a, av, from, 2);
    LLVMPositionBuilderAtEnd(b, done);
    LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
    /* the copy's body in the loop, no call inside a loop of another
     * function: a called copy deadlocked black-scholes-cuda on the H100
     * under a branch's reconvergence sync (oolrun.ll) */
    gm_inline_call(call);
    return f;
}

/* Replaces the n calls of r by one call of the copy's run function. */
static void replace_run(LLVMModuleRef m, const struct run_call *r, size_t n)
{
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx), i64 = LLVMInt64TypeInContext(ctx);
    LLVMValueRef f = run_function(m, r[0].callee);
    LLVMValueRef args[4] = {LLVMGetOperand(r[0].call, 0), LLVMGetOperand(r[0].call, 1),
                            LLVMConstInt(i32, n, 0),
                            LLVMConstInt(i64, (unsigned long long)(r[1].off - r[0].off), 1)};
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMPositionBuilderBefore(b, r[0].call);
    LLVMValueRef c = LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, args, 4, "");
    LLVMInstructionSetDebugLoc(c, LLVMInstructionGetDebugLoc(r[0].call));
    LLVMDisposeBuilder(b);
    for (size_t k = 0; k < n; k++) {
        LLVMValueRef a = LLVMGetOperand(r[k].call, 1);
        LLVMInstructionEraseFromParent(r[k].call);
        if (k && LLVMIsAInstruction(a) && !LLVMGetFirstUse(a))
            LLVMInstructionEraseFromParent(a);
    }
}

/* Candidate runs of the module: calls c[run[k].start .. + run[k].n). */
struct runs {
    struct run_call *c;
    size_t nc, cap;
    struct { size_t start, n; } *run;
    size_t nrun, rcap;
};

static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return p;
    *cap = *cap ? 2 * *cap : 64;
    if (*cap < need)
        *cap = need;
    p = realloc(p, *cap * size);
    if (!p)
        abort();
    return p;
}

/* The calls at c[nc - n ..] form a run when there are enough of them. */
static void end_run(struct runs *r, size_t *n)
{
    if (*n >= GM_RUN_MIN) {
        r->run = grow(r->run, &r->rcap, r->nrun + 1, sizeof *r->run);
        r->run[r->nrun].start = r->nc - *n;
        r->run[r->nrun++].n = *n;
    } else {
        r->nc -= *n;
    }
    *n = 0;
}

static void add_call(struct runs *r, size_t *n, const struct run_call *c)
{
    r->c = grow(r->c, &r->cap, r->nc + 1, sizeof *r->c);
    r->c[r->nc++] = *c;
    ++*n;
}

/* Collects the candidate runs of bb. */
static void block_runs(LLVMBasicBlockRef bb, struct runs *r)
{
    size_t n = 0;
    struct run_call c;
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb), next; in; in = next) {
        next = LLVMGetNextInstruction(in);
        int is_call = as_run_call(in, &c);
        if (is_call && n && extends(r->c + r->nc - n, n, &c)) {
            add_call(r, &n, &c);
            continue;
        }
        if (!is_call && may_stand_between(in) && next)
            continue;
        end_run(r, &n);
        if (is_call)
            add_call(r, &n, &c);
    }
}

static long long uses_of(LLVMValueRef f)
{
    long long n = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u))
        n++;
    return n;
}

/* PTX lines a copy's runs save: GM_RUN_CALL_LINES per call, less
 * GM_RUN_RUN_LINES per run's call, GM_RUN_FN_LINES for the loop and, when
 * calls outside runs keep the copy, the body the run function repeats. */
static long long saving(const struct runs *r, LLVMValueRef callee)
{
    long long calls = 0, runs = 0;
    for (size_t k = 0; k < r->nrun; k++)
        if (r->c[r->run[k].start].callee == callee)
            calls += (long long)r->run[k].n, runs++;
    /* a body's instructions are about its PTX lines (winograd-cuda's copy:
     * 219 instructions, 200 lines) */
    long long body = uses_of(callee) > calls ? (long long)gm_count_insts(callee) : 0;
    return calls * GM_RUN_CALL_LINES - runs * GM_RUN_RUN_LINES - GM_RUN_FN_LINES - body;
}

unsigned gm_ool_runs(LLVMModuleRef m)
{
    struct runs r;
    memset(&r, 0, sizeof r);
    if (gm_diag(GM_DIAG_NO_RUN))
        return 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        size_t n = 0;
        if (LLVMIsDeclaration(f) || gm_is_handler_code(f) || gm_starts_with(LLVMGetValueName2(f, &n), "gm_"))
            continue;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            block_runs(bb, &r);
    }
    /* decided on the module as found: replacing a run removes calls */
    char *make = calloc(r.nrun ? r.nrun : 1, 1);
    for (size_t k = 0; make && k < r.nrun; k++)
        make[k] = saving(&r, r.c[r.run[k].start].callee) > 0;
    unsigned done = 0;
    for (size_t k = 0; make && k < r.nrun; k++)
        if (make[k])
            replace_run(m, r.c + r.run[k].start, r.run[k].n), done++;
    free(make);
    /* copies now called from no other place: their run functions hold the body */
    for (size_t k = 0; k < r.nrun; k++) {
        LLVMValueRef f = r.c[r.run[k].start].callee;
        if (f && !LLVMGetFirstUse(f)) {
            for (size_t j = k + 1; j < r.nrun; j++)
                if (r.c[r.run[j].start].callee == f)
                    r.c[r.run[j].start].callee = NULL;
            LLVMDeleteFunction(f);
        }
    }
    free(r.c);
    free(r.run);
    return done;
}
