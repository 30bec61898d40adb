/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gpumemcc: prints and runs commands. A command may start with NAME=VALUE
 * items, which are set in the child's environment only. -v prints each
 * command as "#$ ..." (shell-quoted) on stderr before running it; -dryrun
 * prints and runs nothing. Depends on gpumemcc.h, libc and POSIX spawn.
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
    char **env = child_env(cmd, nenv);
    pid_t pid;
    int err = env ? posix_spawnp(&pid, cmd->v[nenv], NULL, NULL, cmd->v + nenv, env) : 12;
    free(env);
    if (err) {
        fprintf(stderr, "gpumemcc: cannot run %s: %s\n", cmd->v[nenv], strerror(err));
        return 1;
    }
    return wait_child(pid, cmd->v[nenv]);
}

/* Runs argv, returns the first line of its stdout (newly allocated) or NULL. */
char *gm_capture(const char *const *argv)
{
    int fd[2];
    if (pipe(fd))
        return NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
    posix_spawn_file_actions_addclose(&fa, fd[0]);
    pid_t pid;
    int err = posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fd[1]);
    char buf[4096];
    size_t n = 0;
    ssize_t r;
    while (!err && n < sizeof buf - 1 && (r = read(fd[0], buf + n, sizeof buf - 1 - n)) > 0)
        n += (size_t)r;
    close(fd[0]);
    if (err || wait_child(pid, argv[0]))
        return NULL;
    buf[n] = '\0';
    buf[strcspn(buf, "\n")] = '\0';
    return n ? gm_xstrdup(buf) : NULL;
}
