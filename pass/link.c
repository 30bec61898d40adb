/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Links the parsed handler modules into the device module: renames their
 * gm_ data globals to <name>__<modid> (recorded for the site table), hides
 * gm_nslots__/gm_slotnames__ (they only feed the site table), takes the
 * module's target-cpu/features so the handlers can be inlined, then
 * LLVMLinkModules2. Depends on LLVM-C (Core, Linker).
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

/* Handlers take the module's target-cpu and features so they inline. */
static void copy_target_attrs(LLVMModuleRef m, LLVMModuleRef hm)
{
    static const char *keys[] = {"target-cpu", "target-features"};
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f))
            continue;
        for (int k = 0; k < 2; k++) {
            unsigned kl = (unsigned)strlen(keys[k]);
            LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, keys[k], kl);
            for (LLVMValueRef hf = LLVMGetFirstFunction(hm); hf; hf = LLVMGetNextFunction(hf)) {
                if (LLVMIsDeclaration(hf))
                    continue;
                LLVMRemoveStringAttributeAtIndex(hf, LLVMAttributeFunctionIndex, keys[k], kl);
                if (a)
                    LLVMAddAttributeAtIndex(hf, LLVMAttributeFunctionIndex, a);
            }
        }
        return;
    }
}

int gm_handlers_link(struct gm_handlers *h, LLVMModuleRef m, uint64_t modid, struct gm_err *e)
{
    for (int i = 0; i < h->nmods; i++) {
        LLVMModuleRef hm = h->mods[i];
        LLVMSetTarget(hm, LLVMGetTarget(m));
        LLVMSetDataLayout(hm, LLVMGetDataLayoutStr(m));
        copy_target_attrs(m, hm);
        gm_used_remove(hm, drop_handler_used, NULL);
        rename_globals(h, hm, modid);
        h->mods[i] = NULL;                       /* LLVMLinkModules2 destroys it */
        if (LLVMLinkModules2(m, hm))
            return gm_fail(e, "linking handler bitcode failed (duplicate definitions?)");
    }
    return 0;
}
