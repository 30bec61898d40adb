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

#endif
