/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Output files written aside and renamed into place (see outfiles.h). The
 * temporary names of files not yet committed are also kept in a small
 * process-wide list so that gm_report_remove_partial() (gm_report_write.h)
 * can remove them from a signal handler. The streams are fopencookie
 * streams over the file descriptor that keep the errno of the first failed
 * write, so the error names the real reason (ENOSPC, EFBIG, EIO...).
 * Depends on libc (glibc or musl: fopencookie) and POSIX.
 */
#define _GNU_SOURCE /* fopencookie: the stream keeps the errno of a failed write */
#include "outfiles.h"
#include "gm_report_write.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Temporary files in progress, for gm_report_remove_partial. */
static char *volatile pending[GM_OUTFILES_MAX * 2];

static void track(char *tmp, int add)
{
    for (size_t i = 0; i < sizeof pending / sizeof pending[0]; i++)
        if (add ? !pending[i] : pending[i] == tmp) {
            pending[i] = add ? tmp : NULL;
            return;
        }
}

void gm_report_remove_partial(void)
{
    for (size_t i = 0; i < sizeof pending / sizeof pending[0]; i++)
        if (pending[i])
            unlink(pending[i]);
}

struct sink {
    int fd;
    int err;                /* errno of the first failed write or close, else 0 */
};

static ssize_t sink_write(void *cookie, const char *buf, size_t n)
{
    struct sink *k = cookie;
    size_t done = 0;
    while (!k->err && done < n) {
        ssize_t w = write(k->fd, buf + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            k->err = w < 0 ? errno : EIO;
        else
            done += (size_t)w;
    }
    return k->err ? 0 : (ssize_t)n;
}

static int sink_close(void *cookie)
{
    struct sink *k = cookie;
    if (close(k->fd) != 0 && !k->err)
        k->err = errno;
    return k->err ? -1 : 0;
}

static char *join(const char *dir, const char *pre, const char *name, const char *post)
{
    size_t n = strlen(dir) + strlen(pre) + strlen(name) + strlen(post) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s%s%s", dir, pre, name, post);
    return p;
}

/* "PATH: why"; a path too long for err keeps its end ("...dir/name"), so
 * the file's name and the reason always show. */
static void fail(struct gm_outfiles *s, const char *path, const char *why)
{
    size_t room = s->errlen > strlen(why) + 6 ? s->errlen - strlen(why) - 6 : 0;
    size_t n = strlen(path);
    if (n <= room)
        snprintf(s->err, s->errlen, "%s: %s", path, why);
    else
        snprintf(s->err, s->errlen, "...%s: %s", path + n - room, why);
}

void gm_outfiles_init(struct gm_outfiles *s, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->err = err;
    s->errlen = errlen;
}

/* Creates a new temporary file for path; its name into *tmp. */
static int create_tmp(const char *dir, char **tmp)
{
    static unsigned counter;
    char post[64];
    for (int tries = 0; tries < 100; tries++) {
        snprintf(post, sizeof post, ".gpumem-tmp-%ld-%u", (long)getpid(), counter++);
        *tmp = join(dir, "", post, ""); /* short: fits wherever the final name fits */
        if (!*tmp) {
            errno = ENOMEM;
            return -1;
        }
        int fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST)
            return fd;
        free(*tmp);
        *tmp = NULL;
    }
    return -1;
}

FILE *gm_outfiles_open(struct gm_outfiles *s, const char *dir, const char *name)
{
    char *path = join(dir, "", name, ""), *tmp = NULL;
    if (!path || s->n == GM_OUTFILES_MAX) {
        snprintf(s->err, s->errlen, "%s: %s", name, path ? "too many output files" : "out of memory");
        free(path);
        return NULL;
    }
    int fd = create_tmp(dir, &tmp);
    struct sink *k = fd >= 0 ? calloc(1, sizeof *k) : NULL;
    cookie_io_functions_t io = {NULL, sink_write, NULL, sink_close};
    FILE *f = k ? fopencookie(k, "w", io) : NULL;
    if (!f) {
        fail(s, path, strerror(fd < 0 ? errno : ENOMEM));
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
        free(k);
        free(path);
        free(tmp);
        return NULL;
    }
    if (k)
        k->fd = fd;
    s->v[s->n].path = path;
    s->v[s->n].tmp = tmp;
    s->v[s->n].sink = k;
    s->n++;
    track(tmp, 1);
    return f;
}

int gm_outfiles_close(struct gm_outfiles *s, FILE *f, int write_rc)
{
    struct sink *k = s->v[s->n - 1].sink;
    int bad = fclose(f) != 0 || write_rc;
    int err = k->err;
    free(k);
    s->v[s->n - 1].sink = NULL;
    if (bad) {
        fail(s, s->v[s->n - 1].path, err ? strerror(err) : "out of memory while writing");
        return -1;
    }
    return 0;
}

int gm_outfiles_commit(struct gm_outfiles *s)
{
    for (size_t i = 0; i < s->n; i++) {
        if (rename(s->v[i].tmp, s->v[i].path) != 0) {
            fail(s, s->v[i].path, strerror(errno));
            gm_outfiles_abort(s);
            return -1;
        }
        track(s->v[i].tmp, 0);
        free(s->v[i].tmp);
        free(s->v[i].path);
        s->v[i].tmp = s->v[i].path = NULL;
    }
    s->n = 0;
    return 0;
}

void gm_outfiles_abort(struct gm_outfiles *s)
{
    for (size_t i = 0; i < s->n; i++) {
        if (s->v[i].tmp) {
            unlink(s->v[i].tmp);
            track(s->v[i].tmp, 0);
        }
        free(s->v[i].tmp);
        free(s->v[i].path);
    }
    s->n = 0;
}
