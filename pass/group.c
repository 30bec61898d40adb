/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Site groups (handler.h, GM_BEFORE_MEM_GROUP): when every before_mem
 * handler defines a group handler, consecutive memory sites of one basic
 * block whose before_mem calls would go out of line (outline.c), whose info
 * words agree in every bit those handlers read (infobits.c: a load and a
 * store of one width for coalescing), of the global, shared or local
 * space (no memory intrinsic), no
 * call between them, and addresses that ScalarEvolution (scev.cpp) proves
 * to differ from the first site's by a constant, a multiple of the grain
 * (GM_GROUP_GRAIN_*: 128 B global, 4 B shared and local), become one group: its first site calls the group
 * handlers once for all of them (outline.c, gm_ool_group_call), the others
 * call nothing before their access. A block runs under one warp mask and no
 * call between could exit a thread or split the warp (oolrun.c makes the
 * same argument), so the handlers see the lanes of every site, and each
 * lane's address at site k is its first address plus the site's offset.
 * minimod-cuda's stencil: 25 shared loads s_u[...] of one block, one base,
 * offsets of 4 B multiples: one call instead of 25. Depends on LLVM-C
 * (Core), scev.cpp and outline.c (gm_ool_hot).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* Mirrors handler.h (GM_GROUP_GRAIN_GLOBAL, GM_GROUP_GRAIN). */
#define GM_GROUP_GRAIN_GLOBAL 128
#define GM_GROUP_GRAIN 4
/* Sites of one group at most (the count is a 16-bit plan entry). */
#define GM_GROUP_MAX 4096

/* scev.cpp */
struct gm_scev;
struct gm_scev *gm_scev_new(LLVMValueRef f);
void gm_scev_free(struct gm_scev *s);
int gm_scev_diff(struct gm_scev *s, LLVMValueRef a, LLVMValueRef b, long long *d);

/* The group handler of before_mem handler `name` (gm_before_mem__X ->
 * gm_before_mem_group__X) when the module defines it, else NULL. */
LLVMValueRef gm_group_fn(LLVMModuleRef m, const char *name)
{
    size_t pl = strlen(GM_EV_BEFORE_MEM_PREFIX);
    char buf[512];
    if (strncmp(name, GM_EV_BEFORE_MEM_PREFIX, pl) ||
        snprintf(buf, sizeof buf, "%s%s", GM_GROUP_PREFIX, name + pl) >= (int)sizeof buf)
        return NULL;
    LLVMValueRef f = LLVMGetNamedFunction(m, buf);
    return f && !LLVMIsDeclaration(f) ? f : NULL;
}

/* The info bits that the before_mem handlers and their group handlers
 * read (infobits.c), or 0 when some handler has no group handler: sites
 * whose info words agree in these bits (a load and a store of one width
 * and space, for coalescing) are counted alike. */
static uint64_t group_info_bits(const struct gm_ool *o)
{
    int n = o->h->nfn[GM_EV_BMEM];
    uint64_t bits = o->infomask[GM_EV_BMEM];
    for (int i = 0; i < n; i++) {
        LLVMValueRef g = gm_group_fn(o->m, o->h->fn[GM_EV_BMEM][i]);
        if (!g)
            return 0;
        bits |= gm_demanded_arg_bits(g, 3);
    }
    return n > 0 ? bits : 0;
}

/* Offsets between a group's sites are multiples of this (0: no groups). */
static long long grain(uint32_t info)
{
    uint32_t s = GM_INFO_SPACE(info);
    if (info & GM_INFO_MEMINTR)
        return 0;
    return s == GM_SPACE_GLOBAL ? GM_GROUP_GRAIN_GLOBAL
         : s == GM_SPACE_SHARED || s == GM_SPACE_LOCAL ? GM_GROUP_GRAIN : 0;
}

/* Whether site i's before_mem call could join a group. */
static int member(struct gm_ool *o, size_t i)
{
    const struct gm_site_rec *r = &o->sites->v[i];
    return r->kind == GM_SK_MEM && (r->s.when & GM_WHEN_BEFORE) && grain(r->s.info) &&
           !gm_ool_hot(o, GM_EV_BMEM, (uint32_t)i);
}

/* Whether call in can stand between two sites of a group: lifetime and
 * debug markers, and intrinsics that touch no memory (special registers
 * such as %tid, arithmetic): none of them can exit a thread or split the
 * warp (barriers, traps and warp syncs all have memory effects). */
static int harmless_call(LLVMValueRef in)
{
    LLVMValueRef f = LLVMGetCalledValue(in);
    if (!f || !LLVMIsAFunction(f) || !LLVMGetIntrinsicID(f))
        return 0;
    size_t n = 0;
    const char *name = LLVMGetValueName2(f, &n);
    if (gm_starts_with(name, "llvm.lifetime.") || gm_starts_with(name, "llvm.dbg."))
        return 1;
    return gm_intrinsic_pure(f);
}

/* Whether b follows a in their block with no call between but harmless
 * ones. */
static int no_call_between(LLVMValueRef a, LLVMValueRef b)
{
    LLVMValueRef in = LLVMGetNextInstruction(a);
    for (; in && in != b; in = LLVMGetNextInstruction(in))
        if ((LLVMIsACallInst(in) || LLVMIsAInvokeInst(in) || LLVMIsACallBrInst(in)) &&
            !harmless_call(in))
            return 0;
    return in == b;
}

/* Whether site i continues the group that starts at site i0 (se: the
 * analyses of their function; bits: group_info_bits). */
static int extends(struct gm_ool *o, struct gm_scev *se, uint64_t bits, size_t i0, size_t i)
{
    const struct gm_site_rec *r = &o->sites->v[i], *p = &o->sites->v[i - 1];
    if (i - i0 >= GM_GROUP_MAX || !member(o, i) || ((r->s.info ^ o->sites->v[i0].s.info) & bits) ||
        LLVMGetInstructionParent(r->inst) != LLVMGetInstructionParent(p->inst) ||
        !no_call_between(p->inst, r->inst))
        return 0;
    long long d = 0;
    return gm_scev_diff(se, r->ptr, o->sites->v[i0].ptr, &d) && d % grain(r->s.info) == 0;
}

static LLVMValueRef site_fn(const struct gm_site_rec *r)
{
    return LLVMGetBasicBlockParent(LLVMGetInstructionParent(r->inst));
}

void gm_group_plan(struct gm_ool *o)
{
    size_t n = o->sites ? o->sites->n : 0;
    o->group = calloc(n + 1, sizeof *o->group);
    if (!o->group)
        abort();
    for (size_t i = 0; i < n; i++)
        o->group[i] = 1;
    uint64_t bits = group_info_bits(o);
    if (!bits)
        return;
    struct gm_scev *se = NULL;
    LLVMValueRef sef = NULL;
    for (size_t i0 = 0, i1; i0 < n; i0 = i1) {
        i1 = i0 + 1;
        if (i1 == n || !member(o, i0) || !member(o, i1))
            continue;
        if (sef != site_fn(&o->sites->v[i0])) {   /* sites come grouped by function */
            gm_scev_free(se);
            sef = site_fn(&o->sites->v[i0]);
            se = gm_scev_new(sef);
        }
        while (i1 < n && extends(o, se, bits, i0, i1))
            i1++;
        if (i1 - i0 < 2)
            continue;
        o->group[i0] = (unsigned short)(i1 - i0);
        for (size_t k = i0 + 1; k < i1; k++)
            o->group[k] = 0;
    }
    gm_scev_free(se);
}
