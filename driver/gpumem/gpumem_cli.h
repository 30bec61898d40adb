/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The `gpumem` command: shared declarations of its subcommands.
 * Depends on nothing but libc.
 */
#ifndef GPUMEM_CLI_H
#define GPUMEM_CLI_H

#include <stdio.h>

/* `gpumem report ...`; argv[0] is "report". Returns the exit status. */
int gm_cli_report(int argc, char **argv);
void gm_cli_report_usage(FILE *f);

/* The drill-down sample of a trace file (gpumem_cli_trace.c), or NULL
 * with a one-line reason in err. */
struct gm_drill;
struct gm_drill *gm_cli_load_drill(const char *path, char *err, size_t errlen);

/* `gpumem profile ...`; argv[0] is "profile". Returns the exit status. */
int gm_cli_profile(int argc, char **argv);
void gm_cli_profile_usage(FILE *f);
/* Prints the summary of report `json` (in dir) of a program that ended
 * with waitpid status `status`, and checks the comma-separated analyses
 * (NULL: none) against the report's. 0, or 1 after a one-line error. */
int gm_cli_summary(FILE *f, const char *json, const char *dir, const char *prog, int status,
                   const char *analyses);

#endif
