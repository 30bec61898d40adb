/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Emits the site table of sitetab.h: header, sites, renamed globals and the
 * string table, as one constant byte array __gm_sitetab__<modid> in the
 * global address space, kept alive with llvm.used. Depends on LLVM-C and
 * the contract headers.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static_assert(sizeof(struct gm_sitetab_header) == 64, "sitetab header layout");
static_assert(sizeof(struct gm_site) == 24, "site layout");
static_assert(sizeof(struct gm_sitetab_global) == 24, "sitetab global layout");

static struct gm_sitetab_global table_global(struct gm_strtab *st, const struct gm_hglobal *g)
{
    struct gm_sitetab_global r;
    memset(&r, 0, sizeof r);
    r.name_str = gm_str_intern(st, g->name, strlen(g->name));
    r.sym_str = gm_str_intern(st, g->sym, strlen(g->sym));
    r.slots = g->slots;
    r.size = g->size;
    r.flags = g->flags;
    r.slotnames_str = g->slotnames ? gm_str_intern(st, g->slotnames, strlen(g->slotnames)) : 0;
    return r;
}

/* Serialises the table; *len receives its size. Host is little endian. */
static char *build(LLVMModuleRef m, uint64_t modid, struct gm_sites *s,
                   const struct gm_handlers *h, size_t *len)
{
    struct gm_sitetab_global *gl = calloc((size_t)h->nglobals + 1, sizeof *gl);
    for (int i = 0; i < h->nglobals; i++)
        gl[i] = table_global(&s->str, &h->globals[i]);
    size_t n = 0;
    const char *src = LLVMGetSourceFileName(m, &n);
    struct gm_sitetab_header hd;
    memset(&hd, 0, sizeof hd);
    memcpy(hd.magic, GM_SITETAB_MAGIC, sizeof hd.magic);
    hd.version = GM_SITETAB_VERSION;
    hd.header_size = sizeof hd;
    hd.modid = modid;
    hd.nsites = (uint32_t)s->n;
    hd.nglobals = (uint32_t)h->nglobals;
    hd.source_str = gm_str_intern(&s->str, src, n);
    hd.sites_off = sizeof hd;
    hd.globals_off = hd.sites_off + (uint32_t)(s->n * sizeof(struct gm_site));
    hd.strings_off = hd.globals_off + (uint32_t)((size_t)h->nglobals * sizeof *gl);
    hd.strings_size = (uint32_t)s->str.len;
    hd.n_asm_mem = s->n_asm;
    hd.abi_version = GM_ABI_VERSION;
    *len = hd.strings_off + s->str.len;
    char *buf = calloc(*len, 1);
    if (!buf || !gl)
        abort();
    memcpy(buf, &hd, sizeof hd);
    for (size_t i = 0; i < s->n; i++)
        memcpy(buf + hd.sites_off + i * sizeof(struct gm_site), &s->v[i].s, sizeof(struct gm_site));
    memcpy(buf + hd.globals_off, gl, (size_t)h->nglobals * sizeof *gl);
    memcpy(buf + hd.strings_off, s->str.buf, s->str.len);
    free(gl);
    return buf;
}

int gm_emit_sitetab(LLVMModuleRef m, uint64_t modid, struct gm_sites *s,
                    const struct gm_handlers *h, struct gm_err *e)
{
    size_t len = 0;
    char *buf = build(m, modid, s, h, &len);
    if (len > UINT32_MAX) {
        free(buf);
        return gm_fail(e, "site table too large (%zu bytes)", len);
    }
    char sym[64];
    snprintf(sym, sizeof sym, "%s%016llx", GM_SITETAB_SYM_PREFIX, (unsigned long long)modid);
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    LLVMValueRef init = LLVMConstStringInContext2(ctx, buf, len, 1);
    LLVMValueRef g = LLVMAddGlobalInAddressSpace(m, LLVMTypeOf(init), sym, GM_SPACE_GLOBAL);
    LLVMSetInitializer(g, init);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetAlignment(g, 8);
    gm_used_append(m, g);
    free(buf);
    return 0;
}
