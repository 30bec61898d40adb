/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal: a set of output files written under temporary names in their
 * own directory (".gpumem-tmp-PID-N") and renamed into place together once
 * every one of them is complete, so that a failed or interrupted write
 * leaves the previous files as they were and no partial file under a
 * result's name. Errors name the file and the errno. Depends on libc and
 * POSIX (open, rename, unlink).
 */
#ifndef GM_REPORT_OUTFILES_H
#define GM_REPORT_OUTFILES_H

#include <stddef.h>
#include <stdio.h>

#define GM_OUTFILES_MAX 16

struct sink;

struct gm_outfiles {
    size_t n;
    struct { char *path, *tmp; struct sink *sink; } v[GM_OUTFILES_MAX];
    char *err;
    size_t errlen;
};

void gm_outfiles_init(struct gm_outfiles *s, char *err, size_t errlen);
/* Opens a temporary file for dir/name. NULL (err set) on failure. */
FILE *gm_outfiles_open(struct gm_outfiles *s, const char *dir, const char *name);
/* Closes the file last opened; write_rc is the writer's result (non-zero:
 * it failed). 0, or -1 with "DIR/NAME: reason" in err. */
int gm_outfiles_close(struct gm_outfiles *s, FILE *f, int write_rc);
/* Renames every file into place, then forgets them. 0 or -1 (err set). */
int gm_outfiles_commit(struct gm_outfiles *s);
/* Removes the temporary files not committed and forgets them. */
void gm_outfiles_abort(struct gm_outfiles *s);

#endif
