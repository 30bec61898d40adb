/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Out-of-line copies that differ only in integer constants (after
 * oolrun.c): coalescing's copies for a 4-byte and an 8-byte global load,
 * say, differ in the width alone (bytes = threads x width). Such copies
 * become one, which takes the differing constants as parameters; each call
 * passes the constants of the copy it called, so the merged body computes
 * what that copy computed and no count changes. A constant becomes a
 * parameter only where any value may stand and costs no more there: operands
 * of integer arithmetic (not a divisor), compares, selects, phis, stored
 * values, returns and arguments of calls (not an intrinsic's immarg, not
 * inline asm); anything else that differs (a GEP index, a switch case, a
 * callee) keeps the copies apart, and so do constants that folded away in
 * one copy (a multiply by 1). A copy joins another only with at most
 * GM_MERGE_MAX_PARAMS parameters in all and when its PTX lines (about its
 * instructions) exceed what the calls gain (about two lines per argument
 * and call). The code of each is compared as ooltidy.c does, as IR text,
 * once the constants are set alike (instruction flags included: each
 * copy's held for its own constants).
 * -gm-diag-no-merge keeps them apart. Depends on LLVM-C (Core), ooltidy.c
 * (gm_ool_body_text, gm_ool_move_body, gm_ool_recall, gm_ool_take_name).
 */
#include <stdlib.h>
#include <string.h>
#include "diag.h"
#include "internal.h"

/* PTX lines an argument adds to a call (declaration and store). */
#define GM_MERGE_ARG_LINES 2
/* At most this many parameters are added to a copy: copies that differ in
 * more constants differ in what the constants decide (lr-cuda's shared
 * copies for 4 and 8 bytes: 5 parameters, the phase and unit shifts of the
 * wavefront count become variable; 122 PTX lines saved, 90 added to the
 * calls). */
#define GM_MERGE_MAX_PARAMS 2

struct mcopy {
    LLVMValueRef f, *in;     /* the copy, its instructions in order */
    size_t nin;
    uint64_t shape;          /* hash of opcodes and operand counts */
    unsigned calls, insts;
    int cls;                 /* its class, -1: none yet */
};

/* An operand position: instruction i (in order), operand k. */
struct pos { size_t i; unsigned k; };

struct mclass {
    size_t *mem, nmem;       /* members (copies), the first is the base */
    struct pos *pos;         /* where some member's constant differs from the base's */
    size_t npos;
};

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        abort();
    return p;
}

/* Whether operand k of instruction in may be a parameter. */
static int may_vary(LLVMValueRef in, unsigned k)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(in);
    switch (op) {
    case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl: case LLVMLShr: case LLVMAShr:
    case LLVMAnd: case LLVMOr: case LLVMXor:
    case LLVMICmp: case LLVMSelect: case LLVMPHI: case LLVMRet:
        return 1;
    case LLVMUDiv: case LLVMSDiv: case LLVMURem: case LLVMSRem:
        return k == 0;   /* a constant divisor becomes a multiply */
    case LLVMStore:
        return k == 0;
    case LLVMCall: {
        LLVMValueRef f = LLVMGetCalledValue(in);
        if (!f || !LLVMIsAFunction(f) || k >= (unsigned)LLVMGetNumArgOperands(in))
            return 0;
        if (!LLVMGetIntrinsicID(f))
            return 1;
        return !LLVMGetEnumAttributeAtIndex(f, k + 1, gm_attr_kind("immarg"));
    }
    default:
        return 0;
    }
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    return (h ^ v) * 0x100000001b3ull;
}

/* c's instructions and shape; 0 if some use of the copy is not a call of it. */
static int describe(struct mcopy *c)
{
    for (LLVMUseRef u = LLVMGetFirstUse(c->f); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!LLVMIsACallInst(user) || LLVMGetCalledValue(user) != c->f)
            return 0;
        c->calls++;
    }
    size_t cap = 0;
    uint64_t h = 0xcbf29ce484222325ull;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(c->f); bb; bb = LLVMGetNextBasicBlock(bb)) {
        h = mix(h, 0xb10c);
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
            if (c->nin == cap) {
                cap = cap ? 2 * cap : 64;
                c->in = xrealloc(c->in, cap * sizeof *c->in);
            }
            c->in[c->nin++] = in;
            h = mix(mix(h, (uint64_t)LLVMGetInstructionOpcode(in)), (uint64_t)LLVMGetNumOperands(in));
        }
    }
    c->shape = mix(h, (uint64_t)LLVMCountParams(c->f));
    c->insts = (unsigned)c->nin;
    c->cls = -1;
    return 1;
}

