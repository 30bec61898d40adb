/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gpumemcc: nvcc's -arch / -code / -gencode forms reduced to a list of
 * (sm number, embed SASS, embed PTX) and written as clang's --cuda-gpu-arch
 * and --no-cuda-include-ptx flags. Depends on gpumemcc.h and libc only.
 *
 * nvcc semantics kept: -arch=sm_XX alone means SASS for sm_XX plus PTX for
 * compute_XX; -arch=compute_XX alone means PTX only; with -code the code list
 * says what is embedded. clang has no virtual-only target: a PTX-only request
 * still gets SASS for that architecture as well (a superset that runs the same).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpumemcc.h"

struct arch_item {
    unsigned sm;
    char suffix[2];
    bool is_sm; /* sm_XX (real) rather than compute_XX (virtual) */
};

static int parse_item(const char *s, size_t len, struct arch_item *it)
{
    char buf[32];
    if (len >= sizeof buf)
        return gm_err("invalid GPU architecture '%.*s'", (int)len, s);
    memcpy(buf, s, len);
    buf[len] = '\0';
    const char *num = NULL;
    if (!strncmp(buf, "sm_", 3))
        num = buf + 3, it->is_sm = true;
    else if (!strncmp(buf, "compute_", 8))
        num = buf + 8, it->is_sm = false;
    char *end = NULL;
    unsigned long v = num ? strtoul(num, &end, 10) : 0;
    if (!num || end == num || v < 30 || v > 999 || (end[0] && (strchr("af", end[0]) == NULL || end[1])))
        return gm_err("invalid GPU architecture '%s' (expected sm_XX or compute_XX, e.g. sm_90)", buf);
    it->sm = (unsigned)v;
    it->suffix[0] = end[0];
    it->suffix[1] = '\0';
    return 0;
}

static int add_arch(struct gm_opts *o, const struct arch_item *it, bool sass, bool ptx)
{
    for (size_t i = 0; i < o->narchs; i++) {
        struct gm_arch *a = &o->archs[i];
        if (a->sm == it->sm && !strcmp(a->suffix, it->suffix)) {
            a->sass |= sass;
            a->ptx |= ptx;
            return 0;
        }
    }
    if (o->narchs == sizeof o->archs / sizeof o->archs[0])
        return gm_err("too many GPU architectures");
    struct gm_arch *a = &o->archs[o->narchs++];
    a->sm = it->sm;
    memcpy(a->suffix, it->suffix, sizeof a->suffix);
    a->sass = sass;
    a->ptx = ptx;
    return 0;
}

/* Calls fn for each item of a comma list; strips [ ] and quotes. */
static int for_each_item(struct gm_opts *o, const char *list, const char *what,
                         int (*fn)(struct gm_opts *, const struct arch_item *))
{
    size_t n = strlen(list);
    if (n >= 2 && ((list[0] == '[' && list[n - 1] == ']') || (list[0] == '"' && list[n - 1] == '"')))
        list++, n -= 2;
    if (n == 0)
        return gm_err("empty GPU architecture list for %s", what);
    for (size_t i = 0; i < n;) {
        size_t len = strcspn(list + i, ",");
        if (len > n - i)
            len = n - i;
        struct arch_item it;
        int rc = parse_item(list + i, len, &it);
        if (rc || (rc = fn(o, &it)))
            return rc;
        i += len + 1;
    }
    return 0;
}

static int add_arch_only(struct gm_opts *o, const struct arch_item *it)
{
    return add_arch(o, it, it->is_sm, true);
}
static int add_code(struct gm_opts *o, const struct arch_item *it)
{
    return add_arch(o, it, it->is_sm, !it->is_sm);
}

static int check_virtual(const char *arch, const char *what)
{
    struct arch_item it;
    if (strchr(arch, ','))
        return gm_err("%s: with a code list, arch must be one architecture, not '%s'", what, arch);
    return parse_item(arch, strlen(arch), &it);
}

/* -gencode arch=compute_90,code=sm_90  |  code=[sm_90,compute_90]  |  code="sm_90,compute_90" */
int gm_arch_add_gencode(struct gm_opts *o, const char *val)
{
    const char *code = strstr(val, "code=");
    if (strncmp(val, "arch=", 5) || !code || code[-1] != ',')
        return gm_err("invalid -gencode value '%s' (expected arch=compute_XX,code=sm_XX)", val);
    char *arch = strndup(val + 5, (size_t)(code - 1 - (val + 5)));
    int rc = check_virtual(arch, "-gencode");
    free(arch);
    return rc ? rc : for_each_item(o, code + 5, "-gencode", add_code);
}

static bool is_unsupported_name(const char *v)
{
    return !strcmp(v, "native") || !strcmp(v, "all") || !strcmp(v, "all-major");
}

int gm_arch_finish(struct gm_opts *o)
{
    const char *a = o->arch_opt;
    if (a && is_unsupported_name(a))
        return gm_err("-arch=%s is not supported: name the architectures (e.g. -arch=sm_90)", a);
    if (o->code_opt && !a)
        return gm_err("-code needs -arch");
    int rc = 0;
    if (a && o->code_opt)
        rc = check_virtual(a, "-arch") ? GM_EXIT_USAGE : for_each_item(o, o->code_opt, "-code", add_code);
    else if (a)
        rc = for_each_item(o, a, "-arch", add_arch_only);
    if (!rc && o->narchs == 0) {
        struct arch_item def = {90, "", true};
        rc = add_arch(o, &def, true, true);
    }
    return rc;
}

void gm_arch_flags(const struct gm_opts *o, struct gm_strvec *cmd)
{
    for (size_t i = 0; i < o->narchs; i++)
        gm_sv_pushf(cmd, "--cuda-gpu-arch=sm_%u%s", o->archs[i].sm, o->archs[i].suffix);
    /* clang 22 embeds no PTX unless asked: say it for each architecture.
     * Where no fat binary is built at compile time (-ptx, -cubin, -M, and
     * -rdc, whose device code is linked later) clang warns that it is unused. */
    if (o->phase == GM_PH_PTX || o->phase == GM_PH_CUBIN || o->phase == GM_PH_DEPS || o->rdc)
        return;
    for (size_t i = 0; i < o->narchs; i++)
        gm_sv_pushf(cmd, "--%scuda-include-ptx=sm_%u%s", o->archs[i].ptx ? "" : "no-",
                    o->archs[i].sm, o->archs[i].suffix);
}

const struct gm_arch *gm_arch_lowest(const struct gm_opts *o)
{
    const struct gm_arch *best = &o->archs[0];
    for (size_t i = 1; i < o->narchs; i++)
        if (o->archs[i].sm < best->sm)
            best = &o->archs[i];
    return best;
}
