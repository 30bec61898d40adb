/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Parses the -gm-* option strings into struct gm_cfg: event lists, the two
 * POSIX regexes, the handler file list. Depends on libc (regex.h) only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static const struct { const char *name; unsigned bit; } gm_inst_names[] = {
    {"memory", GM_INST_MEMORY},
    {"cond-branches", GM_INST_BRANCH},
    {"kernel-entry", GM_INST_ENTRY},
    {"kernel-exit", GM_INST_EXIT},
};

/* One comma-separated list of event names into bits; allowed limits them. */
static int parse_events(const char *opt, const char *s, unsigned allowed, unsigned *out,
                        struct gm_err *e)
{
    *out = 0;
    while (*s) {
        size_t n = strcspn(s, ",");
        unsigned bit = 0;
        for (size_t i = 0; i < sizeof gm_inst_names / sizeof gm_inst_names[0]; i++)
            if (strlen(gm_inst_names[i].name) == n && !strncmp(s, gm_inst_names[i].name, n))
                bit = gm_inst_names[i].bit;
        if (n && !(bit & allowed))
            return gm_fail(e, "%s: unknown event '%.*s'", opt, (int)n, s);
        *out |= bit;
        s += n + (s[n] == ',');
    }
    return 0;
}

static int compile_re(const char *opt, const char *s, regex_t *re, int *has, struct gm_err *e)
{
    *has = 0;
    if (!*s)
        return 0;
    int rc = regcomp(re, s, REG_EXTENDED | REG_NOSUB);
    if (rc) {
        char msg[256];
        regerror(rc, re, msg, sizeof msg);
        return gm_fail(e, "%s: bad regular expression '%s': %s", opt, s, msg);
    }
    *has = 1;
    return 0;
}

static void split_paths(struct gm_cfg *c, const char *s)
{
    while (*s) {
        size_t n = strcspn(s, ",");
        if (n) {
            c->paths = realloc(c->paths, (size_t)(c->npaths + 1) * sizeof *c->paths);
            if (!c->paths)
                abort();
            c->paths[c->npaths++] = gm_strdup(s, n);
        }
        s += n + (s[n] == ',');
    }
}

int gm_cfg_parse(struct gm_cfg *c, const struct gm_pass_options *o, struct gm_err *e)
{
    memset(c, 0, sizeof *c);
    c->strip = o->strip_debug;
    c->off = o->off;
    c->reconverge = o->reconverge;
    c->growth_pct = o->inline_growth;
    c->native = o->native_copies;
    if (parse_events("-gm-inst-before", o->inst_before,
                     GM_INST_MEMORY | GM_INST_BRANCH | GM_INST_ENTRY | GM_INST_EXIT,
                     &c->before, e) < 0 ||
        parse_events("-gm-inst-after", o->inst_after, GM_INST_MEMORY, &c->after, e) < 0)
        return -1;
    if (compile_re("-gm-kernels", o->kernels, &c->kre, &c->has_kre, e) < 0)
        return -1;
    if (compile_re("-gm-files", o->files, &c->fre, &c->has_fre, e) < 0) {
        gm_cfg_free(c);
        return -1;
    }
    split_paths(c, o->handlers);
    return 0;
}

void gm_cfg_free(struct gm_cfg *c)
{
    if (c->has_kre)
        regfree(&c->kre);
    if (c->has_fre)
        regfree(&c->fre);
    for (int i = 0; i < c->npaths; i++)
        free(c->paths[i]);
    free(c->paths);
    memset(c, 0, sizeof *c);
}