/* Positions where b's constants differ from a's, when that is all that
 * differs (else -1); appended to *pos. */
static long differences(const struct mcopy *a, const struct mcopy *b, struct pos **pos, size_t *npos)
{
    size_t n0 = *npos;
    if (a->shape != b->shape || a->nin != b->nin)
        return -1;
    for (size_t i = 0; i < a->nin; i++) {
        int no = LLVMGetNumOperands(a->in[i]);
        if (LLVMGetInstructionOpcode(a->in[i]) != LLVMGetInstructionOpcode(b->in[i]) ||
            no != LLVMGetNumOperands(b->in[i]))
            goto apart;
        for (unsigned k = 0; k < (unsigned)no; k++) {
            LLVMValueRef x = LLVMGetOperand(a->in[i], k), y = LLVMGetOperand(b->in[i], k);
            if (x == y || !LLVMIsAConstantInt(x) || !LLVMIsAConstantInt(y))
                continue;   /* anything else that differs shows in the text */
            if (LLVMTypeOf(x) != LLVMTypeOf(y) || !may_vary(a->in[i], k))
                goto apart;
            *pos = xrealloc(*pos, (*npos + 1) * sizeof **pos);
            (*pos)[(*npos)++] = (struct pos){i, k};
        }
    }
    if (*npos == n0)
        return -1;   /* no constant differs: ooltidy.c would have merged them */
    /* set b's constants to a's, compare the texts, set them back */
    LLVMValueRef *old = xrealloc(NULL, (*npos - n0) * sizeof *old);
    for (size_t p = n0; p < *npos; p++) {
        LLVMValueRef in = b->in[(*pos)[p].i];
        old[p - n0] = LLVMGetOperand(in, (*pos)[p].k);
        LLVMSetOperand(in, (*pos)[p].k, LLVMGetOperand(a->in[(*pos)[p].i], (*pos)[p].k));
    }
    char *ta = gm_ool_body_text(a->f), *tb = gm_ool_body_text(b->f);
    int same = strcmp(ta, tb) == 0;
    free(ta);
    free(tb);
    for (size_t p = n0; p < *npos; p++)
        LLVMSetOperand(b->in[(*pos)[p].i], (*pos)[p].k, old[p - n0]);
    free(old);
    if (same)
        return (long)(*npos - n0);
apart:
    *npos = n0;
    return -1;
}

/* The constant member m of class k has at position p. */
static LLVMValueRef value_at(const struct mcopy *c, const struct mclass *k, size_t m, struct pos p)
{
    return LLVMGetOperand(c[k->mem[m]].in[p.i], p.k);
}

/* Whether positions p and q hold the same constant in every member. */
static int same_values(const struct mcopy *c, const struct mclass *k, struct pos p, struct pos q)
{
    for (size_t m = 0; m < k->nmem; m++)
        if (value_at(c, k, m, p) != value_at(c, k, m, q))
            return 0;
    return 1;
}

/* Parameter of each position of k (positions with the same constants in
 * every member share one); returns how many. */
static unsigned params(const struct mcopy *c, const struct mclass *k, unsigned *param)
{
    unsigned n = 0;
    for (size_t p = 0; p < k->npos; p++) {
        param[p] = n;
        for (size_t q = 0; q < p; q++)
            if (same_values(c, k, k->pos[p], k->pos[q])) {
                param[p] = param[q];
                break;
            }
        n += param[p] == n;
    }
    return n;
}

/* Drops positions listed twice (two members differing at the same place). */
static void unique_positions(struct mclass *k)
{
    size_t n = 0;
    for (size_t p = 0; p < k->npos; p++) {
        size_t q = 0;
        while (q < n && (k->pos[q].i != k->pos[p].i || k->pos[q].k != k->pos[p].k))
            q++;
        if (q == n)
            k->pos[n++] = k->pos[p];
    }
    k->npos = n;
}

/* Calls of all members of k. */
static unsigned class_calls(const struct mcopy *c, const struct mclass *k)
{
    unsigned n = 0;
    for (size_t m = 0; m < k->nmem; m++)
        n += c[k->mem[m]].calls;
    return n;
}

/* Adds copy j to class k when it differs from the base in constants only
 * and saves more lines than its parameters cost. */
