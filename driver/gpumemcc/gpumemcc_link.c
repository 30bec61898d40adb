/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gpumemcc: the flags that make an instrumented object load libgpumem by
 * itself, whatever links it: -include <resource>/include/gpumem_link.h
 * (a host constructor, see that file and docs/linking.md) and
 * -DGM_LINK_RUNTIME="<libdir>/libgpumem.so", the runtime this gpumemcc
 * links. Depends on gpumemcc.h, libc and POSIX.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gpumemcc.h"

/* path as the body of a C string literal: '\' and '"' escaped */
static char *c_string_body(const char *path)
{
    char *s = malloc(2 * strlen(path) + 1), *p = s;
    if (!s)
        return gm_xstrdup(path);
    for (; *path; path++) {
        if (*path == '\\' || *path == '"')
            *p++ = '\\';
        *p++ = *path;
    }
    *p = '\0';
    return s;
}

int gm_link_flags(const struct gm_toolchain *tc, struct gm_strvec *flags)
{
    char *hdr = gm_xasprintf("%s/include/gpumem_link.h", tc->resource);
    if (access(hdr, R_OK)) {
        gm_err("gpumem link preinclude not found: %s", hdr);
        free(hdr);
        return GM_EXIT_USAGE;
    }
    char *lib = gm_xasprintf("%s/libgpumem.so", tc->libdir);
    char *body = c_string_body(lib);
    gm_sv_push(flags, "-include");
    gm_sv_push(flags, hdr);
    gm_sv_pushf(flags, "-DGM_LINK_RUNTIME=\"%s\"", body);
    free(body);
    free(lib);
    free(hdr);
    return 0;
}
