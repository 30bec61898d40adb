/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Links the parsed handler modules into the device module: renames their
 * gm_ data globals to <name>__<modid> (recorded for the site table), hides
 * gm_nslots__/gm_slotnames__ (they only feed the site table), takes the
 * module's target-cpu/features so the handlers can be inlined, and its
 * nvvm-reflect-* module flags (fast math: -use_fast_math sets
 * nvvm-reflect-ftz; the handlers use no floating point, so the user's
 * value changes nothing in them, and theirs never overrides the user's),
 * then links (link_diag.cpp: the linker's error as one line naming the
 * handler file). Depends on LLVM-C (Core) and link_diag.cpp.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <llvm-c/Linker.h>
#include "internal.h"

static int is_slot_global(const char *name)
{
    return gm_starts_with(name, GM_NSLOTS_PREFIX) || gm_starts_with(name, GM_SLOTNAMES_PREFIX);
}

static int drop_handler_used(LLVMValueRef v, void *arg)
{
    (void)arg;
    size_t n = 0;
    if (LLVMIsAFunction(v))
        return !LLVMIsDeclaration(v);
    return LLVMIsAGlobalVariable(v) && is_slot_global(LLVMGetValueName2(v, &n));
}

static const struct gm_slots *find_slots(const struct gm_handlers *h, const char *analysis)
{
    for (int i = 0; i < h->nslots; i++)
        if (!strcmp(h->slots[i].name, analysis))
            return &h->slots[i];
    return NULL;
}

static void record_global(struct gm_handlers *h, LLVMModuleRef hm, LLVMValueRef g,
                          const char *name, const char *sym)
{
    struct gm_hglobal r = {gm_strdup(name, strlen(name)), gm_strdup(sym, strlen(sym)), 0, 0, 0, NULL};
    r.size = (uint32_t)LLVMABISizeOfType(LLVMGetModuleDataLayout(hm), LLVMGlobalGetValueType(g));
    const struct gm_slots *sl = gm_starts_with(name, GM_COUNTERS_PREFIX)
                                    ? find_slots(h, name + strlen(GM_COUNTERS_PREFIX)) : NULL;
    if (gm_starts_with(name, GM_COUNTERS_PREFIX))
        r.flags = GM_GLOBAL_COUNTERS;
    if (sl) {
        r.slots = sl->nslots & GM_NSLOTS_MASK;
        r.flags |= (sl->nslots & GM_NSLOTS_SINGLE) ? GM_GLOBAL_SINGLE : 0;
        r.slotnames = sl->slotnames ? gm_strdup(sl->slotnames, strlen(sl->slotnames)) : NULL;
    }
    h->globals = realloc(h->globals, (size_t)(h->nglobals + 1) * sizeof *h->globals);
    if (!h->globals)
        abort();
    h->globals[h->nglobals++] = r;
}

static void rename_globals(struct gm_handlers *h, LLVMModuleRef hm, uint64_t modid)
{
    for (LLVMValueRef g = LLVMGetFirstGlobal(hm); g; g = LLVMGetNextGlobal(g)) {
        size_t n = 0;
        const char *raw = LLVMGetValueName2(g, &n);
        char *name = gm_strdup(raw, n);
        if (is_slot_global(name)) {
            LLVMSetLinkage(g, LLVMInternalLinkage);   /* dropped unless used */
        } else if (!LLVMIsDeclaration(g) && gm_starts_with(name, GM_SYMBOL_PREFIX)) {
            char sym[512];
            snprintf(sym, sizeof sym, "%s__%016llx", name, (unsigned long long)modid);
            LLVMSetValueName2(g, sym, strlen(sym));
            LLVMSetLinkage(g, LLVMExternalLinkage);
            record_global(h, hm, g, name, sym);
        }
        free(name);
    }
}

/* Handlers take the module's target-cpu, features and denormal modes so
 * they inline, and "true" for the floating-point relaxations: inlining
 * ANDs those into the caller, and a handler (no floating point) must not
 * take the user's fast math away. */
static void copy_target_attrs(LLVMModuleRef m, LLVMModuleRef hm)
{
    static const char *keys[] = {"target-cpu", "target-features", "denormal-fp-math",
                                 "denormal-fp-math-f32"};
    static const char *relax[] = {"no-infs-fp-math", "no-nans-fp-math", "no-signed-zeros-fp-math",
                                  "unsafe-fp-math", "approx-func-fp-math"};
    LLVMContextRef ctx = LLVMGetModuleContext(hm);
    LLVMValueRef f = LLVMGetFirstFunction(m);
    while (f && LLVMIsDeclaration(f))
        f = LLVMGetNextFunction(f);
    if (!f)
        return;
    for (LLVMValueRef hf = LLVMGetFirstFunction(hm); hf; hf = LLVMGetNextFunction(hf)) {
        if (LLVMIsDeclaration(hf))
            continue;
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
            unsigned kl = (unsigned)strlen(keys[k]);
            LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, keys[k], kl);
            LLVMRemoveStringAttributeAtIndex(hf, LLVMAttributeFunctionIndex, keys[k], kl);
            if (a)
                LLVMAddAttributeAtIndex(hf, LLVMAttributeFunctionIndex, a);
        }
        for (size_t k = 0; k < sizeof relax / sizeof relax[0]; k++)
            LLVMAddAttributeAtIndex(hf, LLVMAttributeFunctionIndex,
                                    LLVMCreateStringAttribute(ctx, relax[k], (unsigned)strlen(relax[k]),
                                                              "true", 4));
    }
}