static int try_join(struct mcopy *c, struct mclass *k, size_t j)
{
    size_t npos0 = k->npos;
    unsigned *param = xrealloc(NULL, (k->npos + 1) * sizeof *param);
    unsigned before = k->npos ? params(c, k, param) : 0, calls0 = class_calls(c, k);
    if (differences(&c[k->mem[0]], &c[j], &k->pos, &k->npos) < 0) {
        free(param);
        return 0;
    }
    unique_positions(k);
    k->mem = xrealloc(k->mem, (k->nmem + 1) * sizeof *k->mem);
    k->mem[k->nmem++] = j;
    param = xrealloc(param, k->npos * sizeof *param);
    unsigned after = params(c, k, param);
    free(param);
    long long cost = (long long)GM_MERGE_ARG_LINES * ((long long)after * (calls0 + c[j].calls) -
                                                     (long long)before * calls0) + (after - before);
    if (after <= GM_MERGE_MAX_PARAMS && (long long)c[j].insts > cost) {
        c[j].cls = c[k->mem[0]].cls;
        return 1;
    }
    k->nmem--;
    k->npos = npos0;
    return 0;
}

/* The class's base with the parameters added, called by every member's
 * callers with that member's constants; the other members deleted. */
static void merge(LLVMModuleRef m, struct mcopy *c, struct mclass *k)
{
    struct mcopy *base = &c[k->mem[0]];
    unsigned *param = xrealloc(NULL, k->npos * sizeof *param);
    unsigned np = params(c, k, param), n0 = LLVMCountParams(base->f);
    LLVMTypeRef *t = xrealloc(NULL, (n0 + np) * sizeof *t);
    for (unsigned i = 0; i < n0; i++)
        t[i] = LLVMTypeOf(LLVMGetParam(base->f, i));
    for (size_t p = 0; p < k->npos; p++)
        t[n0 + param[p]] = LLVMTypeOf(value_at(c, k, 0, k->pos[p]));
    /* each member's constant per parameter, read before the base changes */
    LLVMValueRef *val = xrealloc(NULL, k->nmem * np * sizeof *val);
    for (size_t mm = 0; mm < k->nmem; mm++)
        for (size_t p = 0; p < k->npos; p++)
            val[mm * np + param[p]] = value_at(c, k, mm, k->pos[p]);
    LLVMValueRef nf = gm_ool_move_body(m, base->f, t, n0 + np);
    for (unsigned i = 0; i < n0; i++)
        LLVMReplaceAllUsesWith(LLVMGetParam(base->f, i), LLVMGetParam(nf, i));
    for (size_t p = 0; p < k->npos; p++)
        LLVMSetOperand(base->in[k->pos[p].i], k->pos[p].k, LLVMGetParam(nf, n0 + param[p]));
    for (size_t mm = 0; mm < k->nmem; mm++)
        gm_ool_recall(c[k->mem[mm]].f, nf, NULL, val + mm * np, np);
    gm_ool_take_name(nf, base->f);
    for (size_t mm = 0; mm < k->nmem; mm++)
        LLVMDeleteFunction(c[k->mem[mm]].f);
    free(val);
    free(t);
    free(param);
}

unsigned gm_ool_merge(LLVMModuleRef m)
{
    size_t n = 0, nk = 0;
    struct mcopy *c = NULL;
    if (gm_diag(GM_DIAG_NO_MERGE))
        return 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        size_t len = 0;
        if (LLVMIsDeclaration(f) || !gm_starts_with(LLVMGetValueName2(f, &len), GM_OOL_PREFIX))
            continue;
        c = xrealloc(c, (n + 1) * sizeof *c);
        memset(&c[n], 0, sizeof c[n]);
        c[n].f = f;
        if (describe(&c[n]))
            n++;
        else
            free(c[n].in);
    }
    struct mclass *k = xrealloc(NULL, n * sizeof *k);
    for (size_t i = 0; i < n; i++) {
        if (c[i].cls >= 0)
            continue;
        memset(&k[nk], 0, sizeof k[nk]);
        k[nk].mem = xrealloc(NULL, sizeof *k[nk].mem);
        k[nk].mem[k[nk].nmem++] = i;
        c[i].cls = (int)nk;
        for (size_t j = i + 1; j < n; j++)
            if (c[j].cls < 0)
                try_join(c, &k[nk], j);
        nk++;
    }
    unsigned merged = 0;
    for (size_t q = 0; q < nk; q++) {
        if (k[q].nmem > 1) {
            merge(m, c, &k[q]);
            merged += (unsigned)k[q].nmem - 1;
        }
        free(k[q].mem);
        free(k[q].pos);
    }
    for (size_t i = 0; i < n; i++)
        free(c[i].in);
    free(k);
    free(c);
    return merged;
}
