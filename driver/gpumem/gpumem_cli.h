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

#endif
