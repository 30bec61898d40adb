/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gm_pass_run: the pass's steps in order (options, handlers, constant data
 * placement, prepare, select sites, link, insert calls, module globals,
 * site table, inline, attributes, strip).
 * Acts on NVPTX modules only. Depends on LLVM-C and the other pass files.
 */
#include <stdlib.h>
#include <string.h>
#include <llvm-c/Analysis.h>
#include <llvm-c/DebugInfo.h>
#include "constdata.h"
#include "diag.h"
#include "internal.h"

static int is_nvptx(LLVMModuleRef m)
{
    return gm_starts_with(LLVMGetTarget(m), "nvptx");
}

/* An instrumented module already carries a site table: never twice. */
static int already_done(LLVMModuleRef m)
{
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g)) {
        size_t n = 0;
        if (gm_starts_with(LLVMGetValueName2(g, &n), GM_SITETAB_SYM_PREFIX))
            return 1;
    }
    return 0;
}

static void active_events(const struct gm_cfg *c, const struct gm_handlers *h, struct gm_active *a)
{
    a->ev[GM_EV_BMEM] = (c->before & GM_INST_MEMORY) && h->nfn[GM_EV_BMEM];
    a->ev[GM_EV_ALOAD] = (c->after & GM_INST_MEMORY) && h->nfn[GM_EV_ALOAD];
    a->ev[GM_EV_BRANCH] = (c->before & GM_INST_BRANCH) && h->nfn[GM_EV_BRANCH];
    a->ev[GM_EV_ENTRY] = (c->before & GM_INST_ENTRY) && h->nfn[GM_EV_ENTRY];
    a->ev[GM_EV_EXIT] = (c->before & GM_INST_EXIT) && h->nfn[GM_EV_EXIT];
}

static int any(const struct gm_active *a)
{
    for (int i = 0; i < GM_EV_N; i++)
        if (a->ev[i])
            return 1;
    return 0;
}

/* clang runs cc1 with -disable-llvm-verifier: check our own output. */
static int verify(LLVMModuleRef m, struct gm_err *e)
{
    char *msg = NULL;
    if (!LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
        LLVMDisposeMessage(msg);
        return 1;
    }
    size_t n = msg ? strcspn(msg, "\n") : 0;
    gm_fail(e, "internal error: instrumented module is invalid: %.*s", (int)n, msg ? msg : "");
    LLVMDisposeMessage(msg);
    return -1;
}

/* Steps after the handlers are known; returns 1 if m changed. */
static int instrument(LLVMModuleRef m, const struct gm_cfg *c, struct gm_handlers *h,
                      struct gm_err *e)
{
    struct gm_active a;
    active_events(c, h, &a);
    if (!any(&a) || already_done(m))
        return 0;
    uint64_t modid = gm_modid(m);
    if (c->native)
        gm_clone_kernels(m, c);
    if (gm_prepare(m, e) < 0)
        return -1;
    LLVMValueRef *fns = NULL;
    size_t nfns = 0;
    struct gm_sites s;
    memset(&s, 0, sizeof s);
    gm_select_functions(m, c, &fns, &nfns);
    gm_select_sites(m, fns, nfns, &a, &s);
    free(fns);
    if (!s.n && c->native)
        gm_drop_native_copies(m);   /* nothing instrumented: the kernels are native */
    int rc = 1;
    if (s.n && (gm_handlers_link(h, m, modid, e) < 0 || gm_insert_calls(m, &s, h, &a, c, e) < 0 ||
                gm_define_module_globals(m, modid, (uint32_t)s.n, h) < 0 ||
                gm_emit_sitetab(m, modid, &s, h, e) < 0 || gm_handlers_inline(m, &s, e) < 0))
        rc = -1;
    else if (s.n) {
        gm_fold_nsites(m);
        gm_order_functions(m);
        gm_used_move_last(m);
        gm_mend_attributes(m);
    }
    gm_strtab_free(&s.str);
    gm_sites_free(&s);
    return rc == 1 ? verify(m, e) : rc;
}

int gm_pass_run(LLVMModuleRef m, const struct gm_pass_options *o, char *err, size_t errlen)
{
    struct gm_err e = {err, errlen};
    gm_note_function(NULL);
    if (!o || o->size < sizeof *o)
        return gm_fail(&e, "options struct too small");
    if (!is_nvptx(m))
        return 0;
    gm_diag_set(o->diag);
    struct gm_cfg c;
    if (gm_cfg_parse(&c, o, &e) < 0)
        return -1;
    int rc = 0;
    if (!c.off) {
        struct gm_handlers h;
        rc = gm_handlers_load(&h, LLVMGetModuleContext(m), &c, &e);
        if (rc == 0)
            rc = gm_constdata_fit(m, gm_constdata_reserve(&h), &e);
        if (rc >= 0) {
            int r = instrument(m, &c, &h, &e);
            rc = r < 0 ? r : r | rc;
        }
        gm_handlers_free(&h);
    } else {
        rc = gm_constdata_fit(m, 0, &e);
    }
    if (rc >= 0 && c.strip && LLVMStripModuleDebugInfo(m))
        rc = 1;
    gm_cfg_free(&c);
    return rc;
}
