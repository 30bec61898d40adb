/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Loads handler bitcode: parses each file, finds the event functions by name
 * (abi.h), checks their signatures, reads gm_nslots__/gm_slotnames__, marks
 * every function as handler code. Linking is in link.c. Depends on LLVM-C.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <llvm-c/BitReader.h>
#include "internal.h"

static const char *const gm_ev_prefix[GM_EV_N] = {
    GM_EV_BEFORE_MEM_PREFIX, GM_EV_AFTER_LOAD_PREFIX, GM_EV_BEFORE_BRANCH_PREFIX,
    GM_EV_KERNEL_ENTRY_PREFIX, GM_EV_KERNEL_EXIT_PREFIX};
/* Parameter widths of each event's handler (abi.h); 0 ends the list. */
static const unsigned gm_ev_params[GM_EV_N][5] = {
    {32, 64, 32, 64, 0}, {32, 64, 32, 64, 0}, {32, 32, 32, 0, 0}, {32, 0, 0, 0, 0}, {32, 0, 0, 0, 0}};

static int check_signature(LLVMValueRef f, int ev, const char *name, struct gm_err *e)
{
    LLVMTypeRef ft = LLVMGlobalGetValueType(f);
    unsigned n = 0;
    while (n < 4 && gm_ev_params[ev][n])
        n++;
    int ok = LLVMGetTypeKind(LLVMGetReturnType(ft)) == LLVMVoidTypeKind &&
             LLVMCountParamTypes(ft) == n && !LLVMIsFunctionVarArg(ft);
    LLVMTypeRef p[4];
    if (ok)
        LLVMGetParamTypes(ft, p);
    for (unsigned i = 0; ok && i < n; i++)
        ok = LLVMGetTypeKind(p[i]) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(p[i]) == gm_ev_params[ev][i];
    return ok ? 0 : gm_fail(e, "handler %s does not have the signature of abi.h", name);
}

static void add_fn(struct gm_handlers *h, int ev, const char *name, size_t n)
{
    h->fn[ev] = realloc(h->fn[ev], (size_t)(h->nfn[ev] + 1) * sizeof *h->fn[ev]);
    if (!h->fn[ev])
        abort();
    h->fn[ev][h->nfn[ev]++] = gm_strdup(name, n);
}

static int scan_functions(struct gm_handlers *h, LLVMModuleRef hm, struct gm_err *e)
{
    LLVMContextRef ctx = LLVMGetModuleContext(hm);
    LLVMAttributeRef mark = LLVMCreateStringAttribute(ctx, GM_HANDLER_ATTR,
                                                      (unsigned)strlen(GM_HANDLER_ATTR), "", 0);
    for (LLVMValueRef f = LLVMGetFirstFunction(hm); f; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f))
            continue;
        LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, mark);
        size_t n = 0;
        const char *name = LLVMGetValueName2(f, &n);
        for (int ev = 0; ev < GM_EV_N; ev++) {
            if (!gm_starts_with(name, gm_ev_prefix[ev]))
                continue;
            if (check_signature(f, ev, name, e) < 0)
                return -1;
            add_fn(h, ev, name, n);
        }
    }
    return 0;
}

static void read_slots(struct gm_handlers *h, LLVMModuleRef hm)
{
    for (LLVMValueRef g = LLVMGetFirstGlobal(hm); g; g = LLVMGetNextGlobal(g)) {
        size_t n = 0;
        const char *name = LLVMGetValueName2(g, &n);
        LLVMValueRef init = LLVMIsDeclaration(g) ? NULL : LLVMGetInitializer(g);
        if (!init || !gm_starts_with(name, GM_NSLOTS_PREFIX) || !LLVMIsAConstantInt(init))
            continue;
        const char *an = name + strlen(GM_NSLOTS_PREFIX);
        struct gm_slots sl = {gm_strdup(an, strlen(an)), (uint32_t)LLVMConstIntGetZExtValue(init), NULL};
        char sn[256];
        snprintf(sn, sizeof sn, "%s%s", GM_SLOTNAMES_PREFIX, an);
        LLVMValueRef s = LLVMGetNamedGlobal(hm, sn);
        LLVMValueRef si = s && !LLVMIsDeclaration(s) ? LLVMGetInitializer(s) : NULL;
        size_t len = 0;
        const char *str = si && LLVMIsAConstantDataSequential(si) && LLVMIsConstantString(si)
                              ? LLVMGetAsString(si, &len) : NULL;   /* "" is zeroinitializer */
        sl.slotnames = str ? gm_strdup(str, strnlen(str, len)) : NULL;
        h->slots = realloc(h->slots, (size_t)(h->nslots + 1) * sizeof *h->slots);
        if (!h->slots)
            abort();
        h->slots[h->nslots++] = sl;
    }
}

/* Raw bitcode ("BC" 0xC0DE) or the bitcode wrapper (0x0B17C0DE). */
static int is_bitcode(LLVMMemoryBufferRef buf)
{
    const unsigned char *p = (const unsigned char *)LLVMGetBufferStart(buf);
    if (LLVMGetBufferSize(buf) < 4)
        return 0;
    return (p[0] == 'B' && p[1] == 'C' && p[2] == 0xc0 && p[3] == 0xde) ||
           (p[0] == 0xde && p[1] == 0xc0 && p[2] == 0x17 && p[3] == 0x0b);
}

int gm_handlers_load(struct gm_handlers *h, LLVMContextRef ctx, const struct gm_cfg *c,
                     struct gm_err *e)
{
    memset(h, 0, sizeof *h);
    h->mods = calloc((size_t)c->npaths + 1, sizeof *h->mods);
    h->paths = c->paths;
    for (int i = 0; i < c->npaths; i++) {
        LLVMMemoryBufferRef buf = NULL;
        char *msg = NULL;
        if (LLVMCreateMemoryBufferWithContentsOfFile(c->paths[i], &buf, &msg)) {
            gm_fail(e, "cannot read handler bitcode %s: %s", c->paths[i], msg ? msg : "?");
            LLVMDisposeMessage(msg);
            return -1;
        }
        LLVMModuleRef hm = NULL;
        /* a non-bitcode file would reach the host's diagnostic handler */
        int bad = !is_bitcode(buf) || LLVMParseBitcodeInContext2(ctx, buf, &hm);
        LLVMDisposeMemoryBuffer(buf);
        if (bad)
            return gm_fail(e, "%s is not an LLVM bitcode file", c->paths[i]);
        h->mods[h->nmods++] = hm;
        if (scan_functions(h, hm, e) < 0)
            return -1;
        read_slots(h, hm);
    }
    return 0;
}

void gm_handlers_free(struct gm_handlers *h)
{
    for (int i = 0; i < h->nmods; i++)
        if (h->mods[i])
            LLVMDisposeModule(h->mods[i]);
    free(h->mods);
    for (int ev = 0; ev < GM_EV_N; ev++) {
        for (int i = 0; i < h->nfn[ev]; i++)
            free(h->fn[ev][i]);
        free(h->fn[ev]);
    }
    for (int i = 0; i < h->nslots; i++) {
        free(h->slots[i].name);
        free(h->slots[i].slotnames);
    }
    free(h->slots);
    for (int i = 0; i < h->nglobals; i++) {
        free(h->globals[i].name);
        free(h->globals[i].sym);
        free(h->globals[i].slotnames);
    }
    free(h->globals);
    memset(h, 0, sizeof *h);
}