/* The user's value of each nvvm-reflect-* flag that both modules set
 * replaces the handler module's (its flag nodes are edited in place). */
static void take_reflect_flags(LLVMModuleRef m, LLVMModuleRef hm)
{
    unsigned n = LLVMGetNamedMetadataNumOperands(hm, "llvm.module.flags");
    if (!n)
        return;
    LLVMValueRef *ops = calloc(n, sizeof *ops);
    if (!ops)
        abort();
    LLVMGetNamedMetadataOperands(hm, "llvm.module.flags", ops);
    for (unsigned i = 0; i < n; i++) {
        if (LLVMGetMDNodeNumOperands(ops[i]) != 3)
            continue;
        LLVMValueRef f[3];
        LLVMGetMDNodeOperands(ops[i], f);
        unsigned len = 0;
        const char *key = f[1] ? LLVMGetMDString(f[1], &len) : NULL;
        if (!key || !gm_starts_with(key, "nvvm-reflect-"))
            continue;
        LLVMMetadataRef user = LLVMGetModuleFlag(m, key, len);
        if (user)
            LLVMReplaceMDNodeOperandWith(ops[i], 2, user);
    }
    free(ops);
}

int gm_handlers_link(struct gm_handlers *h, LLVMModuleRef m, uint64_t modid, struct gm_err *e)
{
    for (int i = 0; i < h->nmods; i++) {
        LLVMModuleRef hm = h->mods[i];
        LLVMSetTarget(hm, LLVMGetTarget(m));
        LLVMSetDataLayout(hm, LLVMGetDataLayoutStr(m));
        copy_target_attrs(m, hm);
        take_reflect_flags(m, hm);
        gm_used_remove(hm, drop_handler_used, NULL);
        rename_globals(h, hm, modid);
        h->mods[i] = NULL;                       /* linking destroys it */
        char msg[512] = "";
        if (gm_link_modules(m, hm, msg, sizeof msg))
            return gm_fail(e, "cannot link handler bitcode %s: %s%s", h->paths[i],
                           msg[0] ? msg : "unknown linker error",
                           strstr(msg, "multiply defined") ? " (an analysis or handler given twice?)" : "");
    }
    return 0;
}
