/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gpumem-sitetab: print the site tables of a cubin, fatbin or raw table
 * file with the same reader libgpumem uses at module load. For users
 * (what did the pass record?) and for the runtime's lit tests.
 * Uses only the runtime core: must not depend on CUDA, CUPTI or LLVM.
 */
#include "rt_core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gm_grow.h"

static void *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 0, n = 0;
    unsigned char *buf = NULL;
    for (size_t r = 1; r;) {
        if (GM_GROW_TO(buf, cap, n + (1 << 16))) {
            free(buf);
            buf = NULL;
            break;
        }
        n += r = fread(buf + n, 1, cap - n, f);
    }
    fclose(f);
    *size = n;
    return buf;
}

static const char *flags_text(uint32_t fl, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s%s", (fl & GM_GLOBAL_COUNTERS) ? "counters " : "",
             (fl & GM_GLOBAL_SINGLE) ? "single " : "", (fl & GM_GLOBAL_MODULE) ? "module " : "");
    size_t n = strlen(buf);
    if (n) buf[n - 1] = '\0';
    else snprintf(buf, len, "none");
    return buf;
}

static void print_table(const struct gm_rt_sitetab *t)
{
    const struct gm_sitetab_header *h = t->hdr;
    printf("table %016llx: source %s, %u sites, %u globals, %u inline-asm\n",
           (unsigned long long)t->modid, gm_sitetab_str(t, h->source_str), h->nsites,
           h->nglobals, h->n_asm_mem);
    for (uint32_t i = 0; i < h->nsites; i++) {
        const struct gm_site *s = &t->sites[i];
        char d[64];
        gm_site_describe(s, d, sizeof d);
        printf("  site %u: %s in %s at %s:%u:%u info 0x%08x when %s%s\n", i, d,
               gm_sitetab_str(t, s->func_str), gm_sitetab_str(t, s->file_str), s->line,
               s->column, s->info, (s->when & GM_WHEN_BEFORE) ? "b" : "",
               (s->when & GM_WHEN_AFTER) ? "a" : "");
    }
    for (uint32_t i = 0; i < h->nglobals; i++) {
        const struct gm_sitetab_global *g = &t->globals[i];
        char fl[64];
        printf("  global %s -> %s slots %u size %u flags %s names \"%s\"\n",
               gm_sitetab_str(t, g->name_str), gm_sitetab_str(t, g->sym_str), g->slots, g->size,
               flags_text(g->flags, fl, sizeof fl), gm_sitetab_str(t, g->slotnames_str));
    }
}

static int dump(const char *path, int raw)
{
    size_t size = 0;
    void *img = read_file(path, &size);
    if (!img) {
        fprintf(stderr, "gpumem-sitetab: %s: cannot read\n", path);
        return 1;
    }
    struct gm_modreg reg = {0};
    char err[300] = "";
    int n = raw ? (gm_modreg_add_table(&reg, NULL, img, size, err, sizeof err) == 0 ? 1 : -1)
                : gm_modreg_add_image(&reg, img, size, err, sizeof err);
    free(img);
    for (const struct gm_rt_sitetab *t = NULL; (t = gm_modreg_next(&reg, t));) print_table(t);
    gm_modreg_destroy(&reg);
    if (err[0]) fprintf(stderr, "gpumem-sitetab: %s: %s\n", path, err);
    if (n == 0 && !err[0]) fprintf(stderr, "gpumem-sitetab: %s: no site tables\n", path);
    return (n <= 0 || err[0]) ? 1 : 0;
}

int main(int argc, char **argv)
{
    int raw = 0, rc = 0, files = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--raw")) raw = 1;
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("usage: gpumem-sitetab [--raw] FILE...\n"
                   "Print the gpumem site tables in cubin/fatbin FILEs (--raw: FILE is one table).\n");
            return 0;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "gpumem-sitetab: unknown option %s\n", argv[i]);
            return 2;
        } else {
            rc |= dump(argv[i], raw);
            files++;
        }
    }
    if (!files) {
        fprintf(stderr, "gpumem-sitetab: no input files (try --help)\n");
        return 2;
    }
    return rc;
}
