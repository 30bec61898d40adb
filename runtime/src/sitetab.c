/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Decoding and validation of gpumem site tables (include/gpumem/sitetab.h).
 * Every offset and string reference is checked before use, so a corrupt
 * table is rejected with a message, never read out of bounds.
 * Pure C: must not depend on CUDA, CUPTI or LLVM.
 */
#include "rt_core.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && errlen) vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* [off, off + count*elem) inside [0, size) and off aligned to 4. */
static int range_ok(uint64_t off, uint64_t count, uint64_t elem, uint64_t size)
{
    if (off % 4) return 0;
    if (count && elem > (UINT64_MAX - off) / count) return 0;
    return off + count * elem <= size;
}

static int check_header(const struct gm_sitetab_header *h, size_t size, char *err, size_t errlen)
{
    if (memcmp(h->magic, GM_SITETAB_MAGIC, sizeof h->magic) != 0)
        return fail(err, errlen, "bad magic (not a gpumem site table)");
    if (h->version != GM_SITETAB_VERSION)
        return fail(err, errlen, "site table version %u, this runtime reads version %u",
                    h->version, GM_SITETAB_VERSION);
    if (h->header_size < sizeof *h || h->header_size > size)
        return fail(err, errlen, "header_size %u out of range", h->header_size);
    if (h->abi_version != GM_ABI_VERSION)
        return fail(err, errlen, "handler ABI version %u, this runtime knows %u",
                    h->abi_version, GM_ABI_VERSION);
    if (!range_ok(h->sites_off, h->nsites, sizeof(struct gm_site), size))
        return fail(err, errlen, "sites [%u x %u at %u] exceed table size %zu",
                    h->nsites, (unsigned)sizeof(struct gm_site), h->sites_off, size);
    if (!range_ok(h->globals_off, h->nglobals, sizeof(struct gm_sitetab_global), size))
        return fail(err, errlen, "globals [%u at %u] exceed table size %zu",
                    h->nglobals, h->globals_off, size);
    if (h->strings_size == 0 || (uint64_t)h->strings_off + h->strings_size > size)
        return fail(err, errlen, "strings [%u bytes at %u] exceed table size %zu",
                    h->strings_size, h->strings_off, size);
    return 0;
}

static int str_ok(const struct gm_rt_sitetab *t, uint32_t off)
{
    return off < t->hdr->strings_size;
}

static int check_refs(const struct gm_rt_sitetab *t, char *err, size_t errlen)
{
    const struct gm_sitetab_header *h = t->hdr;
    if (t->strings[h->strings_size - 1] != '\0')
        return fail(err, errlen, "string section is not NUL-terminated");
    if (!str_ok(t, h->source_str))
        return fail(err, errlen, "source name offset %u out of range", h->source_str);
    for (uint32_t i = 0; i < h->nsites; i++) {
        const struct gm_site *s = &t->sites[i];
        if (s->event < GM_EVENT_MEM || s->event > GM_EVENT_ASM_MEM)
            return fail(err, errlen, "site %u: unknown event kind %u", i, s->event);
        if (!str_ok(t, s->func_str) || !str_ok(t, s->file_str))
            return fail(err, errlen, "site %u: string offset out of range", i);
    }
    for (uint32_t i = 0; i < h->nglobals; i++) {
        const struct gm_sitetab_global *g = &t->globals[i];
        if (!str_ok(t, g->name_str) || !str_ok(t, g->sym_str) || !str_ok(t, g->slotnames_str))
            return fail(err, errlen, "global %u: string offset out of range", i);
        if (g->sym_str == 0)
            return fail(err, errlen, "global %u: no symbol name", i);
        if ((g->flags & GM_GLOBAL_COUNTERS) && (g->slots == 0 || g->slots > GM_NSLOTS_MASK))
            return fail(err, errlen, "global %u (%s): counters with %u slots", i,
                        t->strings + g->name_str, g->slots);
    }
    return 0;
}

int gm_sitetab_decode(const void *data, size_t size, struct gm_rt_sitetab *out,
                      char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (!data || size < sizeof(struct gm_sitetab_header))
        return fail(err, errlen, "site table truncated (%zu bytes, header needs %zu)",
                    size, sizeof(struct gm_sitetab_header));
    /* copy into malloc'd (8-aligned) memory: cubin data need not be aligned */
    out->bytes = malloc(size);
    if (!out->bytes) return fail(err, errlen, "out of memory");
    memcpy(out->bytes, data, size);
    out->size = size;
    out->hdr = (const struct gm_sitetab_header *)out->bytes;
    if (check_header(out->hdr, size, err, errlen) != 0) goto err_out;
    out->modid = out->hdr->modid;
    out->sites = (const struct gm_site *)(out->bytes + out->hdr->sites_off);
    out->globals = (const struct gm_sitetab_global *)(out->bytes + out->hdr->globals_off);
    out->strings = (const char *)out->bytes + out->hdr->strings_off;
    if (check_refs(out, err, errlen) != 0) goto err_out;
    return 0;
err_out:
    gm_sitetab_free(out);
    return -1;
}

void gm_sitetab_free(struct gm_rt_sitetab *t)
{
    free(t->bytes);
    memset(t, 0, sizeof *t);
}

const char *gm_sitetab_str(const struct gm_rt_sitetab *t, uint32_t off)
{
    return off < t->hdr->strings_size ? t->strings + off : "";
}

int gm_sitetab_symbol_modid(const char *sym, uint64_t *modid)
{
    size_t n = strlen(GM_SITETAB_SYM_PREFIX);
    if (strncmp(sym, GM_SITETAB_SYM_PREFIX, n) != 0) return -1;
    const char *hex = sym + n;
    if (strlen(hex) != 16 || strspn(hex, "0123456789abcdef") != 16) return -1;
    *modid = strtoull(hex, NULL, 16);
    return 0;
}

static const char *space_name(unsigned sp)
{
    switch (sp) {
    case GM_SPACE_GENERIC: return "generic";
    case GM_SPACE_GLOBAL: return "global";
    case GM_SPACE_SHARED: return "shared";
    case GM_SPACE_CONST: return "const";
    case GM_SPACE_LOCAL: return "local";
    case GM_SPACE_PARAM: return "param";
    default: return "space?";
    }
}

static const char *mem_op_name(uint32_t info)
{
    if (info & GM_INFO_ATOMIC) return "atomic";
    if (info & GM_INFO_MEMINTR) return (info & GM_INFO_STORE) ? "memintr.st" : "memintr.ld";
    if (info & GM_INFO_STORE) return "store";
    return "load";
}

void gm_site_describe(const struct gm_site *s, char *buf, size_t len)
{
    switch (s->event) {
    case GM_EVENT_MEM:
        snprintf(buf, len, "%s.%s.%u", mem_op_name(s->info), space_name(s->space),
                 (unsigned)GM_INFO_WIDTH(s->info));
        break;
    case GM_EVENT_BRANCH:
        snprintf(buf, len, "%s", (s->info & GM_BRINFO_SWITCH) ? "switch" : "branch");
        break;
    case GM_EVENT_KERNEL_ENTRY: snprintf(buf, len, "entry"); break;
    case GM_EVENT_KERNEL_EXIT: snprintf(buf, len, "exit"); break;
    case GM_EVENT_ASM_MEM: snprintf(buf, len, "asm (not instrumented)"); break;
    default: snprintf(buf, len, "event%u", s->event); break;
    }
}
