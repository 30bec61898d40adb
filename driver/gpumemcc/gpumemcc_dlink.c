/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gpumemcc -dlink: nvcc's device link, which turns objects with relocatable
 * device code into ONE extra host object (linked device image + registration
 * code) that the final host link takes alongside the original objects.
 *
 * clang's new offload driver device-links inside clang-linker-wrapper at the
 * final link and hands the wrapper object it generated to the host linker.
 * gpumemcc runs that link with itself as the "host linker" (--ld-path) and
 * the environment variable GM_DLINK_OUT set; in that role (gm_dlink_shim) it
 * copies the wrapper's object, created in a private TMPDIR, to the -dlink
 * output and links nothing. The wrapper object registers the kernels listed
 * in the llvm_offload_entries sections of the objects it is linked with.
 * Depends on gpumemcc.h, libc and POSIX.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gpumemcc.h"

void gm_cmd_dlink(const struct gm_opts *o, const struct gm_toolchain *tc,
                  const struct gm_strvec *objs, const char *tmpdir, struct gm_strvec *cmd)
{
    const char *out = o->output ? o->output : "a_dlink.o";
    gm_sv_pushf(cmd, "%s=%s", GM_DLINK_ENV_OUT, out);
    gm_sv_pushf(cmd, "%s=%s", GM_DLINK_ENV_DIR, tmpdir);
    gm_sv_pushf(cmd, "TMPDIR=%s", tmpdir);
    gm_sv_push(cmd, tc->clang);
    gm_sv_pushf(cmd, "--cuda-path=%s", tc->cuda);
    gm_sv_push(cmd, "-Wno-unknown-cuda-version");
    gm_sv_push(cmd, "--offload-link");
    gm_sv_pushf(cmd, "--ld-path=%s", tc->exe);
    gm_sv_append(cmd, objs);
    gm_sv_push(cmd, "-o");
    gm_sv_pushf(cmd, "%s/unused.out", tmpdir);
    gm_sv_append(cmd, &o->link);
}

static int copy_file(const char *from, const char *to)
{
    int in = open(from, O_RDONLY);
    int out = in < 0 ? -1 : open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    char buf[65536];
    ssize_t n = 0;
    while (out >= 0 && (n = read(in, buf, sizeof buf)) > 0)
        if (write(out, buf, (size_t)n) != n) {
            n = -1;
            break;
        }
    int ok = in >= 0 && out >= 0 && n == 0;
    if (in >= 0)
        close(in);
    if (out >= 0 && close(out))
        ok = 0;
    return ok ? 0 : gm_err("-dlink: cannot copy %s to %s", from, to);
}

/* Called as the host linker by clang-linker-wrapper. */
int gm_dlink_shim(int argc, char **argv)
{
    const char *out = getenv(GM_DLINK_ENV_OUT), *dir = getenv(GM_DLINK_ENV_DIR);
    if (!out || !dir || !*dir)
        return gm_err("-dlink: %s and %s must both be set", GM_DLINK_ENV_OUT, GM_DLINK_ENV_DIR);
    size_t dlen = strlen(dir);
    const char *found = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, dir, dlen) || a[dlen] != '/' || !gm_has_suffix(a, ".o"))
            continue;
        if (found)
            return gm_err("-dlink: more than one device image object (%s, %s)", found, a);
        found = a;
    }
    if (!found)
        return gm_err("-dlink: no relocatable device code in the inputs (compile them with -dc or -rdc=true)");
    return copy_file(found, out);
}
