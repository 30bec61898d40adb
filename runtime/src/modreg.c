/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Registry of decoded site tables keyed by module id (uthash). Fed from the
 * device images seen at module load; a module loaded into several contexts
 * is registered once. Not thread-safe (the caller holds the runtime lock).
 * Pure C + uthash: no CUDA, CUPTI or LLVM.
 */
#include "rt_core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

struct gm_modreg_entry {
    uint64_t modid;
    struct gm_rt_sitetab tab;
    UT_hash_handle hh;
};

int gm_modreg_add_table(struct gm_modreg *reg, const char *sym, const void *data,
                        size_t size, char *err, size_t errlen)
{
    uint64_t symid = 0;
    char why[200];
    if (sym && gm_sitetab_symbol_modid(sym, &symid) != 0) {
        snprintf(err, errlen, "%s: symbol name lacks a 16-hex-digit module id", sym);
        return -1;
    }
    struct gm_rt_sitetab tab;
    if (gm_sitetab_decode(data, size, &tab, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s: %s", sym ? sym : "site table", why);
        return -1;
    }
    if (sym && tab.modid != symid) {
        snprintf(err, errlen, "%s: header module id %016llx does not match the symbol", sym,
                 (unsigned long long)tab.modid);
        gm_sitetab_free(&tab);
        return -1;
    }
    struct gm_modreg_entry *e;
    HASH_FIND(hh, reg->by_modid, &tab.modid, sizeof tab.modid, e);
    if (e) {
        gm_sitetab_free(&tab);
        return 1;
    }
    if (!(e = calloc(1, sizeof *e))) {
        gm_sitetab_free(&tab);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    e->modid = tab.modid;
    e->tab = tab;
    HASH_ADD(hh, reg->by_modid, modid, sizeof e->modid, e);
    reg->count++;
    return 0;
}

struct scan_ctx { struct gm_modreg *reg; int added; char *err; size_t errlen; };

static void sink(void *p, const char *sym, const void *data, size_t size)
{
    struct scan_ctx *c = p;
    char why[256];
    int r = gm_modreg_add_table(c->reg, sym, data, size, why, sizeof why);
    if (r == 0) c->added++;
    else if (r < 0) snprintf(c->err, c->errlen, "%s", why);
}

int gm_modreg_add_image(struct gm_modreg *reg, const void *img, size_t size,
                        char *err, size_t errlen)
{
    struct scan_ctx c = {reg, 0, err, errlen};
    if (err && errlen) err[0] = '\0';
    char why[256] = "";
    int n = gm_cubin_scan(img, size, sink, &c, why, sizeof why);
    if (err && errlen && (n < 0 || (why[0] && !err[0]))) snprintf(err, errlen, "%s", why);
    return n < 0 ? -1 : c.added;
}

const struct gm_rt_sitetab *gm_modreg_find(const struct gm_modreg *reg, uint64_t modid)
{
    struct gm_modreg_entry *e;
    HASH_FIND(hh, reg->by_modid, &modid, sizeof modid, e);
    return e ? &e->tab : NULL;
}

const struct gm_rt_sitetab *gm_modreg_next(const struct gm_modreg *reg,
                                           const struct gm_rt_sitetab *prev)
{
    if (!prev) return reg->by_modid ? &reg->by_modid->tab : NULL;
    struct gm_modreg_entry *e = (struct gm_modreg_entry *)((char *)prev -
                                offsetof(struct gm_modreg_entry, tab));
    struct gm_modreg_entry *n = e->hh.next;
    return n ? &n->tab : NULL;
}

void gm_modreg_destroy(struct gm_modreg *reg)
{
    struct gm_modreg_entry *e, *tmp;
    HASH_ITER(hh, reg->by_modid, e, tmp) {
        HASH_DEL(reg->by_modid, e);
        gm_sitetab_free(&e->tab);
        free(e);
    }
    reg->count = 0;
}
