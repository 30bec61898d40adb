/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gpumemcc: prints and runs commands. A command may start with NAME=VALUE
 * items, which are set in the child's environment only. -v prints each
 * command as "#$ ..." (shell-quoted) on stderr before running it; -dryrun
 * prints and runs nothing. SIGINT, SIGTERM, SIGHUP and SIGQUIT stop the
 * running command (its process group: clang and the ptxas it started), remove
 * the output it was writing and the temporary directory, and end gpumemcc by
 * the same signal (exit status 128+signal). Depends on gpumemcc.h, libc and
 * POSIX spawn.
 */
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "gpumemcc.h"

extern char **environ;

static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
static volatile sig_atomic_t caught;  /* the signal that stops gpumemcc, or 0 */
static volatile pid_t running;       /* process group of the running command */

static void on_signal(int sig)
{
    if (!caught)
        caught = sig;
    if (running > 0)
        kill(-running, sig);
}

/* Signals ignored when gpumemcc started (a background job's SIGINT) stay so. */
void gm_signals_install(void)
{
    for (size_t i = 0; i < sizeof stop_signals / sizeof stop_signals[0]; i++) {
        struct sigaction old, sa = {0};
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        if (!sigaction(stop_signals[i], NULL, &old) && old.sa_handler != SIG_IGN)
            sigaction(stop_signals[i], &sa, NULL);
    }
}

int gm_signal_caught(void)
{
    return caught;
}

/* Ends gpumemcc as the caught signal would have (after the caller cleaned up). */
void gm_signal_reraise(void)
{
    if (!caught)
        return;
    signal(caught, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, caught);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(caught);
    _exit(128 + caught);
}

/* The file a command writes (its -o value), removed when it is interrupted. */
static void remove_partial_output(const struct gm_strvec *cmd)
{
    for (size_t i = 0; i + 1 < cmd->n; i++)
        if (!strcmp(cmd->v[i], "-o"))
            unlink(cmd->v[i + 1]);
}

static bool is_env_item(const char *s)
{
    const char *eq = strchr(s, '=');
    return eq && eq != s && strcspn(s, "=/-") == (size_t)(eq - s);
}

static void print_quoted(const char *s)
{
    if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                        "_-+=/.,:%@") == strlen(s)) {
        fputs(s, stderr);
        return;
    }
    fputc('\'', stderr);
    for (; *s; s++)
        if (*s == '\'')
            fputs("'\\''", stderr);
        else
            fputc(*s, stderr);
    fputc('\'', stderr);
}

void gm_print_cmd(const struct gm_strvec *cmd)
{
    fputs("#$", stderr);
    for (size_t i = 0; i < cmd->n; i++) {
        fputc(' ', stderr);
        print_quoted(cmd->v[i]);
    }
    fputc('\n', stderr);
}

/* environ with the leading NAME=VALUE items of cmd overriding. */
static char **child_env(const struct gm_strvec *cmd, size_t nenv)
{
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = calloc(n + nenv + 1, sizeof *env);
    if (!env)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        bool overridden = false;
        for (size_t j = 0; j < nenv; j++) {
            size_t len = (size_t)(strchr(cmd->v[j], '=') - cmd->v[j]) + 1;
            overridden |= !strncmp(environ[i], cmd->v[j], len);
        }
        if (!overridden)
            env[k++] = environ[i];
    }
    for (size_t j = 0; j < nenv; j++)
        env[k++] = cmd->v[j];
    return env;
}

static int wait_child(pid_t pid, const char *name)
{
    int st;
    while (waitpid(pid, &st, 0) < 0)
        ;
    running = 0;
    if (caught)
        return 128 + caught;
    if (WIFSIGNALED(st)) {
        fprintf(stderr, "gpumemcc: %s killed by signal %d\n", name, WTERMSIG(st));
        return 128 + WTERMSIG(st);
    }
    return WEXITSTATUS(st);
}

int gm_run(const struct gm_opts *o, const struct gm_strvec *cmd)
{
    if (o->verbose)
        gm_print_cmd(cmd);
    if (o->dryrun)
        return 0;
    size_t nenv = 0;
    while (nenv < cmd->n && is_env_item(cmd->v[nenv]))
        nenv++;
    if (caught)
        return 128 + caught;
    char **env = child_env(cmd, nenv);
    /* own process group, so that a signal reaches the tools clang started;
     * signals are held until `running` names it */
    sigset_t block, old;
    sigemptyset(&block);
    for (size_t i = 0; i < sizeof stop_signals / sizeof stop_signals[0]; i++)
        sigaddset(&block, stop_signals[i]);
    sigprocmask(SIG_BLOCK, &block, &old);
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    posix_spawnattr_setpgroup(&at, 0);
    posix_spawnattr_setsigmask(&at, &old); /* the child runs with gpumemcc's own mask */
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
    pid_t pid;
    int err = env ? posix_spawnp(&pid, cmd->v[nenv], NULL, &at, cmd->v + nenv, env) : 12;
    if (!err)
        running = pid;
    sigprocmask(SIG_SETMASK, &old, NULL);
    posix_spawnattr_destroy(&at);
    free(env);
    if (err) {
        fprintf(stderr, "gpumemcc: cannot run %s: %s\n", cmd->v[nenv], strerror(err));
        return 1;
    }
    int rc = wait_child(pid, cmd->v[nenv]);
    if (caught)
        remove_partial_output(cmd);
    return rc;
}

/* Runs argv with its stdout (and stderr too when with_stderr) into a new
 * string (NULL when nothing could be read); *rc is its exit status, 127 when
 * it could not be started. */
char *gm_capture_all(char *const *argv, bool with_stderr, int *rc)
{
    int fd[2];
    *rc = 127;
    if (pipe(fd))
        return NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
    if (with_stderr)
        posix_spawn_file_actions_adddup2(&fa, fd[1], 2);
    posix_spawn_file_actions_addclose(&fa, fd[0]);
    pid_t pid;
    int err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fd[1]);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    char chunk[4096];
    for (ssize_t n; m && (n = read(fd[0], chunk, sizeof chunk)) > 0;)
        fwrite(chunk, 1, (size_t)n, m);
    close(fd[0]);
    if (m)
        fclose(m);
    if (!err)
        *rc = wait_child(pid, argv[0]);
    return buf;
}

/* Runs argv, returns the first line of its stdout (newly allocated) or NULL. */
char *gm_capture(const char *const *argv)
{
    int rc;
    char *out = gm_capture_all((char *const *)argv, false, &rc);
    if (rc || !out || !*out) {
        free(out);
        return NULL;
    }
    out[strcspn(out, "\n")] = '\0';
    return out;
}
